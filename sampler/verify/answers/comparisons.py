"""The question decides which side of a comparison is the answer: ``0.3 is bigger than 2/7``
states 0.3 for "Which is bigger: 0.3 or 2/7?", and ``2/7 < 0.3`` states it too.

``asked_comparison`` reads whether the problem's last question asks for the greater or the
smaller of what it names ("Which is bigger: 0.3 or 2/7?", "Which number is smaller, -1 or
3?", "Which is greater, 4/9 or 0.4?"): ``MORE``, ``LESS`` or None.
``compared_value`` picks, from a statement that compares two values (``0.3 is bigger than
2/7``, ``-1 is less than 3``, ``$0.3 > \\frac{2}{7}$``), the one the question asks for: the
left side when the statement compares in the question's sense, the right side when it
compares the other way; None when the statement is no comparison of two values. Pure string
work, done where the answer is prepared (``sampler.verify.answers.verdict.prepare_span``);
without a problem text nothing changes.
"""

from __future__ import annotations

import re

MORE = "more"
LESS = "less"

_MORE_WORDS = r"bigger|greater|larger|higher|more"
_LESS_WORDS = r"smaller|less|lesser|lower|fewer"
_ASKED_RE = re.compile(
    r"\bwhich\s+(?:(?:number|value|one|quantity|fraction|decimal)\s+)?(?:is|was)\s+"
    rf"(?:the\s+)?(?P<word>{_MORE_WORDS}|{_LESS_WORDS})\b[^?]{{0,120}}\?",
    re.IGNORECASE,
)
#: how much of the end of a problem is searched for what it asks
_PROBLEM_TAIL = 400
_VALUE = r"-?\s*(?:\\d?frac\{-?\d+\}\{-?\d+\}|\d+(?:\.\d+)?(?:\s*/\s*\d+)?|\.\d+)"
_WORDED_RE = re.compile(
    rf"(?<![\w.])(?P<a>{_VALUE})\s+(?:is|are)\s+(?:(?:much|slightly|a\s+(?:little\s+)?bit)\s+)?"
    rf"(?P<word>{_MORE_WORDS}|{_LESS_WORDS})\s+than\s+(?P<b>{_VALUE})(?![\w.]|/\d)",
    re.IGNORECASE,
)
_SYMBOL_RE = re.compile(
    rf"(?<![\w.])(?P<a>{_VALUE})\s*(?P<op>>|<|\\gt\b|\\lt\b)\s*(?P<b>{_VALUE})(?![\w.]|/\d|\s*[<>=])"
)


def asked_comparison(problem: str | None) -> str | None:
    """``MORE`` or ``LESS`` when the problem ends asking which of what it names is the
    greater or the smaller, else None (module docstring)."""
    if not problem:
        return None
    found = list(_ASKED_RE.finditer(problem[-_PROBLEM_TAIL:]))
    if not found:
        return None
    return MORE if re.fullmatch(_MORE_WORDS, found[-1].group("word"), re.IGNORECASE) else LESS


def compared_value(statement: str, asked: str) -> str | None:
    """The side of the one comparison in ``statement`` that the question asks for, else
    None (module docstring)."""
    plain = statement.replace("$", " ").replace("\\(", " ").replace("\\)", " ")
    worded = list(_WORDED_RE.finditer(plain))
    symbols = list(_SYMBOL_RE.finditer(plain))
    if len(worded) + len(symbols) != 1:
        return None  # no comparison, or several: not one statement of which is which
    if worded:
        match = worded[0]
        more = re.fullmatch(_MORE_WORDS, match.group("word"), re.IGNORECASE) is not None
    else:
        match = symbols[0]
        more = match.group("op") in (">", "\\gt")
    side = "a" if more == (asked == MORE) else "b"
    return re.sub(r"\s+", "", match.group(side))
