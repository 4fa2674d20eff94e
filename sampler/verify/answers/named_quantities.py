"""The question decides which of a closing sentence's quantities is the answer.

A final sentence often states several results, one a clause ("The area is 12 and the
perimeter is 14.", "Alice has 4 apples and Bob has 6 apples.", "$f(2) = 5$ and $f(3) = 7$",
"we get x = -2 and y = 5"). Without the question the rules read one of them (the value after
the last "is"), or call the sentence ambiguous. With it, the quantity the question asks for
picks the clause:

- ``asked_words`` reads the question the problem ends with (its last sentence that asks:
  a "?", or an opening "Find", "Compute", "Solve", ...), as its content words (lower case,
  a plural's "s" dropped) and the calls it names (``f(3)``);
- ``asked_value`` splits the sentence into clauses joined by "and", commas or semicolons,
  each stating one value, and returns the value of the one clause whose own words (those
  not shared by every clause) the question names; the symbol the question asks for
  (``Gold.asked``: "Find $a$") decides first. None when the sentence is no such list, or
  no clause, or more than one, is named.

``word_named_value`` picks, of several values named by words (sympy's printed
``{adults: 15, children: 10}``), the one whose name the question names ("How many child
tickets …?").

``restated_count`` reads a last statement that restates the question around one count ("3
pieces of clothing could go in each of the small loads." for "How many pieces of clothing
could go in each of the small loads?"): the words a hypothesis or a negation would be ("could",
"not") are the question's own there.

``negated_as_asked`` reads a last statement negated as the question is ("Dave did not wash 16
shirts." for "… how many did he not wash?"): the negation is the question's, not a denial,
and the statement's one value the question did not give is the answer.

Pure string work on at most a few hundred characters, done where the answer is prepared
(``sampler.verify.answers.verdict.prepare_span``); without a problem text nothing changes.
"""

from __future__ import annotations

import re

from sampler.verify.answers.last_number import only_value

#: the question a problem ends with: its last sentence that asks
_QUESTION_RE = re.compile(
    r"[^.?!。？\n]*\?|(?:^|(?<=[.!。\n]))\s*(?:find|compute|calculate|determine|solve|evaluate"
    r"|give|state|express|how|what|which)\b[^.?!。？\n]*",
    re.IGNORECASE,
)
_CALL_RE = re.compile(r"\b[A-Za-z]\s*\(\s*[^()\s]{1,12}\s*\)")
_WORD_RE = re.compile(r"[A-Za-z]+")
_STOP = frozenset(
    """a an the of is are was were be to and or in on at by for with as it its this that these
    those there their his her them they we you i so thus hence therefore then has have had
    does do did value values number numbers total final answer result equal equals get gives
    find what how many much which compute calculate determine solve evaluate give state
    express if when given let all each both""".split()
)
_CONCLUSION_RE = re.compile(
    r"^\s*(?:so|thus|hence|therefore|consequently|finally|in summary|in conclusion|"
    r"solving|this gives|we (?:get|find|have|obtain))\b[,:]?\s*(?:we (?:get|find|have|obtain)\b)?",
    re.IGNORECASE,
)
_MATH_RE = re.compile(r"\$\$?([^$]+)\$\$?|\\\((.+?)\\\)")
_SPLIT_RE = re.compile(r"\s*(?:,\s*and\s+|;\s*|,\s*|\s+and\s+)")
_NUMBER_RE = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})*(?:\.\d+)?(?:/\d+)?(?![\w])")
_ORDINAL_RE = re.compile(r"\d+(?:st|nd|rd|th)\b")
_SENTENCE_CHARS = 300


def asked_words(problem: str | None) -> frozenset[str]:
    """The content words and calls of the question the problem ends with (module
    docstring); empty without one."""
    if not problem:
        return frozenset()
    found = list(_QUESTION_RE.finditer(problem[-600:]))
    return _tokens(found[-1].group(0)) if found else frozenset()


