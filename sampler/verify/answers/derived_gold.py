"""A gold written as a derivation that closes with its value: the value is the gold.

Datasets whose answer field is the last line of a worked solution store golds such as
``Tốc độ cực đại: vmax = A.ω = 1.10 = 10 (cm/s)``, ``f = ω/2π = 1 (Hz)``,
``\\lim_{n\\to\\infty} X_n/n^2 = \\frac38`` or ``The total is 3 + 4 = 7``. The answer
they state is the member after the last top-level ``=`` (or ``≈``), and a model that
answers ``10 cm/s`` or ``3/8`` answered it. ``derived_value`` reads that member when it is
a closed number (digits, arithmetic, π and roots, with an optional unit, a parenthesised
unit unwrapped) and what comes before it shows a derivation: another relation (a chain), a
sentence in words, a limit, sum, integral or product, or arithmetic on numbers alone.

Left as they are: an equation whose sides hold variables (``5x - 7y + 11z + 4 = 0``,
``y = 2x + 3``), one named value (``x = 5``, which the comparison already reads), a list
of named values (``a = 2, b = 3``), whose last member is not the whole answer, and a last
relation that is a condition (``f(x) = ax + b, where a is a positive integer with
\\mho(a) = 0``).
Linear: one scan for relations, then patterns on the pieces.
"""

from __future__ import annotations

import re

from sampler.verify.answers.units import split_unit

#: ``=`` that is a relation (not ``==``, ``<=``, ``>=``, ``!=``, ``:=``), ``≈`` and ``\approx``
_RELATION_RE = re.compile(r"(?<![=<>!:])=(?!=)|≈|\\approx(?![A-Za-z])")
_OPEN, _CLOSE = "({[", ")}]"
#: LaTeX that a closed number may hold: fractions, roots, π, products, spacing, a degree
_NUMBER_COMMANDS_RE = re.compile(
    r"\\(?:d|t)?frac|\\sqrt|\\pi|\\cdot|\\times|\\left|\\right|\\displaystyle|\\circ"
    r"|\\[,;:! ]|\\%|\\\$|~"
)
#: what is left of a closed number: digits, arithmetic, grouping, π, √, °, %, $
_CLOSED_RE = re.compile(r"[\d\s+\-*/^(){}\[\].,%$°π√×·]*\d[\d\s+\-*/^(){}\[\].,%$°π√×·]*")
#: a unit in parentheses after the number: ``10 (cm/s)``
_PARENTHESISED_UNIT_RE = re.compile(r"(?P<value>.*?\S)\s*\((?P<unit>[^()]{1,20})\)")
#: a unit after the number and a space: ``0,25 s``, ``20 rad``
_SPACED_UNIT_RE = re.compile(r"(?P<value>[^ ]*\d[^ ]*) (?P<unit>[^\d\s]\S{0,11})")
#: a decimal comma: ``0,25``, ``31,5`` (three digits after a comma group thousands: ``8,400``)
_DECIMAL_COMMA_RE = re.compile(r"(?<![\d,])(\d+),(\d{1,2}|\d{4,})(?![\d,])")
#: operators whose value a derivation states: a limit, sum, integral, product, expectation
_OPERATOR_RE = re.compile(r"\\(?:lim|sum|int|prod|mathbb\s*\{?E\b|Pr\b|binom)")
#: prose: two words in a row, each two or more letters of any script (``ta có``, ``The total``)
_PROSE_RE = re.compile(r"(?<![\\\w])[^\W\d_]{2,}[ \t]+[^\W\d_]{2,}(?![\w{])")
#: what separates the statements of a gold: a comma, semicolon or colon (any script; not
#: between digits, as in ``8,400`` or ``3:4``, nor LaTeX's ``\,``), ``\quad``
_SEPARATOR_RE = re.compile(r"(?<!\\)(?:(?<!\d)[,;:]|[,;:](?!\d))|[，；：]|\\q?quad")
#: a piece of a gold that ends by naming a value: ``The roots are x = 2`` (a list goes on)
_ENDS_NAMED_RE = re.compile(r"(?:^|[\s$])[A-Za-z\u0370-\u03ff][\w'{}^]{0,6}\s*=\s*(?P<v>[^=]+)\Z")
#: a word that makes the last relation a condition, not a result: "… a positive integer
#: with $\\mho(a)=0$", "where x = 0", "if n = 1"
_CONDITION_RE = re.compile(
    r"\b(?:with|where|when|whenever|if|iff|for|given|such[ \t]+that|satisfying|provided|unless)\b",
    re.IGNORECASE,
)
_TRAILING_RE = re.compile(r"[\s.;,。；，]+\Z")
_MAX_GOLD = 400


