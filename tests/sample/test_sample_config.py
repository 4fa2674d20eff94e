"""``leash sample`` settings: prompt templates, command line and TOML config, shards."""

from __future__ import annotations

from pathlib import Path

import pytest

from sampler.benchmarks.prompts import TEMPLATES, parse_chat_setting, resolve_template, uses_chat
from sampler.errors import LeashError
from sampler.sample.config import Shard, build_run_config, parse_shard
from sampler.sample.run_record import sampling_record


def build(tmp_path: Path | None = None, toml: str | None = None, **kwargs):
    config_file = None
    if toml is not None:
        config_file = tmp_path / "run.toml"
        config_file.write_text(toml, encoding="utf-8")
    cli = {"output": kwargs.pop("output", None), **kwargs.pop("cli", {})}
    return build_run_config(config_file=config_file, cli=cli, **kwargs)


# -- prompts ----------------------------------------------------------------------------


def test_named_templates_keep_latex_braces_of_the_problem():
    problem = r"Find $x$ if $\frac{x}{2} = {3}$."
    text = TEMPLATES["boxed"].render(problem)
    assert text.startswith(problem)
    assert text.endswith("within \\boxed{}.")
    assert TEMPLATES["plain"].render(problem) == f"Problem:\n{problem}\n\nSolution:"
    assert TEMPLATES["r1"].render(problem).endswith("Assistant: <think>")


def test_custom_template_file(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("Q: {problem}\nA: \\boxed{", encoding="utf-8")
    template = resolve_template(str(path))
    assert template.render("1+1?") == "Q: 1+1?\nA: \\boxed{"
    assert template.source == str(path)


def test_bad_templates_are_named(tmp_path):
    with pytest.raises(LeashError, match="not a template name"):
        resolve_template("boxxed")
    path = tmp_path / "none.txt"
    path.write_text("no placeholder", encoding="utf-8")
    with pytest.raises(LeashError, match=r"none.txt.*\{problem\} exactly once"):
        resolve_template(str(path))


class _Tokenizer:
    """Just the attribute prompts.uses_chat looks at (a real tokenizer has more)."""

    def __init__(self, chat_template):
        self.chat_template = chat_template


def test_chat_template_setting():
    with_chat, without = _Tokenizer("{{ messages }}"), _Tokenizer(None)
    boxed, plain = TEMPLATES["boxed"], TEMPLATES["plain"]
    assert uses_chat(boxed, "auto", with_chat, "m") is True
    assert uses_chat(boxed, "auto", without, "m") is False
    assert uses_chat(plain, "auto", with_chat, "m") is False
    assert uses_chat(plain, "on", with_chat, "m") is True
    assert uses_chat(boxed, "off", with_chat, "m") is False
    with pytest.raises(LeashError, match="model 'm'.*has none"):
        uses_chat(boxed, "on", without, "m")
    assert parse_chat_setting(True, "x") == "on"
    with pytest.raises(LeashError, match="x: chat template setting"):
        parse_chat_setting("sometimes", "x")


# -- run config -------------------------------------------------------------------------


def test_command_line_run(tmp_path):
    run = build(
        output=str(tmp_path / "out"),
        cli={"samples": 8, "seed": 3, "base": "base"},
        cli_models=["rl=ckpt/rl", "base=a/b"],
        cli_benches=["aime24=data/aime24.jsonl"],
        cli_model_settings={"max_tokens": 100},
    )
    assert [m.name for m in run.models] == ["base", "rl"]  # base first
    assert run.base.path == "a/b" and run.base.role == "base"
    assert run.models[1].role == "target"
    assert all(m.settings.max_tokens == 100 for m in run.models)
    assert run.samples == 8 and run.seed == 3 and run.temperature == 0.6 and run.top_p == 0.95
    assert run.benchmarks[0].name == "aime24" and run.benchmarks[0].mapping is None


def test_toml_with_per_model_settings_and_precedence(tmp_path):
    toml = """
output = "out"
samples = 16
max_tokens = 2000
template = "boxed"
base = "base"

[models.base]
path = "Qwen/Qwen2.5-Math-1.5B"
template = "plain"
chat_template = false

[models.rl]
path = "ckpt/rl"
max_tokens = 3000
tensor_parallel_size = 2
stop = ["</answer>"]

[benchmarks.mine]
path = "data/mine.jsonl"
problem_field = "question"
gold_field = "final"
domain = "logic"
"""
    run = build(tmp_path, toml, cli={"samples": 32}, cli_model_settings={"max_tokens": 1000})
    base, rl = run.models
    assert run.samples == 32  # the command line beats the file's top level
    assert base.settings.template == "plain" and base.settings.chat_template == "off"
    assert base.settings.max_tokens == 1000  # command line beats the file's top level
    assert rl.settings.max_tokens == 3000  # a model's own table beats the command line
    assert rl.settings.tensor_parallel_size == 2 and rl.settings.stop == ("</answer>",)
    bench = run.benchmarks[0]
    assert bench.mapping.problem == ("question",) and bench.mapping.gold == ("final",)
    assert bench.domain == "logic"
    record = sampling_record(run, rl, "{problem}", False, "scheme")
    assert (
        record["max_tokens"] == 3000 and record["samples"] == 32 and record["stop"] == ["</answer>"]
    )


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("output = 'o'\nsampels = 3\n[models.a]\npath='x'\n", "unknown key 'sampels'"),
        ("output = 'o'\n[models.a]\npth='x'\n", r"\[models.a\]: unknown key 'pth'"),
        ("output = 'o'\n[models.a]\npath='x'\nmax_tokens='many'\n", "max_tokens: expected an"),
        ("output = 'o'\n[models.a]\npath='x'\n[benchmarks.b]\nfile='y'\n", "unknown key 'file'"),
        ("output = [\n", "not valid TOML"),
        ("[models.a]\npath='x'\n[benchmarks.b]\npath='y'\n", "no results folder"),
        ("output='o'\n[models.a]\npath='x'\nengine='tgi'\n", "engine 'tgi'"),
        ("output='o'\n[models.a]\npath='x'\nengine='openai'\n", "needs the server's URL"),
    ],
)
def test_bad_toml_names_file_and_key(tmp_path, toml, message):
    with pytest.raises(LeashError, match=message):
        build(tmp_path, toml, cli_benches=["b=y.jsonl"])


