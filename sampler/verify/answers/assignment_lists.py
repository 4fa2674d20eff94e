"""A gold that assigns a word to each of several names, compared as a set of assignments.

Logic puzzles state their solution as a sentence of clauses, ``Penelope is a knave, David
is a knave, and Zoey is a knight.`` (knights and knaves, Logic-RL's and reasoning-gym's
form), and models answer with the same clauses in another layout: a numbered list
``(1) Penelope is a knave\\n(2) David is a knave\\n(3) Zoey is a knight``, one clause a line,
or ``Penelope: Knave``. ``same_assignments`` reads both sides as sets of (name, word) pairs,
in any order and case, an article dropped, and calls them one answer when the sets are
equal. Every clause of both sides must be an assignment, and there must be two at least; a
missing or extra name, or two words for one name, is another answer (a wrong one).
Linear: a split, then one bounded pattern per clause.
"""

from __future__ import annotations

import re

#: what separates clauses: a line break, a semicolon, a comma, "and" (a list's last joint),
#: a list item's number inside a line ("(1) Mia: Knight (2) Noah: Knave")
_CLAUSE_SPLIT_RE = re.compile(r"\n|;|,(?:[ \t]+and\b)?|[ \t]+and[ \t]+|[ \t]+(?=\(\d{1,2}\)[ \t])")
#: a list item's mark, markdown emphasis and closing punctuation around a clause
_ITEM_MARK_RE = re.compile(r"^[ \t]*(?:\(\d{1,2}\)|\d{1,2}[.)]|[-*•])?[ \t]*")
_EDGE_RE = re.compile(r"^[\s*_\"']+|[\s*_\"'.!。]+$")
#: one assignment: "Penelope is a knave", "Penelope is not a knight", "Penelope: Knave"
_ASSIGNMENT_RE = re.compile(
    r"(?P<name>[^\W\d_][\w'-]{0,30}(?:[ \t][^\W\d_][\w'-]{0,30})?)"
    r"(?:[ \t]+is[ \t]+(?P<neg>not[ \t]+)?(?:(?:a|an|the)[ \t]+)?|[ \t]*:[ \t]*)"
    r"(?P<word>[^\W\d_][\w'-]{0,30})",
    re.IGNORECASE,
)
_MAX_TEXT = 2000
_MAX_CLAUSES = 30


def assignments(text: str) -> frozenset[tuple[str, str]] | None:
    """``text`` as a set of (name, word) assignments, lower-cased; None unless every clause
    is one and there are two at least (a name given two words keeps both: a hedge, which
    no gold equals)."""
    if len(text) > _MAX_TEXT:
        return None
    clauses = [_EDGE_RE.sub("", _ITEM_MARK_RE.sub("", c)) for c in _CLAUSE_SPLIT_RE.split(text)]
    clauses = [c for c in clauses if c]
    if not 2 <= len(clauses) <= _MAX_CLAUSES:
        return None
    pairs: set[tuple[str, str]] = set()
    for clause in clauses:
        match = _ASSIGNMENT_RE.fullmatch(clause)
        if match is None:
            return None
        word = ("not " if match.group("neg") else "") + match.group("word").lower()
        pairs.add((match.group("name").lower(), word))
    return frozenset(pairs)


def gold_assignments(gold: str) -> frozenset[tuple[str, str]] | None:
    """A gold's assignments (it states them with "is"), None for any other gold."""
    return assignments(gold) if " is " in gold else None


def same_assignments(gold: str, answer: str) -> bool | None:
    """Whether ``answer`` assigns the same word to each name as ``gold`` does; None when
    either is no set of two or more assignments."""
    wanted = gold_assignments(gold)
    if wanted is None:
        return None
    given = assignments(answer)
    return None if given is None else given == wanted


#: the last answer tag's content: R1-zero prompts' ``<answer>(1) … (2) …</answer>``
_ANSWER_TAG_RE = re.compile(r"<answer>(?P<x>[^<]{1,2000})</answer>", re.IGNORECASE)
_TAIL = 4000


def closing_assignments(text: str) -> str | None:
    """The assignments a completion closes with: its last answer tag's content, else its
    last paragraph (a heading line ending with a colon dropped), when every clause of it is
    an assignment; None otherwise."""
    tail = text[-_TAIL:]
    tags = list(_ANSWER_TAG_RE.finditer(tail))
    if tags:
        block = tags[-1].group("x")
    else:
        block = tail.rstrip().rsplit("\n\n", 1)[-1]
        head, _, rest = block.strip().partition("\n")
        if rest and head.rstrip("*_ ").endswith(":"):
            block = rest  # "Summarizing:\n- Penelope is a knight\n- …"
    block = block.strip()
    return block if assignments(block) is not None else None
