"""One verdict with math-verify: parse an extracted answer, compare it with the gold.

This is the work a verification worker process does for each distinct
(gold, answer) pair. It calls math-verify with its own signal-based timeouts
switched off (``parsing_timeout=None``, ``timeout_seconds=None``): they cannot stop
long C-level work and they turn a slow comparison into a silent "incorrect".
Time is bounded from outside instead, by ``verify_pool``, which kills a worker
that passes its deadline. Call ``judge`` in-process only on trusted input.

Argument order follows math-verify: ``verify(gold, answer)``, gold first (the
comparison is not symmetric). One rule is added: a number written with an
explicit base (``52_8``) is wrong when the answer names another base (``52_9``);
math-verify drops subscripts and would accept it. A multi-part gold is correct when the whole answer
equals the whole gold as a set, or when every gold part is matched by its own
answer part (as many parts as the gold has), in any order, except that a gold whose
parts name their quantities (``x=1, y=2``) takes bare answer parts in its own order.

math-verify's unit removal is off (see ``sampler.verify.answers.units``, which decides units
instead): an answer whose unit differs from the gold's is incorrect. An answer box
is parsed whole or not at all (``first_match``): a box that does not parse is never
replaced by a fraction found inside it (``\\frac{1}{3}E_{1}+\\frac{2}{3}E_{2}`` is not
``2/3``). When neither side parses, the texts are compared without white space
(``E_{1}, E_{2}`` is ``E_{1},E_{2}``). A percent sign on one side only is tried both
ways (``50.0\\%`` is 50, and ``50\\%`` is still 0.5). When both sides use ``i``, it is
also tried as the imaginary unit (``i(2-i)`` is ``1+2i``). Two plain numbers must agree to
one part in a million as well (math-verify's 6 decimal places make all tiny numbers 0).
Forms math-verify does not prove equal (degrees inside trigonometric functions,
hyperbolic functions and exponentials, set-builder notation, an ordering for a chain
of inequalities) are tried last (``sampler.verify.answers.equal_forms``), and so is a
gold stated rounded (``3.1416``), which an answer whose value rounds to it at the gold's
precision matches (``\\pi``; ``sampler.verify.answers.gold_types.stated_precision``), and
a formula gold with rounded coefficients (``1386.15(e^{0.013t}-1)``), which an answer
within that rounding at sample points matches (``sampler.verify.answers.rounded_coefficients``).
"""

from __future__ import annotations

import contextlib
import logging
import re
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from latex2sympy2_extended import NormalizationConfig
from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify
from sympy import Basic, Expr, Float, I, MatrixBase, S, expand
from sympy.core.evalf import PrecisionExhausted

from sampler.store import STATUS_CORRECT, STATUS_ERROR, STATUS_INCORRECT, STATUS_NO_ANSWER
from sampler.verify.answers.answer_forms import set_for_tuple, value_of_named
from sampler.verify.answers.assignment_lists import same_assignments
from sampler.verify.answers.bare_answer import is_bare_math
from sampler.verify.answers.clock import clock_verdict, hour_verdict, read_time
from sampler.verify.answers.degrees import degrees_value, same_angle
from sampler.verify.answers.equal_forms import equal_in_form
from sampler.verify.answers.extraction import ITEM_SEPARATOR, AnswerSpan
from sampler.verify.answers.final_statements import WORDS_RE
from sampler.verify.answers.gold_types import (
    alternatives,
    first_clause,
    hedged,
    labelled_as_gold,
    leading_letters,
    letter_range,
    restated,
    stated_precision,
    typed_verdict,
    value_rounds_to,
)
from sampler.verify.answers.golds import (
    Gold,
    answer_parts,
    choice_letter,
    math_mode,
    strip_unit,
    without_sizing,
    without_wrapper_spacing,
)
from sampler.verify.answers.last_number import gold_among
from sampler.verify.answers.named_golds import named_pair
from sampler.verify.answers.number_grids import gold_grid
from sampler.verify.answers.numeric_ranges import range_verdict
from sampler.verify.answers.parse_depth import too_deep
from sampler.verify.answers.required_form import form_differs, restates_question
from sampler.verify.answers.rounded_coefficients import same_up_to_rounding
from sampler.verify.answers.units import split_unit, variables
from sampler.verify.answers.verdict import (
    MAX_ANSWER_CHARS,
    Verdict,
    integer_verdict,
    prepare_span,
)

# math-verify warns once per process that its timeouts are off; leash bounds time itself.
logging.getLogger("math_verify").setLevel(logging.ERROR)

