"""Importers of evaluation outputs: what lands in the results folder, ids, verdicts, errors."""

from __future__ import annotations

import json

import pytest

from sampler.errors import LeashError
from sampler.importers.run_import import Source, import_samples, parse_source
from sampler.importers.source_fields import text_question_id
from sampler.store.folder import ResultsFolder
from tests.support.eval_outputs import (
    PROBLEMS,
    completion,
    write_lighteval,
    write_lighteval_legacy,
    write_lm_eval,
    write_qwen_eval,
)


def rows_by_key(root):
    table = ResultsFolder.open(root).samples(
        columns=[
            "benchmark",
            "question_id",
            "model",
            "sample",
            "text",
            "correct",
            "status",
            "source_correct",
            "n_tokens",
            "finish_reason",
        ]
    )
    rows = table.to_pylist()
    return {(str(r["benchmark"]), r["question_id"], str(r["model"]), r["sample"]): r for r in rows}


def questions(root):
    return {
        (r["benchmark"], r["question_id"]): r
        for r in ResultsFolder.open(root).questions.to_pylist()
    }


# -- qwen-eval ----------------------------------------------------------------------------


def test_qwen_eval_takes_the_gold_from_the_raw_answer_or_solution_not_gt(tmp_path):
    """issue 12 item 4: ``gt`` is the harness's normalised gold, sometimes corrupted."""
    problems = [("Find C(h).", "C()=4h+4"), ("Area?", "20^{2}"), ("Find x and y.", "1,2")]
    write_qwen_eval(
        tmp_path / "math500_out",
        "math500",
        [["C(h) = 4h+4"]],
        problems=problems,
        raw=[{"answer": "C(h)=4h+4", "solution": "So $C(h) = \\boxed{4h+4}$."}],
    )
    write_qwen_eval(
        tmp_path / "minerva_out",
        "minerva_math",
        [["x"], ["20 cm^2"]],
        problems=problems,
        questions=[0, 1],
        raw=[{}, {"solution": "The area is $\\boxed{20 \\mathrm{~cm}^{2}}$."}],
    )
    write_qwen_eval(
        tmp_path / "olympiad_out",
        "olympiadbench",
        [["1, 2"]],
        problems=problems,
        questions=[2],
        raw=[{"final_answer": ["$1$, $2$"], "is_multiple_answer": True, "unit": None}],
    )
    import_samples(
        "qwen-eval",
        [
            Source("base", tmp_path / "math500_out"),
            Source("base", tmp_path / "minerva_out"),
            Source("base", tmp_path / "olympiad_out"),
        ],
        tmp_path / "res",
        base="base",
    )
    qs = questions(tmp_path / "res")
    meta = {k: json.loads(v["metadata"]) for k, v in qs.items()}
    assert qs[("math500", "0")]["gold"] == "C(h)=4h+4"
    assert meta[("math500", "0")]["gold_source"] == "raw field 'answer'"
    assert qs[("minerva_math", "1")]["gold"] == r"20 \mathrm{~cm}^{2}"
    assert meta[("minerva_math", "1")]["gold_source"] == "last \\boxed{} of 'solution'"
    assert qs[("minerva_math", "0")]["gold"] == "C()=4h+4"  # no raw field: the harness's gt
    assert meta[("minerva_math", "0")]["gold_source"].startswith("qwen-eval 'gt'")
    assert qs[("olympiadbench", "2")]["gold"] == "$1$, $2$"
    assert meta[("olympiadbench", "2")]["is_multiple_answer"] is True

    from leash_tui.report.info import describe_results

    sources = describe_results(ResultsFolder.open(tmp_path / "res"))["gold_sources"]
    assert {(r["benchmark"], r["source"]): r["questions"] for r in sources} == {
        ("math500", "raw field 'answer'"): 1,
        ("minerva_math", "last \\boxed{} of 'solution'"): 1,
        ("minerva_math", "qwen-eval 'gt' (normalised by the harness)"): 1,
        ("olympiadbench", "raw field 'final_answer'"): 1,
    }


