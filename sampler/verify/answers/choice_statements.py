"""What a completion's last statement says of a multiple-choice question's letter gold.

Read only against a choice gold (``Gold.kind == "choice"``), where the question asks for an
option's letter, so a capital letter is an option and not a point or a variable:

- ``copula_letter``: the bare letter a statement ends with after its copula or a colon,
  when no rule found an answer ("Therefore, the incorrect statement is A.", "Thus, the
  major product is **C**.", "… it should be baked: B."), the option label that closes the
  complement ("… is C6H10O2 (Option A)."), or the letter a statement calls the answer
  ("This confirms that B is the most likely correct answer.");
- ``letter_beside``: the letter that labels the value a rule found, in the statement that
  states it ("approximately **0.32 (Option C)**", "the closest answer to this is option C:
  6.3x10^-7 M.", "is **C. 2.08 * 1e-6 m**"): the question asked for the letter.

A statement that denies (``not``, ``incorrect`` after the letter) or names several letters
says nothing here. Pure functions of the statement's text.
"""

from __future__ import annotations

import re

#: the letter after the statement's last copula, alone (bold, parenthesised or after
#: "option"), closing the statement ("… is A.", "… is **(C)**", "… would be option D", "… is
#: closest to option B"), or with its option's content ("… is C. 4-chlorobenzoic acid.")
_COPULA_LETTER_RE = re.compile(
    r"\b(?:is|are|was|be|remains)[ \t]+(?:(?:therefore|thus|clearly|then)[ \t]+)?"
    r"(?:(?:closest|nearest|equal|identical|consistent|best[ \t]+matched)[ \t]+"
    r"(?:to|with|by)[ \t]+)?"
    r"(?:(?:option|choice|answer|letter)[ \t]+)?[*_]{0,2}\(?(?P<x>[A-J])"
    r"(?:\)?[*_]{0,2}[ \t]*[.。!]?|(?:\)|[.):])[ \t]+(?P<content>[^\n]{1,80}?)[ \t.。]*)[ \t*_]*$"
)
#: the letter a statement closes with after a colon, alone, and a full stop: "… to prevent
#: porosity it should be baked: B." (FLAN-T5's "…: B."; without the stop, "… in terms of
#: k: D" may be cut off at a variable)
_COLON_LETTER_RE = re.compile(
    r"[^\W\d_][*_]{0,2}[ \t]*[:：][ \t]*[*_]{0,2}\(?(?P<x>[A-J])\)?[*_]{0,2}[ \t]*[.。!][ \t*_]*$"
)
#: a complement after the last copula that its option's label closes: "… the most likely
#: formula for the compound is C6H10O2 (Option A)."
_LABELLED_COMPLEMENT_RE = re.compile(
    r"\b(?:is|are|was|be)[ \t]+[^()\n]{1,120}?[ \t]+\((?i:option|choice)[ \t]+([A-J])\)"
    r"[ \t*_]*[.。!]?[ \t*_]*$"
)
#: a clause in an option's content: another statement, not the option's words
_CLAUSE_RE = re.compile(r"\b(?:is|are|but|however|because|so|which|not)\b", re.IGNORECASE)
#: the adjectives and nouns that call an option the answer
_CALLED = (
    r"(?:the|my)[ \t]+(?:(?:most[ \t]+)?(?:likely|plausible|appropriate|correct|right|best"
    r"|final|reasonable|consistent)[ \t]+){1,3}(?:answer|choice|option|explanation|candidate)\b"
)
#: a letter called the answer: "B is the most likely correct answer", "making option D the
#: most likely explanation"
_LETTER_IS_ANSWER_RE = re.compile(
    rf"(?:^|[\s(:,])(?:(?i:option|choice)[ \t]+[*_]{{0,2}}\(?(?P<x>[A-J])\)?[*_]{{0,2}}"
    rf"[ \t]+(?:is[ \t]+|as[ \t]+)?|[*_]{{0,2}}\(?(?P<y>[A-J])\)?[*_]{{0,2}}[ \t]+is[ \t]+)"
    rf"(?i:{_CALLED})"
)
#: words that make the statement a denial or a weighing, not a choice
_DENIAL_RE = re.compile(
    r"\b(?:not|no|never|neither|incorrect|wrong|false|eliminat\w*|rule[ds]?[ \t]+out|except)\b",
    re.IGNORECASE,
)
#: an option's letter named as one wherever it stands: "(Option C)", "option (C)", "option
#: C:", a bold label "**C. 2.08 * 1e-6 m**"
_OPTION_NAMED_RE = re.compile(
    r"(?i:option|choice)[ \t]+[*_]{0,2}\(?([A-J])\)?(?![\w'])|(?:^|[\s(])[*_]{2}\(?([A-J])[.):]"
)
#: an option's letter in parentheses right after a value and its unit: "0.83 (C)", with
#: ``{v}`` the value
_LABEL_AFTER = r"{v}\S*(?:[ \t]+[^\W\d_]{{1,12}})?[*_]{{0,2}}[ \t]*\((?P<d>[A-J])\)"
#: an option's letter in parentheses closing a stated answer: "II and III only (C)"
_CLOSING_LABEL_RE = re.compile(r"\(([A-J])\)[ \t*_.]*$")


def copula_letter(statement: str) -> str | None:
    """The option letter ``statement`` ends with after its copula, or calls the answer;
    None when it names none, or denies ("… is not A", "A is incorrect")."""
    match = _COPULA_LETTER_RE.search(statement[-200:])
    if match is not None and not (match.group("content") and _CLAUSE_RE.search(match["content"])):
        before = statement[-200:][: match.start()]
        if not re.search(r"\bnot[ \t]*$", before):
            return match.group("x")
    labelled = _LABELLED_COMPLEMENT_RE.search(statement[-300:])
    if labelled is not None and not _DENIAL_RE.search(statement[-300:]):
        return labelled.group(1)  # "… is C6H10O2 (Option A).": the option its content names
    called = {m.group("x") or m.group("y") for m in _LETTER_IS_ANSWER_RE.finditer(statement[-300:])}
    if len(called) == 1 and not _DENIAL_RE.search(statement[-300:]):
        return called.pop()
    colon = _COLON_LETTER_RE.search(statement[-200:])
    if colon is not None and not _DENIAL_RE.search(statement[-200:]):
        return colon.group("x")  # "… it should be baked: B."
    return None


def letter_beside(statement: str, value: str) -> str | None:
    """The one option letter ``statement`` attaches to the stated ``value`` ("**0.32 (Option
    C)**", "option C: 6.3x10^-7 M", "0.83 (C)", "II and III only (C)"); None when the
    statement labels several options ("0.5 (C), 1.4 (B)"), denies, does not hold the value,
    or the value is itself letters ("(B) and (D)")."""
    flat = " ".join(statement.split())
    shown = " ".join(value.split())
    if not shown or shown not in flat or _DENIAL_RE.search(flat):
        return None
    labels = re.findall(r"\(([A-J])\)", shown)
    if len(labels) > 1:
        return None  # "(B) and (D)": several options, a stated answer of its own
    letters = {a or b for a, b in _OPTION_NAMED_RE.findall(flat)}
    if len(letters | set(re.findall(r"\(([A-J])\)", flat))) > 1:
        return None  # "0.5 (C), 1.4 (B), 1.": options listed, none chosen
    closing = _CLOSING_LABEL_RE.search(shown)
    if closing is not None:
        return closing.group(1)
    for match in re.finditer(_LABEL_AFTER.format(v=re.escape(shown)), flat):
        letters.add(match.group("d"))
    return letters.pop() if len(letters) == 1 else None
