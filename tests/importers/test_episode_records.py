"""verifiers 0.4 ``traces.jsonl`` episode records, read by ``--from verifiers`` and ``prime-rl``.

The files under tests/data/importers/verifiers-0.4.0/ were written by PyPI
``verifiers==0.4.0``'s own classes (``Episode``, ``Trace``, ``MessageNode``, ``Reward``,
``Error``; ``utils/trace_store.write_episode``) with
tests/data/importers/make_verifiers_0_4.py; the prime-rl layout follows
PrimeIntellect-ai/prime-rl ``src/prime_rl/monitors/file.py`` at commit
559b44772e471d1538537b8805cc77f3824a5e64 (``episode.to_record()`` a line under
``rollouts/step_<N>/<kind>/<subset>/``).
"""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.errors import LeashError
from sampler.importers.run_import import Source, import_samples
from sampler.store.folder import ResultsFolder
from tests.support.paths import REPO_ROOT

DATA = REPO_ROOT / "tests" / "data" / "importers" / "verifiers-0.4.0"
RUN = DATA / "outputs" / "gsm8k--qwen--qwen3-0.6b--default--3f9c2a1e"
KILLED = DATA / "killed"


def by_question(root):
    rows = ResultsFolder.open(root).samples(
        columns=["question_id", "model", "sample", "text", "source_correct", "status"]
    )
    found: dict[tuple[str, str], list] = {}
    for row in sorted(rows.to_pylist(), key=lambda r: (r["model"], r["question_id"], r["sample"])):
        found.setdefault((row["model"], row["question_id"]), []).append(row)
    return found


def test_a_vf_eval_run_of_verifiers_0_4_is_read_by_task_with_the_failed_episode_an_error(tmp_path):
    summary = import_samples("verifiers", [Source("q", DATA / "outputs")], tmp_path / "r", "q")
    assert summary.models == {"q": 12} and summary.benchmarks == {"gsm8k": 12}
    found = by_question(tmp_path / "r")
    verdicts = {q: [r["source_correct"] for r in rows] for (_, q), rows in found.items()}
    # the generator's answers: task 0 2,2,3,2; task 1 6,6,6,5; task 2 3,(failed),4,3
    assert verdicts == {
        "0": [True, True, False, True],
        "1": [True, True, True, False],
        "2": [True, None, False, True],
    }
    failed = found[("q", "2")][1]
    assert failed["status"] == "error" and failed["text"] == ""
    assert [r["status"] for r in found[("q", "2")]] == [None, "error", None, None]
    questions = {
        q["question_id"]: q for q in ResultsFolder.open(tmp_path / "r").questions.to_pylist()
    }
    assert {q: (v["problem"], v["gold"]) for q, v in questions.items()} == {
        "0": ("What is 1+1?", "2"),
        "1": ("What is 2*3?", "6"),
        "2": ("What is 10-7?", "3"),
    }
    detail = ResultsFolder.open(tmp_path / "r").samples(columns=["verdict_detail"]).to_pylist()
    assert [d["verdict_detail"] for d in detail if d["verdict_detail"]] == [
        "failed episode: ProviderError: 502 Bad Gateway"
    ]


def test_the_traces_file_itself_and_prime_rl_without_step_folders_read_the_same(tmp_path):
    import_samples("verifiers", [Source("q", RUN / "traces.jsonl")], tmp_path / "a", "q")
    import_samples("prime-rl", [Source("q", RUN)], tmp_path / "b", "q")
    import_samples("verifiers", [Source("q", DATA / "outputs")], tmp_path / "c", "q")
    assert by_question(tmp_path / "a") == by_question(tmp_path / "b") == by_question(tmp_path / "c")


