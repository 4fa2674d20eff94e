"""`leash report` from the command line: formats, options, refusals and the cache."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.shards.writer import append_samples
from tests.support.folder_builders import build_folder, sample_rows, samples_table

SPEC = {
    ("alg", "1"): {"base": "C C I7 I7", "rlvr": "C C C C", "rl2": "I1 I1 I1 I1"},  # P / S
    ("alg", "2"): {"base": "I7 I7 I8 N", "rlvr": "C I7 I7 I7", "rl2": "C I1 I1 I1"},  # E / E
    ("minerva_math", "1"): {"base": "C I7 I8 I8", "rlvr": "I7 I7 I7 I7", "rl2": "C C C C"},
    ("minerva_math", "2"): {"base": "I7 I7 N N", "rlvr": "I9 I9 I9 I9", "rl2": "N N N N"},
}
DOMAINS = {"alg": "math", "minerva_math": "math"}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def folder(tmp_path):
    return build_folder(tmp_path / "results", SPEC, targets=("rlvr", "rl2"), domains=DOMAINS)


def run(*args: str):
    return CliRunner().invoke(cli, ["report", *map(str, args)])


def report_json(*args):
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_help_lists_report():
    result = CliRunner().invoke(cli, ["--help"])
    assert "report" in result.output
    result = run("--help")
    assert result.exit_code == 0
    for option in ("--format", "--k", "--curves", "--target", "--allow-partial", "-o"):
        assert option in result.output


def test_every_target_is_compared_with_the_base(folder):
    rows = report_json(folder)["rows"]
    assert [(r["target"], r["scope"], r["name"]) for r in rows] == [
        (t, s, n)
        for t in ("rlvr", "rl2")
        for s, n in [("benchmark", "alg"), ("benchmark", "minerva_math"), ("domain", "math"),
                     ("overall", "overall")]
    ]  # fmt: skip
    rl2 = next(r for r in rows if r["target"] == "rl2" and r["scope"] == "overall")
    # base in support on alg/1 and minerva/1; rl2 on alg/2 and minerva/1
    assert (rl2["P"], rl2["E"], rl2["S"], rl2["O"]) == (1, 1, 1, 1)


def test_target_option_limits_and_checks(folder):
    rows = report_json(folder, "--target", "rl2")["rows"]
    assert {r["target"] for r in rows} == {"rl2"}
    result = run(folder, "--target", "nope")
    assert result.exit_code == 1
    assert "nope" in result.output and "rlvr, rl2" in result.output
    assert "Traceback" not in result.output
    result = run(folder, "--target", "base")
    assert result.exit_code == 1 and "base model" in result.output


def test_table_is_the_default_and_has_one_block_per_target(folder):
    result = run(folder)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "base → rlvr" in out and "base → rl2" in out
    assert out.index("base → rlvr") < out.index("base → rl2")
    block = out[out.index("base → rlvr") : out.index("base → rl2")]
    assert block.index("alg") < block.index("minerva_math") < block.index("math (domain)")
    assert block.index("math (domain)") < block.index("overall")
    assert "ε" in out and "k = 4" in out
    assert "\x1b[" not in out  # no colour codes when not writing to a terminal


def test_csv_shows_the_json_rows_at_full_precision(folder):
    rows = report_json(folder)["rows"]
    result = run(folder, "--format", "csv")
    assert result.exit_code == 0
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(table) == len(rows)
    for line, row in zip(table, rows, strict=True):
        assert (line["scope"], line["name"], line["target"]) == (
            row["scope"], row["name"], row["target"])  # fmt: skip
        for key in ("k", "N", "P", "E", "S", "O"):
            assert int(line[key]) == row[key]
        for key in ("SRR", "NDR", "SDS", "NSCR", "sign_test_p"):
            assert (float(line[key]) if line[key] else None) == row[key]
        assert float(line["pass@1_base"]) == row["pass@1"]["base"]
        assert float(line["answer_entropy_target"]) == row["answer_entropy"]["target"]
        assert line["token_entropy_base"] == ""  # no token entropies in this folder


def test_markdown_and_latex(folder):
    md = run(folder, "--format", "markdown")
    assert md.exit_code == 0
    assert "## base → rlvr" in md.stdout
    assert "| minerva\\_math |" in md.stdout  # escaped for Markdown
    assert "|---|---:|" in md.stdout
    assert "**overall**" in md.stdout
    tex = run(folder, "--format", "latex")
    assert tex.exit_code == 0
    assert tex.stdout.count(r"\begin{tabular}") == 3  # one per target, then all models
    assert r"minerva\_math" in tex.stdout and "minerva_math" not in tex.stdout
    assert r"\toprule" in tex.stdout and r"$\to$" in tex.stdout


def test_markdown_and_latex_give_one_row_per_model_over_all_questions(folder):
    rows = {r["target"]: r for r in report_json(folder)["rows"] if r["scope"] == "overall"}
    md = run(folder, "--format", "markdown").stdout
    table = md.split("## All models, overall")[1].split("\n\n")[1].splitlines()
    assert table[0].startswith("| model | role | k | N | pass@1 | pass@k | P | E | S | O |")
    cells = {line.split(" | ")[0].lstrip("| "): line.split(" | ") for line in table[2:]}
    assert set(cells) == {"base", "rlvr", "rl2"}
    assert cells["base"][1] == "base" and cells["rl2"][1] == "target"
    assert cells["base"][4] == f"{rows['rlvr']['pass@1']['base']:.3f}"
    for target in ("rlvr", "rl2"):
        assert cells[target][4] == f"{rows[target]['pass@1']['target']:.3f}"
        assert cells[target][6:10] == [str(rows[target][c]) for c in "PESO"]
    tex = run(folder, "--format", "latex").stdout
    assert r"base & base &" in tex and r"rl2 & target &" in tex


def test_latex_captions_keep_formulas_in_math_mode(folder):
    tex = run(folder, "--format", "latex").stdout
    captions = [line for line in tex.splitlines() if line.startswith(r"\caption")]
    note = next(c for c in captions if "never seen" in c)
    assert r"$\varepsilon = -\ln \zeta / k$" in note and r"($\zeta = 0.05$)" in note
    assert "ε" not in tex and "ζ" not in tex
    for caption in captions:
        assert caption.replace(r"\$", "").count("$") % 2 == 0, caption


def test_output_file_is_written_and_matches_stdout(folder, tmp_path):
    target = tmp_path / "out" / "report.json"
    result = run(folder, "--format", "json", "-o", target)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert json.loads(target.read_text()) == report_json(folder)
    assert [p.name for p in target.parent.iterdir()] == ["report.json"]  # no temporaries
    table_file = tmp_path / "report.txt"
    assert run(folder, "-o", table_file).exit_code == 0
    assert "base → rlvr" in table_file.read_text()


def test_output_file_that_cannot_be_written(folder, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run(folder, "--format", "json", "-o", blocker / "report.json")
    assert result.exit_code == 1
    assert "report.json" in result.output and "Traceback" not in result.output


def test_smaller_budget_gives_expected_counts(folder):
    rows = report_json(folder, "--k", "2", "--target", "rlvr")["rows"]
    overall = rows[-1]
    assert overall["k"] == 2
    assert all(isinstance(overall[c], float) for c in "PESO")
    assert sum(overall[c] for c in "PESO") == pytest.approx(overall["N"])
    # pass@2 of 4 samples: base c = 2, 0, 1, 0 -> 5/6, 0, 1/2, 0;
    # rlvr c = 4, 1, 0, 0 -> 1, 1/2, 0, 0
    assert overall["pass@k"]["base"] == pytest.approx((5 / 6 + 1 / 2) / 4)
    assert overall["P"] == pytest.approx(5 / 6)
    assert overall["E"] == pytest.approx(1 / 6 + 1 / 2)


def test_budget_above_the_samples_is_refused(folder):
    result = run(folder, "--k", "5")
    assert result.exit_code == 1
    assert "--k 5" in result.output and "alg/1" in result.output
    assert "Traceback" not in result.output
    assert run(folder, "--k", "0").exit_code == 2  # click's own range check


def test_curves_in_json_and_table(folder):
    rows = report_json(folder, "--curves", "--target", "rlvr")["rows"]
    for row in rows:
        curve = row["curve"]
        assert [p["k"] for p in curve] == [1, 2, 4]
        assert [curve[-1][c] for c in "PESO"] == [row[c] for c in "PESO"]
        assert curve[0]["pass@k"]["base"] == pytest.approx(row["pass@1"]["base"])
    table = run(folder, "--curves").stdout
    assert "budget curves, base → rlvr" in table
    lines = list(csv.DictReader(io.StringIO(run(folder, "--curves", "--format", "csv").stdout)))
    assert {line["row"] for line in lines} == {"summary", "curve"}
    assert "curve" not in json.dumps(report_json(folder))  # only when asked


def overall_of(root, *args):
    """(notes on stderr, the last row of the JSON report) of ``root``."""
    result = run(root, *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return result.stderr, json.loads(result.stdout)["rows"][-1]


def test_unverified_samples_are_reported_not_counted(tmp_path):
    spec = {
        ("alg", "1"): {"base": "C ? ? ?", "rlvr": "I7 I7 C C"},
        ("alg", "2"): {"base": "I7 I7 I7 I7", "rlvr": "C C ? ?"},
    }
    notes, overall = overall_of(build_folder(tmp_path / "r", spec))
    assert "5 samples are not verified yet (base: 3, rlvr: 2)" in notes
    # budgets: question 1 min(1, 4) = 1, question 2 min(4, 2) = 2 -> scope k = 1
    assert overall["k"] == 1
    # base pass@1: 1/1 and 0/4; the unverified samples count neither way
    assert overall["pass@1"]["base"] == pytest.approx(0.5)
    assert overall["pass@1"]["target"] == pytest.approx((2 / 4 + 2 / 2) / 2)


def test_question_without_verified_samples_is_refused_unless_partial(tmp_path):
    spec = {
        ("alg", "1"): {"base": "C I7", "rlvr": "? ?"},
        ("alg", "2"): {"base": "C I7", "rlvr": "C C"},
    }
    root = build_folder(tmp_path / "r", spec)
    result = run(root)
    assert result.exit_code == 1
    assert "alg/1 (rlvr)" in result.output and "--allow-partial" in result.output
    assert "Traceback" not in result.output
    notes, overall = overall_of(root, "--allow-partial")
    assert "left out (--allow-partial)" in notes
    assert (overall["N"], overall["P"]) == (1, 1)


def test_questions_without_gold_are_left_out_with_a_note_not_refused(tmp_path):
    spec = {
        ("alg", "1"): {"base": "G G", "rlvr": "G G"},
        ("alg", "2"): {"base": "C I7", "rlvr": "I7 I7"},
        ("alg", "3"): {"base": "I7 I7", "rlvr": "C C"},
    }
    root = build_folder(tmp_path / "r", spec)
    notes, overall = overall_of(root)
    assert "1 question(s) have no gold answer (status no_gold)" in notes
    assert "alg/1" in notes and "not verified yet" not in notes
    assert (overall["N"], overall["S"], overall["E"], overall["O"]) == (2, 1, 1, 0)
    info = CliRunner().invoke(cli, ["info", str(root)])
    assert info.exit_code == 0, info.output
    assert "4 samples of questions without a gold answer" in info.output
    assert "not yet verified" not in info.output


def test_question_of_one_model_only_is_named_and_left_out(tmp_path):
    spec = {("alg", "1"): {"base": "C I7", "rlvr": "C C"}, ("alg", "2"): {"base": "C C"}}
    notes, overall = overall_of(build_folder(tmp_path / "r", spec))
    assert "samples of base only" in notes and "alg/2" in notes
    assert overall["N"] == 1


def test_bad_folders_give_one_line_errors(tmp_path):
    result = run(tmp_path / "missing")
    assert result.exit_code == 1 and "no such results folder" in result.output
    root = build_folder(tmp_path / "r", {("alg", "1"): {"rlvr": "C"}})
    result = run(root)
    assert result.exit_code == 1 and "base model 'base' has no samples" in result.output
    assert "Traceback" not in result.output


def test_names_with_control_characters_are_shown_safely(tmp_path):
    root = build_folder(tmp_path / "r", {("alg", "1"): {"base": "C", "rlvr": "C"}})
    evil = "x\x1b[2Jy"
    rows = sample_rows(evil, "1", "base", "C") + sample_rows(evil, "1", "rlvr", "I")
    append_samples(root, samples_table(rows))
    for fmt in ("table", "markdown", "latex", "csv"):
        result = run(root, "--format", fmt)
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.stdout, fmt
        assert "x␛[2Jy" in result.stdout or "x␛{[}2Jy" in result.stdout, fmt


def _add_shard_without_summary(folder):
    """A shard as another writer makes it (no footer summary), so reports must scan."""
    import pyarrow.parquet as pq

    rows = sample_rows("alg", "9", "base", "C I") + sample_rows("alg", "9", "rlvr", "C C")
    pq.write_table(samples_table(rows), folder / "samples" / "part-0-other-tool.parquet")


def test_a_folder_whose_shards_all_carry_summaries_needs_no_cache(folder, tmp_path):
    first = report_json(folder, "--target", "rlvr")
    assert not list((tmp_path / "cache").glob("*.arrow"))  # footers are as fast as a cache
    assert report_json(folder, "--target", "rlvr", "--no-cache") == first


def test_cache_is_used_and_invalidated_by_new_samples(folder, tmp_path):
    _add_shard_without_summary(folder)
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    first = report_json(folder, "--target", "rlvr")
    cache_files = list((tmp_path / "cache").glob("*.arrow"))
    assert len(cache_files) == 1
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before  # folder untouched
    assert report_json(folder, "--target", "rlvr") == first
    # a new shard: one more question, in support for both
    rows = sample_rows("alg", "3", "base", "C C C C") + sample_rows("alg", "3", "rlvr", "C C C C")
    append_samples(folder, samples_table(rows))
    after = report_json(folder, "--target", "rlvr")["rows"][-1]
    assert (after["N"], after["P"]) == (first["rows"][-1]["N"] + 1, first["rows"][-1]["P"] + 1)
    assert report_json(folder, "--target", "rlvr", "--no-cache")["rows"][-1] == after


def test_corrupt_cache_is_ignored(folder, tmp_path):
    _add_shard_without_summary(folder)
    first = report_json(folder)
    assert list((tmp_path / "cache").glob("*.arrow"))
    for path in (tmp_path / "cache").glob("*.arrow"):
        path.write_bytes(b"garbage")
    assert report_json(folder) == first


def test_epsilon_in_table_matches_budget(folder):
    out = run(folder, "--zeta", "0.3").stdout
    match = re.search(r"k = 4: ε = (\d+(?:\.\d+)?(?:e-?\d+)?)", out)
    assert match and float(match.group(1)) == pytest.approx(1.203973 / 4, rel=1e-2)  # 3 digits
    # -ln(0.01) / 4 = 1.15: a "probability at most 1.15" says nothing, so no bound is given
    out = run(folder, "--zeta", "0.01").stdout
    assert "k = 4: no bound" in out and "ε = 1.15" not in out


def test_grading_agreement_with_imported_source_verdicts(tmp_path):
    spec = {
        ("alg", "1"): {"base": "C C I7 I7", "rlvr": "C C C C"},
        ("alg", "2"): {"base": "I7 I7 C N", "rlvr": "C I7 I7 ?"},
    }
    T, F = True, False
    source = {
        # base: the source agrees except on sample 3 of question 1 (it said correct)
        ("alg", "1", "base"): [T, T, F, T],
        ("alg", "2", "base"): [F, F, T, F],
        # rlvr: the source said correct everywhere; sample 3 of question 2 is not verified
        ("alg", "1", "rlvr"): [T, T, T, T],
        ("alg", "2", "rlvr"): [T, T, T, T],
    }
    root = build_folder(tmp_path / "r", spec, source_correct=source)
    result = run(root, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    rows = {r["model"]: r for r in document["grading_agreement"]}
    assert list(rows) == ["base", "rlvr"]
    assert (rows["base"]["compared"], rows["base"]["differ"]) == (8, 1)
    assert rows["base"]["leash_incorrect_source_correct"] == 1
    assert (rows["rlvr"]["with_source_verdict"], rows["rlvr"]["compared"]) == (8, 7)
    assert rows["rlvr"]["differ"] == 2 and rows["rlvr"]["differ_rate"] == pytest.approx(2 / 7)
    notes = " ".join(result.stderr.split())
    assert "rlvr: leash and the source disagree on 2 of 7 compared samples (28.6%;" in notes
    assert "base: leash and the source disagree on 1 of 8" in notes
    # the rows are the same as without source verdicts
    plain = build_folder(tmp_path / "plain", spec)
    without = report_json(plain)
    assert "grading_agreement" not in without
    assert without["rows"] == document["rows"]
    assert "disagree" not in run(plain, "--format", "json").stderr


def test_grading_agreement_follows_the_target_option(tmp_path):
    spec = {("alg", "1"): {"base": "C I7", "rlvr": "C C", "rl2": "C I7"}}
    source = {("alg", "1", "rl2"): [True, True]}
    root = build_folder(tmp_path / "r", spec, targets=("rlvr", "rl2"), source_correct=source)
    assert [r["model"] for r in report_json(root)["grading_agreement"]] == ["rl2"]
    assert "grading_agreement" not in report_json(root, "--target", "rlvr")
