"""An answer a completion closes with inside a quoted block, unwrapped before it is read.

Meta-prompting's conductor ends ``>> FINAL ANSWER:\\n\"\"\"\\n1 час\\n\"\"\"``: a label
line heads a block fenced by triple quotes (or, after an answer label, by a fence of
backticks with no language or a plain-text one), each fence alone on its line, and that
block closes the completion. ``without_answer_quotes`` removes the fences, so that the
label heads its answer as ``Answer:\\n42`` does and every rule reads it. A fenced block
after any other line (code, a program's output) is left alone. Linear: one match anchored
at the end of the text.
"""

from __future__ import annotations

import re

#: a label line ending with a colon (not a program's ``def f():``), then a block fenced by
#: triple quotes, each fence alone on its line, that closes the text:
#: ``FINAL ANSWER:\n"""\n1 час\n"""`` (the body's lines split one way only: linear)
_QUOTED_BLOCK_RE = re.compile(
    r"(?<![)\]])(?P<label>[:：][ \t*_]*)\n[ \t]*(?P<fence>\"\"\"|''')[ \t]*\n"
    r"(?P<body>[^\n]*(?:\n[^\n]*){0,11}?)\n[ \t]*(?P=fence)[ \t]*\Z"
)
#: the same with backticks, after an answer label only: ``Final answer:\n```\n42\n````
_FENCED_ANSWER_RE = re.compile(
    r"(?P<label>\banswer[ \t*_]*[:：][ \t*_]*)\n[ \t]*```(?:text|plaintext|markdown)?[ \t]*\n"
    r"(?P<body>[^\n]*(?:\n[^\n]*){0,11}?)\n[ \t]*```[ \t]*\Z",
    re.IGNORECASE,
)
_TAIL = 2000


def without_answer_quotes(text: str) -> str:
    """``text`` with the fences of a quoted answer block that closes it removed (the
    block's lines stay); ``text`` itself when it closes with none."""
    if not text.rstrip().endswith(('"""', "'''", "```")):
        return text
    text = text.rstrip()
    start = max(0, len(text) - _TAIL)
    for pattern in (_QUOTED_BLOCK_RE, _FENCED_ANSWER_RE):
        match = pattern.search(text, start)
        if match is not None:
            body = match.group("body").strip()
            if not body or '"""' in body or "'''" in body or "```" in body:
                return text  # an empty block, or several: no one quoted answer
            return text[: match.end("label")] + "\n" + body
    return text