def test_prime_rl_steps_are_a_series_with_failed_episodes_kept_as_errors(tmp_path):
    summary = import_samples("prime-rl", [Source("p", DATA / "prime-rl")], tmp_path / "r")
    assert summary.models == {"p@0": 6, "p@10": 6}
    manifest = ResultsFolder.open(tmp_path / "r").manifest
    assert manifest.base.name == "p@0"
    found = by_question(tmp_path / "r")
    # step 0: task 2 answered (failed), 3 -> the failed episode is sample 0 of status error
    assert [r["status"] for r in found[("p@0", "2")]] == ["error", None]
    assert [r["source_correct"] for r in found[("p@10", "1")]] == [True, False]


def test_a_killed_and_resumed_run_is_refused_naming_the_line_and_the_option(tmp_path):
    with pytest.raises(
        LeashError, match=r"traces\.jsonl line 6: not valid JSON.*--skip-bad-records"
    ):
        import_samples("verifiers", [Source("q", KILLED)], tmp_path / "r", "q")
    assert not (tmp_path / "r").exists()


def test_skip_bad_records_skips_the_cut_line_and_counts_it_in_summary_and_manifest(tmp_path):
    root = tmp_path / "r"
    result = CliRunner().invoke(
        cli,
        ["import", "--from", "verifiers", f"q={KILLED}", "-o", str(root), "--base", "q",
         "--skip-bad-records"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "6 samples" in result.output
    assert "1 bad record(s) skipped (--skip-bad-records): not valid JSON (first at line 6)" in (
        result.output
    )
    notes = ResultsFolder.open(root).manifest.notes
    assert "traces.jsonl: 1 bad record(s) skipped" in notes and "not valid JSON" in notes
    # 5 whole lines before the cut, one after it: tasks 0 (3 rollouts), 1 (2), 2 (1)
    sizes = {q: len(rows) for (_, q), rows in by_question(root).items()}
    assert sizes == {"0": 3, "1": 2, "2": 1}


def test_skipped_records_are_counted_per_file_and_reason(tmp_path):
    run = tmp_path / "outputs" / "gsm8k--m--default--00000001"
    run.mkdir(parents=True)
    lines = (RUN / "traces.jsonl").read_text().splitlines()
    broken = json.loads(lines[0])
    del broken["traces"]
    run.joinpath("traces.jsonl").write_text(
        "\n".join([lines[0], "{not json", json.dumps(broken), "[1, 2]", "{also not", lines[1]])
        + "\n"
    )
    summary = import_samples(
        "verifiers", [Source("q", run)], tmp_path / "r", "q", skip_bad_records=True
    )
    assert summary.samples == 2
    reasons = sorted(line.split("): ", 1)[1] for line in summary.skipped)
    assert reasons == [
        "expected a JSON object (first at line 4)",
        "expected field 'traces' (the episode's traces (a list)) but this verifiers record"
        " has none (first at line 3)",
        "not valid JSON (first at line 2)",
    ]
    assert any(
        line.startswith(f"{run / 'traces.jsonl'}: 2 bad record(s)") for line in summary.skipped
    )


def test_a_failed_episode_that_names_no_question_is_a_bad_record(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    record = json.loads((RUN / "traces.jsonl").read_text().splitlines()[0])
    failed = {**record, "ok": False, "traces": [], "task": {"type": "T", "data": {}}}
    run.joinpath("traces.jsonl").write_text(json.dumps(record) + "\n" + json.dumps(failed) + "\n")
    with pytest.raises(LeashError, match=r"line 2: a failed episode .* names no question"):
        import_samples("verifiers", [Source("q", run)], tmp_path / "a", "q")
    summary = import_samples(
        "verifiers", [Source("q", run)], tmp_path / "b", "q", skip_bad_records=True
    )
    assert summary.samples == 1 and len(summary.skipped) == 1


def test_two_runs_of_one_environment_are_refused(tmp_path):
    outputs = tmp_path / "outputs"
    shutil.copytree(RUN, outputs / RUN.name)
    shutil.copytree(RUN, outputs / "gsm8k--other--default--11111111")
    with pytest.raises(LeashError, match=r"in 2 folders"):
        import_samples("verifiers", [Source("q", outputs)], tmp_path / "r", "q")
