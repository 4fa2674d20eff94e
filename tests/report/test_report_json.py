"""`leash report --format json` on a small folder, compared field by field with hand values.

Folder: benchmarks alg, geo (domain math), code1, code2 (domain code); models base and
rlvr; 4 samples per question and model, so the budget is k = 4 and the categories
are exact: in support iff at least one of the 4 samples is correct.
"""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from leash_tui.analysis.support import add_answer_columns, compare_questions
from leash_tui.cli import cli
from leash_tui.report.columns import SUMMARY
from leash_tui.report.data import load_report_data
from leash_tui.report.pair_sections import IDS
from tests.support.folder_builders import build_folder, parse_spec

SPEC = {
    #                 base                 rlvr                   category
    ("alg", "1"): {"base": "C C I7 I7", "rlvr": "C C C C"},  # P
    ("alg", "2"): {"base": "I7 I7 I8 N", "rlvr": "C I7 I7 I7"},  # E
    ("alg", "3"): {"base": "C I7 I8 I8", "rlvr": "I7 I7 I7 I7"},  # S
    ("alg", "4"): {"base": "I7 I7 N N", "rlvr": "I9 I9 I9 I9"},  # O
    ("geo", "1"): {"base": "C C C C", "rlvr": "C C C I7"},  # P
    ("geo", "2"): {"base": "C I7 I7 I7", "rlvr": "I7 I7 N N"},  # S
    ("geo", "3"): {"base": "C I5 I6 I7", "rlvr": "I7 I7 I7 I7"},  # S
    ("geo", "4"): {"base": "C N N N", "rlvr": "N N N N"},  # S
    ("code1", "1"): {"base": "I1 I1 I1 I1", "rlvr": "C C I1 I1"},  # E
    ("code1", "2"): {"base": "C C I1 I1", "rlvr": "C I1 I1 I1"},  # P
    ("code2", "1"): {"base": "I1 I2 I3 N", "rlvr": "I1 I1 I1 I1"},  # O
}
DOMAINS = {"alg": "math", "geo": "math", "code1": "code", "code2": "code"}
TOKEN_ENTROPY = {
    **{("alg", q, "base"): [0.2, 0.4, 0.6, 0.8] for q in "1234"},
    ("geo", "1", "base"): [1.0, 1.0, 1.0, 1.0],
    ("geo", "2", "base"): [2.0, 2.0, None, None],
    **{("code1", q, "rlvr"): [2.0, 2.0, 2.0, 2.0] for q in "12"},
}


def H(*counts: int) -> float:
    """Entropy of answer classes with these counts (computed here, by hand)."""
    total = sum(counts)
    return -sum(c / total * math.log(c / total) for c in counts)


# answer classes per question (correct answers form one class, no answer is "NA")
BASE_CLASSES = {
    "alg": [H(2, 2), H(2, 1, 1), H(1, 1, 2), H(2, 2)],
    "geo": [H(4), H(1, 3), H(1, 1, 1, 1), H(1, 3)],
    "code1": [H(4), H(2, 2)],
    "code2": [H(1, 1, 1, 1)],
}
TARGET_CLASSES = {
    "alg": [H(4), H(1, 3), H(4), H(4)],
    "geo": [H(3, 1), H(2, 2), H(4), H(4)],
    "code1": [H(2, 2), H(1, 3)],
    "code2": [H(4)],
}


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


def scope_answer_entropy(classes: dict[str, list[float]], names: list[str]) -> float:
    return mean([h for n in names for h in classes[n]])


