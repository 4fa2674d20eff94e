"""Gold answers as the verifier needs them: the preset quirks, resolved once per question.

A question's gold (``questions.gold`` plus its ``metadata`` JSON) becomes a ``Gold``:
the LaTeX to parse (bare LaTeX such as ``\\dfrac{9}{7}`` parses to nothing in
math-verify, so it is wrapped in ``$...$``; integral float golds such as AMC's
``27.0`` become ``27``; ``1e-3`` becomes ``1\\times10^{-3}``, which math-verify would
read as ``e - 3``; a choice ``\\text{(C)}`` becomes ``C``), the parts of a multi-part
answer (OlympiadBench rows with ``is_multiple_answer``, or ``gold_parts`` in the
metadata), the unit (written after the value, or ``metadata["unit"]``; see
``sampler.verify.answers.units``) and the letters the gold uses as variables. These are pure
string functions: parsing happens in the verification workers.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from sampler.verify.answers.amounts import amount_value, stated_scale
from sampler.verify.answers.answer_forms import gold_form
from sampler.verify.answers.clock import asks_time_of_day
from sampler.verify.answers.comparisons import asked_comparison
from sampler.verify.answers.derived_gold import derived_value
from sampler.verify.answers.double_brackets import unwrapped_double_brackets
from sampler.verify.answers.foreign_options import (
    as_latin_option,
    bare_option_gold,
    circled_option,
)
from sampler.verify.answers.gold_types import (
    gold_kind,
    options_from_problem,
    without_subscript_braces,
)
from sampler.verify.answers.integrals import (
    integral_value,
    natural_logs,
    without_integration_constant,
)
from sampler.verify.answers.last_number import given_numbers
from sampler.verify.answers.named_alternatives import named_alternatives
from sampler.verify.answers.named_quantities import asked_words
from sampler.verify.answers.named_values import asked_name
from sampler.verify.answers.number_grids import gold_grid
from sampler.verify.answers.number_words import fraction_from_words, number_from_words
from sampler.verify.answers.numbered_parts import gold_parts
from sampler.verify.answers.plain_notation import plain_to_latex
from sampler.verify.answers.repeating_decimal import repeating_to_fraction
from sampler.verify.answers.required_form import required_form, restated_expressions
from sampler.verify.answers.restated_option import numbered_options
from sampler.verify.answers.top_level import split_top_level
from sampler.verify.answers.unicode_math import (
    ascii_digits,
    unicode_to_latex,
    with_triangle_minus,
)
from sampler.verify.answers.units import canonical_unit, split_unit, variables
from sampler.verify.answers.yes_no_statements import yes_no_words

_INTEGRAL_FLOAT_RE = re.compile(r"^\s*(-?\d+)\.0*\s*$")
_UNESCAPED_DOLLAR_RE = re.compile(r"(?<!\\)\$")


@dataclass(frozen=True)
class Gold:
    """One question's gold answer, ready for verification.

    ``latex`` is the whole answer without math delimiters; ``parts`` holds the
    answers of a multi-part gold (every one must be matched), empty otherwise;
    ``unit`` is the gold's unit, canonical (``cm^2``, ``km/h``), or None;
    ``variables`` the letters the gold uses as symbols (never units in an answer).
    """

    latex: str
    parts: tuple[str, ...] = ()
    unit: str | None = None
    variables: frozenset[str] = field(default=frozenset(), compare=False)
    #: the gold's type (``sampler.verify.answers.gold_types.gold_kind``; "" for math)
    kind: str = ""
    #: the lettered options of the question, read from its problem text
    options: tuple[tuple[str, str], ...] = ()
    #: the symbol the question asks for ("Find $q$."), read from its problem text
    asked: str | None = None
    #: the form the question requires (``factor``, ``expand``), read from its problem text
    form: str | None = None
    #: the numbers the question gives, read from its problem text (``last_number.given_numbers``)
    given: frozenset[str] = field(default=frozenset(), compare=False)
    #: the words of the question the problem ends with (``named_quantities.asked_words``)
    asked_words: frozenset[str] = field(default=frozenset(), compare=False)
    #: the words of the yes/no question the problem ends with (``yes_no_statements``)
    yes_no_words: tuple[str, ...] = field(default=(), compare=False)
    #: a gold with a scale word (``2.9 million``, ``latex`` 2900000): the number before its
    #: scale, which a bare answer may state (``amounts``)
    mantissa: str | None = field(default=None, compare=False)
    #: the factor of the scale the question states its amounts in ("(in USD millions)":
    #: 10**6), so that a bare gold is in that scale (``amounts.stated_scale``)
    scale: int | None = field(default=None, compare=False)
    #: whether the question asks for the greater or the smaller of two values
    #: (``comparisons.asked_comparison``)
    compared: str | None = field(default=None, compare=False)
    #: whether the question asks for a time of day ("What is the latest time …?"), so that a
    #: bare hour gold (``2``) is that hour (``clock.hour_verdict``)
    asks_time: bool = field(default=False, compare=False)
    #: the expressions of a question that asks to work them out ("Simplify …"), normalised:
    #: written back, they are no answer (``required_form.restated_expressions``)
    restated: frozenset[str] = field(default=frozenset(), compare=False)
    #: a gold in numbered parts ("（1）证明见解析；（2）\\(3+\\sqrt{2}\\)"): each checkable
    #: part's label place and its own gold, judged part by part (``numbered_parts``)
    numbered: tuple[tuple[tuple[str, ...], Gold], ...] = ()
    #: the options a question numbers ``1:``, ``2:`` … when the gold is one of those numbers
    #: (MedMCQA), so that an answer writing option 2 out is 2 (``restated_option``)
    numbered_options: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    #: whether the question is an integral to work out (its gold or problem writes one), so
    #: that a constant of integration and the integral written out are no part of an answer
    #: (``integrals``)
    integral: bool = field(default=False, compare=False)
    #: the alternatives the question names like a gold that is one of them ("Output (a)",
    #: "Output (b)"), so that a statement picking one is read (``named_alternatives``)
    alternatives: tuple[str, ...] = field(default=(), compare=False)

    @property
    def parse_input(self) -> str:
        """The string to give math-verify's ``parse`` for the whole gold."""
        return math_mode(self.latex)

    def key(self) -> tuple[object, ...]:
        """What the verdict of an answer against this gold depends on: every field, the ones
        read from the problem text too. Two questions with the gold ``B`` but other options,
        or a bare hour gold of which only one asks for a time of day, give the same answer
        different verdicts, so a verdict cached for one is never reused for the other."""
        return (
            self.latex,
            self.parts,
            self.unit,
            self.kind,
            self.options,
            self.asked,
            self.form,
            self.variables,
            self.given,
            self.asked_words,
            self.yes_no_words,
            self.mantissa,
            self.scale,
            self.compared,
            self.asks_time,
            self.restated,
            tuple((place, part.key()) for place, part in self.numbered),
            self.numbered_options,
            self.integral,
            self.alternatives,
        )