def test_qwen_eval_two_models_share_questions_and_keep_source_verdicts(tmp_path):
    write_qwen_eval(tmp_path / "base_out", "math500", [["2", "3"], ["6", "6"], ["1", "4"]])
    write_qwen_eval(
        tmp_path / "rl_out",
        "math500",
        [["2", "2"], ["5", "6"], ["3", "3"]],
        scores=[[True, True], [True, True], [True, False]],  # the harness misgraded two
        finish_reasons=True,
    )
    summary = import_samples(
        "qwen-eval",
        [Source("base", tmp_path / "base_out"), Source("rl", tmp_path / "rl_out")],
        tmp_path / "res",
        base="base",
    )
    assert summary.samples == 12 and summary.with_verdict == 0
    assert summary.with_source_verdict == 12
    rows = rows_by_key(tmp_path / "res")
    assert rows[("math500", "0", "base", 1)]["text"] == completion("3")
    assert rows[("math500", "0", "base", 1)]["source_correct"] is False
    assert rows[("math500", "1", "rl", 0)]["source_correct"] is True  # kept as the harness said
    assert all(r["correct"] is None and r["status"] is None for r in rows.values())
    assert rows[("math500", "2", "rl", 1)]["finish_reason"] == "length"
    assert rows[("math500", "2", "base", 1)]["finish_reason"] is None
    qs = questions(tmp_path / "res")
    assert sorted(qs) == [("math500", "0"), ("math500", "1"), ("math500", "2")]
    assert qs[("math500", "1")]["problem"] == PROBLEMS[1][0]
    assert qs[("math500", "1")]["gold"] == "6"
    assert json.loads(qs[("math500", "1")]["metadata"]) == {
        "level": 1,
        "type": "Arithmetic",
        "gold_source": "qwen-eval 'gt' (normalised by the harness)",
    }
    manifest = ResultsFolder.open(tmp_path / "res").manifest
    assert manifest.base.name == "base" and [t.name for t in manifest.targets] == ["rl"]
    assert manifest.model("rl").source.startswith("qwen-eval: ")


def test_qwen_eval_benchmarks_from_folders_and_seed_files_add_samples(tmp_path):
    out = tmp_path / "out"
    write_qwen_eval(out, "aime24", [["2"], ["6"]], seed=0)
    write_qwen_eval(out, "aime24", [["3"], ["6"]], seed=1)
    write_qwen_eval(out, "amc23", [["2"]])
    import_samples("qwen-eval", [Source("base", out)], tmp_path / "res", base="base")
    rows = rows_by_key(tmp_path / "res")
    assert sorted(k for k in rows if k[0] == "aime24" and k[1] == "0") == [
        ("aime24", "0", "base", 0),
        ("aime24", "0", "base", 1),
    ]
    assert rows[("aime24", "0", "base", 1)]["text"] == completion("3")  # seed1 after seed0
    assert ("amc23", "0", "base", 0) in rows
    with pytest.raises(LeashError, match="holds the files of several benchmarks"):
        import_samples("qwen-eval", [Source("base", out)], tmp_path / "res2", "base", "math")
    only = write_qwen_eval(tmp_path / "one", "whatever", [["2"]])
    import_samples("qwen-eval", [Source("base", only)], tmp_path / "res3", "base", bench="math500")
    assert {k[0] for k in rows_by_key(tmp_path / "res3")} == {"math500"}


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.pop("code"), r"line 2: expected field 'code' \(the list of completions\)"),
        (lambda r: r.pop("idx"), r"line 2: expected field 'idx'"),
        (lambda r: r.pop("gt"), r"line 2: expected field 'gt'"),
        (lambda r: r.update(code="text"), r"line 2: field 'code' must be the list of completions"),
        (lambda r: r.update(score=[True]), r"line 2: field 'score' must be a list with one"),
        (lambda r: r.update(score=[0.5, 1]), r"line 2: field 'score' holds 0.5"),
    ],
)
def test_qwen_eval_bad_line_names_field_and_line_and_writes_nothing(tmp_path, mutate, message):
    path = write_qwen_eval(tmp_path / "out", "math500", [["2", "3"], ["6", "1"]])
    lines = path.read_text().splitlines()
    record = json.loads(lines[1])
    mutate(record)
    lines[1] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LeashError, match=message):
        import_samples("qwen-eval", [Source("base", path)], tmp_path / "res", base="base")
    assert not (tmp_path / "res").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_interchange_file_given_as_qwen_eval_says_what_was_expected(tmp_path):
    path = tmp_path / "out" / "toy" / "samples.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"benchmark": "toy", "question_id": 0, "text": "x"}) + "\n")
    with pytest.raises(LeashError, match=r"samples\.jsonl line 1: expected field 'idx'.*qwen-eval"):
        import_samples("qwen-eval", [Source("base", path)], tmp_path / "res", base="base")