EXPECTED = [
    # scope, name, N, P, E, S, O, SRR, NDR, SDS, NSCR, sign p,
    # pass@1 base, pass@1 target, pass@k base, pass@k target, token H base, token H target
    ("benchmark", "alg", 4, 1, 1, 1, 1, 1 / 2, 1 / 2, 1 / 2, 0.0, 1.0,
     (2 / 4 + 0 + 1 / 4 + 0) / 4, (1 + 1 / 4 + 0 + 0) / 4, 2 / 4, 2 / 4, 0.5, None),
    ("benchmark", "geo", 4, 1, 0, 3, 0, 1 / 4, 0.0, 0.0, -3 / 4, 2 / 8,
     (1 + 1 / 4 + 1 / 4 + 1 / 4) / 4, (3 / 4) / 4, 4 / 4, 1 / 4, (4 + 4) / 6, None),
    ("benchmark", "code1", 2, 1, 1, 0, 0, 1.0, 1 / 2, 2 / 3, 1 / 2, 1.0,
     (0 + 2 / 4) / 2, (2 / 4 + 1 / 4) / 2, 1 / 2, 2 / 2, None, 2.0),
    ("benchmark", "code2", 1, 0, 0, 0, 1, None, None, None, None, None,
     0.0, 0.0, 0.0, 0.0, None, None),
    # math = alg + geo: P=2, E=1, S=4, O=1; sign: S=4 vs E=1 -> 2 * P(X<=1 | 5) = 12/32
    ("domain", "math", 8, 2, 1, 4, 1, 2 / 6, 1 / 3, 1 / 3, -3 / 7, 12 / 32,
     (0.75 + 1.75) / 8, (1.25 + 0.75) / 8, 6 / 8, 3 / 8, (8 + 8) / 22, None),
    # code = code1 + code2: P=1, E=1, S=0, O=1
    ("domain", "code", 3, 1, 1, 0, 1, 1.0, 1 / 2, 2 / 3, 1 / 2, 1.0,
     0.5 / 3, 0.75 / 3, 1 / 3, 2 / 3, None, 2.0),
    # overall: P=3, E=2, S=4, O=2; sign: S=4 vs E=2 -> 2 * (1 + 6 + 15) / 64
    ("overall", "overall", 11, 3, 2, 4, 2, 3 / 7, 2 / 5, 12 / 29, -2 / 9, 44 / 64,
     3 / 11, 2.75 / 11, 7 / 11, 5 / 11, (8 + 8) / 22, 2.0),
]  # fmt: skip
SCOPE_MEMBERS = {
    "alg": ["alg"], "geo": ["geo"], "code1": ["code1"], "code2": ["code2"],
    "math": ["alg", "geo"], "code": ["code1", "code2"],
    "overall": ["alg", "geo", "code1", "code2"],
}  # fmt: skip


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = build_folder(
        tmp_path_factory.mktemp("report") / "results",
        SPEC,
        domains=DOMAINS,
        token_entropy=TOKEN_ENTROPY,
        shards=2,
    )
    result = CliRunner().invoke(cli, ["report", str(root), "--format", "json", "--no-cache"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_document_shape(report):
    assert list(report) == ["format", "rows"]
    assert report["format"] == "leash-report/1"
    keys = ["scope", "name", "base", "target", "k", "N", "P", "E", "S", "O", "SRR", "NDR",
            "SDS", "NSCR", "pass@1", "pass@k", "sign_test_p", "token_entropy",
            "answer_entropy", "token_entropy_kind", "ci"]  # fmt: skip
    for row in report["rows"]:
        assert list(row) == keys
        assert set(row["token_entropy_kind"]) == {"base", "target"}
        assert set(row["token_entropy_kind"].values()) <= {"top-k", None}
        for pair in ("pass@1", "pass@k", "token_entropy", "answer_entropy"):
            assert list(row[pair]) == ["base", "target"]


def test_the_column_table_reads_the_contracts_keys(report):
    """The summary section's columns (report.pair_sections, from report.columns) read the
    keys of leash-report/1's rows above: a key renamed in the column table or in the rows,
    or a new column whose key the rows lack, fails here."""
    row = report["rows"][0]
    read = {c.key.split(".")[0] for c in (*IDS, *SUMMARY) if not c.optional}
    assert read <= set(row)
    assert set(row) - read == {"ci"}  # the one optional key of this folder (the default bootstrap)


@pytest.mark.parametrize("index", range(len(EXPECTED)))
def test_row_field_by_field(report, index):
    row = report["rows"][index]
    (scope, name, n, p, e, s, o, srr, ndr, sds, nscr, sign,
     p1b, p1t, pkb, pkt, teb, tet) = EXPECTED[index]  # fmt: skip
    assert (row["scope"], row["name"], row["base"], row["target"]) == (scope, name, "base", "rlvr")
    assert row["k"] == 4
    assert (row["N"], row["P"], row["E"], row["S"], row["O"]) == (n, p, e, s, o)
    assert all(type(row[c]) is int for c in ("N", "P", "E", "S", "O"))
    for field, value in (("SRR", srr), ("NDR", ndr), ("SDS", sds), ("NSCR", nscr),
                         ("sign_test_p", sign)):  # fmt: skip
        assert row[field] == (None if value is None else pytest.approx(value, abs=1e-12)), field
    assert row["pass@1"] == {"base": pytest.approx(p1b), "target": pytest.approx(p1t)}
    assert row["pass@k"] == {"base": pytest.approx(pkb), "target": pytest.approx(pkt)}
    expected_token = {
        "base": None if teb is None else pytest.approx(teb),
        "target": None if tet is None else pytest.approx(tet),
    }
    assert row["token_entropy"] == expected_token
    members = SCOPE_MEMBERS[name]
    assert row["answer_entropy"] == {
        "base": pytest.approx(scope_answer_entropy(BASE_CLASSES, members)),
        "target": pytest.approx(scope_answer_entropy(TARGET_CLASSES, members)),
    }


def test_numbers_are_not_rounded(report):
    overall = report["rows"][-1]
    assert overall["SRR"] == 3 / 7  # full double precision, as computed


def test_imported_folder_gives_the_same_rows(tmp_path, report):
    """The same samples as interchange JSONL through `leash import`, then `leash report`."""
    records = []
    for (bench, qid), per_model in SPEC.items():
        for model, spec in per_model.items():
            entropies = TOKEN_ENTROPY.get((bench, qid, model))
            for i, (status, answer) in enumerate(parse_spec(spec)):
                record = {"benchmark": bench, "question_id": int(qid), "model": model,
                          "sample": i, "text": f"\\boxed{{{answer or ''}}}",
                          "domain": DOMAINS[bench]}  # fmt: skip
                if status is not None:
                    record["status"] = status
                if answer is not None:
                    record["answer"] = answer
                if entropies is not None and entropies[i] is not None:
                    record["token_entropy"] = entropies[i]
                if i == 0:
                    record |= {"problem": f"Question {qid}?", "gold": 42}
                records.append(record)
    jsonl = tmp_path / "samples.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    runner = CliRunner()
    folder = tmp_path / "imported"
    result = runner.invoke(cli, ["import", str(jsonl), "--base", "base", "-o", str(folder)])
    assert result.exit_code == 0, result.output
    # the imported statuses are the source's: leash grades the samples itself
    result = runner.invoke(cli, ["verify", str(folder)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["report", str(folder), "--format", "json", "--no-cache"])
    assert result.exit_code == 0, result.output
    imported = json.loads(result.stdout)
    # benchmark rows come in the manifest's order, which import takes from the file
    assert [r["name"] for r in imported["rows"]] == [r["name"] for r in report["rows"]]
    for index, row in enumerate(imported["rows"]):
        expected = EXPECTED[index]
        assert (row["scope"], row["name"], row["N"], row["P"], row["E"], row["S"], row["O"]) == (
            expected[:7]
        )
        assert row == report["rows"][index]


def test_per_question_answer_columns(tmp_path):
    root = build_folder(tmp_path / "r", SPEC, domains=DOMAINS, token_entropy=TOKEN_ENTROPY)
    data = load_report_data(root, use_cache=False)
    questions = add_answer_columns(
        compare_questions(data.counts, "base", "rlvr"), data.answer_stats, "base", "rlvr"
    )
    rows = {(r["benchmark"], r["question_id"]): r for r in questions.to_pylist()}
    alg3 = rows[("alg", "3")]  # base "C I7 I8 I8", rlvr "I7 I7 I7 I7"
    assert alg3["category"] == "S"
    assert (alg3["gold_share_base"], alg3["gold_rank_base"]) == (1 / 4, 2)  # "8" (2) above
    assert alg3["answer_entropy_base"] == pytest.approx(H(1, 1, 2))
    assert alg3["token_entropy_base"] == pytest.approx(0.5)
    assert (alg3["gold_share_target"], alg3["gold_rank_target"]) == (0.0, None)
    assert alg3["answer_entropy_target"] == 0.0
    assert alg3["token_entropy_target"] is None
    geo2 = rows[("geo", "2")]  # base token entropies 2, 2, -, -
    assert geo2["token_entropy_base"] == pytest.approx(2.0)
    assert len(rows) == len(SPEC)
