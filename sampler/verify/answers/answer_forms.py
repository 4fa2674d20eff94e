"""Answers and golds in other notations, rewritten to the form math-verify compares.

Pure string rules (docs/verification.md, "Other notations"), each a claim with examples:

Answers (``answer_form``, against a gold that is not a choice letter):

- a choice label before the value is dropped: ``\\text{(b) } 0.3``, ``(B) 0.3``,
  ``B: 0.3`` are ``0.3`` (math-verify reads ``b*0.3``);
- a trailing period is punctuation: ``5.`` is ``5``;
- a named quantity, against a gold that names none, is its value: ``q_{\\max} = \\sqrt[3]{3/2}``
  is ``\\sqrt[3]{3/2}``; a list part by part: ``\\theta=\\frac{3\\pi}{2},\\quad
  f\\left(\\frac{2\\pi}{3}\\right)=1`` is ``\\frac{3\\pi}{2}, 1``;
- an equation between named quantities written in text is the names as the gold writes them:
  ``\\text{SRMC} = \\text{LRMC}`` is ``SRMC = LRMC`` against the gold ``SRMC=LRMC``;
- a condition written after the answer goes, against a gold with none: ``\\frac{1}{4-\\omega^2},
  \\quad \\text{for } \\omega^2 \\neq 4`` is ``\\frac{1}{4-\\omega^2}`` (only a condition: a
  comparison or membership after "for", "where", "if", "when", "provided", "with");
- ASCII scientific notation is LaTeX's, against a gold with no variable ``x``: ``1.07 x
  10^16`` and ``1.07*10**16`` are ``1.07 \\times 10^{16}`` (math-verify reads ``x`` as a
  variable);
- the degree sign is ``^\\circ``: ``45°`` is ``45^\\circ``;
- a decimal comma in braces: ``1{,}5`` is ``1.5``; ``1{,}000`` is ``1000``; against a
  decimal gold, a plain decimal comma too: ``1000,99`` is ``1000.99`` (``1,000`` stays);
- dots as thousands separators (German, Spanish, Italian, Indonesian …): against an integer
  gold whose digits they write, ``70.000`` and ``$70.000`` are ``70000``, ``2.125`` is the gold
  ``2,125`` and ``1.234.567`` is ``1234567`` (``2.000`` against the gold 2 stays two;
  ``70.000`` against 7 stays wrong; a group never starts a number with 0: ``0.111``);
- against an interval gold, a chained inequality is the interval it describes:
  ``0 < x < 12.5`` is ``(0, 12.5)``, ``-1 \\le x < 2`` is ``[-1, 2)``, and a one-sided one
  the ray: ``x < 3`` is ``(-\\infty, 3)``, ``x \\geq 5`` is ``[5, \\infty)``; against a
  union of intervals, inequalities joined by "or" are the union: ``x < 2 \\text{ or } x > 3``
  is ``(-\\infty, 2) \\cup (3, \\infty)`` (not a hedge).

Golds (``gold_form``):

- Python powers: ``2**(1/4)`` is ``2^{(1/4)}``; a closing period is punctuation, as in
  answers.

And one verdict rule (``set_for_tuple``): an answer written as a set ``\\{1, 2\\}`` is
not a gold written as a tuple or an interval ``(1, 2)``.
"""

from __future__ import annotations

import re

from sampler.verify.answers.named_golds import is_quantity_name
from sampler.verify.answers.top_level import split_top_level

