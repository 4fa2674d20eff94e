"""A yes/no question answered by a statement: "Is 1232 a multiple of 7?" and "Therefore,
1232 is a multiple of 7." (Yes), "… 1234 is not a multiple of 7." (No).

``yes_no_words`` reads the yes/no question a problem ends with (its last question that
opens with an auxiliary: "Is …?", "Does …?", "Can …?") as its content words and numbers in
order (lower case, a plural's "s" dropped, the auxiliary and function words aside; at least
two, "Is it possible?" names too little), kept as ``Gold.yes_no_words``.
``statement_polarity`` says what a closing statement answers when it restates the question:
its words next to each other and in the question's order (a negation or an adverb such as
"indeed" may stand between them), or, for a question of three words or more, a pronoun for
its subject followed by its other words ("so it is not a prime number" for "Is 17747 a prime
number?"). True with no negation, False with one ("not", "n't", "never", "no", "unlikely",
"impossible"); None when it restates nothing (it says something else: "The coin is still
tails up." for "Is the coin still heads up?"; "9221 is a composite number with prime
factors …" holds the words, not the question), for a hedge ("might", "probably",
"could", "while …"; "could not see" is no hedge but a No) and for a question. The
negation is looked for in the main clause (after the last comma: "Since none of them
flipped it, the coin is still heads up." is Yes), which must hold half the question's words
(or a pronoun for its subject). Only a boolean gold reads it
(``sampler.verify.answers.verdict.prepare_span``, and ``extraction.statement_for_gold``
where a rule read a value that is no yes or no: "Therefore 17747 is a prime number." is
Yes, not 17747); without the question nothing changes. ``opening_yes_no`` reads the yes or
no a completion heads its reasons with ("No, J.K. Rowling was not born in an even year.
She was born in 1965, …"), for ``statement_for_gold`` when the last statement says nothing.
``called_boolean`` reads a statement that calls its subject true or false after its last
copula ("Therefore, the result of the expression … is False.", "So, the final result is:
True"), for a boolean gold without a question to restate (BIG-Bench Hard's Boolean
expressions). Pure string work on a few hundred characters.
"""

from __future__ import annotations

import re

from sampler.verify.answers.gold_types import boolean_of

_AUXILIARY = (
    "is are was were am do does did can could will would shall should has have had must may"
)
#: a period that ends an initial or a title inside a question ("Was J.K. Rowling …?", "Dr.")
_ABBREVIATION_DOT = "|".join(
    rf"(?<=\b{word})\." for word in "[A-Z] Jr Sr Dr Mr Mrs Ms St Mt vs U.S".split()
)
#: the last yes/no question of a problem: an auxiliary first, a question mark last
_QUESTION_RE = re.compile(
    r"(?:^|(?<=[.!?。\n:]))\s*(?:" + _AUXILIARY.replace(" ", "|") + r")\b"
    rf"(?:[^.?!。\n]|{_ABBREVIATION_DOT}){{3,200}}\?",
    re.IGNORECASE,
)
_TOKEN_RE = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+(?:\.\d+)?")
_STOP = frozenset(
    (
        _AUXILIARY + " a an the of to in on at by for with as it its this that these those"
        " there their they he she his her we you i so therefore thus hence yes no true false"
        " indeed also then be been being than following given above"
    ).split()
)
_NEGATION_RE = re.compile(
    r"\b(?:not|never|no|neither|nor|cannot|none|unlikely|impossible|unable)\b|n't\b|n’t\b",
    re.IGNORECASE,
)
_HEDGE_RE = re.compile(
    r"\b(?:might|may|perhaps|probably|possibly|likely|unclear|unknown|uncertain|if|whether"
    r"|depends|depending|could(?![ \t]+not\b|n't)|(?:cannot|can't|could[ \t]+not|couldn't)[ \t]+be"
    r"[ \t]+(?:determined|known|said|answered)|while|although|though|but|however|whereas)\b",
    re.IGNORECASE,
)
#: a pronoun that stands for the question's subject: "so it is not a prime number", "so
#: she was born in an even year"
_PRONOUN_RE = re.compile(r"\b(?:it|this|that|he|she|they)\b", re.IGNORECASE)
#: words that open a main clause before its predicate: "and (is)", "making (it)", "which"
_CONNECTIVES = frozenset("and which making meaning mean make made".split())  # ("means": "mean")
#: where the main clause of a statement starts: after its last comma or semicolon
_CLAUSE_RE = re.compile(r"[,;，；]\s*")
_STATEMENT_CHARS = 300


