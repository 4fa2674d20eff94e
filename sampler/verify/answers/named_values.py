"""The question decides which named value is the answer: ``k = -2, q = -4`` when it asks for q.

``asked_name`` reads the one quantity a problem's last question asks for ("Find $q$.",
"What is the value of $q$?", "solve for $x$", "求 $q$", "What is y?"), as the symbol it
names, or None.
``named_value`` picks, from an answer that names several values (``k = -2, q = -4``), the
value of that symbol; None when the answer names no such value, names it twice, or is
not a list of named values. Pure string work, done where the answer is prepared
(``sampler.verify.answers.verdict.prepare_span``); without a problem text nothing changes.
"""

from __future__ import annotations

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
