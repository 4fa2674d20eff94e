"""Benchmark presets name their answer format (issue 32): GSM8K's closing ``#### N`` line is
read before any box, unless the user chose strategies for the benchmark or a default."""

from __future__ import annotations

from sampler.benchmarks.presets import PRESETS
from sampler.verify.answers.extraction import (
    DEFAULT_STRATEGIES,
    ExtractionConfig,
    extract_answer,
    parse_strategies,
)

RETHOUGHT = "First try: $\\boxed{4}$. No, I misread the second basket.\n#### 1,005"


def test_gsm8k_reads_its_hash_line_before_a_box():
    strategies = ExtractionConfig().strategies_for("gsm8k", "any-model")
    assert strategies == PRESETS["gsm8k"].answer_format
    span = extract_answer(RETHOUGHT, strategies)
    assert (span.text, span.rule) == ("1005", "hashes")
    # without the preset's format the box wins, as for any other benchmark
    assert extract_answer(RETHOUGHT).text == "4"
    assert ExtractionConfig().strategies_for("math500", "any-model") == DEFAULT_STRATEGIES


def test_a_user_setting_beats_the_preset_format():
    config = ExtractionConfig(benchmarks={"gsm8k": ("boxed",)})
    assert config.strategies_for("gsm8k", "m") == ("boxed",)
    assert ExtractionConfig(default=("answer_line",)).strategies_for("gsm8k", "m") == (
        "answer_line",
    )


def test_every_preset_format_is_valid_strategies():
    for preset in PRESETS.values():
        if preset.answer_format:
            assert parse_strategies(list(preset.answer_format)) == preset.answer_format
