"""``leash import --from prime-rl``: prime-rl's episode records (``traces.jsonl``), a series.

Checked against PrimeIntellect-ai/prime-rl ``src/prime_rl/monitors/file.py`` at commit
559b44772e471d1538537b8805cc77f3824a5e64 (``FileMonitor.log_episodes``: one
``orjson.dumps(episode.to_record())`` line per episode, appended to
``OUTPUT_DIR/rollouts/step_<N>/<kind>/<subset>/traces.jsonl``, kind train or eval, subset
all or effective) and PrimeIntellect-ai/verifiers at commit
a60a606ecc4d309247edf9ff92c3eabca362781f (``verifiers/v1/episode.py``: ``Episode``,
``GroupInfo``; ``verifiers/v1/trace.py``: ``Trace``, ``Reward``; ``verifiers/v1/graph.py``:
``MessageNode``; ``verifiers/v1/task.py``: ``TaskData``). One line per episode:

    task.data.idx        int          the dataset row            -> question_id (else the
                                                                     problem text's id)
    task.data.prompt     str | [msg]  the prompt                 -> problem (the last user
                                                                     message; else the first
                                                                     user node of the trace)
    task.data.answer     any          (most math envs) the answer -> gold
    group.id             str          the rollout group (the k episodes of one task); leash
                                      groups by question instead and checks the sizes
    traces[]             every agent's trace: each one sample —
      nodes[].message    {role, content}; ``sampled`` nodes are the model's turns -> text
      rewards            {name: {score, weight}}: the sum of score x weight -> source_correct
                                                                     when 0/1
      stop_condition     str                                     -> finish_reason

Each ``step_<N>`` folder becomes model ``MODEL@N`` (``MODEL@0`` the base of a new folder). Of
the kinds and subsets, ``eval/all`` is read when present (the evaluations), else the only
one there is; a PATH with several others is refused, naming them. The benchmark is
``--bench``, else the episode's ``env.id``. Records the JSON cannot describe (no trace, no
sampled message) are refused with their line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sampler.benchmarks.files import iter_json_lines
from sampler.errors import LeashError
from sampler.importers.chat_template import problem_of_messages, problem_of_prompt
from sampler.importers.core import ImportSession
from sampler.importers.source_fields import Fields, benchmark_name
from sampler.importers.trainer_samples import QuestionGroups, score_verdict

FORMAT = "prime-rl"
STEP_DIR = re.compile(r"^step_(\d+)$")
PREFERRED = ("eval", "all")


def read_source(
    session: ImportSession,
    model: str,
    path: Path,
    bench: str | None,
    source_metric: str | None,
) -> list[str]:
    if source_metric is not None:
        raise LeashError("--source-metric does not apply to --from prime-rl (the reward is it)")
    models = []
    for step, file in _files(path):
        name = f"{model}@{step}"
        _read_file(session, name, file, bench)
        models.append(name)
    return models


def _files(path: Path) -> list[tuple[int, Path]]:
    candidates = [path] if path.is_file() else sorted(path.rglob("traces.jsonl"))
    found: dict[tuple[str, str], list[tuple[int, Path]]] = {}
    for file in candidates:
        match = STEP_DIR.match(file.parent.parent.parent.name)
        if match is None:
            continue
        kind = (file.parent.parent.name, file.parent.name)
        found.setdefault(kind, []).append((int(match.group(1)), file))
    if not found:
        raise LeashError(
            f"{path}: no prime-rl rollouts/step_<N>/<kind>/<subset>/traces.jsonl files found"
        )
    if PREFERRED in found:
        return sorted(found[PREFERRED])
    if len(found) > 1:
        kinds = ", ".join(f"{k}/{s}" for k, s in sorted(found))
        raise LeashError(
            f"{path}: episodes of several kinds ({kinds}) and no eval/all: point PATH at the"
            " files of one (e.g. a single step's folder)"
        )
    return sorted(next(iter(found.values())))


def _read_file(session: ImportSession, model: str, path: Path, bench: str | None) -> None:
    index = session.file(path, "line", model)
    groups = QuestionGroups(session, index)
    for number, record in iter_json_lines(path):
        fields = Fields(session.where(index, number), record, FORMAT)
        traces = fields.value("traces")
        if not isinstance(traces, list) or not traces:
            raise fields.expected("traces", "the episode's traces (a non-empty list)", traces)
        env = fields.value("env.id")
        name = bench or (env if isinstance(env, str) and env else FORMAT)
        benchmark = bench or benchmark_name(name.split("+")[-1], fields.where)
        idx = fields.value("task.data.idx")
        question_id = str(idx) if isinstance(idx, int) and not isinstance(idx, bool) else None
        gold = fields.gold("task.data.answer", required=False)
        for trace in traces:
            if not isinstance(trace, dict):
                raise fields.fail(f"a trace must be an object, got {type(trace).__name__}")
            messages = [n.get("message") for n in trace.get("nodes") or [] if isinstance(n, dict)]
            problem = _problem(fields.value("task.data.prompt"), messages)
            text = _sampled_text(trace)
            if problem is None or text is None:
                raise fields.fail(
                    "cannot tell the problem and the model's turns of a trace (no user message"
                    " or no sampled node)"
                )
            stop = trace.get("stop_condition")
            groups.add(
                number,
                benchmark,
                model,
                problem,
                gold,
                text,
                score_verdict(_reward(trace.get("rewards"))),
                finish_reason=stop if isinstance(stop, str) else None,
                question_id=question_id,
            )
    if not groups.sizes:
        raise LeashError(f"{path}: no episodes (empty file)")
    groups.check_sizes()


def _problem(prompt: Any, messages: list[Any]) -> str | None:
    if isinstance(prompt, str) and prompt.strip():
        return problem_of_prompt(prompt)
    found = problem_of_messages(prompt)
    if found is not None:
        return found
    users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
    return problem_of_messages(users[:1])


def _sampled_text(trace: dict[str, Any]) -> str | None:
    parts = []
    for node in trace.get("nodes") or []:
        message = node.get("message") if isinstance(node, dict) else None
        if node.get("sampled") and isinstance(message, dict):
            content = message.get("content")
            if isinstance(content, str):
                parts.append(content)
    return "\n".join(parts) if parts else None


def _reward(rewards: Any) -> float | None:
    if not isinstance(rewards, dict):
        return None
    total = 0.0
    for reward in rewards.values():
        if reward is None:
            continue
        score, weight = reward.get("score"), reward.get("weight", 1.0)
        if not isinstance(score, int | float) or not isinstance(weight, int | float):
            return None
        total += score * weight
    return total
