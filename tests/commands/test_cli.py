"""The `leash` command line: help, version, info, import/export and error reporting."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from leash_tui import __version__
from leash_tui.cli import SUBCOMMANDS, cli
from tests.support.records import sample_records, write_jsonl


def run(*args):
    return CliRunner().invoke(cli, list(map(str, args)))


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.output


def test_help_lists_every_subcommand_with_summary():
    result = run("--help")
    assert result.exit_code == 0
    for name, (_, summary) in SUBCOMMANDS.items():
        assert name in result.output
        assert summary.split()[0] in result.output
    for name in SUBCOMMANDS:
        assert run(name, "--help").exit_code == 0


def test_help_imports_no_heavy_modules():
    code = (
        "import sys; from leash_tui.cli import main; sys.argv=['leash','--help'];\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('vllm','torch','transformers','textual','pandas','ray')"
        " if m in sys.modules]\n"
        "print('HEAVY', heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "HEAVY []" in out.stdout


def import_toy(tmp_path):
    records = sample_records({"base": [[True, False, False]], "rl": [[True, True, True]]})
    del records[1]["correct"]
    src = write_jsonl(tmp_path / "s.jsonl", records)
    result = run("import", src, "--base", "base", "-o", tmp_path / "res")
    assert result.exit_code == 0, result.output
    return tmp_path / "res"


def test_import_then_info(tmp_path):
    root = import_toy(tmp_path)
    result = run("info", root)
    assert result.exit_code == 0, result.output
    for text in ("leash-results/1", "base", "target", "toy", "math", "6 samples", "0 verified"):
        assert text in result.output
    assert "6 not yet verified" in result.output  # imported verdicts are the source's
    data = json.loads(run("info", root, "--json").output)
    assert data["totals"] == {
        "samples": 6,
        "verified": 0,
        "unverified": 6,
        "no_gold": 0,
        "trusted_source_verdicts": 0,
    }
    assert run("verify", root).exit_code == 0
    result = run("info", root)
    assert "6 verified" in result.output and "not yet verified" not in result.output
    data = json.loads(run("info", root, "--json").output)
    assert data["totals"]["verified"] == 6
    by_model = {s["model"]: s for s in data["samples"]}
    assert by_model["base"]["n_correct"] == 1 and by_model["rl"]["n_correct"] == 3
    assert [m["role"] for m in data["models"]] == ["base", "target"]
    assert data["shards_without_summary"] == 0
    assert "without stored counts" not in result.output


def test_info_names_shards_that_reports_must_scan(tmp_path):
    import pyarrow.parquet as pq

    from tests.support.folder_builders import sample_rows, samples_table

    root = import_toy(tmp_path)
    rows = samples_table(sample_rows("toy", "9", "base", "C ?"))
    pq.write_table(rows, root / "samples" / "part-0-other-tool.parquet")
    result = run("info", root)
    assert result.exit_code == 0, result.output
    assert "1 shard(s) without stored counts" in " ".join(result.output.split())
    assert json.loads(run("info", root, "--json").output)["shards_without_summary"] == 1


def test_export_to_file_and_stdout(tmp_path):
    root = import_toy(tmp_path)
    out = tmp_path / "out.jsonl"
    assert run("export", root, "-o", out, "--model", "rl").exit_code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["model"] for r in lines] == ["rl"] * 3
    stdout = run("export", root).output.splitlines()
    assert len(stdout) == 6
    bad = run("export", root, "--model", "nope")
    assert bad.exit_code != 0 and "--model nope: not in" in bad.output


def test_bad_input_is_one_line_error_not_traceback(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"benchmark": "b", "question_id": 1, "model": "m", "sample": 0}\n')
    result = run("import", bad, "--base", "m", "-o", tmp_path / "res")
    assert result.exit_code == 1
    assert "bad.jsonl line 1: missing required field 'text'" in result.output
    assert "Traceback" not in result.output
    missing = run("info", tmp_path / "nowhere")
    assert missing.exit_code == 1 and "no such results folder" in missing.output


def test_control_characters_in_errors_are_made_visible(tmp_path):
    bad = tmp_path / "bad\x1b[2J\x07.jsonl"
    bad.write_text("{oops\n")
    result = run("import", bad, "--base", "m", "-o", tmp_path / "res")
    assert result.exit_code == 1
    assert "not valid JSON" in result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "bad␛[2J␇.jsonl" in result.output


def test_subprocess_entry_point(tmp_path):
    root = import_toy(tmp_path)
    out = subprocess.run(
        [sys.executable, "-m", "leash_tui", "info", str(root)], capture_output=True, text=True
    )
    assert out.returncode == 0 and "leash-results/1" in out.stdout


def test_benchmarks_command(benchmark_files):
    result = run("benchmarks", f"aime24={benchmark_files / 'aime24/test.jsonl'}")
    assert result.exit_code == 0 and "30" in result.output
    assert "olympiadbench" in run("benchmarks").output


WRITING_COMMANDS = (
    ("import",),
    ("export",),
    ("demo",),
    ("report",),
    ("sample",),
    ("triage", "export"),
)


def test_output_is_spelled_one_way_with_the_old_spelling_hidden():
    for command in WRITING_COMMANDS:
        help_text = run(*command, "--help").output
        assert "-o, --output" in help_text, command
        assert "--out " not in help_text and "--out," not in help_text, command


def test_old_out_spelling_still_works(tmp_path, monkeypatch):
    import leash_tui.commands.explore as explore_module

    monkeypatch.setattr(explore_module, "run_explorer", lambda root, target=None: None)
    result = run("demo", "--out", tmp_path / "d", "--questions", 8, "--samples", 2, "--no-open")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "d" / "manifest.json").exists()
    both = run("demo", "--out", tmp_path / "a", "-o", tmp_path / "b", "--no-open")
    assert both.exit_code == 2 and "once" in both.output


def test_demo_says_how_to_reopen_after_the_explorer_quits(tmp_path, monkeypatch):
    import leash_tui.commands.explore as explore_module

    opened = []
    monkeypatch.setattr(
        explore_module, "run_explorer", lambda root, target=None: opened.append(root)
    )
    folder = tmp_path / "my demo"
    result = run("demo", "-o", folder, "--questions", 8, "--samples", 2)
    assert result.exit_code == 0, result.output
    assert opened == [folder]
    assert result.output.rstrip().endswith(f"reopen it with: leash explore '{folder}'")


def test_import_prints_its_summary_on_stdout(tmp_path):
    records = [
        {
            "benchmark": "toy",
            "question_id": "1",
            "model": "base",
            "sample": 0,
            "text": "\\boxed{1}",
        },
        {"benchmark": "toy", "question_id": "1", "model": "rl", "sample": 0, "text": "\\boxed{2}"},
    ]
    src = write_jsonl(tmp_path / "s.jsonl", records)
    result = CliRunner().invoke(
        cli, ["import", str(src), "--base", "base", "-o", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    assert "created" in result.stdout and "2 samples" in result.stdout
    assert "next: leash verify" in result.stdout


def test_a_mistyped_command_gets_the_closest_names():
    result = CliRunner().invoke(cli, ["reprot"])
    assert result.exit_code == 2
    assert "Did you mean report" in result.output
    assert "Did you mean" not in CliRunner().invoke(cli, ["zzzz"]).output