_CACHE_SIZE = 8192
_BASE_RE = re.compile(r"^\s*([0-9A-Za-z]+)\s*_\s*\{?\s*(\d+)\s*\}?\s*$")
#: math-verify's normalisation without its unit removal (leash decides units itself).
_NORMALISATION = NormalizationConfig(
    basic_latex=True, units=False, malformed_operators=True, nits=True, boxed="all", equations=False
)
_BOXED_CONFIG = (
    LatexExtractionConfig(boxed_match_priority=0, normalization_config=_NORMALISATION),
    ExprExtractionConfig(),
)
_FREE_TEXT_CONFIG = (
    LatexExtractionConfig(normalization_config=_NORMALISATION),
    ExprExtractionConfig(),
)
_GOLD_CONFIG = _FREE_TEXT_CONFIG
_PERCENT_RE = re.compile(r"\s*\\?%\s*$")
_BLANKS_RE = re.compile(r"\s+|\\[,;:! ]|~|\\q?quad")
_NAMED_RE = re.compile(r"\s*((?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?\w+\}?)?)\s*=(?!=)")


class GoldUnparseable(ValueError):
    """The gold answer gives math-verify nothing to compare with."""


def span_parse_input(span: AnswerSpan) -> str:
    """What math-verify parses for ``span``: the LaTeX in a box, or the free text as is."""
    return span.text if span.free_text else "\\boxed{" + span.text + "}"


@lru_cache(maxsize=_CACHE_SIZE)
def _parse_answer(parse_input: str, free_text: bool) -> tuple[Any, ...]:
    if free_text:
        return tuple(parse(parse_input, extraction_config=_FREE_TEXT_CONFIG, parsing_timeout=None))
    return tuple(
        parse(
            parse_input,
            extraction_config=_BOXED_CONFIG,
            parsing_timeout=None,
            extraction_mode="first_match",
        )
    )


@lru_cache(maxsize=_CACHE_SIZE)
def _parse_gold(latex: str) -> tuple[Any, ...]:
    parsed = tuple(parse(math_mode(latex), extraction_config=_GOLD_CONFIG, parsing_timeout=None))
    if not parsed:
        raise GoldUnparseable(f"gold {latex[:80]!r} parses to nothing")
    return parsed


def parse_gold_ahead(latex: str) -> None:
    """Parse ``latex`` into the gold cache before any answer needs it (the verification zygote
    does, for the workers it forks); a gold that parses to nothing or fails is left out."""
    with contextlib.suppress(Exception):
        _parse_gold(latex)


def _parse_latex(latex: str) -> tuple[Any, ...]:
    """A LaTeX fragment parsed as a boxed answer (``equal_forms`` compares rewritten sides)."""
    return _parse_answer("\\boxed{" + latex + "}", False)


def parse_answer(span: AnswerSpan) -> list[Any]:
    """math-verify's parse of an extracted answer (sympy objects, then the raw string)."""
    return list(_parse_answer(span_parse_input(span), span.free_text))


def normal_form(parsed: list[Any]) -> str | None:
    """The stored answer: the text of the first parsed sympy object, else the raw match."""
    chosen = next((p for p in parsed if isinstance(p, Basic | MatrixBase)), None)
    if chosen is None:
        chosen = next((p for p in parsed if isinstance(p, str) and p.strip()), None)
    if chosen is None:
        return None
    text = str(chosen).strip()
    return text[:MAX_ANSWER_CHARS] if text else None


def _sympy(parsed: tuple[Any, ...]) -> bool:
    return any(isinstance(p, Basic | MatrixBase) for p in parsed)


def _blank_free(parsed: tuple[Any, ...]) -> str | None:
    text = next((p for p in parsed if isinstance(p, str) and p.strip()), None)
    return _BLANKS_RE.sub("", text) if text is not None else None


def _numbers_differ(gold: tuple[Any, ...], answer: tuple[Any, ...]) -> bool:
    """Both plain nonzero numbers that differ by more than one part in a million.

    math-verify rounds to 6 decimal places, so ``2.88e-19`` and ``2.88e-20`` (both 0.0
    then) would be equal; magnitudes of physics answers make that a false positive.
    """
    g = next((p for p in gold if isinstance(p, Basic)), None)
    a = next((p for p in answer if isinstance(p, Basic)), None)
    if g is None or a is None or (g.is_Integer and a.is_Integer):
        return False
    try:
        if not (g.is_number and a.is_number):
            return False
        x, y = complex(g), complex(a)
    except OverflowError:  # 2013^{4025}: beyond a float, compared at 30 digits below
        return _differ_in_precision(g, a)
    except (TypeError, ValueError, ZeroDivisionError):
        return False
    if x != x or y != y:
        return False
    if (x == 0 or y == 0) and (g.is_zero or a.is_zero):
        return False  # (a gold of 0 is left to math-verify's rounding)
    sizes = (abs(x), abs(y))
    if not all(_FLOAT_SAFE[0] < size < _FLOAT_SAFE[1] for size in sizes):
        # 3/2^{1100} against 1/2^{1100} (both 0.0 as floats), 4^{2017} (inf): at 30 digits
        return _differ_in_precision(g, a)
    return abs(x - y) > 1e-6 * max(sizes)


