"""Find ``\\boxed{...}`` spans in LaTeX text, with balanced braces, in time linear in the text.

Used to take gold answers from reference solutions (Minerva), by answer extraction
(the final box, or the closing run of boxes that together state one list answer) and,
by the explorer, to locate the final-answer span in a completion.

Braces are matched in one pass with a stack, so a completion of a model looping
``\\boxed{x `` until its length limit (thousands of boxes, none closed) costs one
scan, not one scan per box.
"""

from __future__ import annotations

import re

_BOX_RE = re.compile(r"\\(?:boxed|fbox|framebox)\s*")
_BRACE_RE = re.compile(r"[{}]")
_TOKEN_RE = re.compile(r"[^\s$]+")

#: Longest text between two boxes that may still join them into one answer.
MAX_JOIN_GAP = 160
# What may stand between two boxes of one answer: white space, math delimiters, commas,
# semicolons, "and"/"or" (bare or in \text{}), \quad, thin spaces, "&", a LaTeX line
# break, and a variable name with "=" (``x_1 = \boxed{a}, x_2 = \boxed{b}``). No nested
# quantifiers: a failed match costs time linear in the gap.
_CONNECTIVE_RE = re.compile(
    r"(?:\s|[,;&~，；、]|\$|\\[()\[\]]|\\\\|\\[,;:! ]|\\q?quad(?![A-Za-z])"
    r"|\\(?:text|textrm|mathrm|mbox)\s*\{[\s,]*(?:and|or)?[\s,]*\}"
    r"|(?<![A-Za-z])(?:and|or|和|及)(?![A-Za-z])"
    r"|(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?'*\s*=)*"
)

_JOINER_RE = re.compile(r"[,;=，；、]|(?<![A-Za-z])(?:and|or|和|及)(?![A-Za-z])|\\q?quad|\\\\")


def _matching_braces(text: str, start: int = 0) -> dict[int, int]:
    """For every ``{`` from ``start`` on that is closed, the position of its ``}`` (``\\{``
    and ``\\}`` skipped). Braces before ``start`` cannot change these pairs."""
    closes: dict[int, int] = {}
    stack: list[int] = []
    for match in _BRACE_RE.finditer(text, start):
        j = match.start()
        if j > 0 and text[j - 1] == "\\":
            continue
        if text[j] == "{":
            stack.append(j)
        elif stack:
            closes[stack.pop()] = j
    return closes


def boxed_spans(text: str) -> list[tuple[int, int, int, int]]:
    """Every ``\\boxed{...}`` in ``text`` as (start, end, content_start, content_end).

    ``start``/``end`` cover the whole command; the content offsets exclude the braces.
    An unbalanced box (truncated completion) is skipped. ``\\boxed 5`` (no braces)
    yields the single following token. A box inside another box is listed too.
    """
    boxes = list(_BOX_RE.finditer(text))
    if not boxes:
        return []
    closes = _matching_braces(text, boxes[0].end())
    spans = []
    for match in boxes:
        i = match.end()
        if i < len(text) and text[i] == "{":
            j = closes.get(i)
            if j is not None:
                spans.append((match.start(), j + 1, i + 1, j))
        elif match.group(0).endswith(" "):
            token = _TOKEN_RE.match(text, i)
            if token:
                spans.append((match.start(), token.end(), i, token.end()))
    return spans


def _outermost(spans: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The spans not inside another one (``\\boxed{\\boxed{5}}`` is one box)."""
    kept: list[tuple[int, int, int, int]] = []
    for span in spans:
        if kept and span[0] < kept[-1][1]:
            continue
        kept.append(span)
    return kept


def joins(gap: str) -> bool:
    """Whether ``gap``, the text between two boxes, joins them into one list answer: only
    connectives, and at least one that is not mere spacing (``\\boxed{4} \\boxed{5}`` is a
    model repeating or changing its answer, and its answer is 5)."""
    return (
        len(gap) <= MAX_JOIN_GAP
        and _CONNECTIVE_RE.fullmatch(gap) is not None
        and _JOINER_RE.search(gap) is not None
    )


def final_box_run(text: str) -> list[tuple[int, int, int, int]]:
    """The last box with the boxes before it joined only by connectives (see ``joins``).

    ``\\boxed{1}, \\boxed{2} and \\boxed{3}`` is a run of three; ``\\boxed{5}`` early
    in the reasoning and ``\\boxed{10}`` at the end are two runs, and only the last
    counts. Empty list when the text has no closed box.
    """
    spans = _outermost(boxed_spans(text))
    if not spans:
        return []
    run = [spans[-1]]
    for span in reversed(spans[:-1]):
        if not joins(text[span[1] : run[0][0]]):
            break
        run.insert(0, span)
    return run


def last_boxed(text: str) -> str | None:
    """The content of the last ``\\boxed{...}`` in ``text``, or None."""
    spans = boxed_spans(text)
    if not spans:
        return None
    _, _, a, b = spans[-1]
    return text[a:b].strip()
