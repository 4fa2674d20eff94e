"""Answer tags a model wrote malformed or left unpaired: mended, or read as line breaks.

R1-zero prompts ask for ``<think> … </think> <answer> … </answer>``; small models write the
tags wrong: ``<answer answer="1">``, ``[answer]…[/answer]``, ``answer> 320 </answer>`` (the
``<`` lost), ``<answer> 44.38 <\\answer>`` (a backslash for the slash: MedCalc-Bench's
GPT-4), a closing ``</answer>`` with no opening tag after ``Answer: 4``, an opening tag
never closed (``<answer> 20 <endthink>``), a tag with spaces inside its brackets (``</ answer
>``, which degenerate tails repeat: always debris), the prompt's template echoed (``<answer>
answer here </answer>``, whose pair holds no answer; ``Final Answer: 6 [final numeric
answer]``, a bracketed placeholder closing the text, which ``without_closing_placeholder``
removes). Left as they are, the tag text sticks to the answer (``4</answer>``) and no rule
reads it. ``with_paired_tags`` writes each misspelt tag as the tag it means, then reads
every tag that pairs with none as a line break, so that the answer beside it is read as if
the tag were not there; a well-formed pair is kept for the answer-tag rule
(``extraction._tagged``).
"""

from __future__ import annotations

import re

_NAMES = r"(?:answer|ans|solution|final_answer)"
#: a tag as written, well-formed or not: ``<answer answer="1">``, ``[/answer]``,
#: ``<\\answer>`` (a backslash for the slash), ``answer>`` opening a line (its ``<`` lost);
#: and, as ``spaced``, one with spaces inside its brackets (``</ answer >``, ``< answer >``),
#: which degenerate tails repeat: never a pair, always debris
_TAG_RE = re.compile(
    rf"<(?P<c1>[/\\])?(?P<n1>{_NAMES})(?:[ \t]+[^<>\n]{{0,40}})?>"
    rf"|\[(?P<c2>[/\\])?(?P<n2>{_NAMES})\]"
    rf"|^[ \t*]{{0,4}}(?P<n3>{_NAMES})>"
    rf"|(?P<spaced><[ \t]*/?[ \t]*{_NAMES}[ \t]*>)",
    re.IGNORECASE | re.MULTILINE,
)
#: a pair's content that is the prompt's template echoed, no answer: "answer here", "...",
#: "reasoning process here", "your answer", "?"
_PLACEHOLDER_RE = re.compile(
    r"[\s_.*]*(?:(?:the[ \t]+)?(?:final[ \t]+)?answer(?:[ \t]+here)?"
    r"|reasoning[ \t]+process[ \t]+here|your[ \t]+(?:final[ \t]+)?answer|answer[ \t]+goes[ \t]+here"
    r"|\.\.\.|…|\?)?[\s_.*]*",
    re.IGNORECASE,
)


def is_placeholder(content: str) -> bool:
    """Whether a tag's or a box's content is the prompt's template echoed ("answer", "...",
    "your answer"), no answer."""
    return _PLACEHOLDER_RE.fullmatch(content) is not None


#: the prompt's answer template echoed unfilled, in square brackets, closing the completion:
#: "Final Answer: 6 [final numeric answer]", "#### [final numeric answer]" (a line of its
#: own, with the marker the template put before it), "[your answer here]"
_CLOSING_PLACEHOLDER_RE = re.compile(
    r"(?:(?:^|(?<=\n))[ \t*>]*(?:#{4}|(?:(?:the|my|final)[ \t]+){0,2}answer[ \t]*[:：])[ \t*]*)?"
    r"\[[ \t]*(?:(?:your|the|final|numeric(?:al)?|short|exact|insert(?:[ \t]+the)?)[ \t]+){0,3}"
    r"(?:answer|number|value|result)(?:[ \t]+here)?[ \t]*\][ \t.]*\Z",
    re.IGNORECASE | re.MULTILINE,
)


def without_closing_placeholder(text: str) -> str:
    """``text`` without a bracketed template placeholder it echoed at its end, and without the
    marker of a line that holds nothing else ("#### [final numeric answer]")."""
    if not text.rstrip().endswith("]"):
        return text
    match = _CLOSING_PLACEHOLDER_RE.search(text.rstrip(), max(0, len(text.rstrip()) - 120))
    return text[: match.start()].rstrip() if match is not None else text


#: an answer tag closed with a thinking tag, ending the completion: "<answer> 1004 </think>"
_THINK_AS_CLOSE_RE = re.compile(r"(<answer>(?:(?!</?answer\b)[^<]){1,300})</think>[ \t\n]*$")


def _may_hold_tags(lowered: str) -> bool:
    """Whether some tag name in ``lowered`` has a ``>`` or ``]`` after it on its line: what
    every tag ``_TAG_RE`` reads has (a fast scan; most completions have none)."""
    for name in ("answer", "solution"):  # "final_answer" holds "answer"
        at = lowered.find(name)
        while at != -1:
            after = at + len(name)
            line_end = lowered.find("\n", after)
            rest = lowered[after : line_end if line_end != -1 else len(lowered)]
            if ">" in rest or "]" in rest:
                return True
            at = lowered.find(name, after)
    return False


def with_paired_tags(text: str) -> str:
    """``text`` with its misspelt answer tags mended and its unpaired ones as line breaks."""
    if ">" not in text and "]" not in text:
        return text
    if not _may_hold_tags(text.lower()):
        return text
    text = _THINK_AS_CLOSE_RE.sub(r"\1</answer>", text)  # "<answer> 1004 </think>" at the end
    tags = list(_TAG_RE.finditer(text))
    if not tags:
        return text
    opened: dict[str, list[int]] = {}
    paired: set[int] = set()
    for i, tag in enumerate(tags):
        if tag.group("spaced"):
            continue
        name = (tag.group("n1") or tag.group("n2") or tag.group("n3")).lower()
        name += "]" if tag.group("n2") else ">"  # "<answer>" pairs with "</answer>" only
        if tag.group("c1") or tag.group("c2"):
            if opened.get(name):
                start = opened[name].pop()
                if not _PLACEHOLDER_RE.fullmatch(text[tags[start].end() : tag.start()]):
                    paired.update((start, i))
        else:
            opened.setdefault(name, []).append(i)
    out, at = [], 0
    for i, tag in enumerate(tags):
        if i in paired:
            name = (tag.group("n1") or tag.group("n2") or tag.group("n3")).lower()
            closing = "/" if tag.group("c1") or tag.group("c2") else ""
        out += [text[at : tag.start()], f"<{closing}{name}>" if i in paired else "\n"]
        at = tag.end()
    out.append(text[at:])
    return "".join(out)