def _numbered_gold(gold: str) -> Gold | None:
    """The gold of a question in numbered parts, each checkable part a gold of its own
    (``numbered_parts.gold_parts``); None for any other gold."""
    parts = gold_parts(gold)
    if parts is None:
        return None
    golds = [(place, gold_from_question(value)) for place, value in parts]
    numbered = tuple((place, part) for place, part in golds if part is not None)
    if len(numbered) != len(golds):
        return None
    return Gold(
        latex="; ".join(part.latex for _, part in numbered), kind="parts", numbered=numbered
    )


#: a long-form gold that answers yes or no, then gives its reason ("Yes, CVS paid a $0.55
#: dividend …", "No. The ratio fell."): its answer is the yes or no ("No. 5" is a number)
_REASONED_BOOLEAN_RE = re.compile(
    r"[ \t]*(yes|no)[ \t]*[,.;:–—](?![ \t]*\d)[ \t]*[^\W\d_]", re.IGNORECASE
)


def math_mode(latex: str) -> str:
    """``latex`` wrapped in ``$...$`` so that math-verify's LaTeX extraction finds it."""
    return f"${latex}$"


#: a number with a decimal comma: one or two digits after it (``1,22``; ``1,000`` is a thousand)
DECIMAL_COMMA_RE = re.compile(r"-?\d+,\d{1,2}")
_SCIENTIFIC_RE = re.compile(r"(?<![\w.\\])(\d+(?:\.\d+)?)[eE]([-+]?\d+)(?![\w.])")
_CHOICE_GOLD_RE = re.compile(
    r"\s*(?:\\text(?:bf)?\s*\{\s*)?(?:\(?\s*([A-J])\s*\)?|\(\s*([K-Z])\s*\))\s*\}?\s*"
)
_CHOICE_LABEL_RE = re.compile(
    r"\s*(?:\\text(?:bf)?\s*\{\s*)?(?:\(([A-J])\)|([A-J])(?:[.:)]|\s*\}|(?=\s*$)))\s*\}?(?:\s|$|\()"
)


