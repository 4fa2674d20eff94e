"""A yes/no question answered by a statement: "Is 1232 a multiple of 7?" and "Therefore,
1232 is a multiple of 7." (Yes), "… 1234 is not a multiple of 7." (No).

``yes_no_words`` reads the yes/no question a problem ends with (its last question that
opens with an auxiliary: "Is …?", "Does …?", "Can …?") as its content words and numbers
(lower case, a plural's "s" dropped, the auxiliary and function words aside; at least two,
"Is it possible?" names too little), kept as ``Gold.yes_no_words``. ``statement_polarity``
says what a closing statement answers: True when it holds every one of those words and no
negation, False when it holds them all and a negation ("not", "n't", "never", "no",
"unlikely", "impossible"); None when a word of the question is missing (it says something
else: "The coin is still tails up." for "Is the coin still heads up?"), for a hedge
("might", "probably", "while …") and for a question. The negation is looked for in the main
clause (after the last comma: "Since none of them flipped it, the coin is still heads up."
is Yes), which must hold half the question's words. Only a boolean gold reads it
(``sampler.verify.answers.verdict.prepare_span``); without the question nothing changes.
Pure string work on a few hundred characters.
"""

from __future__ import annotations

import re

_AUXILIARY = (
    "is are was were am do does did can could will would shall should has have had must may"
)
#: the last yes/no question of a problem: an auxiliary first, a question mark last
_QUESTION_RE = re.compile(
    r"(?:^|(?<=[.!?。\n:]))\s*(?:" + _AUXILIARY.replace(" ", "|") + r")\b[^.?!。\n]{3,200}\?",
    re.IGNORECASE,
)
_TOKEN_RE = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+(?:\.\d+)?")
_STOP = frozenset(
    (
        _AUXILIARY + " a an the of to in on at by for with as it its this that these those"
        " there their they he she his her we you i so therefore thus hence yes no true false"
        " indeed also then be been being than"
    ).split()
)
_NEGATION_RE = re.compile(
    r"\b(?:not|never|no|neither|nor|cannot|none|unlikely|impossible|unable)\b|n't\b|n’t\b",
    re.IGNORECASE,
)
_HEDGE_RE = re.compile(
    r"\b(?:might|may|perhaps|probably|possibly|likely|unclear|unknown|uncertain|if|whether"
    r"|depends|cannot be determined|while|although|though|but|however|whereas)\b",
    re.IGNORECASE,
)
#: where the main clause of a statement starts: after its last comma or semicolon
_CLAUSE_RE = re.compile(r"[,;，；]\s*")
_STATEMENT_CHARS = 300


def yes_no_words(problem: str | None) -> frozenset[str]:
    """The content words of the yes/no question the problem ends with (module docstring);
    empty when it ends with no such question."""
    if not problem:
        return frozenset()
    found = list(_QUESTION_RE.finditer(problem[-800:]))
    words = _tokens(found[-1].group(0)) if found else frozenset()
    return words if len(words) >= 2 else frozenset()  # "Is it possible?" names too little


def statement_polarity(statement: str, words: frozenset[str]) -> bool | None:
    """What ``statement`` answers to the question of ``words`` (module docstring)."""
    statement = statement.strip()
    if not words or not statement or len(statement) > _STATEMENT_CHARS:
        return None
    if statement.endswith(("?", "？")) or _HEDGE_RE.search(statement):
        return None
    if not words <= _tokens(statement):
        return None
    main = _CLAUSE_RE.split(statement)[-1]  # "Since none flipped it, the coin is still heads up."
    if 2 * len(words & _tokens(main)) < len(words):
        return None  # the last clause is about something else ("…, the answer is clear.")
    return _NEGATION_RE.search(main) is None


def _tokens(text: str) -> frozenset[str]:
    out = set()
    for token in _TOKEN_RE.findall(text.replace("’", "'")):
        token = token.lower()
        if token.endswith("n't"):
            token = token[:-3]
        if token in _STOP or not token:
            continue
        out.add(token[:-1] if len(token) > 3 and token.endswith("s") and token.isalpha() else token)
    return frozenset(out)


RULE_LAST_STATEMENT = "last statement (words)"
#: what ``last_statement`` reads: the end of a text after its last break (a sentence end or
#: a line break), 3 to 300 characters, then at most one ``.``/``!``/``。`` (what the pattern
#: ``[^.!?。\n]{3,300}[.!。]?[ \t]*$`` finds, found by scanning back, in linear time)
_BREAKS = ".!?。\n"
_STATEMENT_ENDS = (".", "!", "。")
_STATEMENT_WINDOW = 400
_STATEMENT_CHARS = 300


def last_statement(text: str) -> str | None:
    """The completion's last sentence when it is a statement (not a question), for the yes/no
    question's gold to read (``statement_polarity``) when no rule found an answer; None
    when the completion ends otherwise."""
    tail = text.rstrip()[-_STATEMENT_WINDOW:]
    body = tail[:-1] if tail[-1:] in _STATEMENT_ENDS else tail
    start = max(max(body.rfind(c) for c in _BREAKS) + 1, len(body) - _STATEMENT_CHARS)
    if len(body) - start < 3:
        return None
    sentence = tail[start:].strip(" \t*_")
    return sentence if sentence and not sentence.endswith("?") else None
