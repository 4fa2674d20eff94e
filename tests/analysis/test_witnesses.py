"""Witnesses: the accepted samples behind fragile support claims (``leash witnesses``, explorer).

A question enters a model's support on one accepted sample, so a person must be able to
see, for every claim resting on one or two, which answers were accepted, beside the gold,
with the answers that differ from it beyond notation first.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from click.testing import CliRunner

from leash_tui.analysis.witness_claims import fragile_mask, normal_form, notation_difference
from leash_tui.cli import cli
from tests.support.explorer_helpers import open_app, open_question, sync, wait_ready
from tests.support.folder_builders import build_folder


@pytest.mark.parametrize(
    ("answer", "gold", "reason"),
    [
        ("\\dfrac{1}{2}", "\\frac{1}{2}", None),
        ("x = 5", "5", None),
        ("\\left( 2, 3 \\right)", "(2,3)", None),
        ("v_{\\text{min}}", "v_{\\text{max}}", "symbols"),
        ("E_{1}+E_{3}", "E_{1}+E_{2}", "symbols"),
        ("3\\text{ m}", "3\\text{ cm}", "units"),
        ("5\\text{ pm}", "5\\text{ am}", "units"),
        ("45^\\circ", "45", "units"),
        ("50\\%", "50", "units"),
        ("\\frac{1}{3}E_{1}+\\frac{2}{3}E_{2}", "\\frac{2}{3}", "symbols"),
        ("a+b", "a", "extra terms"),
        ("0.5", "\\frac{1}{2}", "written differently"),
    ],
)
def test_notation_difference_names_what_is_more_than_notation(answer, gold, reason):
    assert notation_difference(answer, gold) == reason


def test_normal_form_removes_only_notation():
    assert normal_form("$\\left[ 1 ,\\, 2 \\right]$") == "[1,2]"
    assert normal_form("\\boxed{\\tfrac12}") == "\\frac12"
    assert normal_form("y_1 = 3") == "3"
    assert normal_form("x == 3") == "x==3"  # an equation is not an assignment


def test_fragile_mask_is_one_to_m_accepted_samples():
    assert fragile_mask([0, 1, 2, 3]).tolist() == [False, True, True, False]
    assert fragile_mask([0, 1, 2, 3], 3).tolist() == [False, True, True, True]


@pytest.fixture
def folder(tmp_path):
    """q1: the target's support rests on one sample whose answer has another unit;
    q2: the base's rests on two samples of the gold; q3: both solid; q4: base never right."""
    spec = {
        ("phys", "q1"): {"base": "C C C C", "rlvr": "I1 I2 I3 C5\\text{cm}"},
        ("phys", "q2"): {"base": "C I7 C I7", "rlvr": "I7 I7 I7 I7"},
        ("phys", "q3"): {"base": "C C C C", "rlvr": "C C C C"},
        ("phys", "q4"): {"base": "I1 I1 I1 I1", "rlvr": "I1 I1 I1 C"},
    }
    golds = {("phys", "q1"): "5\\text{m}", ("phys", "q4"): "=1+1"}
    return build_folder(tmp_path / "r", spec, golds=golds)