def test_bad_command_lines():
    with pytest.raises(LeashError, match="name the base model"):
        build(output="o", cli_models=["a=x", "b=y"], cli_benches=["t=f.jsonl"])
    only_targets = build(
        output="o", cli={"base": "c"}, cli_models=["a=x"], cli_benches=["t=f.jsonl"]
    )
    assert only_targets.base is None and only_targets.base_name == "c"  # c: already sampled
    assert only_targets.models[0].role == "target"
    with pytest.raises(LeashError, match="expected NAME=PATH"):
        build(output="o", cli_models=["just-a-path"], cli_benches=["t=f.jsonl"])
    with pytest.raises(LeashError, match="given twice"):
        build(output="o", cli_models=["a=x", "a=y"], cli_benches=["t=f.jsonl"])
    with pytest.raises(LeashError, match="no benchmark"):
        build(output="o", cli_models=["a=x"])
    with pytest.raises(LeashError, match="top_p"):
        build(output="o", cli={"top_p": 0.0}, cli_models=["a=x"], cli_benches=["t=f.jsonl"])
    with pytest.raises(LeashError, match="samples"):
        build(output="o", cli={"samples": 0}, cli_models=["a=x"], cli_benches=["t=f.jsonl"])


def test_shards_partition_the_questions():
    shards = [parse_shard(f"{i}/3") for i in range(3)]
    for position in range(20):
        assert sum(s.holds(position) for s in shards) == 1
    assert Shard().holds(7)
    for bad in ("3/3", "1", "a/b", "-1/2", "0/0"):
        with pytest.raises(LeashError, match="--shard"):
            parse_shard(bad)