#: magnitudes a float compares without underflow or overflow
_FLOAT_SAFE = (1e-290, 1e290)
#: the most digits sympy's evalf may work at to give 30 right ones
_MAX_WORKING_DIGITS = 3000


def _differ_in_precision(g: Basic, a: Basic) -> bool:
    """Whether two numbers (of any magnitude, sympy's floats having no exponent limit) differ
    by more than one part in a million, evaluated at 30 digits; False when either does not
    evaluate or one is zero and the other is not tiny enough to tell."""
    try:  # (a sum of huge terms that nearly cancel, 2^{1006}\sqrt{2^{2010}+2}-2^{2011}, needs
        # hundreds of working digits for 30 right ones: evalf raises the precision it works at)
        x = g.doit().evalf(30, maxn=_MAX_WORKING_DIGITS, strict=True)
        y = a.doit().evalf(30, maxn=_MAX_WORKING_DIGITS, strict=True)
        if (
            not (x.is_number and y.is_number)
            or x.has(S.NaN, S.ComplexInfinity)
            or y.has(S.NaN, S.ComplexInfinity)
        ):
            return False
        scale = max(abs(x), abs(y))
        if scale == 0:
            return False
        return bool(abs((x - y).evalf(30)) > Float("1e-6", 30) * scale)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError, AttributeError):
        return False
    except PrecisionExhausted:  # not evaluable to 30 digits: math-verify's word stands
        return False


def _same(gold: tuple[Any, ...], answer: tuple[Any, ...]) -> bool:
    if bool(verify(list(gold), list(answer), timeout_seconds=None)):
        return not _numbers_differ(gold, answer)
    if not _sympy(gold) and not _sympy(answer):
        # neither parses: equal texts up to white space (``E_{1}, E_{2}``, ``E_{1},E_{2}``)
        g, a = _blank_free(gold), _blank_free(answer)
        return g is not None and g == a
    return _imaginary_same(gold, answer)


def _imaginary_same(gold: tuple[Any, ...], answer: tuple[Any, ...]) -> bool:
    """Equal when ``i`` is the imaginary unit: both sides use ``i`` (math-verify reads it as
    a symbol, so ``i(2-i)`` is not ``1+2i``) and, with ``i`` as ``I``, they expand equal."""
    g = next((p for p in gold if isinstance(p, Expr)), None)
    a = next((p for p in answer if isinstance(p, Expr)), None)
    if g is None or a is None:
        return False
    mine = {str(x): x for x in a.free_symbols}
    theirs = {str(x): x for x in g.free_symbols}
    if "i" not in mine or "i" not in theirs or set(mine) != set(theirs):
        return False
    try:
        return expand(g.subs(theirs["i"], I) - a.subs(mine["i"], I)) == 0
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return False


def _named(part: str) -> str | None:
    match = _NAMED_RE.match(part)
    return match.group(1).replace(" ", "") if match else None


def _repeats(gold: Gold) -> bool:
    """Whether a part appears twice (as a set the gold would lose it)."""
    spaced = [_BLANKS_RE.sub("", p) for p in gold.parts]
    return len(set(spaced)) < len(spaced)


def _names_parts(gold: Gold) -> bool:
    """Whether every gold part names its own quantity (``x_{1}=2, x_{2}=-3``)."""
    names = [_named(p) for p in gold.parts]
    return bool(names) and all(names) and len(set(names)) == len(names)