_CHOICE_LABEL_RE = re.compile(
    r"^\s*(?:\\text(?:bf)?\s*\{\s*\(?([A-Ja-j])\)\s*\}\s*|(?:\(([A-Ja-j])\)|([A-J])\s*[:.)])\s+)"
    r"(?=\S)"
)
_TRAILING_PERIOD_RE = re.compile(r"(?:(?<=[\d}%)\]])|(?<=\\circ))\s*\.\s*$")
#: the degree sign and its macros: ``45°``, ``45 \degree``, ``45\textdegree``
_DEGREE_RE = re.compile(r"\s*(?:°|\\(?:text)?degree(?![A-Za-z])\s*(?:\{\s*\})?)")
_DECIMAL_COMMA_RE = re.compile(r"(?<=\d)\{,\}(\d+)(?!\d)")
_DECIMAL_GOLD_RE = re.compile(r"-?\d+\.\d+")
#: a number with a decimal comma: not three digits after it (that is a thousands separator)
_COMMA_DECIMAL_RE = re.compile(r"(-?\d+),(\d{1,2}|\d{4,})")
_DOT_THOUSANDS_RE = re.compile(r"-?[1-9]\d{0,2}(?:\.\d{3})+")
#: an integer gold written without separators (``1,000`` tells the comma convention: then a
#: dot is a decimal point)
_INTEGER_GOLD_RE = re.compile(r"-?\d+")
_CURRENCY_AROUND_RE = re.compile(r"^\s*(?:\\?\$|€|£)\s*|\s*(?:\\?\$|€|£|EUR|USD)\s*$")
#: a condition written after the answer: ``, \quad \text{for } \omega^2 \neq 4``,
#: ``\text{ where } x \neq 0``, ``\text{ if } a > 0``
_CONDITION_RE = re.compile(
    r"[ \t]*,?[ \t]*(?:\\[,;:! ]|\\q?quad|~|[ \t])*\\text\s*\{\s*"
    r"(?:for|where|if|when|provided|with)\s*(?:that\s*)?\}(?P<condition>[^{}]*(?:\{[^{}]*\}[^{}]*)*)$"
)
_CONDITION_SIGN_RE = re.compile(r"\\neq?\b|≠|\\[lg]eq?\b|[<>]|\\in\b|\\notin\b")
#: an equation between named quantities, the names in text (``\\text{SRMC} = \\text{LRMC}``,
#: ``\\mathrm{MR} = \\mathrm{MC}``)
_NAME = r"(?:\\(?:text|mathrm|textrm|operatorname)\s*\{\s*[A-Za-z]{2,12}\s*\}|[A-Za-z]{1,12})"
_NAMED_EQUATION_RE = re.compile(rf"\s*{_NAME}(?:\s*=\s*{_NAME})+\s*")
_TEXT_NAME_RE = re.compile(r"\\(?:text|mathrm|textrm|operatorname)\s*\{\s*([A-Za-z]{2,12})\s*\}")
_INTERVAL_GOLD_RE = re.compile(r"^\s*(?:\\left)?\s*[(\[][^,]+,[^,]+(?:\\right)?\s*[)\]]\s*$")
_LT = r"(<|\\lt|\\le|\\leq|\\leqslant|≤)"
_CHAIN_RE = re.compile(
    rf"^\s*(?P<a>[^<>=\\]+?|\\infty|-\\infty|[-+]?\\[dt]?frac\{{[^{{}}]*\}}\{{[^{{}}]*\}})\s*{_LT}\s*"
    rf"(?P<x>[A-Za-z])\s*{_LT}\s*(?P<b>.+?)\s*$"
)
#: the longest answer read as a chained inequality (the pattern backtracks on long text)
_CHAIN_CHARS = 200
_POWER_RE = re.compile(r"\*\*\s*(\([^()]*\)|[\w.]+)")
_SET_RE = re.compile(r"^\s*\\\{.*\\\}\s*$", re.DOTALL)
_TUPLE_RE = re.compile(r"^\s*(?:\\left)?\s*[(\[].*,.*[)\]]\s*$", re.DOTALL)


def _decimal(match: re.Match[str]) -> str:
    digits = match.group(1)
    return digits if len(digits) == 3 else "." + digits


