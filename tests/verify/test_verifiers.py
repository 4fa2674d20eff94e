"""The verifier registry, choice and exact, their selection (spec, file field, preset), manifest."""

from __future__ import annotations

import json
from dataclasses import replace

import pyarrow.parquet as pq
import pytest

from sampler.benchmarks import presets
from sampler.benchmarks.loading import load_benchmark, parse_bench_spec, split_verifier
from sampler.errors import LeashError
from sampler.importers.run_import import import_samples, parse_source
from sampler.store.manifest import load_manifest
from sampler.store.schema import BenchmarkEntry, Manifest
from sampler.verify.run import verify_results
from sampler.verify.verifiers import get_verifier, verifiers
from tests.support.records import write_jsonl


def test_registry_names_every_verifier_math_first():
    names = list(verifiers())
    assert names[0] == "math"
    assert {"math", "choice", "exact", "reasoning-gym", "code"} <= set(names)
    with pytest.raises(LeashError, match="unknown verifier 'nope'.*choose from math"):
        get_verifier("nope", "x")


def test_every_module_that_defines_a_verifier_has_its_row_in_the_table():
    import importlib
    import pkgutil

    from sampler.verify import verifiers as package
    from sampler.verify.verifiers import VERIFIER_MODULES

    defining = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        if hasattr(module, "VERIFIER"):
            defining[module.VERIFIER.name] = module.__name__
    assert defining == VERIFIER_MODULES
    assert {name: v.name for name, v in verifiers().items()} == {n: n for n in VERIFIER_MODULES}


def choice_verdict(text: str, gold: str = "D", metadata: dict | None = None):
    verifier = get_verifier("choice")
    span = verifier.extract(text)
    return verifier.judge(verifier.gold(gold, metadata or {}), span) if span else None


@pytest.mark.parametrize(
    "text",
    [
        "(D) (2,0)",
        "Answer: D",
        "so the answer is \\boxed{D}",
        "\\boxed{\\text{(D)}}",
        "<answer>D</answer>",
        "<think>A? no.</think> D. (2,0)",
        "The answer is (D).",
        "**D**",
        "Final Answer: The final answer is $D$.",
        "reasoning...\nAnswer: d",
    ],
)
def test_choice_reads_the_letter_with_or_without_content(text):
    verdict = choice_verdict(text)
    assert verdict.status == "correct" and verdict.answer == "D"


@pytest.mark.parametrize(
    ("text", "status"),
    [("(B) (0,1)", "incorrect"), ("Answer: A", "incorrect"), ("\\boxed{42}", "no_answer")],
)
def test_choice_wrong_or_no_letter(text, status):
    assert choice_verdict(text).status == status


def test_choice_letters_beyond_the_options_are_no_answer():
    metadata = {"choices": ["1", "2", "3", "4"]}
    assert choice_verdict("Answer: E", "D", metadata).status == "no_answer"
    assert choice_verdict("Answer: (C)", "D", metadata).status == "incorrect"


def test_choice_no_text_gives_no_span():
    assert get_verifier("choice").extract("") is None


def exact_verdict(text: str, gold: str, metadata: dict | None = None):
    verifier = get_verifier("exact")
    return verifier.judge(verifier.gold(gold, metadata or {}), verifier.extract(text))


@pytest.mark.parametrize(
    ("text", "gold", "status"),
    [
        ("Answer: The Eiffel Tower.", "Eiffel tower", "correct"),
        ("\\boxed{\\text{Paris}}", "paris", "correct"),
        ("<answer>  new   YORK </answer>", "New York", "correct"),
        ("Answer: Lyon", "Paris", "incorrect"),
        ("Answer: NYC", "New York", "correct"),  # an alias
    ],
)
def test_exact_normalised_match(text, gold, status):
    assert exact_verdict(text, gold, {"aliases": ["NYC"]}).status == status


def test_exact_no_answer_location():
    assert get_verifier("exact").extract("I think it is Paris") is None


# -- selection ---------------------------------------------------------------------------------


def mc_file(tmp_path, **extra):
    records = [
        {"id": "q1", "problem": "Which?", "answer": "(D)", **extra},
        {"id": "q2", "problem": "Capital of France?", "answer": "b", "choices": ["Rome", "Paris"]},
    ]
    return write_jsonl(tmp_path / "mc.jsonl", records)


def test_spec_prefix_picks_the_verifier(tmp_path):
    path = mc_file(tmp_path)
    name, source = parse_bench_spec(f"mc=choice:{path}", verifiers())
    assert (name, source.verifier, source.source) == ("mc", "choice", str(path))
    bench = load_benchmark(name, source, verifiers())
    assert bench.verifier == "choice" and bench.domain == "non-math"
    assert [q.gold for q in bench.questions] == ["D", "B"]
    assert bench.questions[1].problem.endswith("(A) Rome\n(B) Paris")