def _parts_match(gold: Gold, span: AnswerSpan) -> bool:
    """Every gold part matched by a distinct answer part, and no answer part left over.

    Any order, except that when the gold's parts name distinct quantities (``x=1,y=2``)
    an answer part that names none may only match the gold part in its own position.
    """
    pieces = [strip_unit(p, gold.unit, gold.variables) for p in answer_parts(span.text)]
    if not any("=" in part for part in gold.parts):
        # "f\left(\frac{2\pi}{3}\right)=1" for the gold part "1": the value it names
        pieces = [value_of_named(p, "") for p in pieces]
    if len(pieces) != len(gold.parts):
        return False
    ordered = _names_parts(gold)
    parsed_pieces = [_parse_answer("\\boxed{" + p + "}", False) for p in pieces]
    golds = [_parse_gold(p) for p in gold.parts]
    edges = [
        [
            j
            for j, piece in enumerate(parsed_pieces)
            if piece
            and (not ordered or i == j or _named(pieces[j]) is not None)
            and _same(g, piece)
        ]
        for i, g in enumerate(golds)
    ]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(golds)))


def _percent_once(gold: Gold, span: AnswerSpan, gold_parsed: tuple[Any, ...]) -> bool:
    """Equal once a percent sign that only one side has is removed (``50.0\\%`` and 50)."""
    answer_pct = bool(_PERCENT_RE.search(span.text))
    gold_pct = bool(_PERCENT_RE.search(gold.latex))
    if answer_pct == gold_pct:
        return False
    if answer_pct:
        bare = _PERCENT_RE.sub("", span.text)
        return bool(bare) and _same(gold_parsed, _parse_answer("\\boxed{" + bare + "}", False))
    bare = _PERCENT_RE.sub("", gold.latex)
    return bool(bare) and _same(_parse_gold(bare), _parse_answer(span_parse_input(span), False))


def _bases_differ(gold: Gold, span: AnswerSpan) -> bool:
    """Both written as numerals with a base subscript, and the bases differ."""
    if span.free_text:
        return False
    g, a = _BASE_RE.match(gold.latex), _BASE_RE.match(span.text)
    return bool(g and a and int(g.group(2)) != int(a.group(2)))


def _units_differ(gold: Gold, span: AnswerSpan) -> bool:
    """The answer still carries a unit (``prepare_span`` keeps only one that differs from
    the gold's) and the gold has another one."""
    if span.free_text or gold.unit is None or gold.parts:
        return False
    _, unit = split_unit(span.text, gold.variables)
    return unit is not None and unit != gold.unit


def _case_differs(gold: Gold, span: AnswerSpan) -> bool:
    """The answer writes a letter in the other case from the gold, which uses only that
    case (``t`` for torque ``T``): latex2sympy lowercases every symbol, leash does not."""
    if span.free_text or choice_letter(gold.latex) is not None:
        return False
    theirs, mine = variables(gold.latex), variables(span.text)
    return any(c not in theirs and c.swapcase() in theirs for c in mine)


def _clock(gold: Gold, span: AnswerSpan) -> Verdict | None:
    """The verdict on a time of day (``sampler.verify.answers.clock``), else None."""
    if span.free_text or gold.parts:
        return None
    same = clock_verdict(gold.latex, gold.unit, span.text)
    if same is None and gold.asks_time and gold.unit is None:
        same = hour_verdict(gold.latex, span.text)  # "2:00 pm" for the hour 2 the question asks
    if same is None:
        return None
    written = read_time(span.text)
    answer = written.text() if written is not None else span.text[:MAX_ANSWER_CHARS]
    return Verdict(STATUS_CORRECT if same else STATUS_INCORRECT, answer)


_LATEX_SPACING_RE = re.compile(r"\\[,;:! ]|\\q?quad(?![A-Za-z])")


