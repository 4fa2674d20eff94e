"""verifiers' v1 ``Episode`` records (``traces.jsonl``), read for prime-rl and verifiers alike.

Checked against PrimeIntellect-ai/verifiers at commit a60a606ecc4d309247edf9ff92c3eabca362781f
and the PyPI release ``verifiers==0.4.0`` (whose own classes write the test files:
``verifiers/v1/episode.py`` ``Episode``, ``GroupInfo``, ``EnvInfo``; ``verifiers/v1/trace.py``
``Trace``, ``Reward``, ``Error``; ``verifiers/v1/graph.py`` ``MessageNode``;
``verifiers/v1/task.py`` ``TaskData``; ``verifiers/v1/utils/trace_store.py`` ``write_episode``:
one JSON line per episode, appended). One line per episode:

    env.id               str          e.g. ``gsm8k``, ``best-of-n+gsm8k``  -> the benchmark (its
                                                                           last ``+`` part)
    task.data.idx        int          the dataset row             -> question_id (else the
                                                                     problem text's id)
    task.data.prompt     str | [msg]  the prompt                  -> problem (the last user
                                                                     message; else the first
                                                                     user node of a trace)
    task.data.answer     any          (most math tasksets) the answer -> gold
    ok                   bool         false: the episode failed   -> with no traces, one sample
                                                                     of status ``error``
    errors[]             {type, message}                           -> that sample's detail
    traces[]             every agent's trace: each one sample —
      nodes[].message    {role, content}; ``sampled`` nodes are the model's turns -> text
      rewards            {name: {score, weight}}: the sum of score x weight -> source_correct
                                                                     when 0/1
      stop_condition     str                                      -> finish_reason

A failed episode (``ok`` false, ``traces`` empty: prime-rl writes them on purpose) whose task
names its question (``idx`` or a prompt) is a sample of status ``error``; one that names none
is a bad record (``--skip-bad-records``). Samples are grouped by question and the group sizes
of a file checked against each other (``trainer_samples``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sampler.importers.chat_template import problem_of_messages, problem_of_prompt
from sampler.importers.protocol import SourceRead
from sampler.importers.record_file import RecordFile, json_records
from sampler.importers.source_fields import Fields, benchmark_name
from sampler.importers.trainer_samples import score_verdict


def read_episodes(source: SourceRead, path: Path, fmt: str) -> None:
    """Stream the episodes of one ``traces.jsonl`` into the session as ``source.model``."""
    file = RecordFile(source, path, fmt)
    file.read(json_records(path), lambda fields: _episode(file, fields), "episodes")


def _episode(file: RecordFile, fields: Fields) -> None:
    source = file.source
    traces = fields.value("traces")
    if not isinstance(traces, list):
        raise fields.expected("traces", "the episode's traces (a list)", traces)
    env = fields.value("env.id")
    name = source.bench or (env if isinstance(env, str) and env else file.fmt)
    benchmark = source.bench or benchmark_name(name.split("+")[-1], fields.where)
    idx = fields.value("task.data.idx")
    question_id = str(idx) if isinstance(idx, int) and not isinstance(idx, bool) else None
    gold = fields.gold("task.data.answer", required=False)
    prompt = fields.value("task.data.prompt")
    if not traces:
        _failed_episode(file, fields, benchmark, question_id, gold, _problem(prompt, []))
        return
    for trace in traces:
        if not isinstance(trace, dict):
            raise fields.fail(f"a trace must be an object, got {type(trace).__name__}")
        messages = [n.get("message") for n in trace.get("nodes") or [] if isinstance(n, dict)]
        problem = _problem(prompt, messages)
        text = _sampled_text(trace)
        if problem is None or text is None:
            raise fields.fail(
                "cannot tell the problem and the model's turns of a trace (no user message"
                " or no sampled node)"
            )
        stop = trace.get("stop_condition")
        file.groups.add(
            fields.number,
            benchmark,
            source.model,
            problem,
            gold,
            text,
            score_verdict(_reward(trace.get("rewards"))),
            finish_reason=stop if isinstance(stop, str) else None,
            question_id=question_id,
        )


def _failed_episode(
    file: RecordFile,
    fields: Fields,
    benchmark: str,
    question_id: str | None,
    gold: str | None,
    problem: str | None,
) -> None:
    """An episode with no trace: a sample of status ``error`` when it names its question."""
    if fields.value("ok") is not False:
        raise fields.fail("field 'traces' is empty but the episode is not marked failed (ok)")
    if problem is None and question_id is None:
        raise fields.fail(
            "a failed episode (ok false, no traces) whose task names no question (no"
            " task.data.idx or task.data.prompt)"
        )
    errors = fields.value("errors")
    last = errors[-1] if isinstance(errors, list) and errors else None
    detail = "failed episode"
    if isinstance(last, dict):
        detail += f": {last.get('type', 'error')}: {last.get('message', '')}".rstrip(": ")
    file.groups.add(
        fields.number,
        benchmark,
        file.source.model,
        problem,
        gold,
        "",
        None,
        question_id=question_id,
        error=detail,
    )


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
