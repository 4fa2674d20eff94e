"""Checks on a benchmark's golds as loaded: warnings for golds that cannot be final answers.

A raw GSM8K file (``answer`` holds the worked solution, its final answer after
``####``) loaded without the ``gsm8k`` preset takes the whole solution as the gold, and
every sample then grades wrong, silently. ``worked_solution_warning`` says so once per
benchmark, naming an example; pure string work on the questions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

#: GSM8K's final-answer marker and its calculator annotations (``<<48/2=24>>``).
_WORKED_RE = re.compile(r"^####|\n####|<<[^<>\n]{1,80}=[^<>\n]{1,40}>>")
#: a gold this long with a line break reads as a solution, not an answer
_LONG_GOLD = 150


def looks_worked(gold: str | None) -> bool:
    """Whether ``gold`` looks like a worked solution rather than a final answer."""
    if not gold:
        return False
    return bool(_WORKED_RE.search(gold)) or (len(gold) > _LONG_GOLD and "\n" in gold.strip())


def worked_solution_warning(name: str, questions: Sequence[Any]) -> str | None:
    """A one-line warning when golds of benchmark ``name`` look like worked solutions."""
    worked = [q for q in questions if looks_worked(q.gold)]
    if not worked:
        return None
    first = worked[0]
    example = " ".join(str(first.gold).split())[:60]
    hint = (
        "a GSM8K file loads as gsm8k=FILE (its preset takes the answer after '####')"
        if any("####" in str(q.gold) for q in worked)
        else "name the field that holds the final answer (--gold-field) or take the gold from"
        " the solution's last box (--gold-from-solution)"
    )
    return (
        f"benchmark {name!r}: {len(worked):,} of {len(questions):,} golds look like worked"
        f" solutions, not final answers (question {first.question_id}: {example!r}…); every"
        f" sample would grade wrong: {hint}"
    )
