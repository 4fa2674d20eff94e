"""Numbers written in English words, read as integers: "forty three", "one hundred and five".

``number_from_words`` gives the integer a phrase names, or None when the phrase is anything
else (a word that is no number word, an empty phrase, a malformed order such as "three
hundred thousand hundred"). Used for golds written in words and answers in words against a
numeric gold (``sampler.verify.answers.golds``, ``math_verifier``). Pure string work.
"""

from __future__ import annotations

import re

_UNITS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen".split()
    )
}
_TENS = {
    w: 10 * i
    for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split())
    if w != "_"
}
_SCALES = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_SPLIT_RE = re.compile(r"[\s\-]+")
_EDGE_RE = re.compile(r"^[\s\"'*_.$]+|[\s\"'*_.!$]+$")


def number_from_words(text: str) -> int | None:
    """The integer ``text`` names in English words (module docstring), else None."""
    words = [w for w in _SPLIT_RE.split(_EDGE_RE.sub("", text.lower())) if w and w != "and"]
    if not words or len(words) > 12:
        return None
    negative = words[0] in ("minus", "negative")
    if negative:
        words = words[1:]
    total, group, last_scale, seen = 0, 0, None, False
    for word in words:
        if word in _UNITS and group % (10 if _UNITS[word] < 10 else 100) == 0:
            group += _UNITS[word]
        elif word in _TENS and group % 100 == 0:
            group += _TENS[word]
        elif word == "hundred" and 0 < group < 10:
            group *= 100
        elif word in _SCALES and group > 0:
            scale = _SCALES[word]
            if last_scale is not None and scale >= last_scale:
                return None
            total, group, last_scale = total + group * scale, 0, scale
        else:
            return None
        seen = True
    if not seen:
        return None
    value = total + group
    return -value if negative else value


_NUMBER_WORD_RE = re.compile(
    r"\b(?:" + "|".join([*_UNITS, *_TENS, "hundred", *_SCALES]) + r")\b", re.IGNORECASE
)


def has_number_word(text: str) -> bool:
    """Whether ``text`` holds an English number word ("five", "twenty", "hundred")."""
    return _NUMBER_WORD_RE.search(text) is not None