def run(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_witnesses_json_lists_every_fragile_claim_with_its_answers(folder):
    payload = json.loads(run("witnesses", str(folder), "--format", "json"))
    assert payload["format"] == "leash-witnesses/1"
    assert payload["max_samples"] == 2
    claims = {(c["question_id"], c["model"]): c for c in payload["claims"]}
    assert set(claims) == {("q1", "rlvr"), ("q2", "base"), ("q4", "rlvr")}
    q1 = claims[("q1", "rlvr")]
    assert (q1["n_correct"], q1["n_verified"], q1["role"]) == (1, 4, "target")
    assert q1["gold"] == "5\\text{m}"
    assert q1["witnesses"] == [
        {
            "answer": "5\\text{cm}",
            "normal_form": "5\\text{cm}",
            "rule": None,
            "samples": 1,
            "sample_ids": [3],
            "differs": "units",
        }
    ]
    assert q1["suspicious"] is True
    q2 = claims[("q2", "base")]
    assert q2["witnesses"] == [
        {
            "answer": "42",
            "normal_form": "42",
            "rule": None,
            "samples": 2,
            "sample_ids": [0, 2],
            "differs": None,
        }
    ]
    # the suspicious claim comes first: it is the one to check
    assert payload["claims"][0]["question_id"] == "q1"


def test_max_samples_widens_the_list(folder):
    payload = json.loads(run("witnesses", str(folder), "--format", "json", "--max-samples", "4"))
    claims = {(c["question_id"], c["model"]) for c in payload["claims"]}
    assert ("q3", "base") in claims and ("q1", "base") in claims


def test_witnesses_csv_is_one_line_per_answer_and_safe_for_spreadsheets(folder, tmp_path):
    out = tmp_path / "w.csv"
    run("witnesses", str(folder), "--format", "csv", "-o", str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == 3
    q4 = next(r for r in rows if r["question_id"] == "q4")
    assert q4["gold"] == "'=1+1"  # a formula to a spreadsheet: quoted
    assert next(r for r in rows if r["question_id"] == "q1")["differs"] == "units"


def test_witnesses_table_at_80_columns_shows_names_and_answers_whole(folder):
    result = CliRunner().invoke(cli, ["witnesses", str(folder)], terminal_width=80)
    assert result.exit_code == 0, result.output
    assert "5\\text{cm}" in result.output and "units" in result.output
    assert "1 with an accepted answer that differs" in result.output.replace("\n", " ")


def test_model_and_target_filters(folder):
    def models(*args):
        payload = json.loads(run("witnesses", str(folder), "--format", "json", *args))
        return {c["model"] for c in payload["claims"]}

    assert models("--model", "rlvr") == {"rlvr"}
    assert models("--model", "base") == {"base"}
    assert models("--target", "rlvr") == {"base", "rlvr"}  # the pair a report compares
    result = CliRunner().invoke(cli, ["witnesses", str(folder), "--model", "nope"])
    assert result.exit_code != 0 and "no model 'nope'" in result.output
    assert "Traceback" not in result.output


def test_witnesses_compare_the_text_the_model_wrote_not_sympy_forms(tmp_path):
    from sampler.verify.run import verify_results
    from tests.support.folder_builders import write_folder
    from tests.support.verify_fixtures import boxed

    questions = [{"benchmark": "alg", "question_id": "1", "problem": "p", "gold": "\\frac{2}{3}"}]
    texts = [boxed("\\frac{2}{3}"), "no", "no", boxed("5\\,\\text{cm}")]
    rows = [
        {"benchmark": "alg", "question_id": "1", "model": "base", "sample": i, "text": t}
        for i, t in enumerate(texts)
    ]
    root = write_folder(tmp_path / "r", questions, [rows], models=["base"])
    verify_results(root, workers=1)
    payload = json.loads(run("witnesses", str(root), "--format", "json"))
    (claim,) = payload["claims"]
    (witness,) = claim["witnesses"]
    assert witness["answer"] == "\\frac{2}{3}" and witness["normal_form"] == "2/3"
    assert witness["differs"] is None and witness["rule"] == "box"
    assert claim["suspicious"] is False


@pytest.fixture
def many_claims(tmp_path):
    """45 questions whose target rests on one accepted sample; ids 1..45 (natural order)."""
    spec = {("b", str(q)): {"base": "C C", "rlvr": "I1 C"} for q in range(1, 46)}
    return build_folder(tmp_path / "many", spec)


def test_witnesses_table_shows_the_first_claims_and_counts_the_rest(many_claims):
    from leash_tui.report.witness_table import SHOWN_CLAIMS

    out = run("witnesses", str(many_claims), "--max-samples", "1")
    ids = re.findall(r"^\s*b\s+(\d+)\s", out, flags=re.M)
    assert ids == [str(q) for q in range(1, SHOWN_CLAIMS + 1)]  # 1, 2, …, 10 (not 1, 10, 11)
    assert f"and {45 - SHOWN_CLAIMS:,} more claim(s) not shown" in " ".join(out.split())
    every = run("witnesses", str(many_claims), "--max-samples", "1", "--all")
    assert re.findall(r"^\s*b\s+(\d+)\s", every, flags=re.M) == [str(q) for q in range(1, 46)]
    assert "more claim(s) not shown" not in every


def test_witnesses_json_lists_ids_in_natural_order(many_claims):
    payload = json.loads(
        run("witnesses", str(many_claims), "--format", "json", "--max-samples", "1")
    )
    assert [c["question_id"] for c in payload["claims"]] == [str(q) for q in range(1, 46)]


def test_a_folder_without_fragile_claims_says_so(tmp_path):
    folder = build_folder(tmp_path / "r", {("b", "1"): {"base": "C C", "rlvr": "C C"}})
    assert "No support claim rests on 1 accepted sample" in run(
        "witnesses", str(folder), "--max-samples", "1"
    )


@sync
async def test_explorer_shows_the_evidence_and_filters_fragile_claims(folder):
    app = open_app(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        model = app.model
        assert len(model) == 4
        await pilot.press("a")
        await pilot.pause()
        assert {model.row(i).question_id for i in range(len(model))} == {"q1", "q2", "q4"}
        assert "fragile" in model.filter_description()
        await open_question(pilot, app, "phys", "q1")
        text = str(app.screen.query_one("#hist-target").render())
        assert "support rests on 1 of 4 samples: 5\\text{cm}" in text
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert len(model) == 4
