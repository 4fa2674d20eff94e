"""Numbers written in English words, read as integers: "forty three", "one hundred and five";
and fractions in words, read as fractions: "one half", "three quarters", "two and a half".

``number_from_words`` gives the integer a phrase names, or None when the phrase is anything
else (a word that is no number word, an empty phrase, a malformed order such as "three
hundred thousand hundred"); "a hundred", "a million" are one of them.
``fraction_from_words`` gives the fraction a phrase names (``\\frac{3}{4}``), or None. Used
for golds written in words and answers in words against a
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
#: the scale words a number written in digits may carry ("1.5 million", "2 trillion")
SCALE_AFTER_DIGITS = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
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
    if len(words) > 1 and words[0] == "a" and (words[1] == "hundred" or words[1] in _SCALES):
        words = ["one", *words[1:]]  # "a million"
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


_DENOMINATORS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
    "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
    "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8, "ninth": 9, "ninths": 9,
    "tenth": 10, "tenths": 10, "hundredth": 100, "hundredths": 100,
}  # fmt: skip


def fraction_from_words(text: str) -> str | None:
    """The fraction ``text`` names in English words ("one half", "a quarter", "three
    quarters", "two thirds", "two and a half"), as ``\\frac{p}{q}``, else None."""
    words = [w for w in _SPLIT_RE.split(_EDGE_RE.sub("", text.lower())) if w]
    if not words or len(words) > 8 or words[-1] not in _DENOMINATORS:
        return None
    whole = 0
    if "and" in words:  # "two and a half"
        cut = words.index("and")
        whole_value = number_from_words(" ".join(words[:cut]))
        if whole_value is None or whole_value < 0:
            return None
        whole, words = whole_value, words[cut + 1 :]
    if len(words) == 1:
        count = 1  # "half"
    elif len(words) == 2 and words[0] in ("a", "an", "one"):
        count = 1
    else:
        named = number_from_words(" ".join(words[:-1]))
        if named is None or named <= 0:
            return None
        count = named
    denominator = _DENOMINATORS[words[-1]]
    if count > 1 and not words[-1].endswith("s") and words[-1] != "half":
        return None  # "three quarter": no fraction in words
    numerator = whole * denominator + count
    return f"\\frac{{{numerator}}}{{{denominator}}}"


_WORD_RUN_RE = re.compile(
    r"\b(?:" + "|".join([*_UNITS, *_TENS, "hundred", *_SCALES]) + r")"
    r"(?:[\s-]+(?:and[\s-]+)?(?:" + "|".join([*_UNITS, *_TENS, "hundred", *_SCALES]) + r"))*\b",
    re.IGNORECASE,
)


def only_number_words(text: str) -> int | None:
    """The value of the one number written in words in ``text`` ("The farmer needs to make two
    trips.": 2), when it holds exactly one such number and it is not "one" (an article as
    often as a count); else None."""
    runs = list(_WORD_RUN_RE.finditer(text))
    if len(runs) != 1 or runs[0].group(0).lower() == "one":
        return None
    if _NOT_A_COUNT_AFTER_RE.match(text, runs[0].end()):
        return None  # "three quarters", "two times", "five percent": no count of things
    return number_from_words(runs[0].group(0))


_NOT_A_COUNT_AFTER_RE = re.compile(
    r"[\s-]*(?:halves|half|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?"
    r"|tenths?|hundredths?|thousandths?|percent|per\s*cent|times|dozens?|out\s+of|in\s+(?:a|one))\b",
    re.IGNORECASE,
)
