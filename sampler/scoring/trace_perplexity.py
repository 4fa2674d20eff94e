"""``leash perplexity``: score reference traces under each model by teacher forcing.

Each trace (a JSON Lines file with ``benchmark``, ``question_id``, ``source`` and ``text``,
or ``reference``: each question's ``solution`` kept in its metadata) is fed after the
prompt its question was sampled with (sampled_prompts) and gets, per model, the number
of trace tokens n and the mean negative log-likelihood (1/n) sum_i -ln p(t_i | x, t_<i):
prompt tokens are excluded and no end token is added. Perplexity = exp(mean NLL).
Results are merged into ``perplexity.parquet`` (store.perplexity_table) after each
model, and a rerun skips (trace, model) pairs already there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from sampler.errors import LeashError
from sampler.sample.sampled_prompts import sampled_prompt
from sampler.scoring.teacher_forcing import teacher_forcing_engine
from sampler.store import PERPLEXITY_KEYS, ResultsFolder, as_folder, trace_id

REFERENCE = "reference"
TRACE_FIELDS = ("benchmark", "question_id", "source", "text")
FLUSH_EVERY = 256

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Trace:
    benchmark: str
    question_id: str
    source: str
    text: str

    @property
    def trace(self) -> str:
        return trace_id(self.text)


def load_traces(spec: str, results: ResultsFolder) -> list[Trace]:
    """Traces from a JSON Lines file, or the questions' reference solutions (``reference``).
    LeashError names the file, line and field of a bad line, or a question not in the folder."""
    known = set(
        zip(
            results.questions.column("benchmark").to_pylist(),
            results.questions.column("question_id").to_pylist(),
            strict=True,
        )
    )
    if spec == REFERENCE:
        traces = []
        for row in results.questions.to_pylist():
            meta = json.loads(row["metadata"]) if row["metadata"] else {}
            if isinstance(meta.get("solution"), str) and meta["solution"].strip():
                traces.append(
                    Trace(row["benchmark"], row["question_id"], REFERENCE, meta["solution"])
                )
        if not traces:
            raise LeashError(
                f"{results.root}/questions.parquet: no question keeps a reference solution"
                " (metadata field 'solution'); pass --traces FILE.jsonl"
            )
        return traces
    path = Path(spec)
    traces = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LeashError(f"{path}: cannot read the traces ({exc})") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LeashError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise LeashError(f"{path}:{number}: expected a JSON object")
        for name in TRACE_FIELDS:
            if name not in record or record[name] is None:
                raise LeashError(f"{path}:{number}: missing field {name!r}")
        if not isinstance(record["text"], str):
            raise LeashError(f"{path}:{number}: field 'text' must be a string")
        trace = Trace(
            str(record["benchmark"]),
            str(record["question_id"]),
            str(record["source"]),
            record["text"],
        )
        if (trace.benchmark, trace.question_id) not in known:
            raise LeashError(
                f"{path}:{number}: question {trace.benchmark}/{trace.question_id} is not in"
                f" {results.root}"
            )
        traces.append(trace)
    if not traces:
        raise LeashError(f"{path}: no traces")
    return traces


def score_traces(
    folder: ResultsFolder | Path | str,
    traces_spec: str,
    models: Mapping[str, str],
    engine: str = "hf",
    dtype: str = "auto",
    device: str | None = None,
    fallback_template: str = "boxed",
    progress: Progress | None = None,
    gpu_memory_utilization: float = 0.9,
    enforce_eager: bool = False,
) -> dict[str, int]:
    """Score every trace under every model (name -> checkpoint); returns traces scored per model."""
    results = as_folder(folder)
    root = results.root
    for name in models:
        if results.manifest.model(name) is None:
            known = ", ".join(m.name for m in results.manifest.models) or "none"
            raise LeashError(f"--model {name}: no such model in {root} (models: {known})")
    traces = load_traces(traces_spec, results)
    problems = {
        (r["benchmark"], r["question_id"]): r["problem"]
        for r in results.questions.select(["benchmark", "question_id", "problem"]).to_pylist()
    }
    stored = results.perplexity()
    have = {
        tuple(r[k] for k in PERPLEXITY_KEYS)
        for r in stored.select(list(PERPLEXITY_KEYS)).to_pylist()
    }
    scored: dict[str, int] = {}
    for name, path in models.items():
        todo = [
            t for t in traces
            if (t.benchmark, t.question_id, t.source, t.trace, name) not in have
        ]  # fmt: skip
        scored[name] = 0
        if progress:
            progress(name, 0, len(todo))
        if not todo:
            continue
        scorer = teacher_forcing_engine(
            engine,
            path,
            dtype=dtype,
            device=device,
            need_entropy=False,
            gpu_memory_utilization=gpu_memory_utilization,
            enforce_eager=enforce_eager,
        )
        scorer.start()
        try:
            recipe = sampled_prompt(
                results.manifest.model(name), scorer.tokenizer, fallback_template
            )
            rows: list[dict] = []
            for trace in todo:
                problem = problems.get((trace.benchmark, trace.question_id))
                if problem is None:
                    raise LeashError(
                        f"question {trace.benchmark}/{trace.question_id} has no problem text in"
                        f" {root}/questions.parquet, so its prompt cannot be rebuilt"
                    )
                prompt = recipe.token_ids(problem, scorer.tokenizer)
                scores = scorer.score(prompt, scorer.encode(trace.text))
                rows.append(
                    {
                        "benchmark": trace.benchmark,
                        "question_id": trace.question_id,
                        "source": trace.source,
                        "trace": trace.trace,
                        "model": name,
                        "n_tokens": int(scores.nll.size),
                        "mean_nll": scores.mean_nll,
                        "text": trace.text,
                    }
                )
                scored[name] += 1
                if len(rows) >= FLUSH_EVERY:
                    results.merge_perplexity(rows)
                    rows = []
                if progress:
                    progress(name, scored[name], len(todo))
            results.merge_perplexity(rows)
        finally:
            scorer.close()
    return scored