def _typed(gold: Gold, span: AnswerSpan) -> Verdict | None:
    """The verdict the gold's type gives (``sampler.verify.answers.gold_types``): a grid
    cell by cell (``number_grids``), a logic puzzle's assignments (``assignment_lists``), a
    hedge against a single gold, a boolean, option letters, a rounded decimal, a text; a
    prose answer none of these reads is ``incorrect`` (an answer was stated); None lets
    math-verify judge."""
    if gold.kind == "grid":  # a solved Sudoku: cell by cell (``number_grids``)
        same = gold_grid(span.text) == gold.latex
        return Verdict(STATUS_CORRECT if same else STATUS_INCORRECT, span.text[:MAX_ANSWER_CHARS])
    assigned = same_assignments(gold.latex, span.text) if gold.kind == "text" else None
    if assigned is not None:
        # "(1) Penelope is a knave\n(2) Zoey is a knight" for "Penelope is a knave, and Zoey
        # is a knight.": a logic puzzle's assignments, in any layout and order
        return Verdict(
            STATUS_CORRECT if assigned else STATUS_INCORRECT, span.text[:MAX_ANSWER_CHARS]
        )
    if span.free_text:
        return None
    in_range = range_verdict(gold.latex, span.text) if not gold.parts else None
    if in_range is not None:  # "110-130": a range by its ends, not the subtraction -20
        return Verdict(
            STATUS_CORRECT if in_range else STATUS_INCORRECT, span.text[:MAX_ANSWER_CHARS]
        )
    if gold.kind in ("choice", "choices") and "\\" in span.text:
        spaced = _LATEX_SPACING_RE.sub(" ", span.text)  # "A,\;C,\;D": the letters A, C, D
        if spaced != span.text:
            span = AnswerSpan(spaced, rule=span.rule, prose=span.prose)
    answer = span.text[:MAX_ANSWER_CHARS]
    single = not gold.parts and "," not in gold.latex and not hedged(gold.latex)
    stated = first_clause(span.text) if span.prose and gold.kind == "choice" else span.text
    if single and "\\pm" in gold.latex and hedged(stated) and not span.prose:
        # "3 or -3" for the gold \pm 3: the gold is both values, and so is the answer
        return judge(gold, AnswerSpan(", ".join(restated(a) for a in alternatives(stated))))
    if single and hedged(stated):
        same = _one_of_equal_alternatives(stated)  # "0.75, or $\frac34$ as a fraction"
        if same is None:
            return Verdict(STATUS_INCORRECT, answer, "the answer offers alternatives")
        return judge(gold, AnswerSpan(same, rule=span.rule))  # "$\frac12$ or $0.5$": one value
    choice = gold.kind == "choice" and gold.options and not span.prose
    named = value_of_named(answer, "") if choice and "=" in answer else answer
    if choice and not leading_letters(named, letter_range(gold.latex, gold.options)):
        letter = _option_of_value(gold.options, span)
        if letter is not None:  # the option's content for its letter: (A) $4^{x}$ and 4^x
            same = letter == gold.latex.strip("() ").upper()
            return Verdict(STATUS_CORRECT if same else STATUS_INCORRECT, answer)
    if gold.kind and not gold.parts:
        same = typed_verdict(gold.latex, gold.kind, gold.options, span.text, span.prose)
        if same is not None:
            return Verdict(STATUS_CORRECT if same else STATUS_INCORRECT, answer)
    if span.prose:  # stated, in words, for a gold that is math: a wrong answer, not none
        if gold_among(gold.latex, span.text):
            # "Jasper has 2 … and 9 …" when the gold is 9: which one it states is unclear
            return Verdict(STATUS_NO_ANSWER, None, "several values, the gold may be one")
        return Verdict(STATUS_INCORRECT, answer, "the answer is words, not math")
    return None


def _one_of_equal_alternatives(text: str) -> str | None:
    """The first alternative when an answer's alternatives are all one value written two
    ways (``\\frac{1}{2} or 0.5``, ``0.25 or 25\\%``), else None: a hedge."""
    offered = [restated(a) for a in alternatives(text)]
    if not 2 <= len(offered) <= 3 or any(WORDS_RE.search(a) for a in offered):
        return None
    if any("=" in a for a in offered):
        # "f(100) = 0 or f(100) = 50": the values of one name, compared (math-verify calls
        # two equations of a function's value equal); a name that differs is a hedge too
        sides = [a.rsplit("=", 1) for a in offered]
        if any(len(side) != 2 for side in sides) or len({lhs.strip() for lhs, _ in sides}) != 1:
            return None
        same = _one_of_equal_alternatives(" or ".join(rhs.strip() for _, rhs in sides))
        return offered[0] if same is not None else None
    if not 2 <= len(offered) <= 3 or any(too_deep(a) is not None for a in offered):
        return None
    parsed = [_parse_answer(span_parse_input(AnswerSpan(a)), False) for a in offered]
    if not all(_sympy(p) for p in parsed):
        return None
    first = parsed[0]
    if all(_same(first, p) or _same(p, first) for p in parsed[1:]):
        return offered[0]
    return None


def _math_option(content: str) -> bool:
    """Whether an option's content is math, a unit after it aside (``5 MeV.``, ``3 m/s``);
    words are not (``4-nitrobenzoic acid``)."""
    value, _ = split_unit(content.strip().rstrip(".。"))
    return is_bare_math(value)


_DOLLARS_RE = re.compile(r"^\$+([^$]*)\$+$")