def yes_no_words(problem: str | None) -> tuple[str, ...]:
    """The content words of the yes/no question the problem ends with, in its order (module
    docstring); empty when it ends with no such question."""
    if not problem:
        return ()
    found = list(_QUESTION_RE.finditer(problem[-800:]))
    words = tuple(_ordered_tokens(found[-1].group(0))) if found else ()
    return words if len(set(words)) >= 2 else ()  # "Is it possible?" names too little


#: a quotation of three words or more: the sentence a question asks about, quoted again
#: between the statement's subject and predicate ("the sentence "Aaron Nola converted the
#: first down" is not plausible")
_QUOTED_SENTENCE_RE = re.compile(r"[\"“][^\"”\n]*?[ \t][^\"”\n]*?[ \t][^\"”\n]*?[\"”]")


def statement_polarity(statement: str, words: tuple[str, ...]) -> bool | None:
    """What ``statement`` answers to the question of ``words`` (module docstring); a quoted
    sentence in it stands for the thing the question asks about, and a question word with a
    negating prefix ("implausible", "unfair") is that word negated."""
    statement = _QUOTED_SENTENCE_RE.sub(" ", statement.strip()).strip()
    for word in {w for w in words if len(w) >= 5}:  # "implausible": "not plausible"
        statement = re.sub(
            rf"\b(?:im|in|un|il|ir|non-?|dis){word}\b", f"not {word}", statement, flags=re.I
        )
    if not words or not statement or len(statement) > _STATEMENT_CHARS:
        return None
    if statement.endswith(("?", "？")) or _HEDGE_RE.search(statement):
        return None
    main = _CLAUSE_RE.split(statement)[-1]  # "Since none flipped it, the coin is still heads up."
    if 2 * len(set(words) & _tokens(main)) < len(set(words)) and not _PRONOUN_RE.search(main):
        return None  # the last clause is about something else ("…, the answer is clear.")
    said = [t for t in _ordered_tokens(statement) if t not in _FILLER]
    clause = _restating_clause(statement, words, said)
    if clause is None:
        return None  # "9221 is a composite number with prime factors …" restates nothing
    return _NEGATION_RE.search(clause) is None


#: where a clause that may restate the question starts: after a comma, "and", "which",
#: "so", "therefore" ("… divisible by 7, which means it is not a prime number")
_CLAUSE_START_RE = re.compile(
    r"[,;，；]|\b(?:and|which|so|thus|therefore|hence|making|meaning)\b", re.IGNORECASE
)


def _restating_clause(statement: str, words: tuple[str, ...], said: list[str]) -> str | None:
    """The shortest end of ``statement`` after a clause start that restates the question: its
    words next to each other and in order, or its predicate after a pronoun for its subject
    or after the subject named before (``_restates_predicate``); else None. A negation there
    says No ("… is not divisible by 7 and is therefore a prime number" is Yes)."""
    starts = [m.start() for m in _CLAUSE_START_RE.finditer(statement)]
    for start in [*reversed(starts), 0]:
        clause = statement[start:]
        told = [t for t in _ordered_tokens(clause) if t not in _FILLER]
        if _holds_run(told, words) or _restates_predicate(clause, words, said):
            return clause
    return None


#: words that may stand between the question's words restated without changing what is
#: restated: a negation (which decides the polarity) or an adverb of emphasis
_FILLER = frozenset(
    "not never cannot ca wo actually indeed also definitely certainly really truly numbered".split()
)  # ("an even-numbered day" restates "an even day")


def _holds_run(said: list[str], words: tuple[str, ...]) -> bool:
    """Whether ``said`` holds the question's words next to each other, in its order."""
    question = [w for w in words if w not in _FILLER]
    n = len(question)
    return any(said[i : i + n] == question for i in range(len(said) - n + 1))


def _restates_predicate(main: str, words: tuple[str, ...], said: list[str]) -> bool:
    """Whether the main clause restates the question's predicate (its words after the first,
    of three or more; next and in order, after the clause's connectives) where a pronoun
    stands for its subject ("so it is not a prime number", "…, making it a prime number"; a
    subject of several words: "so she was born in an even year") or
    after a statement that named the subject ("9221 is a composite number, not a prime
    number", "…, and is therefore a prime number"); not "It is actually a composite number
    with prime factors …"."""
    if len(words) < 3:
        return False
    told = [t for t in _ordered_tokens(main) if t not in _FILLER]
    while told and told[0] in _CONNECTIVES:
        told.pop(0)
    pronoun = _PRONOUN_RE.search(main) is not None
    # the subject is the question's first word or its first few ("Was Scarlett Johansson
    # born in an even year?": "she was born in an even year"), two words or more remaining
    for subject in range(1, len(words) - 1):
        rest = [w for w in words[subject:] if w not in _FILLER]
        if len(rest) < 2 or not (pronoun or (subject == 1 and words[0] in said[:-1])):
            continue  # a subject named again is the first word ("… not the question's object")
        if told[: len(rest)] == rest:
            return True
    return False