def _relations(text: str) -> list[re.Match[str]]:
    """The top-level relations of ``text`` (not inside brackets or braces)."""
    found: list[re.Match[str]] = []
    depth, last = 0, 0
    for match in _RELATION_RE.finditer(text):
        for char in text[last : match.start()]:
            if char in _OPEN:
                depth += 1
            elif char in _CLOSE and depth:
                depth -= 1
        last = match.start()
        if depth == 0:
            found.append(match)
    return found


def _closed_number(value: str) -> bool:
    """Whether ``value`` is a number written without variables: ``10``, ``6π√3``, ``\\frac38``."""
    return _CLOSED_RE.fullmatch(_NUMBER_COMMANDS_RE.sub("", value)) is not None


def _unit(text: str) -> str | None:
    """``text`` as a unit (``cm/s``, ``s``, ``rad``), None when it is not one."""
    unit = split_unit(f"1 {text.strip()}")[1]
    return unit if unit is not None and not unit.startswith("count:") else None


def _with_unit(tail: str) -> tuple[str, str | None]:
    """``tail`` as (number, unit): ``10 (cm/s)`` and ``0,25 s`` (a unit after a space)."""
    match = _PARENTHESISED_UNIT_RE.fullmatch(tail) or _SPACED_UNIT_RE.fullmatch(tail)
    if match is not None and (unit := _unit(match.group("unit"))) is not None:
        return match.group("value"), unit
    return tail, None


def _shows_derivation(head: str, chained: bool) -> bool:
    """Whether the text before a statement's last relation derives a value rather than
    only naming it: a chain, an operator, arithmetic on numbers alone, or a sentence."""
    if chained or _OPERATOR_RE.search(head):
        return True
    plain = _NUMBER_COMMANDS_RE.sub("", head)
    return _CLOSED_RE.fullmatch(plain) is not None or _PROSE_RE.search(plain) is not None


def _lists_values(pieces: list[str]) -> bool:
    """Whether the piece before the last one ends by naming a value (``x = 2, y = 3``,
    ``The roots are x = 2, y = 3``): a list, whose last member is not the whole answer."""
    if len(pieces) < 2:
        return False
    match = _ENDS_NAMED_RE.search(pieces[-2].strip())
    return match is not None and _closed_number(_with_unit(match.group("v").strip())[0])


def derived_value(gold: str) -> tuple[str, str | None] | None:
    """The (value, unit) a derivation gold closes with, a decimal comma read as a point;
    None for any other gold."""
    text = _TRAILING_RE.sub("", gold)
    if len(text) > _MAX_GOLD or "\n" in text.strip():
        return None
    relations = _relations(text)
    if not relations:
        return None
    last = relations[-1]
    tail = text[last.end() :].strip()
    value, unit = _with_unit(tail)
    if not tail or not _closed_number(value):
        return None
    pieces = _SEPARATOR_RE.split(text[: last.start()])
    statement = pieces[-1]  # the last statement's text before its value
    if not statement.strip() or _lists_values(pieces) or _CONDITION_RE.search(statement):
        return None
    chained = any(r.start() >= last.start() - len(statement) for r in relations[:-1])
    approximate = last.group() != "="
    if approximate and _closed_number(statement):  # "\\frac{\\sqrt3}{3} ≈ 0.577": the exact form
        return None
    if not _shows_derivation(statement, chained) and _PROSE_RE.search(text[: last.start()]) is None:
        return None
    return _DECIMAL_COMMA_RE.sub(r"\1.\2", value), unit
