"""GSM8K's calculator annotations, removed before a completion's answer is read.

GSM8K's reference solutions mark each computation for a calculator, ``32 - 30 =
<<32-30=2>>2 ounces``, and models trained on them (MetaMath, RFT and SFT runs) write the same.
The note repeats the computation it precedes. Left in, it breaks the sentence that states the
result: ``2>>2 ounces left over`` is no value. ``without_calculator_notes`` removes each note,
so the sentence reads ``32 - 30 = 2 ounces left over``. A note holds an ``=`` and opens with
no space; a bit shift (``x << 2``) or a heredoc (``<<EOF``) is not one.

A completion cut off at its last note keeps the note's result, which is all of the value
it wrote: ``= $<<259200-194400=64800>>6`` (cut after the first digit of ``64,800``) and
``= <<20+170=190`` (cut inside the note) end in their results, ``64800`` and ``190``. A note
cut before its ``=`` states nothing and goes.
"""

from __future__ import annotations

import re

_CALCULATOR_NOTE_RE = re.compile(r"<<(?=[^\s<])[^<>\n=]{1,120}=[^<>\n]{1,60}>>")
#: a note that ends the completion, closed (then the start of its value at most) or cut off;
#: it opens with what arithmetic opens with (``<</answer>`` is a stray ``<`` and a tag)
_CLOSING_NOTE_RE = re.compile(
    r"<<(?=[\d(.$-])[^<>\n=]{1,120}(?:=(?P<result>[^<>\n]{0,60}?))?"
    r"(?:>>[ \t]*\$?[\d,.]*)?[ \t]*\Z"
)


def without_calculator_notes(text: str) -> str:
    """``text`` without GSM8K's calculator notes (``<<32-30=2>>``); a note that ends the text
    as its result (module docstring)."""
    if "<<" not in text:
        return text
    closing = _CLOSING_NOTE_RE.search(text, max(0, len(text) - 200))
    if closing is not None:
        text = text[: closing.start()] + (closing.group("result") or "").strip()
    return _CALCULATOR_NOTE_RE.sub("", text)