_ONE_SIDED_RE = re.compile(
    r"^\s*(?P<x>[A-Za-z])\s*(?P<op><=|>=|\\leqslant|\\leq|\\le|\\lt|<|≤|\\geqslant|\\geq|\\ge"
    r"|\\gt|>|≥)(?![A-Za-z])\s*(?P<b>[^<>=]+?)\s*$"
)


def _one_sided(answer: str) -> str | None:
    """``x < b`` as ``(-\\infty, b)``, ``x \\geq a`` as ``[a, \\infty)``, or None."""
    match = _ONE_SIDED_RE.match(answer)
    if match is None:
        return None
    op, bound = match.group("op"), match.group("b").strip()
    strict = op in ("<", ">", "\\lt", "\\gt")
    if op.startswith(("<", "\\l", "≤")):
        return f"(-\\infty, {bound}{')' if strict else ']'}"
    return f"{'(' if strict else '['}{bound}, \\infty)"


def _interval(answer: str) -> str | None:
    """``a < x < b`` (or ``x < b``) as the interval it describes, or None."""
    match = _CHAIN_RE.match(answer)
    if match is None:
        return _one_sided(answer)
    left = "(" if match.group(2) in ("<", "\\lt") else "["
    right = ")" if match.group(4) in ("<", "\\lt") else "]"
    return f"{left}{match.group('a').strip()}, {match.group('b').strip()}{right}"


_OR_RE = re.compile(r"\s*(?:\\text\s*\{\s*or\s*\}|\bor\b|\\lor|\\vee|∪|\\cup)\s*")


def _union(answer: str) -> str | None:
    """Inequalities joined by "or" (``x < 2 \\text{ or } x > 3``) as the union of their
    intervals, or None when any part is no inequality."""
    parts = _OR_RE.split(answer)
    if len(parts) < 2:
        return None
    intervals = [_interval(part) for part in parts]
    if any(i is None for i in intervals):
        return None
    return " \\cup ".join(i for i in intervals if i is not None)


_PLAIN_PI_RE = re.compile(r"(?<![A-Za-z\\])pi(?![A-Za-z])")
_PLAIN_CALL_RE = re.compile(r"(?<![A-Za-z\\])(sqrt|exp)\(([^()]*)\)")


def plain_notation(text: str) -> str:
    """Plain or Python notation as LaTeX, in a text with no LaTeX command: ``pi/2`` is
    ``\\pi/2`` (math-verify reads ``(i*p)/2``), ``sqrt(pi)`` is ``\\sqrt{\\pi}``,
    ``exp(16)`` is ``e^{16}``, ``2**3`` is ``2^{3}``."""
    if "\\" in text or not any(w in text for w in ("pi", "sqrt(", "exp(", "**")):
        return text
    out = text
    for _ in range(3):  # nested calls, innermost first
        out = _PLAIN_CALL_RE.sub(
            lambda m: ("\\sqrt{" if m.group(1) == "sqrt" else "e^{") + m.group(2) + "}", out
        )
    out = _PLAIN_PI_RE.sub(r"\\pi ", out)
    if "**" in out:
        out = _POWER_RE.sub(lambda m: "^{" + m.group(1) + "}", out)
    return out


_ASCII_TIMES_TEN_RE = re.compile(
    r"(?<![\w.])(-?\d+(?:\.\d+)?)[ \t]*[xX*][ \t]*10[ \t]*(?:\^|\*\*)"
    r"[ \t]*\{?[ \t]*([+-]?\d+)[ \t]*\}?"
)
#: a fill-in blank as an equation's left side: ``\Box = 7``, ``□ = 7``, ``(\ ) = 7``, ``（ ）= 7``
_BLANK_EQUATION_RE = re.compile(
    r"^\s*(?:\\Box|□|\\square|\(\s*(?:\\[ ,;:]|\\q?quad|~|\s)*\)|（\s*）"
    r"|\\underline\{(?:\s|\\[ ,;:]|\\q?quad|~)*\})\s*=\s*(?=\S)"
)
_VARIABLE_X_RE = re.compile(r"(?<![A-Za-z\\])x(?![A-Za-z])")


