"""Text a string's escapes were left in: LaTeX with every backslash doubled, line breaks
written as ``\\n``.

A model asked for JSON writes ``{"answer": "\\\\boxed{1.04\\\\text{ mm}}"}``: it escaped each
backslash for the string, and the text it returned holds ``\\\\boxed``, ``\\\\frac``. A
harness that stores ``repr(output)`` or a JSON-encoded string in a text field does the same
to a whole completion ("there are $\\\\boxed{0}$ happy numbers"), and writes its line breaks
as the two characters ``\\n`` ("…\\n\\nAnswer: 1. Decreased VLDL."). Read as LaTeX,
``\\\\`` is a line break and ``text{ mm}`` plain letters, so the box reads
``1.04\\\\text{ mm}`` and no unit; read as prose, a text with no line break has no last line.

``with_single_backslashes`` halves every doubled backslash of a completion whose LaTeX is
written this way throughout: it has a command after a doubled backslash (``\\\\frac``,
``\\\\(``) and none after a single one, except the letters a string escape begins with
(``\\n``, ``\\t``, ``\\r``, ``\\b``, ``\\f``, ``\\u``: the string's own line breaks and tabs,
which it leaves as written). Text that mixes both kinds (a LaTeX line break ``\\\\`` before
``\\text{…}`` in a matrix, ``\\sqrt`` elsewhere) is read as written. ``with_real_newlines``
turns ``\\n`` into a line break in a completion that has no line break of its own, where it
is no LaTeX command (not before a small letter: ``\\nu``, ``\\neq``). ``as_written`` does
both. Linear time.
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
    # (a single-backslash command, which most LaTeX opens with, is looked for first)
    return "\\\\" in text and not _PLAIN_RE.search(text) and bool(_ESCAPED_RE.search(text))


def with_single_backslashes(text: str) -> str:
    """``text`` with each doubled backslash halved when it writes its LaTeX that way
    throughout (``has_doubled_backslashes``); else ``text`` as it is."""
    if not has_doubled_backslashes(text):
        return text
    return text.replace("\\\\", "\\")


#: a line break written as ``\\n``: not a doubled backslash's second half, no command after it
_LITERAL_NEWLINE_RE = re.compile(r"(?<!\\)\\n(?![a-z])")


def with_real_newlines(text: str) -> str:
    """``text`` with each written ``\\n`` a line break when it has no line break of its own
    (module docstring); else ``text`` as it is."""
    if "\n" in text or "\\n" not in text:
        return text
    return _LITERAL_NEWLINE_RE.sub("\n", text)


def as_written(text: str) -> str:
    """``text`` with a string's escapes read (``with_single_backslashes``,
    ``with_real_newlines``)."""
    return with_real_newlines(with_single_backslashes(text))
