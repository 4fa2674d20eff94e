"""Writes tests/data/importers/verifiers-0.4.0/: episode records made by verifiers 0.4.0 itself.

Run with PyPI ``verifiers==0.4.0`` installed (its own classes build and write every record;
nothing here writes JSON by hand except the killed write, which cuts a record verifiers
wrote)::

    python3 -m venv /work/venvs/verifiers && /work/venvs/verifiers/bin/pip install verifiers==0.4.0
    /work/venvs/verifiers/bin/python tests/data/importers/make_verifiers_0_4.py

What it writes, in the layouts of that release:

* ``outputs/gsm8k--qwen--qwen3-0.6b--default--3f9c2a1e/traces.jsonl``: a ``vf-eval`` run
  (``verifiers/v1/configs/cli/eval.py`` ``default_run_name``: ``<env>--<model with / as
  -->--<harness>--<short id>``, lower case) whose episodes ``utils/trace_store.write_episode``
  appends, one a line: 3 tasks x 4 rollouts, one rollout of task 2 a failed episode
  (``ok`` false, no traces, one ``Error``);
* ``killed/gsm8k--qwen--qwen3-0.6b--default--77aa01bc/traces.jsonl``: the same run killed in
  the middle of a write and resumed: the cut record and the next one share line 6;
* ``prime-rl/rollouts/step_{0,10}/eval/all/traces.jsonl``: what prime-rl's ``FileMonitor``
  writes (``episode.to_record()`` a line) for two steps of the same 3 tasks x 2 rollouts.

Rewards are ``{"correct_answer": Reward(score)}``; a task's ``answer`` rides on
``task.data`` as the math environments put it there. Timestamps and ids are fixed so that
rerunning the script rewrites the same bytes.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from verifiers.v1.configs.agent import AgentConfig
from verifiers.v1.episode import EnvInfo, Episode, GroupInfo
from verifiers.v1.graph import MessageNode
from verifiers.v1.task import WireTaskData
from verifiers.v1.trace import AgentInfo, Error, Reward, Timing, Trace, TraceTask
from verifiers.v1.utils.trace_store import write_episode

HERE = Path(__file__).resolve().parent / "verifiers-0.4.0"
TASKS = [("What is 1+1?", "2"), ("What is 2*3?", "6"), ("What is 10-7?", "3")]
RUN = "gsm8k--qwen--qwen3-0.6b--default--3f9c2a1e"
KILLED = "gsm8k--qwen--qwen3-0.6b--default--77aa01bc"


def completion(answer: str) -> str:
    return f"We compute it.\nThe answer is $\\boxed{{{answer}}}$."


def task(idx: int) -> TraceTask:
    problem, gold = TASKS[idx]
    data = WireTaskData(idx=idx, prompt=[{"role": "user", "content": problem}], answer=gold)
    return TraceTask(type="MathTask", data=data, key=f"gsm8k-{idx}")


def episode(idx: int, rollout: int, answer: str | None) -> Episode:
    """One rollout of task ``idx`` answering ``answer`` (None: the episode failed)."""
    the_task = task(idx)
    ident = f"{idx:02d}{rollout:02d}"
    group = GroupInfo(id=f"group-{idx}")
    if answer is None:
        error = Error(type="ProviderError", message="502 Bad Gateway", status_code=502)
        return Episode(id=f"ep{ident}", env=EnvInfo(id="gsm8k"), task=the_task, group=group,
                       ok=False, errors=[error], traces=[])  # fmt: skip
    problem, gold = TASKS[idx]
    nodes = [
        MessageNode(message={"role": "user", "content": problem}, timestamp=1.0),
        MessageNode(
            message={"role": "assistant", "content": completion(answer)},
            sampled=True,
            timestamp=2.0,
        ),
    ]
    trace = Trace(
        id=f"tr{ident}",
        task=the_task,
        agent=AgentInfo(config=AgentConfig(model="Qwen/Qwen3-0.6B")),
        nodes=nodes,
        rewards={"correct_answer": Reward(score=1.0 if answer == gold else 0.0)},
        is_completed=True,
        ok=True,
        stop_condition="completed",
        timing=Timing(start=1.0),
    )
    return Episode(id=f"ep{ident}", env=EnvInfo(id="gsm8k"), task=the_task, group=group,
                   ok=True, traces=[trace])  # fmt: skip


def eval_run(folder: Path, answers: list[list[str | None]]) -> None:
    folder.mkdir(parents=True)
    (folder / "traces.jsonl").write_text("")  # cli/output.save_config starts it empty
    for rollout in range(max(len(a) for a in answers)):
        for idx, given in enumerate(answers):
            if rollout < len(given):
                write_episode(folder, episode(idx, rollout, given[rollout]))


def killed_run(folder: Path) -> None:
    """A run killed while appending its 6th record, then resumed: the cut record (the
    first half of its bytes) and the next one share one line."""
    eval_run(folder, [["2", "2"], ["6", "5"], ["3", "3"]])
    path = folder / "traces.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    cut = lines[5][: len(lines[5]) // 2]
    path.write_bytes(b"".join(lines[:5]) + cut)
    write_episode(folder, episode(2, 2, "3"))
    write_episode(folder, episode(0, 2, "2"))


def prime_rl_step(root: Path, step: int, answers: list[list[str | None]]) -> None:
    folder = root / "rollouts" / f"step_{step}" / "eval" / "all"
    folder.mkdir(parents=True)
    with open(folder / "traces.jsonl", "a", encoding="utf-8") as handle:
        for idx, given in enumerate(answers):
            for rollout, answer in enumerate(given):
                handle.write(json.dumps(episode(idx, rollout, answer).to_record()) + "\n")


def main() -> None:
    shutil.rmtree(HERE, ignore_errors=True)
    eval_run(
        HERE / "outputs" / RUN,
        [["2", "2", "3", "2"], ["6", "6", "6", "5"], ["3", None, "4", "3"]],
    )
    killed_run(HERE / "killed" / KILLED)
    prime_rl_step(HERE / "prime-rl", 0, [["2", "3"], ["5", "5"], [None, "3"]])
    prime_rl_step(HERE / "prime-rl", 10, [["2", "2"], ["6", "5"], ["3", "3"]])


if __name__ == "__main__":
    main()
