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
those that pick agree on, with the scores it closes with (``scored_pick``: "Score of
Assistant 1: 8\nScore of Assistant 2: 9" picks Assistant 2), none when they disagree. A gold
that is a tie ("tie") has as its alternatives the names the problem labels most (two at
least) and itself; a statement that neither is better ("Both responses are equally good.")
or equal scores pick it.
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
#: a statement that neither alternative is better
_TIE_RE = re.compile(
    r"\b(?:a[ \t]+tie|tied|draw|equally[ \t]+(?:good|bad|helpful|accurate|correct|well|valid)"
    r"|both[ \t]+(?:responses|outputs|answers|assistants)[ \t]+are[ \t]+(?:equally[ \t]+)?"
    r"(?:good|correct|accurate|helpful|acceptable|fine|bad|wrong|incorrect|similar)"
    r"|neither[ \t]+(?:response|output|answer|assistant)[ \t]+is[ \t]+better)\b",
    re.IGNORECASE,
)
_AGAINST_TIE_RE = re.compile(r"\bnot[ \t]+(?:a[ \t]+)?(?:tie|equally)\b|\bthan\b", re.IGNORECASE)
#: what prefers its subject to another: "is better than Output (b)", "is clearly superior than"
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
    """``name`` with a label after it, as the problem or a completion writes it: in
    parentheses, or bare after a space, a capital or a number ("Assistant 1's answer"; not
    "Assistants")."""
    return re.compile(
        rf"\b{re.escape(name)}(?:[ \t]*\((?P<a>[A-Za-z]|\d{{1,2}})\)"
        rf"|[ \t]+(?P<b>(?-i:[A-Z])|\d{{1,2}})\b)",
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
    if problem is not None and gold.strip().lower() in _TIE_GOLDS:
        named_ones = _alternatives_named(problem)  # "tie" among "Assistant 1", "Assistant 2"
        return (*named_ones, gold.strip()) if named_ones else ()
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


#: a gold that says neither alternative is better
_TIE_GOLDS = frozenset({"tie", "draw", "tied", "equal"})
#: a name and a label as a problem writes its alternatives ("Assistant 1", "Response (a)")
_ANY_MENTION_RE = re.compile(
    r"\b([A-Z][a-z]{2,19})(?:[ \t]*\(([A-Za-z]|\d{1,2})\)|[ \t]+([A-Z]|\d{1,2})\b)"
)


def _alternatives_named(problem: str) -> tuple[str, ...]:
    """The alternatives of a problem whose gold is a tie: the name the problem writes with the
    most labels (two at least), each label as the problem first writes it; () if none."""
    labels: dict[str, dict[str, str]] = {}
    for match in _ANY_MENTION_RE.finditer(problem):
        name, label = match.group(1), match.group(2) or match.group(3)
        if name.lower() in _NOT_NAMES:
            continue
        written = f"{name} ({label})" if match.group(2) else f"{name} {label}"
        labels.setdefault(name, {}).setdefault(label.lower(), written)
    best = max(labels.values(), key=len, default={})
    return tuple(best.values()) if len(best) >= 2 else ()


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
    by_label = {}
    for alternative in alternatives:
        labelled = labelled_name(alternative)
        if labelled is not None:
            by_label[labelled[1].lower()] = alternative
    mentioned = [label for label in _labels(statement, name) if label in by_label]
    tie = next((a for a in alternatives if labelled_name(a) is None), None)
    if tie is not None and _TIE_RE.search(statement) and not _AGAINST_TIE_RE.search(statement):
        return tie  # "Both responses are equally good.", "It's a tie."
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


def scored_pick(text: str, alternatives: tuple[str, ...]) -> str | None:
    """The alternative a judge's closing scores pick ("Score of Assistant 1: 8\nScore of
    Assistant 2: 9": Assistant 2; equal scores: the tie, where the gold's alternatives have
    one); None unless every labelled alternative has a score in the last lines."""
    tail = text[-800:]
    scores: dict[str, float] = {}
    for alternative in alternatives:
        labelled = labelled_name(alternative)
        if labelled is None:
            continue
        found = _score_re(*labelled).findall(tail)
        if not found:
            return None
        scores[alternative] = float(found[-1])
    if len(scores) < 2:
        return None
    best = max(scores.values())
    winners = [a for a, score in scores.items() if score == best]
    if len(winners) == 1:
        return winners[0]
    return next((a for a in alternatives if labelled_name(a) is None), None)


@lru_cache(maxsize=64)
def _score_re(name: str, label: str) -> re.Pattern[str]:
    """A score given to one alternative: "Score of the Assistant 1: 8", "Assistant 2: 7/10"."""
    return re.compile(
        rf"(?:score[ \t]+(?:of|for)[ \t]+(?:the[ \t]+)?)?\b{re.escape(name)}[ \t]*\(?"
        rf"{re.escape(label)}\)?(?:['’]s[ \t]+score)?[ \t]*[:：=][ \t]*\**[ \t]*"
        r"(\d{1,3}(?:\.\d+)?)(?![\d.])(?:[ \t]*/[ \t]*10\b)?",
        re.IGNORECASE,
    )


def agreed_pick(
    statements: list[str], alternatives: tuple[str, ...], scored: str | None = None
) -> str | None:
    """The alternative that the statements which pick one, and the closing scores
    (``scored``), all pick; None when none picks or they disagree (a judge that contradicts
    itself picks nothing)."""
    picks = {picked_alternative(s, alternatives) for s in statements if s}
    picks.add(scored)
    picks.discard(None)
    return picks.pop() if len(picks) == 1 else None
