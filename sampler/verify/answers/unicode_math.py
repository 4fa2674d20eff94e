"""Math written in Unicode characters, not LaTeX: ``½``, ``√2``, ``2⁵``, ``5 × 10³``, ``π/4``.

Chat models often write their final answer this way; math-verify reads none of it (``√2``
is no number to it, ``2⁵`` is 2). ``unicode_to_latex`` rewrites it as LaTeX before an answer
is compared (``sampler.verify.answers.verdict.prepare_span``):

- vulgar fractions: ``½`` is ``\\frac{1}{2}``, ``3¾`` is ``3+\\frac{3}{4}`` (a mixed number);
- ``√`` with what it applies to (a number, a letter, a bracketed group): ``\\sqrt{2}``,
  ``3√(x+1)`` is ``3\\sqrt{x+1}``; ``∛`` is ``\\sqrt[3]{…}``;
- superscript and subscript runs: ``2⁵`` is ``2^{5}``, ``10⁻³`` is ``10^{-3}``, ``x₁`` is ``x_{1}``;
- symbols: ``π`` ``∞`` ``×`` ``·`` ``÷`` ``−`` ``≤`` ``≥`` ``≠`` ``°`` as ``\\pi`` … ``^\\circ``;
- a Greek letter standing alone, not in a Greek word: ``θ^2`` is ``\\theta ^2``, ``α+β``
  ``\\alpha +\\beta`` (``μ`` and ``Ω`` stay, units' prefixes and ohms).

``UNICODE_VALUE_RE`` matches one such value in prose (``√2``, ``3√2``, ``½``, ``2⁵``,
``5 × 10³``, ``π/4``), so that the sentence rules read it as one value, not as its digits.
``with_triangle_minus`` reads the triangle that Japanese accounts write for a minus
(``△5.3%`` is ``-5.3%``), in completions and golds. Linear time; text without these
characters is returned unchanged.
"""

from __future__ import annotations

import re
import unicodedata

_FRACTIONS = {
    "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5),
    "⅗": (3, 5), "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅐": (1, 7), "⅛": (1, 8), "⅜": (3, 8),
    "⅝": (5, 8), "⅞": (7, 8), "⅑": (1, 9), "⅒": (1, 10),
}  # fmt: skip
#: the decimal digits of every script Unicode has (Bengali ``২৫``, Devanagari ``२५``, Arabic-Indic
#: ``٢٥``, Thai ``๒๕``, full-width ``２５`` …) as ASCII digits
_DIGITS = {
    code: str(unicodedata.digit(chr(code)))
    for code in range(0x80, 0x1FBFA)
    if unicodedata.category(chr(code)) == "Nd"
}


#: a white or black triangle right before a number: the minus sign of Japanese accounts
#: ("△15.92%", "▲381.6百万円"); before a letter it is a triangle ("△ABC")
_TRIANGLE_MINUS_RE = re.compile(r"[△▲][ \t]?(?=\d)")


def with_triangle_minus(text: str) -> str:
    """``text`` with each triangle that marks a negative number (``△5.3%``) as ``-``."""
    if "△" not in text and "▲" not in text:
        return text
    return _TRIANGLE_MINUS_RE.sub("-", text)


def ascii_digits(text: str) -> str:
    """``text`` with the decimal digits of other scripts written as ASCII digits
    (``\\boxed{২৫,০০০}`` is ``25,000``), so that separators and decimals read as in ASCII."""
    return text if text.isascii() else text.translate(_DIGITS)


#: superscript characters as the ASCII they raise (``units`` reads a unit's powers with it)
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", "0123456789+-=()ni")
_SUBSCRIPT = str.maketrans("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎", "0123456789+-=()")
_SYMBOLS = {
    "π": "\\pi ", "∞": "\\infty ", "×": "\\times ", "·": "\\cdot ", "÷": "\\div ", "−": "-",
    "≤": "\\le ", "≥": "\\ge ", "≠": "\\ne ", "°": "^{\\circ}", "∓": "\\mp ", "±": "\\pm ",
}  # fmt: skip
#: a Greek letter standing alone (not in a Greek word): a symbol, ``θ^2`` is ``\\theta^2``
#: (``μ`` and ``Ω`` are left to the units: ``5 μm``, ``970 Ω``)
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "ν": "nu", "ξ": "xi",
    "ρ": "rho", "σ": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi",
    "ω": "omega", "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi",
    "Σ": "Sigma", "Φ": "Phi", "Ψ": "Psi",
}  # fmt: skip
_GREEK_RE = re.compile(f"(?<![\u0370-\u03ff])[{''.join(_GREEK)}](?![\u0370-\u03ff])")
_CHARS = (
    "".join(_FRACTIONS)
    + "√∛∜⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎"
    + "".join(_SYMBOLS)
    + "".join(_GREEK)
)
_ANY_RE = re.compile(f"[{re.escape(_CHARS)}]")
_FRACTION_RE = re.compile(f"(\\d*)\\s*([{''.join(_FRACTIONS)}])")
_ROOT_RE = re.compile(r"([√∛∜])\s*(\((?:[^()]|\([^()]*\))*\)|\{[^{}]*\}|\d+(?:\.\d+)?|[A-Za-z])")
_SUPERSCRIPT_RE = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ]+")
_SUBSCRIPT_RE = re.compile("[₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎]+")
_SYMBOL_RE = re.compile(f"[{''.join(_SYMBOLS)}]")

#: one value written with Unicode math, as the sentence rules read it
UNICODE_VALUE_RE = re.compile(
    r"[-−]?(?:\d+(?:\.\d+)?\s*[×·]\s*10[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+"
    r"|\d*\s*[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒]"
    r"|\d*(?:[√∛∜]\s*(?:\([^()\n]{1,40}\)|\d+(?:\.\d+)?|[A-Za-z]))(?:\s*/\s*\d+)?"
    r"|\d*π(?:\s*/\s*\d+)?"
    r"|\d+(?:\.\d+)?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"
)


def _fraction(match: re.Match[str]) -> str:
    whole, (top, bottom) = match.group(1), _FRACTIONS[match.group(2)]
    frac = f"\\frac{{{top}}}{{{bottom}}}"
    return f"({whole}+{frac})" if whole else frac


def _root(match: re.Match[str]) -> str:
    body = match.group(2)
    if body[0] in "({" and body[-1] in ")}":
        body = body[1:-1]
    index = {"√": "", "∛": "[3]", "∜": "[4]"}[match.group(1)]
    return f"\\sqrt{index}{{{body}}}"


def unicode_to_latex(text: str) -> str:
    """``text`` with its Unicode math written as LaTeX (module docstring)."""
    if _ANY_RE.search(text) is None:
        return text
    text = _FRACTION_RE.sub(_fraction, text)
    text = _ROOT_RE.sub(_root, text)
    text = _SUPERSCRIPT_RE.sub(lambda m: "^{" + m.group(0).translate(SUPERSCRIPTS) + "}", text)
    text = _SUBSCRIPT_RE.sub(lambda m: "_{" + m.group(0).translate(_SUBSCRIPT) + "}", text)
    text = _GREEK_RE.sub(lambda m: f"\\{_GREEK[m.group(0)]} ", text)
    return _SYMBOL_RE.sub(lambda m: _SYMBOLS[m.group(0)], text).strip()
