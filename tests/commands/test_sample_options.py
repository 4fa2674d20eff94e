"""``leash sample``'s options come from the fields of RunConfig and ModelSettings (issue 20):
every flag field is an option with the field's default in its help, every option that existed
keeps its name, the values reach the RunConfig, and adding a field adds the flag."""

from __future__ import annotations

from dataclasses import dataclass, fields

import click
import pytest
from click.testing import CliRunner

from leash_tui.cli import cli
from leash_tui.commands.shared.setting_options import (
    SectionedCommand,
    given_settings,
    setting_options,
)
from sampler.errors import LeashError
from sampler.sample import config as run_config
from sampler.sample.config import ModelSettings, RunConfig, Shard, build_run_config
from sampler.sample.setting_fields import flag_fields, setting

#: the options `leash sample` had before they came from the fields; scripts use these names
OPTIONS_BEFORE = (
    "--config --model --base --bench --problem-field --gold-field --id-field"
    " --gold-from-solution --domain -o --output -k --samples --temperature --top-p --top-k"
    " --max-tokens --seed --engine --template --chat-template --stop --stop-token-id --logprobs"
    " --token-detail --shard --tensor-parallel-size --data-parallel-size"
    " --gpu-memory-utilization --max-model-len --dtype --max-num-seqs --enforce-eager"
    " --trust-remote-code --url --served-name --concurrency --flush-seconds --ray --ray-address"
    " --no-verify --verify-workers"
).split()


def sample_command() -> click.Command:
    return cli.get_command(None, "sample")


def test_every_option_that_existed_keeps_its_name():
    names = {opt for param in sample_command().params for opt in param.opts}
    assert set(OPTIONS_BEFORE) <= names


def test_every_flag_field_is_an_option_with_its_default_in_the_help():
    by_dest = {param.name: param for param in sample_command().params}
    for cls in (RunConfig, ModelSettings):
        for field in flag_fields(cls):
            assert field.name in by_dest, field.name
    help_text = CliRunner().invoke(cli, ["sample", "--help"], terminal_width=80).output
    flat = " ".join(help_text.split())
    assert "Samples per question [default: 64]." in flat
    assert "Generated tokens at most; clamped to the model's context minus the prompt" in flat
    assert f"[default: {ModelSettings().max_tokens}]" in flat
    assert f"[default: {RunConfig.__dataclass_fields__['flush_seconds'].default:g}]" in flat
    for title in ("Options:", "Sampling options:", "Engine options:", "Run options:"):
        assert title in help_text


def test_the_help_fits_80_columns_in_one_help_column():
    text = CliRunner().invoke(cli, ["sample", "--help"], terminal_width=80).output
    options = text[text.index("Options:") :]
    assert max(len(line) for line in options.splitlines()) <= 80
    starts = {
        len(line) - len(line.split("  ", 2)[-1].lstrip())
        for line in options.splitlines()
        if line.startswith("  -") and "  " in line.strip()
    }
    assert len(starts) == 1, starts  # the help text starts in one column in every section


@pytest.fixture
def captured(monkeypatch):
    """Run `leash sample` up to build_run_config and return what it was given."""
    seen: dict = {}

    def fake(**kwargs):
        seen.update(kwargs)
        raise LeashError("stopped before sampling")

    monkeypatch.setattr(run_config, "build_run_config", fake)
    return seen


def test_given_values_reach_the_run_config_and_absent_ones_stay_absent(captured):
    argv = ["sample", "--model", "b=x", "--bench", "t=f.jsonl", "-o", "out", "-k", "8"]
    argv += ["--no-verify", "--stop", "a", "--stop", "b", "--enforce-eager", "--shard", "1/4"]
    result = CliRunner().invoke(cli, argv)
    assert "stopped before sampling" in result.output
    assert captured["cli"] == {"samples": 8, "verify": False, "shard": "1/4"} | {
        "output": "out",
        "base": None,
    }
    assert captured["cli_model_settings"] == {"stop": ["a", "b"], "enforce_eager": True}
    run = build_run_config(**captured)
    assert (run.samples, run.verify, run.shard) == (8, False, Shard(1, 4))
    assert run.models[0].settings.stop == ("a", "b")
    assert run.models[0].settings.enforce_eager is True
    assert run.temperature == RunConfig.__dataclass_fields__["temperature"].default


#: a valid value other than the default for every run-level flag field; a new field needs one
NON_DEFAULT_RUN_VALUES = {
    "samples": 3,
    "temperature": 1.0,
    "top_p": 0.5,
    "top_k": 40,
    "seed": 7,
    "logprobs": 5,
    "token_detail": 2,
    "shard": "2/3",
    "verify": False,
    "flush_seconds": 1.5,
    "ray": True,
    "ray_address": "ray://head:10001",
    "adaptive": True,
    "min_samples": 2,
    "risk": 0.25,
}


def test_every_run_level_flag_field_reaches_the_run_config():
    names = [field.name for field in flag_fields(RunConfig)]
    assert sorted(names) == sorted(NON_DEFAULT_RUN_VALUES)
    run = build_run_config(
        cli={"output": "o", **NON_DEFAULT_RUN_VALUES}, cli_models=["a=x"], cli_benches=["t=f"]
    )
    for name, value in NON_DEFAULT_RUN_VALUES.items():
        expected = Shard(2, 3) if name == "shard" else value
        assert getattr(run, name) == expected, name
    with pytest.raises(LeashError, match="top_k must be -1"):
        build_run_config(cli={"output": "o", "top_k": 0}, cli_models=["a=x"], cli_benches=["t=f"])


def test_adding_a_field_adds_the_flag():
    @dataclass(frozen=True)
    class Settings:
        min_samples: int = setting(4, "Samples before stopping early.")
        adaptive: bool = setting(False, "Stop sampling a question once it is decided.")
        careful: bool = setting(True, "Check twice.", section="run")
        tags: tuple[str, ...] = setting((), "A tag (repeatable).", section="engine")

    seen = {}

    @click.command(cls=SectionedCommand)
    @setting_options(Settings)
    def command(**values):
        seen.update(given_settings(Settings, values))

    runner = CliRunner()
    result = runner.invoke(command, ["--adaptive", "--no-careful", "--tags", "x", "--tags", "y"])
    assert result.exit_code == 0, result.output
    assert seen == {"adaptive": True, "careful": False, "tags": ["x", "y"]}
    help_text = runner.invoke(command, ["--help"]).output
    assert "--min-samples INTEGER" in help_text and "[default: 4]" in help_text
    assert help_text.index("Engine options:") < help_text.index("--tags")
    assert help_text.index("Run options:") < help_text.index("--no-careful")
    assert [f.name for f in fields(Settings)] == ["min_samples", "adaptive", "careful", "tags"]
