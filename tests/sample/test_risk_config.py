"""``--risk DELTA`` without an engine: its validation, its manifest record, the replayed
stops of a group, and an old stops table (no ``risk_q`` column) still read."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.errors import LeashError
from sampler.sample.adaptive import check_adaptive
from sampler.sample.config import build_run_config
from sampler.sample.risk_stop import NEVER, group_stops, risk_stops
from sampler.sample.run_record import sampling_record
from sampler.store.side_tables.adaptive_stops import STOPS_FILE, read_stops


def build(tmp_path, toml=None, **cli_values):
    config_file = None
    if toml is not None:
        config_file = tmp_path / "run.toml"
        config_file.write_text(toml, encoding="utf-8")
    return build_run_config(
        config_file=config_file,
        cli={"output": str(tmp_path / "out"), **cli_values},
        cli_models=["base=some/model"],
        cli_benches=["toy=toy.jsonl"],
    )


def test_risk_from_command_line_and_file_goes_into_the_manifest_record(tmp_path):
    config = build(tmp_path, adaptive=True, risk=0.05)
    assert config.risk == 0.05
    check_adaptive(config)
    record = sampling_record(config, config.models[0], "t", False, "scheme")
    assert record["adaptive"]["risk"] == 0.05
    from_file = build(tmp_path, toml="adaptive = true\nrisk = 0.2\n")
    assert from_file.risk == 0.2
    plain = build(tmp_path, adaptive=True)
    assert plain.risk is None
    assert sampling_record(plain, plain.models[0], "t", False, "s")["adaptive"]["risk"] is None


@pytest.mark.parametrize("bad", [0, 1, -0.1, 1.5])
def test_risk_outside_zero_one_is_refused(tmp_path, bad):
    with pytest.raises(LeashError, match=r"risk \(--risk\) must be strictly between 0 and 1"):
        build(tmp_path, adaptive=True, risk=bad)


def test_risk_of_the_wrong_type_in_the_file_is_refused(tmp_path):
    with pytest.raises(LeashError, match="risk: expected a number"):
        build(tmp_path, toml='adaptive = true\nrisk = "low"\n')


def test_risk_without_adaptive_is_refused(tmp_path):
    with pytest.raises(LeashError, match="--risk .* add --adaptive"):
        check_adaptive(build(tmp_path, risk=0.05))


def test_the_command_line_refuses_a_bad_risk_in_one_line(tmp_path):
    bench = tmp_path / "toy.jsonl"
    bench.write_text('{"id": "q1", "problem": "1+1?", "answer": "2"}\n', encoding="utf-8")
    base = ["sample", "--model", "base=no/such", "--bench", f"toy={bench}", "--dry-run"]
    out = ["-o", str(tmp_path / "out")]
    result = CliRunner().invoke(cli, [*base, *out, "--adaptive", "--risk", "1.5"])
    assert result.exit_code != 0 and "strictly between 0 and 1" in result.output
    result = CliRunner().invoke(cli, [*base, *out, "--risk", "0.1"])
    assert result.exit_code != 0 and "add --adaptive" in result.output


def test_a_group_stops_at_the_first_whole_round_whose_bound_is_below_delta():
    rounds, k = [4, 8, 16, 32], 32
    # 40 pairs: 10 succeed at sample 0, 30 never (seen through every round)
    first = np.array([0] * 10 + [NEVER] * 30)
    drawn = np.array([4] * 10 + [32] * 30)
    q_at = {d: risk_stops(first, drawn, d, k, 0.99)[1].q for d in rounds[:-1]}
    assert q_at[4] > q_at[8] > q_at[16]  # the bound falls as the rounds pass
    delta = (q_at[8] + q_at[16]) / 2  # below at round 16 only
    stop, q, budget = group_stops(first, drawn, rounds, k, delta)
    assert budget == 16 and q == q_at[16] and q < delta
    assert stop.tolist() == [False] * 10 + [True] * 30
    # what the folder holds when the run stopped them (drawn 16) replays to the same stop
    held = np.array([4] * 10 + [16] * 30)
    replay = group_stops(first, held, rounds, k, delta)
    assert replay[0].tolist() == stop.tolist() and replay[1:] == (q, 16)


def test_a_round_not_yet_whole_is_not_judged():
    rounds, k = [4, 8, 16, 32], 32
    first = np.array([0] * 10 + [NEVER] * 30)
    drawn = np.array([4] * 10 + [8] * 29 + [4])  # one pair still at 4: round 8 not whole
    stop, q, budget = group_stops(first, drawn, rounds, k, 0.999)
    # round 4 is whole and its bound is below 0.999: every open pair stops there
    assert budget == 4 and stop.sum() == 30
    stop, q, budget = group_stops(first, drawn, rounds, k, risk_stops(first, drawn, 4, k, 0.5)[1].q)
    assert (stop.any(), q, budget) == (False, 0.0, 0)  # round 4 not below, round 8 not whole


def test_a_stops_table_written_before_risk_q_reads_with_nulls(tmp_path):
    old = pa.table(
        {
            "benchmark": ["toy"], "question_id": ["q1"], "model": ["base"],
            "drawn": pa.array([16], pa.int64()), "stop": ["budget"],
            "first_success": pa.array([None], pa.int64()),
        }
    )  # fmt: skip
    pq.write_table(old, tmp_path / STOPS_FILE)
    rows = read_stops(tmp_path).to_pylist()
    assert rows == [old.to_pylist()[0] | {"risk_q": None}]


def test_only_pairs_short_of_k_are_risk_stops():
    """The stops ``stop_rows`` records: a folder whose unsolved pairs already hold all k
    samples (a full run resumed with --adaptive --risk) has none; the same first successes
    with the unsolved pairs at 4 samples are all stopped there."""
    from types import SimpleNamespace

    from sampler.sample.adaptive import _risk_stops

    plan = SimpleNamespace(config=SimpleNamespace(risk=0.999, min_samples=4, samples=32))
    keys = [("toy", f"q{i}", "m") for i in range(40)]

    def found(drawn_unsolved: int) -> dict:
        return {
            key: {"n": 4, "first_success": 0}
            if i < 10
            else {"n": drawn_unsolved, "first_success": None}
            for i, key in enumerate(keys)
        }

    assert _risk_stops(plan, keys, found(32)) == {}
    stopped = _risk_stops(plan, keys, found(4))
    assert sorted(stopped) == keys[10:] and len(set(stopped.values())) == 1
    assert next(iter(stopped.values())) < 0.999
    plan.config.risk = None
    assert _risk_stops(plan, keys, found(4)) == {}