# -- lighteval ----------------------------------------------------------------------------


def test_lighteval_details_ids_gold_problem_and_verdicts(tmp_path):
    out = tmp_path / "lighteval_out"
    write_lighteval(
        out,
        "org/base-model",
        "lighteval|aime24|0",
        [["2"], ["5"], ["3"]],
        [{"extractive_match": 1.0}, {"extractive_match": 0.0}, {"extractive_match": 1.0}],
    )
    write_lighteval(
        tmp_path / "rl_out",
        "org/rl-model",
        "lighteval|aime24|0",
        [["2", "2", "9", "9"], ["6"] * 4, ["1"] * 4],
        [
            {"pass@k:k=1&n=4": 0.5, "avg@n:n=4": 0.5},
            {"pass@k:k=1&n=4": 1.0, "avg@n:n=4": 1.0},
            {"pass@k:k=1&n=4": 0.0, "avg@n:n=4": 0.0},
        ],
        doc_ids=[0, 1, 2],
    )
    import_samples(
        "lighteval",
        [Source("base", out), Source("rl", tmp_path / "rl_out")],
        tmp_path / "res",
        base="base",
    )
    rows = rows_by_key(tmp_path / "res")
    assert [rows[("aime24", q, "base", 0)]["source_correct"] for q in "012"] == [True, False, True]
    # a mean over samples of 0.5 does not say which were right; 1.0 and 0.0 do
    assert {rows[("aime24", "0", "rl", s)]["source_correct"] for s in range(4)} == {None}
    assert {rows[("aime24", "1", "rl", s)]["source_correct"] for s in range(4)} == {True}
    assert {rows[("aime24", "2", "rl", s)]["source_correct"] for s in range(4)} == {False}
    assert rows[("aime24", "1", "rl", 3)]["text"] == completion("6")
    assert rows[("aime24", "1", "rl", 3)]["n_tokens"] == len(completion("6").split())
    qs = questions(tmp_path / "res")
    assert sorted(qs) == [("aime24", "0"), ("aime24", "1"), ("aime24", "2")]
    assert qs[("aime24", "2")]["gold"] == "3"
    assert qs[("aime24", "2")]["problem"].endswith(PROBLEMS[2][0])


def test_lighteval_source_metric_option(tmp_path):
    path = write_lighteval(
        tmp_path / "out",
        "m",
        "lighteval|math_500|0",
        [["2"]],
        [{"em": 0.0, "extractive_match": 1.0}],
    )
    import_samples(
        "lighteval", [Source("base", path)], tmp_path / "a", base="base", source_metric="em"
    )
    assert rows_by_key(tmp_path / "a")[("math_500", "0", "base", 0)]["source_correct"] is False
    import_samples("lighteval", [Source("base", path)], tmp_path / "b", base="base")
    assert rows_by_key(tmp_path / "b")[("math_500", "0", "base", 0)]["source_correct"] is False
    with pytest.raises(LeashError, match=r"row 1: no metric 'acc' \(--source-metric\)"):
        import_samples(
            "lighteval", [Source("base", path)], tmp_path / "c", base="base", source_metric="acc"
        )


def test_lighteval_legacy_details_use_text_ids(tmp_path):
    metrics = [{"extractive_match": 1.0}, {"extractive_match": 0.0}]
    write_lighteval_legacy(
        tmp_path / "base", "org/base", "lighteval|math_500|0", [["2"], ["1"]], metrics
    )
    write_lighteval_legacy(
        tmp_path / "rl", "org/rl", "lighteval|math_500|0", [["2"], ["6"]], metrics
    )
    import_samples(
        "lighteval",
        [Source("base", tmp_path / "base"), Source("rl", tmp_path / "rl")],
        tmp_path / "res",
        base="base",
    )
    qs = questions(tmp_path / "res")
    query = f"Solve the following math problem.\n{PROBLEMS[1][0]}"
    assert ("math_500", text_question_id(query)) in qs
    assert len(qs) == 2  # the same prompt text from both models is one question
    rows = rows_by_key(tmp_path / "res")
    assert rows[("math_500", text_question_id(query), "rl", 0)]["source_correct"] is False


