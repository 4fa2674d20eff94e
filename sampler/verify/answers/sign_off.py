"""Courtesy sentences a chat model closes with, removed before its answer is read.

"So the product is 42.\\n\\nLet me know if you have other questions!" states 42: the last
sentence is a sign-off ("Let me know if …", "I hope this helps", "Feel free to ask …",
"If you have any other questions …", "Happy to help", "Good luck", "Is there anything else I can
help you with?", "Do you have other questions for me?"), no part of the answer.
``without_sign_off`` removes up to three of them from the end of the text, each a sentence
that starts a line or follows a sentence end; linear time (only the last ``_TAIL`` characters
are searched).
"""

from __future__ import annotations

import re

_TAIL = 600
_SIGN_OFF_RE = re.compile(
    r"(?:^|(?<=[.!?。！？:)\]$*])[ \t]+|(?<=\n))[ \t*]*"
    r"(?:(?:i\s+)?hope\s+(?:this|that|it)\s+(?:helps|clarifies|answers)|let\s+me\s+know\s+if"
    r"|feel\s+free\s+to|if\s+you\s+have\s+any|if\s+you\s+need\s+(?:any|more|further)"
    r"|happy\s+to\s+help|good\s+luck|(?:do\s+)?let\s+me\s+know\s+(?:if|whether)"
    r"|is\s+there\s+anything\s+else\s+(?:i\s+can|you\s+(?:want|would|need))"
    r"|do\s+you\s+(?:have|want\s+to\s+(?:try|ask))\s+(?:any\s+)?(?:other|more)\s+questions)"
    r"[^\n]{0,200}\Z",
    re.IGNORECASE | re.MULTILINE,
)


def without_sign_off(text: str) -> str:
    """``text`` without the courtesy sentences that close it (module docstring)."""
    for _ in range(3):
        stripped = text.rstrip()
        start = max(0, len(stripped) - _TAIL)
        match = _SIGN_OFF_RE.search(stripped, start)
        if match is None or match.start() == 0:
            return text
        text = stripped[: match.start()]
    return text