_COMMAND_SPACE_RE = re.compile(r"(\\(?:text|textrm|mathrm|mbox|operatorname))\s+\{")
_SPACED_THOUSANDS_RE = re.compile(r"(?<![\d.,])\d{1,3}(?:(?: |\\ |\\,|~)\d{3})+(?![\d.,])")


def _join_digits(match: re.Match[str]) -> str:
    return re.sub(r"\D", "", match.group(0))


def expand_scientific(latex: str) -> str:
    """``1.5e-3`` as ``1.5\\times10^{-3}`` (math-verify reads ``1e-3`` as ``e - 3``), and
    ``\\text {red}`` as ``\\text{red}`` (the symbol ``\\lambda_{\\text{red}}`` is one symbol),
    digits grouped by spaces (``1 000``, ``1\\,000``) as one number."""
    if "\\" in latex:
        latex = _COMMAND_SPACE_RE.sub(r"\1{", latex)
    if " " in latex or "\\" in latex or "~" in latex:
        latex = _SPACED_THOUSANDS_RE.sub(_join_digits, latex)
    if "e" not in latex and "E" not in latex:
        return latex
    return _SCIENTIFIC_RE.sub(r"\1\\times10^{\2}", latex)


def choice_letter(latex: str) -> str | None:
    """The letter of a gold that is a multiple-choice answer (``C``, ``(C)``, ``\\text{(C)}``;
    past J only in parentheses: BBH's ``(K)``)."""
    match = _CHOICE_GOLD_RE.fullmatch(latex)
    return (match.group(1) or match.group(2)) if match else None


#: a gold that names the option by the word: "Option 1" (BenNumEval), "Choice (B)"
_OPTION_GOLD_RE = re.compile(
    r"\s*(?:option|choice)[ \t]*[:#]?[ \t]*\(?([A-J]|\d{1,2})\)?[ \t]*\.?\s*", re.IGNORECASE
)


def option_label(text: str) -> str | None:
    """The label of a text that names an option by the word ("Option 1", "Choice (B)"), in a
    gold or in an answer (``\\boxed{Option 1}``); None otherwise."""
    match = _OPTION_GOLD_RE.fullmatch(text)
    return match.group(1) if match is not None else None


_LABELLED_GOLD_RE = re.compile(
    r"\s*(?:\(([A-J])\)[ \t]*(?P<a>\S[^\n]{0,300})|([A-J])[.:)][ \t]+(?P<b>[^=\n]{1,80}))"
)


def labelled_choice(latex: str) -> tuple[tuple[str, str], ...]:
    """A gold that is an option's letter with its content (``(D) Alina``, ``B. 12``, or a
    label of another script, ``ب) سارا …``, ``foreign_options``) as ``(("D", "Alina"),)``;
    () for any other gold (``A Tale`` is a title, not option A)."""
    match = _LABELLED_GOLD_RE.fullmatch(latex)
    if match is None:
        foreign = as_latin_option(latex) if not latex.isascii() else None
        if foreign is not None and foreign[1]:  # "ب) سارا …": option B of a Persian exam
            return (foreign,)
        return ()
    content = (match.group("a") or match.group("b")).strip()
    if re.fullmatch(r"[A-J]|(?:and|or|und|et|y)\b.*|[A-J](?:\s*[,&]\s*[A-J])+", content):
        return ()  # "A and B", "A, B": several letters, not one letter with its content
    return ((match.group(1) or match.group(3), content),)


def answer_choice(latex: str) -> str | None:
    """The choice an answer starts with, with or without its content: ``(D) (2,0)``,
    ``\\text{(D) } 5``, ``D: 5``, ``D``; None when it does not start with one."""
    match = _CHOICE_LABEL_RE.match(latex + " ")
    return (match.group(1) or match.group(2)) if match else None


def strip_math_delimiters(text: str) -> str:
    """Remove unescaped ``$`` and surrounding ``\\(...\\)``/``\\[...\\]`` (``\\$`` stays),
    and the stop of a gold written as a sentence after them (``\\(2e^{\\pi/2-2}\\).``)."""
    text = text.strip()
    for left, right in (("\\(", "\\)"), ("\\[", "\\]")):
        if text.startswith(left) and text.rstrip(".,;").endswith(right):
            text = text.rstrip(".,;")[len(left) : -len(right)]
    return _UNESCAPED_DOLLAR_RE.sub("", text).strip()


