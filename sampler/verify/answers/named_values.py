"""The question decides which named value is the answer: ``k = -2, q = -4`` when it asks for q.

``asked_name`` reads the one quantity a problem's last question asks for ("Find $q$.",
"What is the value of $q$?", "solve for $x$", "求 $q$", "What is y?"), as the symbol it
names, or None.
``one_name_values`` reads a list of solutions that names its symbol each time (``x = 2
and x = 3``), which is a list, not the last of its values.
``named_value`` picks, from an answer that names several values (``k = -2, q = -4``), the
value of that symbol; None when the answer names no such value, names it twice, or is
not a list of named values. Pure string work, done where the answer is prepared
(``sampler.verify.answers.verdict.prepare_span``); without a problem text nothing changes.
"""

from __future__ import annotations

import itertools
import re

_SYMBOL = r"[A-Za-z](?:_\{?\w{1,4}\}?)?"
_ASKED_RE = re.compile(
    r"(?:find|compute|determine|what\s+is|what\s+are|value\s+of|solve\s+for|\bfor|evaluate|求|则)"
    r"\s*(?:the\s+(?:value|values)\s+of\s+)?(?:(?:\$|\\\()\s*(" + _SYMBOL + r")\s*(?:\$|\\\))"
    r"|(?<![\w$])([A-Za-z])(?![\w$]))"
    r"(?=\s*(?:[?.,;:!？。，；]|$|if\b|when\b|given\b|in\s+terms\b|的值))",
    re.IGNORECASE,
)
_NAMED_PART_RE = re.compile(r"\s*(" + _SYMBOL + r")\s*=\s*([^=]+?)\s*")
#: how much of the end of a problem is searched for what it asks
_PROBLEM_TAIL = 600


def asked_name(problem: str | None) -> str | None:
    """The symbol the problem's last question asks for, or None (module docstring)."""
    if not problem:
        return None
    found = list(_ASKED_RE.finditer(problem[-_PROBLEM_TAIL:]))
    return _plain(found[-1].group(1) or found[-1].group(2)) if found else None


def named_value(answer_parts: list[str], asked: str) -> str | None:
    """The value the answer gives ``asked`` among several named values, else None."""
    if len(answer_parts) < 2:
        return None
    values: dict[str, list[str]] = {}
    for part in answer_parts:
        match = _NAMED_PART_RE.fullmatch(part)
        if match is None:
            return None  # not a list of named values
        values.setdefault(_plain(match.group(1)), []).append(match.group(2))
    chosen = values.get(asked)
    return chosen[0] if chosen and len(chosen) == 1 else None


def _plain(symbol: str) -> str:
    return symbol.replace("{", "").replace("}", "").replace(" ", "")


#: values named in a sentence, joined by commas or "and": "x = 5 and y = 3", "$a=2$, $b=-1$"
_NAMED_IN_SENTENCE_RE = re.compile(
    r"(?<![\w\\])(" + _SYMBOL + r")\s*=\s*(-?\d+(?:\.\d+)?(?:/\d+)?|-?\\frac\{\d+\}\{\d+\})"
    r"(?![\w.=/^])"
)
_JOINER_RE = re.compile(r"[\s$,]*(?:and|et|und|y|和|与)?[\s$,]*")


def named_values_in(sentence: str) -> list[str]:
    """The values a sentence names one after another (``x = 5 and y = 3``: ``x = 5``,
    ``y = 3``), as ``name = value``; [] unless they are at least two, follow each other
    joined only by commas, dollars or "and", and each name is named once."""
    found = list(_NAMED_IN_SENTENCE_RE.finditer(sentence))
    if len(found) < 2:
        return []
    for before, after in itertools.pairwise(found):
        if not _JOINER_RE.fullmatch(sentence, before.end(), after.start()):
            return []
    names = [_plain(m.group(1)) for m in found]
    if len(set(names)) != len(names):
        return []
    return [f"{m.group(1)} = {m.group(2)}" for m in found]


def one_name_values(sentence: str) -> list[str]:
    """The values a sentence gives one symbol one after another (``x = 2 and x = 3``,
    ``x = 2, x = 3``: a list of solutions), as ``name = value``; [] unless they are at least
    two, distinct, and follow each other joined only by commas, dollars or "and"."""
    found = list(_NAMED_IN_SENTENCE_RE.finditer(sentence))
    if len(found) < 2 or len({_plain(m.group(1)) for m in found}) != 1:
        return []
    for before, after in itertools.pairwise(found):
        if not _JOINER_RE.fullmatch(sentence, before.end(), after.start()):
            return []
    values = [m.group(2) for m in found]
    if len(set(values)) != len(values):
        return []
    return [f"{m.group(1)} = {m.group(2)}" for m in found]
