"""Display math that is a sentence written in ``\\text{}``: read as the sentence it is.

Some chat models close with their answer sentence typeset as display math:
``\\[\\n\\text{Carver's son is } 25 \\text{ years old.}\\n\\]`` or ``\\[\\text{Final Answer: } 140
\\text{ minutes}\\]``. Read as math, the whole display is one answer (the words and all) or
none; read as the prose it is, the rules for sentences and answer labels find the value.
``displays_as_prose`` rewrites such a display (``\\[…\\]`` or ``$$…$$``, opening with
``\\text{``, with at least two words of text and no relation in its math) as one line of
prose: each ``\\text{…}`` its words, the math between them inline (``$25$``). Other displays
stay as they are.
"""

from __future__ import annotations

import re

_DISPLAY_RE = re.compile(
    r"\\\[\s*(\\text\s*\{.{0,400}?)\s*\\\]|\$\$\s*(\\text\s*\{(?:\\\$|[^$]){0,400}?)\s*\$\$", re.S
)
#: math between the words that is a plain amount: written as prose is (``25``, ``\$2.00``)
_AMOUNT_RE = re.compile(r"(?:\\?\$)?-?\d[\d,]*(?:\.\d+)?\s*(?:\\?%)?")
_TEXT_RE = re.compile(r"\\text\s*\{([^{}]*)\}")
_WORD_RE = re.compile(r"[^\W\d_]{2,}")
#: a relation in the math between the words: the display is an equation, not a sentence
_RELATION_RE = re.compile(r"=|<|>|\\(?:le|ge|leq|geq|neq|approx)\b")
_TAIL = 3000


def displays_as_prose(text: str) -> str:
    """``text`` with its sentence displays in its last ``_TAIL`` characters as prose."""
    start = max(0, len(text) - _TAIL)
    if "\\text" not in text[start:]:
        return text
    return text[:start] + _DISPLAY_RE.sub(_as_prose, text[start:])


def _as_prose(match: re.Match[str]) -> str:
    body = match.group(1) or match.group(2) or ""
    words = " ".join(_TEXT_RE.findall(body))
    if len(_WORD_RE.findall(words)) < 2 or _RELATION_RE.search(_TEXT_RE.sub(" ", body)):
        return match.group(0)  # "\[\text{Leo's Age} = 42\]": an equation with a label
    pieces, at = [], 0
    for piece in _TEXT_RE.finditer(body):
        pieces += [_inline(body[at : piece.start()]), piece.group(1).strip()]
        at = piece.end()
    pieces.append(_inline(body[at:]))
    return "\n" + " ".join(p for p in pieces if p) + "\n"


def _inline(math: str) -> str:
    math = math.strip()
    if not math:
        return ""
    if _AMOUNT_RE.fullmatch(math):
        return math.replace("\\$", "$").replace("\\%", "%")
    return f"${math}$"
