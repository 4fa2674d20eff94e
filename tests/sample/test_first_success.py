"""``sample.first_success``: a key's first verified success, verified prefix and first-N counts."""

from __future__ import annotations

from sampler.sample.first_success import first_success
from sampler.store.folder import ResultsFolder
from sampler.store.shards.writer import append_samples
from tests.support.folder_builders import build_folder, sample_rows, samples_table


def rows_by_key(root, first):
    table = first_success(ResultsFolder.open(root), first)
    return {(r["benchmark"], r["question_id"], r["model"]): r for r in table.to_pylist()}


def test_first_success_spans_the_shards_of_several_rounds(tmp_path):
    spec = {
        ("alg", "1"): {"base": "I7 I7", "rlvr": "N I1 C I2"},
        ("alg", "2"): {"base": "I7 ? C I7", "rlvr": "N N N N"},
    }
    root = build_folder(tmp_path / "r", spec)
    # a later round: samples 2..5 of alg/1 base, the success at sample 4
    append_samples(root, samples_table(sample_rows("alg", "1", "base", "I1 N C C", first_sample=2)))
    got = rows_by_key(root, first=2)
    base1 = got[("alg", "1", "base")]
    assert (base1["n"], base1["first_success"], base1["verified_prefix"]) == (6, 4, 6)
    assert (base1["n_first"], base1["c_first"]) == (2, 0)
    rlvr1 = got[("alg", "1", "rlvr")]
    assert (rlvr1["first_success"], rlvr1["n_first"], rlvr1["c_first"]) == (2, 2, 0)
    base2 = got[("alg", "2", "base")]
    # sample 1 has no verdict: the verified prefix stops there, the success after it counts
    assert (base2["first_success"], base2["verified_prefix"], base2["n_first"]) == (2, 1, 1)
    assert got[("alg", "2", "rlvr")]["first_success"] is None
    assert rows_by_key(root, first=4)[("alg", "1", "rlvr")]["c_first"] == 1


def test_empty_folder_gives_an_empty_table(tmp_path):
    empty = ResultsFolder.create(tmp_path / "e")
    assert first_success(empty, 32).num_rows == 0