def _option_of_value(options: tuple[tuple[str, str], ...], span: AnswerSpan) -> str | None:
    """The letter of the first option whose content equals the answer as math, else None;
    an option in words is no math ("4-nitrobenzoic acid" parses to 4)."""
    if too_deep(span.text) is not None:
        return None
    named = value_of_named(span.text, "") if not span.free_text else span.text
    if named != span.text:  # "E[X]=-\dfrac1{21}": the value it names
        span = AnswerSpan(named, rule=span.rule)
    stated_unit = None
    if not span.free_text:
        value, stated_unit = split_unit(span.text)
        if stated_unit is not None:  # "115 MPa": the value, its unit compared below
            span = AnswerSpan(value, rule=span.rule)
    answer = _parse_answer(span_parse_input(span), span.free_text)
    if not _sympy(answer):
        return None
    by_value: list[str] = []
    for letter, content in options:
        content = _DOLLARS_RE.sub(r"\1", content.strip())  # "$-\frac{1}{21}$": the math in it
        content = without_sizing(without_wrapper_spacing(content))  # as the answer was prepared
        if not content.strip() or too_deep(content) is not None or not _math_option(content):
            continue
        value, unit = split_unit(content.strip().rstrip(".。"))
        try:
            theirs = _parse_gold(content)
        except GoldUnparseable:
            theirs = ()
        if _sympy(theirs) and _same(theirs, answer):
            return letter
        if unit is not None and stated_unit in (None, unit):
            # "(D) 60 cm" and the answer 60 (or 60 cm): the option's value, its unit aside,
            # when no other option has that value; "60 mm" is another value
            try:
                bare = _parse_gold(value)
            except GoldUnparseable:
                continue
            if _sympy(bare) and _same(bare, answer):
                by_value.append(letter)
    return by_value[0] if len(by_value) == 1 else None


_LITERAL_RE = re.compile(r"\s*-?(\d+)(?:\.(\d+))?\s*")


def _rounded_gold(gold: Gold, span: AnswerSpan, parsed: tuple[Any, ...]) -> bool:
    """A gold stated rounded (``3.1416``, ``1.0995\\times10^{12}``) and an answer whose
    value rounds to it at the gold's precision: an exact number (``11/3`` for ``3.6667``, ``\\pi``,
    ``4^{20}``) or a plain number stated to more digits than the gold (``1099511627776``).
    A plain number no more precise than the gold (``3.7``) is left to math-verify."""
    stated = stated_precision(gold.latex)
    if stated is None or span.free_text:
        return False
    literal = _LITERAL_RE.fullmatch(span.text.replace(",", ""))
    if literal is not None:
        last = -len(literal.group(2) or "")
        if last >= stated[1]:
            return False
        return value_rounds_to(gold.latex, Decimal(span.text.replace(",", "").strip()))
    number = next((p for p in parsed if isinstance(p, Expr)), None)
    if number is None or not number.is_number or too_deep(span.text) is not None:
        return False
    try:
        value = number.evalf(40)
        if not value.is_real or not value.is_finite:
            return False
        return value_rounds_to(gold.latex, Decimal(str(value)))
    except (TypeError, ValueError, ArithmeticError, InvalidOperation, RecursionError):
        return False


def _rounded_formula(gold: Gold, gold_parsed: tuple[Any, ...], parsed: tuple[Any, ...]) -> bool:
    """A formula gold with rounded decimal coefficients (``1386.15(e^{0.013t}-1)``) and an
    answer within that rounding at sample points (``rounded_coefficients``)."""
    if "." not in gold.latex:
        return False
    g = next((p for p in gold_parsed if isinstance(p, Expr)), None)
    a = next((p for p in parsed if isinstance(p, Expr)), None)
    if g is None or a is None or (g.is_number and stated_precision(gold.latex) is not None):
        return False
    return same_up_to_rounding(gold.latex, g, a)


def _degrees_for_radians(
    gold: Gold, span: AnswerSpan, gold_parsed: tuple[Any, ...], parsed: tuple[Any, ...]
) -> bool:
    """One side in degrees, the other in radians with π: the same angle (``degrees``)."""
    mine, theirs = degrees_value(span.text), degrees_value(gold.latex)
    if mine is not None and theirs is None:
        return same_angle(mine, gold.latex, gold_parsed)
    if theirs is not None and mine is None:
        return same_angle(theirs, span.text, parsed)
    return False


#: one power or factorial of integer literals, the whole answer (``10^{370000}``, ``2^100000``)
_LONE_POWER_RE = re.compile(r"\s*\$?\s*-?\s*\d+\s*(?:\^\s*\{?\s*\d+\s*\}?|!)\s*\$?\s*")
_PLAIN_GOLD_RE = re.compile(r"\s*-?\d{1,1000}(?:\.\d+)?\s*")