def test_lighteval_wrong_file_and_missing_field(tmp_path):
    bad = tmp_path / "out" / "details_x_2025-01-01T00-00-00.parquet"
    bad.parent.mkdir()
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"foo": [1]}), bad)
    with pytest.raises(LeashError, match=r"not a lighteval details file: expected columns 'doc'"):
        import_samples("lighteval", [Source("base", bad)], tmp_path / "res", base="base")
    path = write_lighteval(tmp_path / "o2", "m", "aime24|0", [["2"]], [{"acc": 1.0}])
    table = pq.read_table(path)
    doc = table.column("doc").combine_chunks()
    fields = [doc.type.field(i).name for i in range(doc.type.num_fields)]
    keep = [f for f in fields if f != "id"]
    stripped = pa.StructArray.from_arrays([doc.field(f) for f in keep], names=keep)
    pq.write_table(table.set_column(0, "doc", stripped), path)
    with pytest.raises(LeashError, match=r"row 1: expected field 'doc.id'"):
        import_samples("lighteval", [Source("base", path)], tmp_path / "res", base="base")
    assert not (tmp_path / "res").exists()


# -- lm-eval ------------------------------------------------------------------------------


def test_lm_eval_samples_first_filter_ids_and_verdicts(tmp_path):
    write_lm_eval(
        tmp_path / "out",
        "org__base",
        "minerva_math_algebra",
        [["2"], ["5"], ["3", "3", "1"]],
        filters=("strict-match", "flexible-extract"),
    )
    import_samples("lm-eval", [Source("base", tmp_path / "out")], tmp_path / "res", base="base")
    rows = rows_by_key(tmp_path / "res")
    assert len(rows) == 5  # the flexible-extract lines repeat the same completions
    bench = "minerva_math_algebra"
    assert rows[(bench, "0", "base", 0)]["source_correct"] is True
    assert rows[(bench, "1", "base", 0)]["source_correct"] is False
    # three completions scored by the first one only: no per-sample verdict
    assert {rows[(bench, "2", "base", s)]["source_correct"] for s in range(3)} == {None}
    qs = questions(tmp_path / "res")
    assert qs[(bench, "1")]["problem"] == PROBLEMS[1][0] and qs[(bench, "1")]["gold"] == "6"


def test_bench_option_refuses_a_folder_of_several_tasks(tmp_path):
    write_lm_eval(tmp_path / "out", "m", "gsm8k", [["2"]])
    write_lm_eval(tmp_path / "out", "m", "minerva_math", [["2"]])
    with pytest.raises(LeashError, match=r"several benchmarks \(gsm8k, minerva_math\)"):
        import_samples("lm-eval", [Source("a", tmp_path / "out")], tmp_path / "r", "a", "x")
    write_lighteval(tmp_path / "le", "m", "lighteval|a|0", [["2"]], [{"acc": 1.0}])
    write_lighteval(tmp_path / "le", "m", "lighteval|b|0", [["2"]], [{"acc": 1.0}])
    with pytest.raises(LeashError, match=r"several benchmarks"):
        import_samples("lighteval", [Source("a", tmp_path / "le")], tmp_path / "r", "a", "x")
    import_samples("lighteval", [Source("a", tmp_path / "le")], tmp_path / "r", "a")
    assert {k[0] for k in rows_by_key(tmp_path / "r")} == {"a", "b"}


def test_lm_eval_files_older_than_0_4_7_without_filter_and_metrics(tmp_path):
    path = write_lm_eval(tmp_path / "out", "m", "gsm8k", [["2"], ["5"]], filters=("a", "b"))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines:
        del line["filter"], line["metrics"]
    path.write_text("\n".join(json.dumps(r) for r in lines) + "\n")
    import_samples("lm-eval", [Source("base", path)], tmp_path / "res", base="base")
    rows = rows_by_key(tmp_path / "res")
    assert sorted(rows) == [("gsm8k", "0", "base", 0), ("gsm8k", "1", "base", 0)]
    assert [rows[k]["source_correct"] for k in sorted(rows)] == [True, False]


