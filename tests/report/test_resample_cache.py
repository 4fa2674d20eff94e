"""The bootstrap's resamples kept between reports: a report of an unchanged folder draws
nothing and says the same; a changed benchmark is drawn again, alone; a damaged cache
counts as absent."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

from leash_tui.analysis import bootstrap
from leash_tui.cli import cli
from leash_tui.report import resample_cache
from tests.support.folder_builders import build_folder, counts_spec

pytestmark = pytest.mark.usefixtures("private_cache")


def _spec(extra_alg: int = 0) -> dict:
    spec = {
        ("alg", str(q)): {"base": counts_spec(q % 5, 6), "rlvr": counts_spec((q * 3) % 7, 6)}
        for q in range(8 + extra_alg)
    }
    spec |= {
        ("geo", str(q)): {"base": counts_spec(q % 4, 6), "rlvr": counts_spec(q % 3, 6)}
        for q in range(5)
    }
    return spec


def once(draws: list[int]) -> list[int]:
    """The strata sizes drawn, each stratum's blocks drawn once (2,000 resamples of a
    few questions: 8 blocks)."""
    sizes = sorted(set(draws))
    assert sorted(draws) == sorted(s for s in sizes for _ in range(draws.count(s)))
    assert all(draws.count(s) == draws.count(sizes[0]) for s in sizes)
    return sizes


def report(folder, *args) -> dict:
    result = CliRunner().invoke(cli, ["report", str(folder), "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_second_report_draws_nothing_and_gives_the_same_intervals(tmp_path, draws):
    folder = build_folder(tmp_path / "r", _spec())
    first = report(folder)
    assert once(draws) == [5, 8]  # each benchmark once, shared by domain and overall
    assert len(draws) == 2 * 2000 // bootstrap.BLOCK  # few questions: all 2,000 drawn
    draws.clear()
    assert report(folder) == first
    assert draws == []
    assert report(folder, "--no-cache") == first
    assert once(draws) == [5, 8]
    draws.clear()
    other = report(folder, "--bootstrap", "500")  # another B: other resamples
    assert once(draws) == [5, 8] and other["rows"][-1]["ci"]["resamples"] == 500
    assert len(draws) == 2 * 500 // bootstrap.BLOCK


def test_a_benchmark_whose_samples_changed_is_drawn_again_alone(tmp_path, draws, monkeypatch):
    report(build_folder(tmp_path / "a", _spec()))
    draws.clear()
    changed = report(build_folder(tmp_path / "b", _spec(extra_alg=1)))
    assert once(draws) == [9]  # geo's values are unchanged: its resamples are read
    draws.clear()
    monkeypatch.setenv("LEASH_CACHE_DIR", str(tmp_path / "fresh"))
    assert report(tmp_path / "b") == changed  # drawn afresh: the same numbers
    assert once(draws) == [5, 9]


@pytest.mark.parametrize("damage", ["truncated", "shape", "link", "pickle"])
def test_a_damaged_cache_file_counts_as_absent(tmp_path, draws, damage):
    folder = build_folder(tmp_path / "r", _spec())
    first = report(folder)
    files = sorted(resample_cache.resample_dir().glob("*.npy"))
    assert len(files) == len(draws) == 2 * 2000 // bootstrap.BLOCK
    for path in files:
        if damage == "truncated":
            path.write_bytes(path.read_bytes()[:100])
        elif damage == "shape":
            np.save(path, np.zeros((3, 7)))
        elif damage == "pickle":
            with open(path, "wb") as out:
                np.save(out, np.array([{"a": 1}], dtype=object), allow_pickle=True)
        else:
            target = tmp_path / "elsewhere.npy"
            np.save(target, np.zeros((2000, 7)))
            path.unlink()
            path.symlink_to(target)
    draws.clear()
    assert report(folder) == first
    assert once(draws) == [5, 8]
    if damage == "link":
        assert all(p.is_symlink() for p in files)  # never renamed over
        assert np.load(tmp_path / "elsewhere.npy").sum() == 0


def test_only_the_most_recently_used_files_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(resample_cache, "KEEP", 3)
    cache = resample_cache.ResampleCache(tmp_path / "c")
    for i in range(5):
        cache[(i, 10, b"d")] = np.full((10, bootstrap.SUM_COLUMNS), float(i))
        os.utime(cache._path((i, 10, b"d")), ns=(i * 10**9, i * 10**9))
    kept = resample_cache.ResampleCache(tmp_path / "c")
    present = [i for i in range(5) if (i, 10, b"d") in kept]
    assert len(present) == 3 and present[-1] == 4
    assert kept[(4, 10, b"d")][0, 0] == 4.0