def _ordered_tokens(text: str) -> list[str]:
    return [t for t in (_token(raw) for raw in _TOKEN_RE.findall(text.replace("’", "'"))) if t]


def _token(raw: str) -> str:
    """One word as ``_tokens`` reads it: lower case, "n't" and a plural's "s" dropped, a
    function word empty."""
    token = raw.lower()
    if token.endswith("n't"):
        token = token[:-3]
    if token in _STOP or not token:
        return ""
    return token[:-1] if len(token) > 3 and token.endswith("s") and token.isalpha() else token


def _tokens(text: str) -> frozenset[str]:
    return frozenset(_ordered_tokens(text))


RULE_LAST_STATEMENT = "last statement (words)"
#: what ``last_statement`` reads: the end of a text after its last break (a sentence end or
#: a line break), 3 to 300 characters, then at most one ``.``/``!``/``。`` (what the pattern
#: ``[^.!?。\n]{3,300}[.!。]?[ \t]*$`` finds, found by scanning back, in linear time)
_BREAKS = ".!?。\n"
_STATEMENT_ENDS = (".", "!", "。")
_STATEMENT_WINDOW = 400
#: what closes a completion after its last statement: white space and bold marks
_TRAILING = " \t\n\r\f\v*_"
_STATEMENT_CHARS = 300


def ends_initial(text: str, at: int) -> bool:
    """Whether the stop at ``at`` ends an initial, a capital letter alone ("J.R.R. Tolkien",
    "John F. Kennedy"): no sentence ends there."""
    return (
        at > 0
        and text[at - 1].isascii()
        and text[at - 1].isupper()
        and (at < 2 or not (text[at - 2].isalnum() or text[at - 2] == "_"))
    )


def _last_break(body: str) -> int:
    """The last of ``_BREAKS`` in ``body``, less a stop that ends an initial or sits inside a
    word or number; -1 if none."""
    found = max(body.rfind(c) for c in _BREAKS if c != ".")
    at = body.rfind(".")
    while ends_initial(body, at) or (0 <= at < len(body) - 1 and body[at + 1].isalnum()):
        at = body.rfind(".", 0, at)  # "R. Tolkien": an initial's stop; "6.3", "e.g.": no end
    return max(found, at)


def last_statement(text: str) -> str | None:
    """The completion's last sentence when it is a statement (not a question), for the yes/no
    question's gold to read (``statement_polarity``) when no rule found an answer; None
    when the completion ends otherwise."""
    tail = text.rstrip(_TRAILING)[-_STATEMENT_WINDOW:]  # "… (Option A).**": bold too
    body = tail[:-1] if tail[-1:] in _STATEMENT_ENDS else tail
    start = max(_last_break(body) + 1, len(body) - _STATEMENT_CHARS)
    if len(body) - start < 3:
        return None
    sentence = tail[start:].strip(" \t*_")
    return sentence if sentence and not sentence.endswith("?") else None


RULE_OPENING_YES_NO = "opening yes/no"
#: a yes or no that opens a sentence, then its punctuation: "No, J.K. Rowling was not …"
_OPENING_WORD_RE = re.compile(r"[\s*_\"“]*(?P<w>[^\W\d_]+)[ \t]*[,，.!:;—–]")
_FIRST_SENTENCE_RE = re.compile(r"[^.!?。\n]{0,300}[.!?。]?")
#: a paragraph that opens by asking the question again: what follows it answers it
_ASKED_FIRST_RE = re.compile(r"[^.!?。\n]{3,400}\?[\"”]?[ \t]+")