def test_lm_eval_errors(tmp_path):
    path = write_lm_eval(tmp_path / "out", "m", "gsm8k", [["2"], ["6"]])
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[1]["resps"] = [["0.1"], ["0.2"]]  # a loglikelihood task: one request per choice
    path.write_text("\n".join(json.dumps(r) for r in lines) + "\n")
    with pytest.raises(
        LeashError, match=r"line 2: field 'resps' holds 2 requests: only generative"
    ):
        import_samples("lm-eval", [Source("base", path)], tmp_path / "res", base="base")
    del lines[1]["resps"]
    path.write_text("\n".join(json.dumps(r) for r in lines) + "\n")
    with pytest.raises(LeashError, match=r"line 2: expected field 'resps'"):
        import_samples("lm-eval", [Source("base", path)], tmp_path / "res", base="base")
    odd = tmp_path / "results.jsonl"
    odd.write_text(path.read_text())
    with pytest.raises(LeashError, match=r"cannot tell the benchmark.*give --bench"):
        import_samples("lm-eval", [Source("base", odd)], tmp_path / "res", base="base")
    assert not (tmp_path / "res").exists()


# -- shared behaviour -----------------------------------------------------------------------


def test_formats_need_model_names_and_existing_paths(tmp_path):
    path = write_qwen_eval(tmp_path / "out", "math500", [["2"]])
    with pytest.raises(LeashError, match="needs MODEL=PATH"):
        import_samples("qwen-eval", [Source(None, path)], tmp_path / "res", base="base")
    with pytest.raises(LeashError, match="no such file or directory"):
        import_samples("qwen-eval", [Source("a", tmp_path / "nope")], tmp_path / "res", "a")
    assert parse_source(f"rl={path}") == Source("rl", path)
    assert parse_source(str(path)) == Source(None, path)
    with pytest.raises(LeashError, match="invalid model name"):
        parse_source("bad name=x")


def test_import_into_existing_folder_refuses_the_same_samples(tmp_path):
    write_qwen_eval(tmp_path / "b", "math500", [["2"], ["6"]])
    write_qwen_eval(tmp_path / "r", "math500", [["2"], ["1"]])
    root = tmp_path / "res"
    import_samples("qwen-eval", [Source("base", tmp_path / "b")], root, base="base")
    import_samples("qwen-eval", [Source("rl", tmp_path / "r")], root)
    assert {t.name for t in ResultsFolder.open(root).manifest.targets} == {"rl"}
    before = sorted(p.name for p in (root / "samples").iterdir())
    with pytest.raises(
        LeashError,
        match=r"line 1: sample \(benchmark=math500, question_id=0,"
        r" model=rl, sample=0\) is already in .*import all the files of a model in one run",
    ):
        import_samples("qwen-eval", [Source("rl", tmp_path / "r")], root)
    assert sorted(p.name for p in (root / "samples").iterdir()) == before


