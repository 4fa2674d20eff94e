"""A gold that is a label word or its negation (``error`` / ``no_error``), read from what the
completion's conclusion says of the word.

Classification judges are given two labels, a word and its negation (ReaLMistake's
``error`` and ``no_error``; ``entailment`` and ``not_entailment``; ``toxic`` and
``non_toxic``), and asked to conclude in a sentence: "Therefore, the model response contains
an error." or "… contains no error." No rule read such a sentence: it states no value, and
its words are not the gold's.

``negation_label`` reads such a gold: one lower-case word, or the word after ``no``, ``not``
or ``non`` joined by ``_``, ``-`` or a space, as (word, negated). ``said_of`` reads a
statement: whether it affirms the word with a verb of having ("contains an error", "contains
errors", "has one error"; a copula's "is an error" names rather than concludes, and is the
copula rules') or denies it ("contains no error", "does not contain any errors", "there are
no errors", "is not an error", "error-free"); None when it does neither or both.
``label_said`` gives the label a statement says, spelt as the gold spells its pair.
"""

from __future__ import annotations

import re
from functools import lru_cache

_LABEL_RE = re.compile(r"\s*(?:(?P<neg>no|not|non)[_\- ])?(?P<w>[a-z]{3,20})\s*")
#: words that are no classification label (a verdict of this shape is a boolean or a copula)
_NOT_LABELS = frozenset({"yes", "true", "false", "none", "and", "the"})


def negation_label(gold: str) -> tuple[str, bool] | None:
    """A gold that is a lower-case label word or its negation as (word, negated): ``error``
    (error, False), ``no_error`` (error, True); None for any other gold."""
    match = _LABEL_RE.fullmatch(gold)
    if match is None or match.group("w") in _NOT_LABELS:
        return None
    return match.group("w"), match.group("neg") is not None


#: the verbs that affirm a label: a copula ("X was the grandfather of Y") is the copula
#: complement's, read by other rules
_HOLDS = r"(?:contains?|has|have|had|includes?|shows?|makes?)"


@lru_cache(maxsize=64)
def _patterns(word: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What denies ``word`` and what affirms it, in a statement."""
    w = rf"{re.escape(word)}s?\b"
    have = r"(?:contains?|has|have|had|includes?|is|are|was|were|shows?|makes?)"
    denies = re.compile(
        rf"\b{have}[ \t]+(?:no|zero)[ \t]+(?:\w+[ \t]+)?{w}"
        rf"|\b(?:does|do|did|is|are|was|were)(?:[ \t]+not|n't)[ \t]+(?:contain|have|include|make"
        rf"|show)?[ \t]*(?:an?|any|one)?[ \t]*(?:\w+[ \t]+)?{w}"
        rf"|\b(?:there[ \t]+(?:is|are|were|was)[ \t]+)?no[ \t]+{w}|\b{re.escape(word)}-free\b"
        rf"|\bfree[ \t]+(?:of|from)[ \t]+(?:any[ \t]+)?{w}|\bwithout[ \t]+(?:any[ \t]+)?{w}",
        re.IGNORECASE,
    )
    affirms = re.compile(
        rf"\b{_HOLDS}[ \t]+(?:an?|one|some|several|multiple|two|three|\d+)?[ \t]*(?:\w+[ \t]+)?{w}",
        re.IGNORECASE,
    )
    return denies, affirms


def said_of(statement: str, word: str) -> bool | None:
    """Whether ``statement`` affirms ``word`` (True), denies it (False), or neither (None)."""
    if word not in statement.lower():
        return None
    denies, affirms = _patterns(word)
    denied = denies.search(statement) is not None
    affirmed = affirms.search(denies.sub(" ", statement)) is not None
    if denied == affirmed:
        return None
    return affirmed


def label_said(statement: str, gold: str) -> str | None:
    """The label of the gold's pair that ``statement`` says, spelt as the gold spells its pair
    (``no_error`` when it denies ``error``); None when it says neither."""
    label = negation_label(gold)
    if label is None:
        return None
    word, negated = label
    said = said_of(statement, word)
    if said is None:
        return None
    if said != negated:
        return gold.strip()  # the gold's own label
    if negated:
        return word  # the gold denies the word; the statement affirms it
    return f"no_{word}"  # the gold affirms it; the statement denies it
