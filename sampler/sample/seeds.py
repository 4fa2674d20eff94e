"""Per (model, question) random seeds derived from the run seed, with disjoint sample streams.

vLLM draws the i-th of n samples of a request with seed ``s + i`` (its ``SamplingParams``
seed plus the sample index), so one question's k samples use the seeds s .. s + k - 1.
leash gives every (model, benchmark, question) its own block of ``2**SAMPLE_BITS``
consecutive seeds and lays the blocks out by position:

    seed = ((((run_seed * 2**MODEL_BITS + model) * 2**BENCHMARK_BITS + benchmark)
             * 2**QUESTION_BITS + question) * 2**SAMPLE_BITS) + sample

``model`` and ``benchmark`` are positions in the results folder's manifest (stable once
a folder exists), ``question`` the position of the question in its benchmark file.
Blocks never overlap, so no two samples of one run share a random stream, sample i of
a question is reproducible on its own (a run that extends k to 2k draws the new
samples from seeds k .. 2k - 1 of the same block), and different run seeds give
disjoint streams too. Every seed stays below 2**62.
"""

from __future__ import annotations

from sampler.errors import LeashError

SAMPLE_BITS = 20
QUESTION_BITS = 16
BENCHMARK_BITS = 5
MODEL_BITS = 5
RUN_SEED_BITS = 16

MAX_SAMPLES = 1 << SAMPLE_BITS
MAX_QUESTIONS = 1 << QUESTION_BITS
MAX_BENCHMARKS = 1 << BENCHMARK_BITS
MAX_MODELS = 1 << MODEL_BITS
MAX_RUN_SEED = (1 << RUN_SEED_BITS) - 1

SCHEME = (
    f"seed = run_seed<<{MODEL_BITS + BENCHMARK_BITS + QUESTION_BITS + SAMPLE_BITS}"
    f" | model<<{BENCHMARK_BITS + QUESTION_BITS + SAMPLE_BITS}"
    f" | benchmark<<{QUESTION_BITS + SAMPLE_BITS} | question<<{SAMPLE_BITS} | sample"
    " (model, benchmark: positions in the manifest; question: position in its file)"
)


def check_run_seed(run_seed: int) -> int:
    """Return ``run_seed`` if leash can lay out seeds for it, else raise LeashError."""
    if not 0 <= run_seed <= MAX_RUN_SEED:
        raise LeashError(f"--seed {run_seed}: must be between 0 and {MAX_RUN_SEED}")
    return run_seed


def check_layout(n_models: int, n_benchmarks: int, n_questions: int, n_samples: int) -> None:
    """Raise LeashError when a run is too large for the seed layout (naming the limit)."""
    limits = (
        ("models in one results folder", n_models, MAX_MODELS),
        ("benchmarks in one results folder", n_benchmarks, MAX_BENCHMARKS),
        ("questions in one benchmark", n_questions, MAX_QUESTIONS),
        ("samples per question (-k)", n_samples, MAX_SAMPLES),
    )
    for what, value, limit in limits:
        if value > limit:
            raise LeashError(f"too many {what}: {value} (leash's seed layout allows {limit})")


def question_seed(run_seed: int, model: int, benchmark: int, question: int) -> int:
    """Seed of sample 0 of one (model, benchmark, question); sample i uses this plus i."""
    check_run_seed(run_seed)
    for name, value, limit in (
        ("model", model, MAX_MODELS),
        ("benchmark", benchmark, MAX_BENCHMARKS),
        ("question", question, MAX_QUESTIONS),
    ):
        if not 0 <= value < limit:
            raise LeashError(f"{name} position {value} is outside the seed layout (0..{limit - 1})")
    block = ((run_seed * MAX_MODELS + model) * MAX_BENCHMARKS + benchmark) * MAX_QUESTIONS
    return (block + question) * MAX_SAMPLES
