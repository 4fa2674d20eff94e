"""Atomic writes: an interrupted write never leaves a visible partial file."""

from __future__ import annotations

import json
import multiprocessing
import os
import time

import pytest

from sampler.store.journals.atomic_io import (
    TEMP_PREFIX,
    atomic_path,
    atomic_text_writer,
    remove_stale_temporaries,
    write_json_atomic,
)
from sampler.store.journals.locks import exclusive_lock


def test_exception_mid_write_leaves_no_file(tmp_path):
    target = tmp_path / "out.json"
    with pytest.raises(RuntimeError), atomic_text_writer(target) as handle:
        handle.write('{"half": ')
        raise RuntimeError("killed")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_exception_keeps_previous_version(tmp_path):
    target = tmp_path / "manifest.json"
    write_json_atomic(target, {"v": 1})
    with pytest.raises(ValueError), atomic_path(target) as tmp:
        tmp.write_text("garbage")
        raise ValueError("stop")
    assert json.loads(target.read_text()) == {"v": 1}


def test_stale_temporaries_removed_only_when_old(tmp_path):
    fresh = tmp_path / f"{TEMP_PREFIX}fresh.parquet"
    old = tmp_path / f"{TEMP_PREFIX}old.parquet"
    fresh.write_text("x")
    old.write_text("x")
    past = time.time() - 7200
    os.utime(old, (past, past))
    assert remove_stale_temporaries(tmp_path) == 1
    assert fresh.exists() and not old.exists()


def _append_under_lock(lock, target, worker):
    for i in range(50):
        with exclusive_lock(lock):
            data = json.loads(target.read_text())
            data.append(f"{worker}-{i}")
            write_json_atomic(target, data)


def test_lock_serialises_read_modify_write(tmp_path):
    target = tmp_path / "list.json"
    write_json_atomic(target, [])
    lock = tmp_path / ".lock"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append_under_lock, args=(lock, target, w)) for w in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert len(json.loads(target.read_text())) == 100