def test_jsonl_model_given_on_the_command_line(tmp_path):
    path = tmp_path / "s.jsonl"
    records = [
        {"benchmark": "toy", "question_id": 0, "sample": 0, "text": "\\boxed{1}"},
        {"benchmark": "toy", "question_id": 0, "sample": 1, "text": "\\boxed{2}", "model": "b"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(LeashError, match=r"line 2: field 'model' is \"b\" but the file was given"):
        import_samples("jsonl", [Source("a", path)], tmp_path / "res", base="a")
    records[1]["model"] = "a"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    summary = import_samples("jsonl", [Source("a", path)], tmp_path / "res", base="a")
    assert summary.models == {"a": 2}


# -- questions matched by text to the folder's ----------------------------------------------

LONG = [
    ("A train leaves the station at noon and travels 60 miles per hour. How far by 3pm?", "180"),
    ("A rectangle has sides 3 and 4 and its diagonal is drawn. How long is the diagonal?", "5"),
]


def native_folder(tmp_path, problems, ids):
    """A folder whose base samples came from leash itself, with the preset's own ids."""
    path = tmp_path / "native.jsonl"
    records = []
    for (problem, gold), qid in zip(problems, ids, strict=True):
        records.append(
            {
                "benchmark": "toy",
                "question_id": qid,
                "model": "base",
                "sample": 0,
                "text": completion(gold),
                "problem": problem,
                "gold": gold,
            }
        )
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    root = tmp_path / "res"
    import_samples("jsonl", [Source(None, path)], root, base="base")
    return root


def test_imported_questions_join_the_folder_questions_with_the_same_text(tmp_path):
    root = native_folder(tmp_path, LONG, ["train", "diag"])
    # qwen-eval numbers the problems 0, 1 and writes them with other white space
    spaced = [(p.replace(" ", "  ") + "\n", g + ".0") for p, g in LONG]
    write_qwen_eval(tmp_path / "q", "toy", [["180"], ["5", "7"]], problems=spaced)
    import_samples("qwen-eval", [Source("rl", tmp_path / "q")], root)
    rows = rows_by_key(root)
    assert ("toy", "diag", "rl", 1) in rows and ("toy", "1", "rl", 0) not in rows
    qs = questions(root)
    assert sorted(qs) == [("toy", "diag"), ("toy", "train")]
    assert qs[("toy", "train")]["problem"] == LONG[0][0]  # the folder's text is kept
    # lighteval stores the prompt that embeds the problem: matched by containment
    write_lighteval(
        tmp_path / "l",
        "m",
        "lighteval|toy|0",
        [["180"], ["5"]],
        [{"extractive_match": 1.0}] * 2,
        problems=LONG,
    )
    import_samples("lighteval", [Source("rl2", tmp_path / "l")], root)
    assert ("toy", "train", "rl2", 0) in rows_by_key(root)
    assert len(questions(root)) == 2


def test_a_different_gold_for_a_matched_question_is_an_error(tmp_path):
    root = native_folder(tmp_path, LONG, ["train", "diag"])
    wrong = [LONG[0], (LONG[1][0], "6")]
    write_qwen_eval(tmp_path / "q", "toy", [["180"], ["5"]], problems=wrong)
    with pytest.raises(
        LeashError,
        match=r"line 2: field 'gold' of question toy/diag differs from the one at"
        r" .*questions\.parquet \('6' here, '5' there\)",
    ):
        import_samples("qwen-eval", [Source("rl", tmp_path / "q")], root)


def test_qwen_eval_positions_join_the_real_aime24_preset_ids(tmp_path, benchmark_files):
    from sampler.benchmarks.presets import load_benchmark_file

    bench = load_benchmark_file("aime24", str(benchmark_files / "aime24" / "test.jsonl"))
    native = tmp_path / "native.jsonl"
    native.write_text(
        "".join(
            json.dumps(
                {
                    "benchmark": "aime24",
                    "question_id": q.question_id,
                    "model": "base",
                    "sample": 0,
                    "text": completion(q.gold or ""),
                    "problem": q.problem,
                    "gold": q.gold,
                }
            )
            + "\n"
            for q in bench.questions
        )
    )
    root = tmp_path / "res"
    import_samples("jsonl", [Source(None, native)], root, base="base")
    # the harness numbers aime24 problems by position (the file has 'id', not 'idx')
    problems = [(q.problem.strip(), q.gold) for q in bench.questions]
    write_qwen_eval(tmp_path / "q", "aime24", [["1"]] * len(problems), problems=problems)
    import_samples("qwen-eval", [Source("rl", tmp_path / "q")], root)
    ids = {k[1] for k in rows_by_key(root) if k[2] == "rl"}
    assert ids == {q.question_id for q in bench.questions}
    assert len(questions(root)) == len(bench.questions) == 30


def test_the_import_command_offers_exactly_the_importer_table():
    from click.testing import CliRunner

    from leash_tui.cli import cli
    from sampler.importers.format_table import FORMATS

    command = cli.get_command(None, "import")
    choices = next(p.type.choices for p in command.params if p.name == "fmt")
    assert list(choices) == list(FORMATS)
    result = CliRunner().invoke(cli, ["import", "--help"], terminal_width=200)
    assert "|".join(FORMATS) in result.output


def test_a_folder_of_metrics_files_only_is_skipped_with_a_note(tmp_path):
    out = tmp_path / "out"
    write_qwen_eval(out, "aime24", [["2"]])
    metrics = out / "college_math"
    metrics.mkdir()
    (metrics / "test_qwen25-math-cot_-1_seed0_t0.6_s0_e-1_metrics.json").write_text("{}")
    summary = import_samples("qwen-eval", [Source("base", out)], tmp_path / "res", base="base")
    (note,) = [w for w in summary.warnings if "college_math" in w]
    assert "skipped" in note and "_metrics.json" in note
    assert not [w for w in summary.warnings if "aime24" in w]
