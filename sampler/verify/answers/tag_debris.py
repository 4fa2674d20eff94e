"""Answer tags a model wrote malformed or left unpaired: mended, or read as line breaks.

R1-zero prompts ask for ``<think> … </think> <answer> … </answer>``; small models write the
tags wrong: ``</ answer >``, ``<answer answer="1">``, ``[answer]…[/answer]``, ``answer> 320
</answer>`` (the ``<`` lost), a closing ``</answer>`` with no opening tag after ``Answer: 4``,
an opening tag never closed (``<answer> 20 <endthink>``). Left as they are, the tag text
sticks to the answer (``4</answer>``) and no rule reads it. ``with_paired_tags`` writes each
misspelt tag as the tag it means, then reads every tag that pairs with none (a closing tag
with no opening one before it, an opening tag never closed) as a line break, so that the
answer beside it is read as if the tag were not there; a well-formed pair is kept for the
answer-tag rule (``extraction._tagged``).
"""

from __future__ import annotations

import re

_NAMES = r"(?:answer|solution|final_answer)"
#: a tag as written, well-formed or not: ``</ answer >``, ``<answer answer="1">``, ``[/answer]``,
#: ``answer>`` opening a line (its ``<`` lost)
_TAG_RE = re.compile(
    rf"<[ \t]*(?P<c1>/)?[ \t]*(?P<n1>{_NAMES})(?:[ \t]+[^<>\n]{{0,40}})?[ \t]*>"
    rf"|\[(?P<c2>/)?(?P<n2>{_NAMES})\]"
    rf"|^[ \t*]{{0,4}}(?P<n3>{_NAMES})>",
    re.IGNORECASE | re.MULTILINE,
)


def with_paired_tags(text: str) -> str:
    """``text`` with its misspelt answer tags mended and its unpaired ones as line breaks."""
    if ">" not in text and "]" not in text:
        return text
    lowered = text.lower()
    if "answer" not in lowered and "solution" not in lowered:
        return text
    tags = list(_TAG_RE.finditer(text))
    if not tags:
        return text
    opened: dict[str, list[int]] = {}
    paired: set[int] = set()
    for i, tag in enumerate(tags):
        name = (tag.group("n1") or tag.group("n2") or tag.group("n3")).lower()
        if tag.group("c1") or tag.group("c2"):
            if opened.get(name):
                paired.update((opened[name].pop(), i))
        else:
            opened.setdefault(name, []).append(i)
    out, at = [], 0
    for i, tag in enumerate(tags):
        name = (tag.group("n1") or tag.group("n2") or tag.group("n3")).lower()
        closing = "/" if tag.group("c1") or tag.group("c2") else ""
        out += [text[at : tag.start()], f"<{closing}{name}>" if i in paired else "\n"]
        at = tag.end()
    out.append(text[at:])
    return "".join(out)