def asked_value(sentence: str, asked: frozenset[str], symbol: str | None = None) -> str | None:
    """The value of the clause the question names (module docstring), else None."""
    if (not asked and not symbol) or len(sentence) > _SENTENCE_CHARS:
        return None
    clauses = _clauses(sentence)
    if clauses is None:
        return None
    if symbol is not None:
        named = [value for name, value in clauses if symbol.lower() in name]
        if len(named) == 1:
            return named[0]
    common = frozenset.intersection(*(name for name, _ in clauses))
    scores = [len((name - common) & asked) for name, _ in clauses]
    best = max(scores)
    if best == 0 or scores.count(best) > 1:
        return None
    return clauses[scores.index(best)][1]


def _clauses(sentence: str) -> list[tuple[frozenset[str], str]] | None:
    """(own words, value) of each clause of a list of results; None when the sentence is
    not one (fewer than two clauses, a clause without exactly one value, equal names)."""
    text = _CONCLUSION_RE.sub("", sentence.strip().rstrip(".。!"))
    masked = _MATH_RE.sub(lambda m: "#" * len(m.group(0)), text)
    cuts = [0]
    for sep in _SPLIT_RE.finditer(masked):
        if masked[: sep.start()].count("(") == masked[: sep.start()].count(")"):
            cuts += [sep.start(), sep.end()]
    cuts.append(len(text))
    parts = [text[cuts[i] : cuts[i + 1]] for i in range(0, len(cuts), 2)]
    if len(parts) < 2:
        return None
    out = []
    for part in parts:
        clause = _clause(part)
        if clause is None:
            return None
        out.append(clause)
    names = [name for name, _ in out]
    if any(not n for n in names) or len(set(names)) != len(names):
        return None
    return out


def _clause(part: str) -> tuple[frozenset[str], str] | None:
    """A clause's own words (and the name a math span gives, ``a`` of ``$a = 2$``) and its
    one value, or None."""
    values: list[str] = []
    words = part
    names: set[str] = set()
    for math in _MATH_RE.finditer(part):
        inner = (math.group(1) or math.group(2)).strip()
        left, eq, right = inner.rpartition("=")
        if eq:
            words = words.replace(math.group(0), " ")
            names.add(re.sub(r"[\s{}]", "", left).lower())
            values.append(right.strip())
        else:
            words = words.replace(math.group(0), " ")
            values.append(inner)
    plain = _CALL_RE.sub(" ", _ORDINAL_RE.sub(" ", words))
    if "=" in plain:
        left, _, right = plain.rpartition("=")
        words = words[: len(words) - len(right) - 1]
        if re.fullmatch(r"\s*[A-Za-z](?:_\w{1,3})?\s*", left.split()[-1] if left.split() else ""):
            names.add(left.split()[-1].lower())  # "x = -2": the name x
            words = words[: words.rfind(left.split()[-1])]
        values += _NUMBER_RE.findall(right)
    else:
        values += _NUMBER_RE.findall(plain)
    if len(values) != 1:
        return None
    value = values[0].replace(",", "") if "/" not in values[0] else values[0]
    return _tokens(words) | names, value