def _huge_power_for_a_number(gold: Gold, span: AnswerSpan) -> bool:
    """Whether an answer too large to evaluate is one power or factorial of literals and the
    gold a plain number: a number of thousands of digits is not the gold, which has few, so
    the verdict is ``incorrect`` without evaluating it (not ``error``)."""
    return (
        not span.free_text
        and not gold.parts
        and _PLAIN_GOLD_RE.fullmatch(gold.latex) is not None
        and _LONE_POWER_RE.fullmatch(span.text) is not None
    )


#: spellings of one notation: display and text sizes, a product's dot or cross, sizing
_SPELLINGS = (
    (re.compile(r"\\[dt](frac|binom)"), r"\\\1"),
    (re.compile(r"\\(?:left|right|big|Big|bigg|Bigg)(?![A-Za-z])|\\[,;:!]|\s"), ""),
    (re.compile(r"\\(?:cdot|times)(?![A-Za-z])|\*"), "*"),
    (re.compile(r"\{(\w)\}"), r"\1"),
)


def _written_alike(gold: str, answer: str) -> bool:
    """Whether ``answer`` is written as ``gold`` is, up to spacing, sizes and the product's
    sign (``\\dbinom{4020}{1005}^2`` for ``\\binom{4020}{1005}^{2}``): for answers too large
    to evaluate, equal as written."""
    for pattern, replacement in _SPELLINGS:
        gold, answer = pattern.sub(replacement, gold), pattern.sub(replacement, answer)
    return bool(gold) and gold == answer


_HEX_RE = re.compile(r"\s*(-?)0[xX]([0-9a-fA-F]+)\s*")


def _same_literal(gold: str, answer: str) -> bool:
    """Whether the answer is written as the gold is (spacing, a closing period and ``$``
    aside: ``40 days, 07:10``, which no parser reads), or is the same hexadecimal number in
    other case (``-0x2D6F`` for ``-0x2d6f``)."""
    if " ".join(gold.split()).strip(" .$") == " ".join(answer.split()).strip(" .$"):
        return bool(gold.strip(" .$"))
    mine, theirs = _HEX_RE.fullmatch(answer), _HEX_RE.fullmatch(gold)
    return (
        mine is not None
        and theirs is not None
        and (
            mine.group(1) == theirs.group(1) and int(mine.group(2), 16) == int(theirs.group(2), 16)
        )
    )


def judge(gold: Gold, span: AnswerSpan) -> Verdict:
    """The verdict for one extracted answer against one gold (unit already stripped); an
    answer written as its gold is correct whatever the parsers make of them
    (``_same_literal``)."""
    if gold.numbered:
        return _numbered_verdict(gold, span)
    if ITEM_SEPARATOR in span.text and _ITEM_LETTERS_RE.fullmatch(span.text):
        # "B → C → C → B": items answered one by one, against the gold's letters in order
        letters = span.text.replace(ITEM_SEPARATOR, "")
        same = letters == gold.latex.strip().upper()
        return Verdict(STATUS_CORRECT if same else STATUS_INCORRECT, span.text)
    verdict = _judged(gold, span)
    if verdict.status != STATUS_CORRECT and (
        _same_literal(gold.latex, span.text)
        or (not gold.parts and labelled_as_gold(gold.latex, gold.options, span.text))
    ):
        # (also "(C) Tower of …, proportional to 1/R": an option's label, then the gold)
        return Verdict(STATUS_CORRECT, verdict.answer or span.text[:MAX_ANSWER_CHARS])
    return verdict


_ITEM_LETTERS_RE = re.compile(r"[A-J](?: → [A-J])+")


def _numbered_verdict(gold: Gold, span: AnswerSpan) -> Verdict:
    """Against a gold in numbered parts: correct when every part's answer is correct for
    its part's gold (``numbered_parts``). A completion that answers in no such parts is
    judged against the gold's one checkable part, if it has one, else incorrect."""
    if span.parts is None:
        if len(gold.numbered) == 1:
            return judge(gold.numbered[0][1], span)
        return Verdict(
            STATUS_INCORRECT, span.text[:MAX_ANSWER_CHARS], "answers no part by its label"
        )
    for (_, part_gold), part in zip(gold.numbered, span.parts, strict=True):
        prepared = prepare_span(part, part_gold)
        verdict = integer_verdict(part_gold, prepared) or judge(part_gold, prepared)
        if verdict.status != STATUS_CORRECT:
            return Verdict(
                verdict.status if verdict.status != STATUS_NO_ANSWER else STATUS_INCORRECT,
                span.text[:MAX_ANSWER_CHARS],
                verdict.detail,
            )
    return Verdict(STATUS_CORRECT, span.text[:MAX_ANSWER_CHARS])


