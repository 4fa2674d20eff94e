"""A pick among alternatives the question names by a word and a label: "Output (a)" or
"Output (b)", "Response A" or "Response B", "Assistant 1" or "Assistant 2".

Pairwise judges (LLMBar, MT-Bench, reward-model evaluations) are asked "Which is better,
Output (a) or Output (b)?" and end "Therefore, Output (b) is better."; the gold is the
alternative's name. Read as math, ``Output (b)`` was a function applied to ``b``, and no rule
read a statement whose pick is a name rather than a value.

``labelled_name`` reads such a gold: a word of three letters or more (no math function)
and one label, a letter or a number, in parentheses or, after a capitalised word, bare
(``approximately 5`` is a number). ``named_alternatives`` finds the alternatives the problem
names with the same word: at least two, the gold's among them, or none.
``picked_alternative`` reads a concluding statement: the one alternative it names and
favours ("Therefore, Output (b) is better.", "I prefer Response A", or the name alone), or
the subject of a comparison in its favour ("Output (a) is better than Output (b)."). A
statement that names several otherwise, that names one without favouring it ("Output (a)
provides more detail."), or that denies or disfavours it ("Output (a) is not helpful",
"Output (b) is worse"), picks none. ``agreed_pick`` reads a completion's pick from its
verdict sentences (its last statement, the one before an afterword, its last sentence that
opens with "Therefore" and its opening sentence, ``verdict_sentences``): the one alternative
those that pick agree on, none when they disagree.
"""

from __future__ import annotations

import re
from functools import lru_cache

_LABELLED_NAME_RE = re.compile(
    r"\s*(?P<name>[A-Za-z]{3,20})[ \t]+"
    r"(?:\((?P<a>[A-Za-z]|\d{1,2})\)|(?P<b>[A-Z]|\d{1,2}))\s*\.?\s*"
)
#: words that name a function or a math object, not alternatives ("sin (x)", "Area (A)")
_NOT_NAMES = frozenset(
    "sin cos tan cot sec csc log ln exp sqrt max min gcd lcm mod det area point line angle "
    "vitamin type".split()
)
#: a statement that denies or disfavours what it names
_AGAINST_RE = re.compile(
    r"\b(?:not|no|neither|nor|never|worse|worst|inferior|less|fails?|incorrect|wrong)\b|n't\b",
    re.IGNORECASE,
)
#: what a statement that picks says of its one alternative: "Output (b) is better", "I
#: prefer Response A", "the answer is Output (a)" (not "Output (b) is more detailed", a reason)
_PICKS_RE = re.compile(
    r"\b(?:better|best|superior|preferable|prefer(?:red|s)?|choose|chosen|choice|pick(?:ed)?"
    r"|select(?:ed)?|winner|wins|answer|correct|outperforms)\b",
    re.IGNORECASE,
)
#: what prefers its subject to another: "is better", "is more helpful", "is superior"
_FAVOURS_RE = re.compile(
    r"[ \t]+(?:is|was|seems|appears)[ \t]+(?:(?:clearly|slightly|much|far|overall|the)[ \t]+)*"
    r"(?:better|superior|preferable|preferred)\b[^.!?\n]{0,120}?\bthan\b",
    re.IGNORECASE,
)


def labelled_name(gold: str) -> tuple[str, str] | None:
    """A gold that is a word and a label ("Output (a)", "Response B", "Assistant 2") as
    (word, label); None for any other gold."""
    match = _LABELLED_NAME_RE.fullmatch(gold)
    if match is None or match.group("name").lower() in _NOT_NAMES:
        return None
    if match.group("b") and not match.group("name")[0].isupper():
        return None  # "approximately 5": a number with a word, not a name
    return match.group("name"), match.group("a") or match.group("b")


@lru_cache(maxsize=64)
def _mention_re(name: str) -> re.Pattern[str]:
    """``name`` with a label after it, as the problem or a completion writes it."""
    return re.compile(
        rf"\b{re.escape(name)}[ \t]*(?:\((?P<a>[A-Za-z]|\d{{1,2}})\)|(?P<b>[A-Za-z]|\d{{1,2}})\b)",
        re.IGNORECASE,
    )


