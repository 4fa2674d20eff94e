"""LaTeX whose every backslash is doubled: written inside a JSON or Python string.

A model asked for JSON writes ``{"answer": "\\\\boxed{1.04\\\\text{ mm}}"}``: it escaped each
backslash for the string, and the text it returned holds ``\\\\boxed``, ``\\\\frac``. A
harness that stores ``repr(output)`` or a JSON-encoded string in a text field does the same
to a whole completion ("there are $\\\\boxed{0}$ happy numbers"). Read as LaTeX, ``\\\\``
is a line break and ``text{ mm}`` plain letters, so the box reads ``1.04\\\\text{ mm}`` and
no unit.

``with_single_backslashes`` halves every doubled backslash of a completion whose LaTeX is
written this way throughout: it has a command after a doubled backslash (``\\\\frac``,
``\\\\(``) and none after a single one, except the letters a string escape begins with
(``\\n``, ``\\t``, ``\\r``, ``\\b``, ``\\f``, ``\\u``: the string's own line breaks and tabs,
which it leaves as written). Text that mixes both kinds (a LaTeX line break ``\\\\`` before
``\\text{…}`` in a matrix, ``\\sqrt`` elsewhere) is read as written. Linear time.
"""

from __future__ import annotations

import re

#: a command, or a math delimiter, after a doubled backslash (three or more: a line break
#: before a command, written as LaTeX is)
_ESCAPED_RE = re.compile(r"(?<!\\)\\\\(?:[A-Za-z]{2,}|[()\[\]])")
#: a command after a single backslash, other than a string escape's letter
_PLAIN_RE = re.compile(r"(?<!\\)\\(?:[ac-eg-mo-qsv-zA-Z][A-Za-z]|[()\[\]])")


def has_doubled_backslashes(text: str) -> bool:
    """Whether ``text`` writes its LaTeX with every backslash doubled (module docstring)."""
    return "\\\\" in text and bool(_ESCAPED_RE.search(text)) and not _PLAIN_RE.search(text)


def with_single_backslashes(text: str) -> str:
    """``text`` with each doubled backslash halved when it writes its LaTeX that way
    throughout (``has_doubled_backslashes``); else ``text`` as it is."""
    if not has_doubled_backslashes(text):
        return text
    return text.replace("\\\\", "\\")