def dot_thousands(text: str, gold_latex: str) -> str | None:
    """``text`` (``70.000``, ``$57.500``, ``276.000 $``) as the integer its dots group in
    thousands, when that integer is the gold (an integer, written with or without thousands
    separators); else None."""
    stripped = _CURRENCY_AROUND_RE.sub("", text).strip()
    if not _DOT_THOUSANDS_RE.fullmatch(stripped):
        return None
    gold = re.sub(r"\{,\}|\\,|,|\\ | ", "", gold_latex.strip())
    if not _INTEGER_GOLD_RE.fullmatch(gold):
        return None
    digits = stripped.replace(".", "")
    return digits if int(digits) == int(gold) else None


#: what names a quantity on the left of ``=``: a letter or a command (``\\theta``, ``\\mathbb{E}``),
#: with sub- and superscripts (``q_{\\max}``, ``a_1``), applied to arguments or not
#: (``f\\left(\\frac{2\\pi}{3}\\right)``, ``E[X]``, ``P(A)``)
_QUANTITY_NAME_RE = re.compile(
    r"\s*(?:\\(?:mathbb|mathrm|operatorname|text)\s*\{[A-Za-z]{1,12}\}|\\[A-Za-z]{2,12}|[A-Za-z])"
    r"(?:\s*[_^]\s*(?:\{[^{}=]{0,20}\}|[A-Za-z0-9]))*"
    r"(?:\s*(?:\\left\s*)?[(\[][^=]{0,60}?(?:\\right\s*)?[)\]])?\s*"
)


def value_of_named(text: str, gold_latex: str) -> str:
    """``text`` without the names on the left of its ``=`` (``q_{\\max} = \\sqrt[3]{3/2}``;
    ``\\theta=\\frac{3\\pi}{2},\\quad f\\left(\\frac{2\\pi}{3}\\right)=1`` is
    ``\\frac{3\\pi}{2}, 1``), against a gold that names nothing."""
    if "=" not in text or "=" in gold_latex or _INEQUALITY_RE.search(text):
        return text
    pieces = split_top_level(text)
    values = [_named_value(_SPACING_RE.sub("", piece)) for piece in pieces]
    if any(v is None for v in values):
        return text
    return ", ".join(v for v in values if v is not None)


_INEQUALITY_RE = re.compile(r"\\(?:le|ge|leq|geq|leqslant|geqslant|neq|ne)(?![A-Za-z])|[<>≤≥≠]")


def _named_value(piece: str) -> str | None:
    """The value of ``NAME = VALUE`` (``NAME`` a quantity's name), a piece without ``=`` as it
    is; None for any other equation."""
    if "=" not in piece:
        return piece
    name, _, value = piece.partition("=")
    if "=" in value or not value.strip() or any(c in value for c in "<>"):
        return None
    named = _QUANTITY_NAME_RE.fullmatch(name) or is_quantity_name(name)
    return value.strip() if named else None


_SPACING_RE = re.compile(r"^(?:\s|\\q?quad|\\[,;:!]|~)+|(?:\s|\\q?quad|\\[,;:!]|~)+$")


def without_condition(text: str, gold_latex: str) -> str:
    """``text`` without a condition written after it (``\\text{ for } \\omega \\neq 2``),
    against a gold that states none."""
    if "\\text" not in text or "\\text" in gold_latex:
        return text
    condition = _CONDITION_RE.search(text)
    if condition is None or condition.start() == 0:
        return text
    if not _CONDITION_SIGN_RE.search(condition.group("condition")):
        return text
    return text[: condition.start()]


