"""A gold that names its value: ``\\gamma(0) = 2``, ``P(1.5) \\approx 0.8036``, ``E[X] = 0.5``.

Statistics and physics golds often state the quantity with its value. math-verify reads
such a gold as an equation, and the equation goes wrong when the name is no plain symbol:
``\\gamma(0)`` is the gamma function at 0 (complex infinity), ``\\gamma`` Euler's constant,
``E[\\bar{X}]`` a product, ``f(2)`` an application with no free symbol, so that solving
``f(2) = 5`` and ``f(2) = 6`` for their (no) symbols makes them equal; with ``\\approx``
it keeps only the name. The bare value ``2`` was then wrong, and ``\\gamma(0) = 1`` right.

``named_value`` reads ``NAME = VALUE`` (or ``\\approx``, ``≈``, ``\\simeq``; a chain
``NAME = \\frac{1}{1-0.8^2} = 2.7778`` gives its last value, and one that ends with an
approximation of its last exact value, ``= \\frac{5}{100^{0.275}} \\approx 1.41``, that
exact value, as math-verify reads it), where ``NAME`` is a quantity's name (letters or a
Greek letter, decorated: ``\\hat{\\gamma}``, ``\\mathbb{E}``, with subscripts and one
argument in brackets: ``\\gamma(1)``, ``P(A|B)``, ``E[\\bar{X}]``) and ``VALUE`` a constant
(digits, fractions, roots, ``\\pi``, a percent; no letter). A list of named values
(``c_0 = -1, c_1 = -1``) is none: the comparison of lists decides.
``named_pair`` judges an answer against such a gold by the values: a bare value, or the
value the answer names (the last of its chain). An answer that names another quantity
(``\\gamma(1) = 2`` for the gold ``\\gamma(0) = 2``) is no answer to it, whatever its value;
names are compared without spaces, braces, hats and font commands. Any other answer, and
any gold whose value is no constant (``f(x) = x^2``, ``y = 2x + 1``), is left to the
comparison of equations.
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: a quantity's name: a letter or up to three, or a command (``\gamma``, ``\sigma``),
#: possibly decorated, with subscripts and superscripts and one bracketed argument
_NAME_RE = re.compile(
    r"\s*(?:\\(?:hat|widehat|bar|overline|tilde|widetilde|mathbb|mathrm|mathcal|operatorname"
    r"|text|textrm|boldsymbol|mathbf|vec)\s*\{\s*(?:\\[A-Za-z]{2,12}|[A-Za-z]{1,12})\s*\}"
    r"|\\[A-Za-z]{2,12}|[A-Za-z]{1,3})"
    r"(?:\s*[_^]\s*(?:\{(?:[^{}=]|\{[^{}=]{0,20}\}){0,30}\}|[A-Za-z0-9]))*"
    r"(?:\s*(?:\\left\s*)?(?:\([^=()]{1,60}\)|\[[^=\[\]]{1,60}\])(?:\s*\\right\s*)?)?"
    r"(?:\s*\\right\s*[)\]])?\s*"
)
#: the relations a named value is stated with
_RELATION_RE = re.compile(r"\\approx(?![A-Za-z])|\\simeq(?![A-Za-z])|≈|(?<![<>!=:\\])=(?!=)")
#: what a constant may hold besides digits: fractions, roots, pi, operators, a percent
_CONSTANT_TOKENS_RE = re.compile(
    r"\\(?:d|t)?frac|\\sqrt|\\pi|\\times|\\cdot|\\left|\\right|\\%|\\[,;:! ]|\\q?quad"
    r"|[{}()\[\]^.,%+\-−*/×·\s\d]"
)
#: what separates the values of a list (a LaTeX line break, a comma, a semicolon, "and")
_TOP_LEVEL_SEPARATOR_RE = re.compile(r"\\\\|(?<!\\)[,;]|\band\b|\\q?quad")
#: the decorations and fonts a name is compared without
_NAME_NOISE_RE = re.compile(
    r"\\(?:hat|widehat|mathbb|mathrm|operatorname|text|textrm|boldsymbol|mathbf|left|right)"
    r"(?![A-Za-z])|[\s{}]"
)


class Named(NamedTuple):
    """A value stated with its quantity's name."""

    name: str
    value: str


def _top_level(text: str) -> str:
    """``text`` with brackets, braces and what they enclose blanked out (as long as ``text``,
    so that a match in it is a match at the same place in ``text``)."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
            continue
        out.append(" ")
    return "".join(out)


def is_constant(text: str) -> bool:
    """Whether ``text`` is a constant: digits with fractions, roots, pi, a percent; no letter."""
    rest = _CONSTANT_TOKENS_RE.sub("", text)
    return bool(re.search(r"\d", text)) and not rest


def named_value(text: str) -> Named | None:
    """``NAME = … = VALUE`` as its name and last value (module docstring), else None."""
    if "=" not in text and "approx" not in text and "≈" not in text and "simeq" not in text:
        return None
    top = _top_level(text)
    relations = list(_RELATION_RE.finditer(top))
    if not relations or _TOP_LEVEL_SEPARATOR_RE.search(top):
        return None  # no relation, or a list ("c_0 = -1, c_1 = -1"): no one named value
    name = text[: relations[0].start()]
    value = _last_value(text, relations)
    if not _NAME_RE.fullmatch(name) or value is None:
        return None
    name = _NAME_NOISE_RE.sub("", name).replace("[", "(").replace("]", ")")
    return Named(name, value)


def is_quantity_name(text: str) -> bool:
    """Whether ``text`` is a quantity's name (module docstring): ``\\hat{H}_{0}(t)``,
    ``\\sigma^2_{\\sqrt{\\beta_1}}``, ``E[\\bar{X}]``."""
    return bool(_NAME_RE.fullmatch(text))


def _last_value(text: str, relations: list[re.Match[str]]) -> str | None:
    """The value after the last ``=`` (up to an approximation of it: ``= 1/3 \\approx 0.33``
    states 1/3, as math-verify reads it), else after the last relation; a constant or None."""
    exact = [i for i, m in enumerate(relations) if m.group(0) == "="]
    if exact and exact[-1] < len(relations) - 1:
        at = exact[-1]
        value = text[relations[at].end() : relations[at + 1].start()]
    else:
        value = text[relations[-1].end() :]
    value = value.strip().rstrip(".").strip()
    return value if value and is_constant(value) else None


def named_pair(gold: str, answer: str) -> tuple[str, str] | None:
    """The values to compare when ``gold`` names its value: the gold's value and the answer's
    (bare, or named alike); ``("", "")`` when the answer names another quantity; None when the
    gold names no constant or the answer is some other equation (module docstring)."""
    named = named_value(gold)
    if named is None:
        return None
    answer = answer.strip()
    top = _top_level(answer)
    relations = list(_RELATION_RE.finditer(top))
    if not relations:
        return named.value, answer
    if _TOP_LEVEL_SEPARATOR_RE.search(top):
        return None  # several values: the comparison of lists decides
    theirs = named_value(answer)
    if theirs is not None:
        return (named.value, theirs.value) if theirs.name == named.name else ("", "")
    # "\frac{5}{100^{0.275}} \approx 1.41" (the name already read off): its last value
    last = _last_value(answer, relations)
    return (named.value, last) if last is not None else None