def _judged(gold: Gold, span: AnswerSpan) -> Verdict:
    # answer_size judges model answers only: a gold is the benchmark's (parsed once, cached),
    # and may be a whole worked solution that math-verify's extraction reads
    for what, text, free in (("answer", span.text, span.free_text), ("gold", gold.latex, True)):
        reason = too_deep(text, free)
        if reason is not None:
            if what == "answer" and _huge_power_for_a_number(gold, span):
                return Verdict(STATUS_INCORRECT, span.text[:MAX_ANSWER_CHARS], reason)
            if what == "answer" and not span.free_text and _written_alike(gold.latex, span.text):
                # 2013^{4025} for 2013^{4025}: too large to evaluate, the same as written
                return Verdict(STATUS_CORRECT, span.text[:MAX_ANSWER_CHARS], reason)
            return Verdict(STATUS_ERROR, None, f"{what} {reason}")
    typed = _typed(gold, span)
    if typed is not None:
        return typed
    clock = _clock(gold, span)
    if clock is not None:
        return clock
    if not gold.parts and not span.free_text:
        pair = named_pair(gold.latex, span.text)  # "\gamma(0) = 2": judged by its value
        if pair == ("", ""):
            return Verdict(STATUS_INCORRECT, span.text[:MAX_ANSWER_CHARS], "names another quantity")
        if pair is not None:
            value_gold = replace(gold, latex=pair[0], variables=frozenset())
            return _judged(value_gold, replace(span, text=pair[1]))
    parsed = _parse_answer(span_parse_input(span), span.free_text)
    if not parsed:
        return Verdict(STATUS_NO_ANSWER)
    answer = normal_form(list(parsed))
    if answer is None:
        return Verdict(STATUS_NO_ANSWER)
    if _bases_differ(gold, span) or _units_differ(gold, span):
        return Verdict(STATUS_INCORRECT, answer)
    try:
        gold_parsed = _parse_gold(gold.latex)
    except GoldUnparseable as exc:
        return Verdict(STATUS_ERROR, answer, str(exc))
    if gold.parts and not span.free_text and (_names_parts(gold) or _repeats(gold)):
        # positions or repeats matter (``a=-2, b=-2`` is not the set {-2}): parts only
        correct = _parts_match(gold, span)
    else:
        correct = _same(gold_parsed, parsed)
        if not correct and gold.parts and not span.free_text:
            correct = _parts_match(gold, span)
    if not correct and not gold.parts and not span.free_text:
        correct = _percent_once(gold, span, gold_parsed)
    if not correct and not gold.parts and not span.free_text:
        correct = _degrees_for_radians(gold, span, gold_parsed, parsed)
    if not correct and not gold.parts and not span.free_text:
        correct = _rounded_gold(gold, span, parsed)
    if not correct and not gold.parts and not span.free_text:
        correct = _rounded_formula(gold, gold_parsed, parsed)
    if not correct and not gold.parts and not span.free_text:
        correct = equal_in_form(gold.latex, span.text, _parse_latex, _same)
    if correct and not gold.parts and _case_differs(gold, span):
        correct = False
    if correct and gold.form and not span.free_text:
        # "Factor completely": the expanded polynomial is not the answer
        correct = not form_differs(gold.form, gold_parsed, parsed)
    if correct and gold.restated and restates_question(span.text, gold.latex, gold.restated):
        # "Simplify $\tan 100^\circ + 4 \sin 100^\circ$." answered with that very expression
        return Verdict(STATUS_INCORRECT, answer, "the question's own expression, not worked out")
    if correct and not gold.parts and not span.free_text and set_for_tuple(gold.latex, span.text):
        correct = False  # {1, 2} is no ordered pair (1, 2)
    return Verdict(STATUS_CORRECT if correct else STATUS_INCORRECT, answer)


def judge_safely(gold: Gold, span: AnswerSpan) -> Verdict:
    """``judge``, with any exception turned into status ``error`` and its reason."""
    try:
        return judge(gold, span)
    except MemoryError:
        return Verdict(STATUS_ERROR, None, "out of memory")
    except Exception as exc:  # math-verify and sympy raise many types on odd input
        return Verdict(STATUS_ERROR, None, f"{type(exc).__name__}: {str(exc)[:200]}")


def clear_caches() -> None:
    """Forget parsed answers and golds (tests; a long-lived process between folders)."""
    _parse_answer.cache_clear()
    _parse_gold.cache_clear()
