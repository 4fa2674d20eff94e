"""A resample cache someone else prepared (issue #33 item 5): forged arrays of the right
shape count as absent (keyed tags), a ``resamples/`` that is a link or not the user's is
never used (so never pruned), and pruning removes only names leash writes.
"""

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

SPEC = {
    ("alg", str(q)): {"base": counts_spec(q % 5, 6), "rlvr": counts_spec((q * 3) % 7, 6)}
    for q in range(8)
}


def report(folder) -> dict:
    result = CliRunner().invoke(cli, ["report", str(folder), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_forged_arrays_of_the_same_shape_count_as_absent(tmp_path, draws):
    folder = build_folder(tmp_path / "r", SPEC)
    first = report(folder)
    files = sorted(resample_cache.resample_dir().glob("*.npy"))
    assert files and set(draws) == {8} and len(files) == len(draws)
    for path in files:  # the forgery: constant sums of the same shape
        np.save(path, np.full((bootstrap.BLOCK, bootstrap.SUM_COLUMNS), 0.7))
    drawn, _ = list(draws), draws.clear()
    assert report(folder) == first and draws == drawn
    # a genuine file of one key copied over another key's name is not that key's either
    cache = resample_cache.ResampleCache()
    a, b = (1, 10, b"a"), (2, 10, b"b")
    cache[a] = np.zeros((10, bootstrap.SUM_COLUMNS))
    cache._path(b).write_bytes(cache._path(a).read_bytes())
    fresh = resample_cache.ResampleCache()
    assert a in fresh and b not in fresh


def test_a_linked_resamples_directory_is_never_followed_or_pruned(tmp_path, monkeypatch, draws):
    mine = tmp_path / "my-arrays"
    mine.mkdir()
    for i in range(600):  # the issue's: 600 of the user's own .npy files behind the link
        np.save(mine / f"{i:040x}.npy", np.full((2, 2), float(i)))
    before = sorted(p.name for p in mine.iterdir())
    resample_cache.resample_dir().parent.mkdir(parents=True)
    resample_cache.resample_dir().symlink_to(mine)
    monkeypatch.setattr(resample_cache, "KEEP", 3)
    folder = build_folder(tmp_path / "r", SPEC)
    first = report(folder)
    assert sorted(p.name for p in mine.iterdir()) == before  # nothing pruned, nothing added
    drawn, _ = list(draws), draws.clear()
    assert report(folder) == first and draws == drawn  # not read either: drawn again
    assert not resample_cache.ResampleCache().usable


@pytest.mark.skipif(os.geteuid() != 0, reason="making a directory of another user needs root")
def test_a_resamples_directory_of_another_user_is_not_used(tmp_path):
    directory = resample_cache.resample_dir()
    directory.mkdir(parents=True)
    os.chown(directory, 12345, 12345)
    cache = resample_cache.ResampleCache()
    cache[(1, 10, b"d")] = np.zeros((10, bootstrap.SUM_COLUMNS))
    assert not cache.usable and list(directory.iterdir()) == []


def test_a_key_file_others_can_read_disables_the_cache(tmp_path):
    cache = resample_cache.ResampleCache()
    assert cache.usable
    key = resample_cache.resample_dir() / resample_cache.KEY_FILE
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    key.chmod(0o644)
    assert not resample_cache.ResampleCache().usable
    key.unlink()
    key.symlink_to(tmp_path / "elsewhere")
    assert not resample_cache.ResampleCache().usable and not (tmp_path / "elsewhere").exists()


def test_pruning_removes_only_names_leash_writes(tmp_path, monkeypatch):
    monkeypatch.setattr(resample_cache, "KEEP", 3)
    directory = tmp_path / "c"
    cache = resample_cache.ResampleCache(directory)
    others = ["notes.npy", "results.npy", "ABCDEF0123456789ABCDEF0123456789ABCDEF01.npy"]
    for name in others:
        np.save(directory / name, np.zeros(2))
        os.utime(directory / name, ns=(0, 0))  # the oldest of all
    for i in range(6):
        cache[(i, 10, b"d")] = np.full((10, bootstrap.SUM_COLUMNS), float(i))
    assert all((directory / name).exists() for name in others)
    ours = [p for p in directory.iterdir() if resample_cache._NAME_RE.fullmatch(p.name)]
    assert len(ours) == 3