def _labels(text: str, name: str) -> list[str]:
    """The labels ``text`` writes after ``name``, lower case, in order, each once."""
    seen: list[str] = []
    for match in _mention_re(name).finditer(text):
        label = (match.group("a") or match.group("b")).lower()
        if label not in seen:
            seen.append(label)
    return seen


def named_alternatives(gold: str, problem: str | None) -> tuple[str, ...]:
    """The alternatives ``problem`` names like the gold (``Output (a)``, ``Output (b)``),
    written as the gold writes its own, when there are at least two and the gold's is one of
    them; () otherwise."""
    named = labelled_name(gold) if problem else None
    if named is None or problem is None:
        return ()
    name, label = named
    labels = _labels(problem, name)
    if len(labels) < 2 or label.lower() not in labels:
        return ()
    paren = "(" in gold
    upper = label.isupper()
    return tuple(
        f"{name} ({other.upper() if upper else other})"
        if paren
        else f"{name} {other.upper() if upper else other}"
        for other in labels
    )


#: where a clause ends: the sentence's punctuation, or a reason or a contrast that follows
_CLAUSE_BREAK_RE = re.compile(
    r"[,;:(]|\b(?:because|since|as|which|while|whereas|but|due|given|so)\b", re.IGNORECASE
)


def _clause(statement: str, name: str) -> str:
    """The clause of ``statement`` that names its first alternative ("Therefore, Output (b) is
    better, as it doesn't err" → "Output (b) is better"; "… is correct as it avoids the loop
    in Output (a)" → "it avoids the loop in Output (a)")."""
    first = _mention_re(name).search(statement)
    if first is None:
        return statement
    start = 0
    for before in _CLAUSE_BREAK_RE.finditer(statement, 0, first.start()):
        start = before.end()
    end = _CLAUSE_BREAK_RE.search(statement, first.end())
    return statement[start : end.start() if end is not None else len(statement)]


def picked_alternative(statement: str, alternatives: tuple[str, ...]) -> str | None:
    """The alternative ``statement`` picks (module docstring), as ``alternatives`` writes it;
    None when it picks none."""
    named = labelled_name(alternatives[0]) if alternatives else None
    if named is None:
        return None
    name = named[0]
    by_label = {labelled_name(a)[1].lower(): a for a in alternatives}  # type: ignore[index]
    mentioned = [label for label in _labels(statement, name) if label in by_label]
    if len(mentioned) == 1:
        clause = _clause(statement, name)
        alone = _mention_re(name).fullmatch(statement.strip(" \t*_.:\"'"))
        if alone is None and (_AGAINST_RE.search(clause) or not _PICKS_RE.search(clause)):
            return None
        return by_label[mentioned[0]]
    if len(mentioned) < 2:
        return None
    first = _mention_re(name).search(statement)
    if first is None or _FAVOURS_RE.match(statement, first.end()) is None:
        return None
    if re.search(r"\b(?:not|n't|never)\b", statement[: first.start()] + statement[first.end() :]):
        return None
    return by_label[(first.group("a") or first.group("b")).lower()]


#: a sentence that opens with a conclusion's word: "Therefore, Output (b) is better."
_CONCLUDING_RE = re.compile(
    r"(?:^|(?<=[.!?\n]))[ \t*]*(?:therefore|thus|hence|so|overall|in conclusion|in summary)\b"
    r"[^.!?\n]{0,200}",
    re.IGNORECASE,
)
_OPENING_RE = re.compile(r"[ \t\n*#]*([^.!?\n]{1,200})")


def verdict_sentences(text: str) -> list[str]:
    """Where a judge states its pick besides its last statement: its last sentence that
    opens with a conclusion's word, and its opening sentence ("Output (a) is better.\n\n
    Output (a) is better because …")."""
    found = [match.group(0) for match in _CONCLUDING_RE.finditer(text[-3000:])][-1:]
    opening = _OPENING_RE.match(text)
    if opening is not None:
        found.append(opening.group(1))
    return found


def agreed_pick(statements: list[str], alternatives: tuple[str, ...]) -> str | None:
    """The alternative that the statements which pick one all pick; None when none picks or
    they disagree (a judge that contradicts itself picks nothing)."""
    picks = {picked_alternative(s, alternatives) for s in statements if s}
    picks.discard(None)
    return picks.pop() if len(picks) == 1 else None