def _tokens(text: str) -> frozenset[str]:
    calls = {re.sub(r"\s+", "", c).lower() for c in _CALL_RE.findall(text)}
    text = _CALL_RE.sub(" ", text.replace("$", " ").replace("\\(", " ").replace("\\)", " "))
    words = set()
    for word in _WORD_RE.findall(text):
        word = word.lower()
        if word in _STOP:
            continue
        words.add(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    return frozenset(words | calls)


#: a statement that opens with its count (after the computation that gives it) and goes on in
#: words: "27 / 9 = 3 pieces of clothing could go in each of the small loads"
_RESTATED_RE = re.compile(
    r"(?:(?:so|thus|hence|therefore)[,，]?\s+)?(?:[\d.,+\-−*/×÷() \t]+=[ \t]*)?"
    r"(?P<n>-?\d+(?:\.\d+)?)[ \t]+(?P<rest>[A-Za-z][^\d\n]{2,160})",
    re.IGNORECASE,
)


def restated_count(statement: str, asked: frozenset[str]) -> str | None:
    """The count a statement opens with when the rest of its words are the question's own
    (at least two of them), else None (module docstring)."""
    match = _RESTATED_RE.fullmatch(statement.strip().rstrip(".。!"))
    if match is None or not asked:
        return None
    words = _tokens(match.group("rest"))
    if len(words) < 2 or not words <= asked:
        return None
    return match.group("n")


def restated_subject(statement: str, asked: frozenset[str]) -> str | None:
    """The subject a statement opens with when the rest of it restates the question ("United
    States has the most forward position players." for "which country has the most forward
    position players?"): at most ``_SUBJECT_WORDS`` words, a name (capitalised) up to the first
    word in lower case, before at least two of the question's own words and no other; else
    None."""
    if not asked or len(statement) > _SENTENCE_CHARS:
        return None
    words = statement.strip().rstrip(".。!").split()
    for cut in range(1, min(_SUBJECT_WORDS, len(words) - 2) + 1):
        if not words[cut][:1].islower():
            continue  # the subject goes on ("United States"): its verb opens the rest
        rest = _tokens(" ".join(words[cut:])) - _COMPARING
        if len(rest) < 2 or not rest <= asked:
            return None
        subject = " ".join(words[:cut]).strip(" ,*")
        return subject if subject[:1].isupper() or subject[:1].isdigit() else None
    return None


#: the most words a restated question's subject has
_SUBJECT_WORDS = 6
#: words a restatement may add to the question's ("… scored more goals than Eric Wynalda.")
_COMPARING = frozenset({"than", "also", "both"})

#: ``adults = 15``: a value given a name that is a word (sympy's ``{adults: 15, children: 10}``)
_WORD_NAMED_RE = re.compile(r"\s*([A-Za-z]\w{1,24})\s*=\s*([^=]+?)\s*")


def word_named_value(parts: list[str], asked: frozenset[str]) -> str | None:
    """Of several values named by words (``adults = 15``, ``children = 10``), the one whose
    name the question's words name ("How many child tickets were sold?": ``children``), else
    None. A name's word matches a question's word that it starts with or that starts it (at
    least four letters: ``children`` and ``child``); one name must match best."""
    if len(parts) < 2 or not asked:
        return None
    scored: list[tuple[int, str]] = []
    for part in parts:
        match = _WORD_NAMED_RE.fullmatch(part)
        if match is None:
            return None
        words = _tokens(match.group(1).replace("_", " "))
        scored.append((sum(1 for w in words if _names(w, asked)), match.group(2)))
    best = max(score for score, _ in scored)
    if best == 0 or [score for score, _ in scored].count(best) > 1:
        return None
    return next(value for score, value in scored if score == best)


def _names(word: str, asked: frozenset[str]) -> bool:
    if word in asked:
        return True
    return len(word) >= 4 and any(
        len(a) >= 4 and (word.startswith(a) or a.startswith(word)) for a in asked
    )


#: a negation in a statement or a question ("not", "n't", "never")
_NEGATION_RE = re.compile(r"\b(?:not|never)\b|n't\b", re.IGNORECASE)
#: the question's words that negate it ("didn't" is read as the word "didn")
_ASKED_NEGATIONS = frozenset(
    {"not", "never", "didn", "don", "doesn", "isn", "aren", "wasn", "weren", "hasn", "haven"}
)


def negated_as_asked(
    statement: str, asked: frozenset[str], given: frozenset[str] = frozenset()
) -> str | None:
    """The one value of a statement negated as the question is (module docstring): one
    negation, in a question that negates too, and two of the question's words at least;
    else None."""
    if not asked & _ASKED_NEGATIONS or len(_NEGATION_RE.findall(statement)) != 1:
        return None
    if len(_tokens(statement) & (asked - _ASKED_NEGATIONS)) < 1:
        return None
    return only_value(_NEGATION_RE.sub(" ", statement), given)
