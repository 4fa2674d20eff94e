"""Files leash writes get the mode the umask gives, so colleagues on a shared server can
read a results folder (issue 13: every file used to be 0600 whatever the umask)."""

from __future__ import annotations

import os
import stat

import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.store.journals.triage_journal import TriageJournal
from tests.support.records import sample_records, write_jsonl


@pytest.fixture(params=[0o022, 0o027], ids=["umask022", "umask027"])
def umask(request):
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def run(*args):
    result = CliRunner().invoke(cli, list(map(str, args)))
    assert result.exit_code == 0, result.output
    return result


def modes_under(root):
    return {
        str(path.relative_to(root)): stat.S_IMODE(path.stat().st_mode)
        for path in [root, *root.rglob("*")]
        if not path.is_symlink()
    }


def test_every_file_leash_writes_has_the_umask_mode(tmp_path, umask, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("LEASH_CACHE_DIR", str(cache))
    work = tmp_path / "work"
    work.mkdir()
    records = sample_records({"base": [[True, False, False]], "rl": [[True, True, True]]})
    for record in records:
        record.pop("correct", None)
    src = write_jsonl(work / "s.jsonl", records)
    results = work / "results"
    run("import", src, "--base", "base", "-o", results)
    run("verify", results, "-j", "1")
    run("report", results, "--no-cache", "-o", work / "report.txt")
    run("report", results, "--format", "json", "-o", work / "report.json")
    run("export", results, "-o", work / "samples.jsonl")
    TriageJournal(results).record("toy", "0", "base", "rl", tag="real_loss")
    run("triage", "export", results, "-o", work / "tags.csv")
    run("demo", "--no-open", "--questions", "8", "--samples", "2", "-o", work / "demo")
    run("report", work / "demo")  # fills the report cache, if the folder needs a scan

    written = {f"work/{k}": v for k, v in modes_under(work).items()}
    if cache.exists():
        written |= {f"cache/{k}": v for k, v in modes_under(cache).items()}
    for name in ("samples.jsonl", "tags.csv", "report.txt", "report.json", "demo/manifest.json"):
        assert f"work/{name}" in written
    assert any(name.startswith("work/results/samples/") for name in written)
    assert "work/results/triage.jsonl" in written
    # the report's resample cache is the user's alone (issue 33): its directory and the
    # key that signs its files are private whatever the umask; everything else follows it
    private = {"cache/resamples": 0o700, "cache/resamples/.key": 0o600}
    wrong = {}
    for name, mode in written.items():
        expected = (0o777 if (tmp_path / name).is_dir() else 0o666) & ~umask
        expected = private.get(name, expected)
        if mode != expected:
            wrong[name] = oct(mode)
    assert wrong == {}, f"umask {umask:o}: files should be {0o666 & ~umask:o}"
