"""Find ``\\boxed{...}`` spans in LaTeX text, with balanced braces.

Used to take gold answers from reference solutions (Minerva) and, by the explorer,
to locate the final-answer span in a completion.
"""

from __future__ import annotations

import re

_BOX_RE = re.compile(r"\\(?:boxed|fbox|framebox)\s*")


def boxed_spans(text: str) -> list[tuple[int, int, int, int]]:
    """Every ``\\boxed{...}`` in ``text`` as (start, end, content_start, content_end).

    ``start``/``end`` cover the whole command; the content offsets exclude the braces.
    An unbalanced box (truncated completion) is skipped. ``\\boxed 5`` (no braces)
    yields the single following token.
    """
    spans = []
    for match in _BOX_RE.finditer(text):
        i = match.end()
        if i < len(text) and text[i] == "{":
            depth = 0
            for j in range(i, len(text)):
                ch = text[j]
                if ch == "\\":
                    continue
                if ch == "{" and (j == 0 or text[j - 1] != "\\"):
                    depth += 1
                elif ch == "}" and (j == 0 or text[j - 1] != "\\"):
                    depth -= 1
                    if depth == 0:
                        spans.append((match.start(), j + 1, i + 1, j))
                        break
        else:
            token = re.match(r"[^\s$]+", text[i:])
            if token and match.group(0).endswith(" "):
                spans.append((match.start(), i + token.end(), i, i + token.end()))
    return spans


def last_boxed(text: str) -> str | None:
    """The content of the last ``\\boxed{...}`` in ``text``, or None."""
    spans = boxed_spans(text)
    if not spans:
        return None
    _, _, a, b = spans[-1]
    return text[a:b].strip()