#: a worked solution that closes with its answer on a ``#### X`` line (GSM8K's answer field)
_WORKED_ANSWER_RE = re.compile(r"\n[ \t]*####[ \t]*(?P<x>[^\n#]+?)[ \t]*\Z")


def worked_answer(gold: str) -> str:
    """The answer of a gold that is a worked solution closing with ``#### X`` (GSM8K's
    ``answer`` field loaded whole): ``X``; any other gold as it is."""
    if "####" not in gold:
        return gold
    match = _WORKED_ANSWER_RE.search(gold.rstrip())
    return match.group("x") if match is not None else gold


#: a remark on how a gold value was stated, in parentheses after it: ``0.18956 \text{
#: (approximately)}``, ``25 (rounded to the nearest whole number)``, ``3.2 (approx.)``
_GOLD_REMARK_RE = re.compile(
    r"(?:\\text\s*\{\s*\(\s*(?P<a>[^(){}]{1,80})\)\s*\}|\(\s*(?P<b>[^(){}]{1,80})\))[ \t.]*\Z"
)
_REMARK_WORDS_RE = re.compile(
    r"(?:approx(?:imately|\.)?|about|roughly|rounded|exact(?:ly)?|estimated|to\s+(?:the\s+)?"
    r"(?:nearest|\d+|one|two|three|four)\b|correct\s+to|rounding)\b",
    re.IGNORECASE,
)


def without_remark(gold: str) -> str:
    """``gold`` without a remark in parentheses after its value on how it was stated
    (``0.18956 \\text{ (approximately)}``, ``25 (rounded to the nearest whole number)``):
    the value; a parenthesised unit or any other text stays."""
    stripped = gold.strip()
    match = _GOLD_REMARK_RE.search(stripped, max(0, len(stripped) - 200))
    if match is None:
        return gold
    value = stripped[: match.start()].rstrip(" \t~")
    remark = match.group("a") or match.group("b") or ""
    return value if value and _REMARK_WORDS_RE.match(remark.strip()) else gold


def normalise_gold_text(gold: str) -> str:
    """A gold string without math delimiters; integral floats ("27.0") lose their decimals."""
    match = _INTEGRAL_FLOAT_RE.match(gold)
    if match:
        return str(int(match.group(1)))
    return without_stray_backslash(strip_math_delimiters(gold))


_STRAY_BACKSLASH_RE = re.compile(r"(?<!\\)\\\s*$")
#: LaTeX spacing that opens a text wrapper: ``\mathrm{~N}`` (gaokao's space before a symbol)
_WRAPPER_SPACE_RE = re.compile(r"(\\(?:mathrm|text|textrm|rm)\s*\{)(?:\s|~|\\[,;: ])+")
#: values joined by a Chinese "and" (``1 和 3``), each with a digit and no word or equation
_CJK_AND_RE = re.compile(r"\s*(?:以及|和|与|及)\s*")
_LISTED_VALUE_RE = re.compile(r"[^\u3000-\u9fff=]*\d[^\u3000-\u9fff=]*")
_SPACED_NUMBERS_RE = re.compile(r"\s*-?\d+(?:\.\d+)?(?:[ \t]+-?\d+(?:\.\d+)?)+\s*")


#: a delimiter's size command (``\\Bigl(``, ``\\bigr]``, ``\\biggl\\{``): its delimiter alone
_SIZED_DELIMITER_RE = re.compile(
    r"\\(?:big|Big|bigg|Bigg)[lrm]?\s*(?=[()\[\]|]|\\[{}|]|\\(?:langle|rangle|lfloor|rfloor"
    r"|lceil|rceil|vert|Vert)(?![A-Za-z]))"
)
#: the asymptotic relations, written as the approximate one
_ASYMPTOTIC_RE = re.compile(r"\\(?:sim|simeq)(?![A-Za-z])")


def without_sizing(text: str) -> str:
    """``text`` without delimiter size commands (``\\Bigl( … \\Bigr)`` is ``( … )``, which
    math-verify reads; it reads no ``\\Bigl``), and with ``\\sim`` and ``\\simeq`` as
    ``\\approx`` (``y(x) \\sim 3x + 2`` names the value as ``y(x) \\approx 3x + 2`` does)."""
    if "\\big" in text or "\\Big" in text:
        text = _SIZED_DELIMITER_RE.sub("", text)
    if "\\sim" in text:
        text = _ASYMPTOTIC_RE.sub(r"\\approx", text)
    return text