def opening_yes_no(text: str) -> bool | None:
    """The yes or no a completion heads its reasons with, as True/False: the first word of
    its first sentence or of its last paragraph's ("No, J.K. Rowling was not born in an even
    year. She was born in 1965, …"), or of the sentence after the question a last paragraph
    opens with ("Was Hitler born earlier than Jolie? Yes, …"), in any language
    ``gold_types.boolean_of`` reads (``네,``).
    None when neither opens with one, when they disagree, or when the opening sentence's own
    words say the other ("Yes, it was not …"), and for a confirmation ("Yes, that is right.")."""
    paragraphs = text.strip().split("\n\n")
    heads = {paragraphs[0].strip(), paragraphs[-1].strip()}
    asked = _ASKED_FIRST_RE.match(paragraphs[-1].strip())
    if asked is not None:  # "Was Hitler born earlier than Jolie? Yes, Adolf Hitler was …"
        heads.add(paragraphs[-1].strip()[asked.end() :])
    said = set()
    for paragraph in heads:
        word = _OPENING_WORD_RE.match(paragraph)
        polarity = boolean_of(word.group("w")) if word else None
        if polarity is None:
            continue
        sentence = _FIRST_SENTENCE_RE.match(paragraph[word.end() :])
        rest = sentence.group(0) if sentence else ""
        if _CONFIRMS_RE.match(rest.strip()) or _CHAT_RE.match(rest.strip()):
            return None  # "Yes, that is right.", "Yes, let's solve it": no answer yet
        if _NEGATION_RE.search(rest) and polarity and not _HEDGE_RE.search(rest):
            return None  # "Yes, it was not …": the sentence says the other
        said.add(polarity)
    return said.pop() if len(said) == 1 else None


#: "Yes, let's work it out.", "Yes, I can help": a reply to the asking, not the answer
_CHAT_RE = re.compile(
    r"(?:let(?:'s|’s|\s+me|\s+us)|i(?:'ll|’ll|\s+will|\s+can|\s+would)|we\s+(?:can|will)|here"
    r"|sure|of\s+course|certainly)\b",
    re.IGNORECASE,
)
#: "Yes, that's right.": a verdict on what came before, no answer of its own
_CONFIRMS_RE = re.compile(
    r"(?:that|this|it)(?:'s|\s+is)?\s+(?:is\s+)?(?:right|correct|true|wrong)\b(?!\s+that\b)",
    re.IGNORECASE,
)  # ("Yes, it is true that …" states what is true, as in closing_sentence)


#: a last statement that ends by calling its subject true or false: "Therefore, the result of
#: the expression "not ( True ) and ( True )" is False.", "… evaluates to `True`.", "So, the
#: final result is: True"
_CALLED_BOOLEAN_RE = re.compile(
    r"\b(?:is|are|was|evaluates[ \t]+to|simplifies[ \t]+to|returns|yields|gives)[ \t]*:?[ \t]+"
    r"(?P<not>not[ \t]+)?[*_`\"“]*(?P<x>true|false)[*_`\"”]*[ \t]*[.!。]?[ \t*_]*$",
    re.IGNORECASE,
)


#: a verdict on a claim: "the claim is true", "Therefore, the claim that volleyball is the
#: sport with the earliest date is false", "the statement is not correct" (TabFact, FEVER-like
#: tasks, where the reasons follow the verdict)
_CLAIM_VERDICT_RE = re.compile(
    r"\b(?P<lead>if|whether|unless|determine|check|verify|see)?[ \t]*\b(?:the|this|that)[ \t]+"
    r"(?:given[ \t]+|original[ \t]+)?(?:claim|statement|hypothesis|assertion|proposition)\b"
    r"(?:[ \t]+that\b[^.!?\n]{0,200}?)?[ \t]+(?:is|was|would[ \t]+be|appears[ \t]+to[ \t]+be"
    r"|seems[ \t]+to[ \t]+be)[ \t]+(?:(?:therefore|thus|indeed|also|then|actually)[ \t]+)?"
    r"(?P<not>not[ \t]+)?[*_\"“]*(?P<x>true|false|correct|incorrect|accurate|inaccurate"
    r"|supported|refuted)\b",
    re.IGNORECASE,
)
_TRUE_WORDS = frozenset(("true", "correct", "accurate", "supported"))


def claim_verdict(text: str) -> bool | None:
    """True or False, as the completion's last verdict on a claim says ("the claim is true",
    "the claim that … is false", "is not correct"), in its last 1,000 characters; a verdict
    under "if" or "whether" is none; None when it gives no verdict."""
    found = [m for m in _CLAIM_VERDICT_RE.finditer(text[-1000:]) if not m.group("lead")]
    if not found:
        return None
    last = found[-1]
    return (last.group("x").lower() in _TRUE_WORDS) != bool(last.group("not"))


def called_boolean(statement: str) -> bool | None:
    """True or False, as ``statement`` calls its subject one after its last copula (a Boolean
    expression's value, a claim judged: "… is False.", "… evaluates to `True`."); "is not
    true" is False; None when it calls it neither."""
    called = _CALLED_BOOLEAN_RE.search(statement[-200:])
    if called is None:
        return None
    return (called.group("x").lower() == "true") != bool(called.group("not"))