def test_plain_spec_stays_math(tmp_path):
    path = write_jsonl(tmp_path / "m.jsonl", [{"problem": "1+1", "answer": "2"}])
    bench = load_benchmark(*parse_bench_spec(f"toy={path}", verifiers()), verifiers())
    assert (bench.verifier, bench.domain) == ("math", "math")
    assert split_verifier("hf:org/name", verifiers()).verifier is None


def test_file_field_picks_the_verifier_and_must_agree(tmp_path):
    path = mc_file(tmp_path, verifier="choice")
    assert load_benchmark("mc", str(path), verifiers()).verifier == "choice"
    with pytest.raises(LeashError, match=r"mc.jsonl line 1: field 'verifier' is 'choice'.*spec"):
        load_benchmark("mc", f"exact:{path}", verifiers())
    bad = write_jsonl(tmp_path / "bad.jsonl", [{"problem": "x", "answer": "A", "verifier": "v"}])
    with pytest.raises(LeashError, match=r"bad.jsonl line 1: field 'verifier'.*unknown verifier"):
        load_benchmark("bad", str(bad), verifiers())


def test_preset_picks_the_verifier(tmp_path, monkeypatch):
    preset = presets.Preset("quiz", "a quiz", replace(presets.FieldMapping(), verifier="exact"))
    monkeypatch.setitem(presets.PRESETS, "quiz", preset)
    path = write_jsonl(tmp_path / "q.jsonl", [{"problem": "Capital?", "answer": "Paris"}])
    assert load_benchmark("quiz", str(path), verifiers()).verifier == "exact"


def test_choice_gold_must_be_a_letter(tmp_path):
    path = write_jsonl(tmp_path / "mc.jsonl", [{"problem": "x", "answer": "42"}])
    with pytest.raises(LeashError, match=r"mc.jsonl line 1: gold '42'.*not one letter"):
        load_benchmark("mc", f"choice:{path}", verifiers())


def test_manifest_records_verifier_and_math_entries_stay_as_before():
    manifest = Manifest(
        benchmarks=[BenchmarkEntry("a"), BenchmarkEntry("b", "non-math", "x", "choice")]
    )
    payload = manifest.to_json()
    assert payload["benchmarks"][0] == {"name": "a", "domain": "math", "source": None}
    assert payload["benchmarks"][1]["verifier"] == "choice"
    back = Manifest.from_json(json.loads(json.dumps(payload)), "m")
    assert [b.verifier for b in back.benchmarks] == ["math", "choice"]
    # a later version's unknown fields are ignored
    payload["benchmarks"][0]["future_field"] = 1
    assert Manifest.from_json(payload, "m").benchmarks[0].verifier == "math"


def test_import_with_spec_then_verify_then_info(tmp_path):
    path = mc_file(tmp_path)
    samples = write_jsonl(
        tmp_path / "s.jsonl",
        [
            {"benchmark": "mc", "question_id": "q1", "model": "base", "sample": 0, "text": "(D) x"},
            {"benchmark": "mc", "question_id": "q2", "model": "base", "sample": 0, "text": "A"},
            {
                "benchmark": "mc",
                "question_id": "q1",
                "model": "rl",
                "sample": 0,
                "text": "Answer: B",
            },
            {"benchmark": "mc", "question_id": "q2", "model": "rl", "sample": 0, "text": "(B)"},
        ],
    )
    root = tmp_path / "res"
    import_samples("jsonl", [parse_source(str(samples))], root, "base", specs=[f"mc=choice:{path}"])
    entry = load_manifest(root).benchmark("mc")
    assert (entry.verifier, entry.domain) == ("choice", "non-math")
    summary = verify_results(root, workers=1)
    assert summary.correct == 2
    rows = pq.read_table(next((root / "samples").glob("part-*.parquet"))).to_pylist()
    assert {(r["model"], r["question_id"]): r["status"] for r in rows} == {
        ("base", "q1"): "correct",
        ("base", "q2"): "incorrect",
        ("rl", "q1"): "incorrect",
        ("rl", "q2"): "correct",
    }
    from leash_tui.report.info import describe_results
    from sampler.store.folder import ResultsFolder

    info = describe_results(ResultsFolder.open(root))
    assert info["benchmarks"][0]["verifier"] == "choice"


def test_import_spec_refuses_unknown_question(tmp_path):
    path = mc_file(tmp_path)
    samples = write_jsonl(
        tmp_path / "s.jsonl",
        [{"benchmark": "mc", "question_id": "q9", "model": "base", "sample": 0, "text": "D"}],
    )
    with pytest.raises(LeashError, match=r"s.jsonl line 1: question_id 'q9' is not a question"):
        import_samples(
            "jsonl", [parse_source(str(samples))], tmp_path / "r", "base", specs=[f"mc={path}"]
        )