def without_wrapper_spacing(text: str) -> str:
    """``text`` without spacing that opens a ``\\mathrm{}``-like wrapper: ``\\mathrm{~N}`` is
    ``\\mathrm{N}`` (math-verify reads the symbol ``~n``, which no answer ``N`` matches); and
    without the braces of a one-character subscript: ``E_{1}`` is ``E_1`` (math-verify cannot
    parse a subscripted ``E``, and compares the two as different strings)."""
    if "{" not in text:
        return text
    return without_subscript_braces(_WRAPPER_SPACE_RE.sub(r"\1", text))


def joined_values(text: str) -> str:
    """Values joined by a Chinese "and" as a list: ``1 和 3`` is ``1, 3`` (math-verify reads
    only the ``3``); plain numbers joined by spaces alone, ``6 4 0``, are a list too
    (math-verify reads their product, 0), and ``1 000`` is a thousand; any other text as it is."""
    spaced = _SPACED_NUMBERS_RE.fullmatch(text)
    if spaced is not None:
        pieces = text.split()
        if len(pieces[0]) <= 3 and all(len(p) == 3 and p.isdigit() for p in pieces[1:]):
            return "".join(pieces)  # "1 000": thousands grouped by spaces
        return ", ".join(pieces)
    if not _CJK_AND_RE.search(text):
        return text
    pieces = _CJK_AND_RE.split(text.strip())
    if len(pieces) < 2 or not all(_LISTED_VALUE_RE.fullmatch(p) for p in pieces):
        return text
    return ", ".join(pieces)


def without_stray_backslash(text: str) -> str:
    """``text`` without one backslash that ends it (``185\\``, a LaTeX space cut off):
    it escapes nothing, and math-verify reads the whole text as nothing. A line break
    (``\\\\``) stays."""
    return _STRAY_BACKSLASH_RE.sub("", text) if text.endswith("\\") else text


_AND_RE = re.compile(r"\\(?:text|mathrm|textrm)\s*\{\s*and\s*\}|\s+and\s+")


def answer_parts(answer: str) -> list[str]:
    """Split a model's answer to a multi-part question into its parts ("a, b", "a and b")."""
    return split_top_level(_AND_RE.sub(",", strip_math_delimiters(answer)))


def strip_unit(answer: str, unit: str | None, gold_variables: frozenset[str] = frozenset()) -> str:
    """``answer`` without its trailing unit when that is ``unit`` (canonical, see
    ``sampler.verify.answers.units``); unchanged when it has none or another one."""
    value, written = split_unit(answer, gold_variables)
    if written is None or (unit is not None and written != unit):
        return answer
    return value