#: a chain of arithmetic on plain numbers ending in its result, which bold marks may wrap:
#: "14,000,000 + 400,000 + 600 + 2 = 14,400,602", "51484185 - 65752551 = **-14268366**"
_ARITHMETIC_RESULT_RE = re.compile(
    r"(?:[ \t]*[-−(]?[ \t]*\d[\d,]*(?:\.\d+)?[ \t)]*(?:[-−+*/×÷][ \t(]*\d[\d,]*(?:\.\d+)?[ \t)]*)*"
    r"=[ \t]*)+(?:\*\*)?[ \t]*(?P<v>[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-−]?\d+(?:\.\d+)?)"
    r"[ \t]*(?:\*\*)?[ \t.]*"
)


def arithmetic_result(text: str) -> str:
    """The result of an answer that is arithmetic on plain numbers ending in it (``14,000,000
    + 400,000 = 14,400,000`` is ``14400000``; math-verify reads the thousands commas as a
    tuple's), else ``text`` as it is."""
    match = _ARITHMETIC_RESULT_RE.fullmatch(text)
    if match is None:
        return text
    return match.group("v").replace("−", "-").replace(",", "")


def answer_form(text: str, gold_latex: str) -> str:
    """``text`` (an extracted answer) in the form compared with ``gold_latex``."""
    out = text
    if "10" in out and not _VARIABLE_X_RE.search(gold_latex):
        out = _ASCII_TIMES_TEN_RE.sub(r"\1 \\times 10^{\2}", out)
    out = plain_notation(out)
    out = without_condition(out, gold_latex)
    if "=" in out:
        out = value_of_named(out, gold_latex)
    if "=" in out and "\\" in out and _NAMED_EQUATION_RE.fullmatch(out):
        if _NAMED_EQUATION_RE.fullmatch(gold_latex) and "\\" not in gold_latex:
            out = _TEXT_NAME_RE.sub(r"\1", out)  # "\text{SRMC} = \text{LRMC}" for SRMC=LRMC
    out = _BLANK_EQUATION_RE.sub("", out, count=1)  # "\Box = 7", "(\ ) = 7": the blank's value
    label = _CHOICE_LABEL_RE.match(out)
    if label is not None and len(out) > label.end():
        out = out[label.end() :]
    if "." in out:
        out = _TRAILING_PERIOD_RE.sub("", out)
    if "°" in out or "degree" in out:
        out = _DEGREE_RE.sub("^\\\\circ", out)
    if "{,}" in out:
        out = _DECIMAL_COMMA_RE.sub(_decimal, out)
    if "," in out and _DECIMAL_GOLD_RE.fullmatch(gold_latex.strip()):
        comma = _COMMA_DECIMAL_RE.fullmatch(out.strip())
        if comma is not None:  # 1000,99 against the gold 1000.99: a decimal comma
            out = comma.group(1) + "." + comma.group(2)
    thousands = dot_thousands(out, gold_latex) if "." in out else None
    if thousands is not None:
        out = thousands  # "70.000" for the gold 70000: a thousands separator
    if len(out) <= _CHAIN_CHARS and any(c in out for c in ("<", ">", "\\l", "\\g", "≤", "≥")):
        if _INTERVAL_GOLD_RE.match(gold_latex):
            out = _interval(out) or out
        elif "\\cup" in gold_latex and all(
            _INTERVAL_GOLD_RE.match(part) for part in gold_latex.split("\\cup")
        ):
            out = _union(out) or out
    return out.strip() or text


def gold_form(latex: str) -> str:
    """A gold in the notation math-verify parses (Python powers, no closing period)."""
    out = _TRAILING_PERIOD_RE.sub("", latex) if "." in latex else latex
    out = plain_notation(out)
    if "**" in out:
        out = _POWER_RE.sub(lambda m: "^{" + m.group(1) + "}", out)
    return out or latex


def set_for_tuple(gold_latex: str, answer: str) -> bool:
    """Whether the answer is a set ``\\{…\\}`` and the gold a tuple or interval ``(…, …)``."""
    return bool(_SET_RE.match(answer)) and bool(_TUPLE_RE.match(gold_latex))
