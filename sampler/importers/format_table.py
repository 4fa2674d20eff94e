"""The import formats leash reads: one table of name, module and what PATH holds.

Plain data with no imports, so the ``leash import`` command builds its ``--from`` choices from
it without loading any importer; ``run_import`` loads a format's module by its name here.
"""

from __future__ import annotations

#: format name -> (module, what PATH holds); each module is a ``protocol.ImportFormat``
#: (``read_source(SourceRead)``), except jsonl, which names its models itself
FORMATS: dict[str, tuple[str, str]] = {
    "jsonl": ("sampler.importers.formats.jsonl", "interchange JSONL, one sample a line"),
    "qwen-eval": (
        "sampler.importers.formats.qwen_eval",
        "Qwen2.5-Math evaluation output: OUTPUT_DIR/<data_name>/*.jsonl",
    ),
    "lighteval": ("sampler.importers.formats.lighteval", "lighteval details_*.parquet files"),
    "lm-eval": ("sampler.importers.formats.lm_eval", "lm-evaluation-harness samples_*.jsonl files"),
    "verl": (
        "sampler.importers.formats.verl",
        "verl validation_data_dir / rollout_data_dir (STEP.jsonl) or generation Parquet",
    ),
    "trl": ("sampler.importers.formats.trl", "TRL GRPOTrainer completions/completions_*.parquet"),
    "nemo-skills": (
        "sampler.importers.formats.nemo_skills",
        "NeMo-Skills eval-results/<benchmark>/output-rs<seed>.jsonl",
    ),
    "skyrl": ("sampler.importers.formats.skyrl", "SkyRL dumped_evals/global_step_<N>_evals"),
    "nemo-rl": (
        "sampler.importers.formats.nemo_rl",
        "NeMo-RL eval save_path/evaluation_data.json, or GRPO val_data_step<N>.jsonl",
    ),
    "verifiers": (
        "sampler.importers.formats.verifiers",
        "verifiers vf-eval runs: outputs/<env>--<model>--<harness>--<id>/traces.jsonl"
        " (0.4), outputs/evals/<env>--<model>/<run>/results.jsonl (before)",
    ),
    "prime-rl": (
        "sampler.importers.formats.prime_rl",
        "prime-rl OUTPUT_DIR/rollouts/step_<N>/<kind>/<subset>/traces.jsonl (or any"
        " traces.jsonl of episodes)",
    ),
    "inspect": ("sampler.importers.formats.inspect_logs", "Inspect AI .eval logs (inspect_ai)"),
}