def _metadata(metadata: str | dict | None) -> dict:
    if metadata is None:
        return {}
    if isinstance(metadata, dict):
        return metadata
    try:
        parsed = json.loads(metadata)
    except (TypeError, ValueError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _truthy(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes")
    return bool(value)


#: a question that asks for an integral: its sign, or the word
_INTEGRAL_QUESTION_RE = re.compile(
    r"\\int(?![A-Za-z])|\bintegra(?:l|te)\b|\bantiderivative", re.IGNORECASE
)


def gold_from_question(
    gold: str | None, metadata: str | dict | None = None, *, problem: str | None = None
) -> Gold | None:
    """The ``Gold`` of a question row (gold text, metadata JSON and, where the folder has
    it, the problem text); None when it has no gold."""
    if gold is None or not str(gold).strip():
        return None
    numbered = _numbered_gold(str(gold))
    if numbered is not None:  # "（1）证明见解析；（2）\\(3+\\sqrt{2}\\)": judged part by part
        return numbered
    gold = without_remark(worked_answer(str(gold)))
    gold = circled_option(gold.strip()) or gold  # "②": a circled option's number
    gold = unwrapped_double_brackets(gold) or gold  # "[[UHMF]]": the prompt's answer wrapper
    integral = "\\int" in gold or bool(problem and _INTEGRAL_QUESTION_RE.search(problem[-1500:]))
    if integral:  # "\\int_{1}^{e} \\log x d x=1": the integral written out, then its value
        gold = integral_value(gold.strip()) or gold
    grid = gold_grid(strip_math_delimiters(gold))
    if grid is not None:  # a solved Sudoku's rows: compared whole (``number_grids``)
        return Gold(latex=grid, kind="grid")
    derived = derived_value(normalise_gold_text(gold))
    derived_unit = None
    if derived is not None:  # "Tốc độ cực đại: vmax = A.ω = 1.10 = 10 (cm/s)": 10 cm/s
        gold, derived_unit = derived
    meta = _metadata(metadata)
    scaled = amount_value(normalise_gold_text(str(gold)))
    if scaled is not None and scaled.scaled:  # "2.9 million", "$93.8 thousand": the number
        gold = scaled.value
    latex = gold_form(
        plain_to_latex(
            repeating_to_fraction(
                unicode_to_latex(
                    ascii_digits(joined_values(with_triangle_minus(normalise_gold_text(str(gold)))))
                )
            )
        )
    )
    latex = without_sizing(without_wrapper_spacing(latex))
    if integral:  # "\\tanh(x) + C": an antiderivative, up to its constant; log is ln
        latex = natural_logs(without_integration_constant(latex) or latex)
    latex = option_label(latex) or latex  # "Option 1", "Choice (B)": the option's label
    parts: tuple[str, ...] = ()
    listed = meta.get("gold_parts")
    if isinstance(listed, list) and len(listed) > 1:
        parts = tuple(plain_to_latex(normalise_gold_text(str(p))) for p in listed if str(p).strip())
    elif _truthy(meta.get("is_multiple_answer")):
        pieces = split_top_level(latex)
        if len(pieces) > 1:
            parts = tuple(pieces)
    if parts:
        parts = tuple(expand_scientific(p) for p in parts)
        latex = ", ".join(parts)
    labelled: tuple[tuple[str, str], ...] = ()
    choice: str | None = None
    if not parts:
        latex = expand_scientific(latex)
        choice = choice_letter(latex) or (bare_option_gold(latex) if not latex.isascii() else None)
        if choice is not None:  # (also "ঘ", "ب": an option's label in another script)
            latex = choice
        else:
            labelled = labelled_choice(latex)
            if labelled:
                latex = labelled[0][0]
    unit = canonical_unit(str(meta["unit"])) if meta.get("unit") else derived_unit
    if not parts:
        value, written = split_unit(latex, is_gold=True)
        if written is not None:
            latex, unit = value, written
    kind = "" if parts else gold_kind(latex)
    if not parts and choice is not None:
        kind = "choice"  # "(K)": a letter past J is a choice only in parentheses
    reasoned = _REASONED_BOOLEAN_RE.match(latex) if kind in ("", "text") else None
    if reasoned is not None:  # "Yes, net earnings … increased from 20% to 20.1%.": a yes
        latex, kind = reasoned.group(1).capitalize(), "boolean"
    elif kind == "text" and number_from_words(latex) is not None:
        latex, kind = str(number_from_words(latex)), ""  # a gold in words: "forty three"
    elif kind == "text" and fraction_from_words(latex) is not None:
        latex, kind = str(fraction_from_words(latex)), ""  # a gold in words: "one half"
    options = labelled + options_from_problem(problem)
    letter = latex.strip()
    if kind == "" and re.fullmatch(r"[a-j]", letter) and letter.upper() in dict(options):
        kind = "choice"  # "c" for a question that lists "(a) 2  (b) -3  (c) 0.2": the option
    elif re.fullmatch(r"[K-Z]", letter) and letter in dict(options):
        kind = "choice"  # "K" for a question that lists options up to "(K)": the option
    if kind == "choice":
        latex = latex.strip().strip("()").upper() if len(latex.strip()) <= 3 else latex
    return Gold(
        latex=latex,
        parts=parts,
        unit=unit,
        variables=variables(latex),
        kind=kind,
        options=options,
        asked=asked_name(problem) if not parts else None,
        form=required_form(problem) if not parts else None,
        given=given_numbers(problem) if not parts else frozenset(),
        asked_words=asked_words(problem) if not parts else frozenset(),
        yes_no_words=yes_no_words(problem) if kind == "boolean" else (),
        mantissa=scaled.mantissa if scaled is not None and scaled.scaled else None,
        scale=stated_scale(problem) if not parts and kind in ("", "decimal") else None,
        compared=asked_comparison(problem) if not parts else None,
        asks_time=asks_time_of_day(problem),
        restated=restated_expressions(problem) if not parts else frozenset(),
        numbered_options=numbered_options(problem) if re.fullmatch(r"[1-9]", latex) else (),
        integral=integral,
        alternatives=named_alternatives(latex, problem) if kind == "text" else (),
    )
