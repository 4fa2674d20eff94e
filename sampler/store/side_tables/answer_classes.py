"""The class of a final answer for answer entropy: one key per answer up to notation.

Answer entropy (docs/support-dynamics.md, "Entropies") groups a question's answers into
classes "when the verifier says they are equal", wrong answers included. Running
math-verify pairwise over every answer at report time is far too slow, so leash uses a
sound, cheap stand-in, computed once per distinct answer string by ``answer_class_key``:

* the verifier's normalised ``answer`` is made canonical in writing: white space,
  ``$``, ``\\left``/``\\right``, thin spaces (``\\!``, ``\\,``, ``\\;``, ``\\:``, ``\\ ``,
  ``~``), ``\\displaystyle`` and a final full stop are dropped, ``\\dfrac``/``\\tfrac``
  become ``\\frac``, ``\\{``-free braces around a whole answer are removed;
* an answer that is then one rational number (an integer, a decimal, scientific
  notation, ``\\frac{a}{b}``, ``\\frac52``, ``a/b``, with signs) gets the key of that
  exact rational: ``2.5``, ``\\frac52`` and ``5/2`` are all ``5/2``; ``5`` and ``5.0``
  are ``5``; ``-0.5`` and ``-\\frac12`` are ``-1/2`` (Fraction arithmetic, no floats);
* any other answer is its own class, under its canonical writing.

Sound means: two answers with one key are always equal (so classes are never merged
wrongly); two equal answers written very differently (``\\sqrt{4}`` and ``2``) may still
be two classes. Every sample verified correct is in one class (the verifier judged each
equal to the gold), and every sample without an answer, truncated ones included, is in
the class "NA": those two are decided by the caller (store.key_stats), not here.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_DROP = re.compile(r"\\left(?![a-zA-Z])|\\right(?![a-zA-Z])|\\displaystyle|\\[!,;: ]|~|\$|\s+")
_FRACTION_COMMAND = re.compile(r"\\[dt]frac(?![a-zA-Z])")
_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_SIGNED = re.compile(rf"([+-]*)({_NUMBER})")
_SLASH = re.compile(rf"([+-]*)({_NUMBER})/([+-]*)({_NUMBER})")
#: \frac{a}{b}, \frac{a}b, \frac a{b}, \frac52 (one-digit arguments need no braces)
_FRAC = re.compile(rf"([+-]*)\\frac(?:\{{([+-]*{_NUMBER})\}}|(\d))(?:\{{([+-]*{_NUMBER})\}}|(\d))")


def canonical_writing(answer: str) -> str:
    """``answer`` with layout-only LaTeX and white space removed (see module docstring)."""
    text = _FRACTION_COMMAND.sub(r"\\frac", answer)
    text = _DROP.sub("", text)
    text = text.rstrip(".")
    while len(text) >= 2 and text[0] == "{" and text[-1] == "}" and _balanced(text[1:-1]):
        text = text[1:-1]
    return text


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return depth == 0


def _sign(signs: str) -> int:
    return -1 if signs.count("-") % 2 else 1


#: numbers longer than this, or with a larger decimal exponent, keep their writing as key
#: (a hostile ``1e999999999`` would otherwise build a billion-digit integer)
MAX_NUMBER_CHARS = 200
MAX_EXPONENT = 400


def _number(text: str) -> Fraction:
    """The exact value of an unsigned decimal; ValueError when too large to be sensible."""
    mantissa, _, exponent = text.lower().partition("e")
    if len(text) > MAX_NUMBER_CHARS or (exponent and abs(int(exponent)) > MAX_EXPONENT):
        raise ValueError(f"number too large: {text[:20]}")
    return Fraction(mantissa) * Fraction(10) ** int(exponent or 0)


def _signed_fraction(text: str) -> Fraction:
    match = _SIGNED.fullmatch(text)
    assert match is not None
    return _sign(match.group(1)) * _number(match.group(2))


def rational_value(text: str) -> Fraction | None:
    """The exact rational a canonically written answer denotes, or None when it is not one
    number (a zero denominator is not a number). ValueError for a number too large."""
    match = _SIGNED.fullmatch(text)
    if match:
        return _sign(match.group(1)) * _number(match.group(2))
    match = _SLASH.fullmatch(text)
    if match:
        top = _sign(match.group(1)) * _number(match.group(2))
        bottom = _sign(match.group(3)) * _number(match.group(4))
        return top / bottom if bottom else None
    match = _FRAC.fullmatch(text)
    if match:
        top = _signed_fraction(match.group(2) or match.group(3))
        bottom = _signed_fraction(match.group(4) or match.group(5))
        return _sign(match.group(1)) * top / bottom if bottom else None
    return None


def answer_class_key(answer: str) -> str:
    """The class key of a (wrong or timed-out) answer string: ``#p/q`` or ``#p`` for a
    rational number, else ``=`` followed by its canonical writing. The prefixes keep a
    number's key apart from an answer that is written like one."""
    text = canonical_writing(answer)
    try:
        value = rational_value(text)
    except (ValueError, ZeroDivisionError, OverflowError):
        value = None
    if value is not None:
        return f"#{value}"
    return f"={text}"


#: printable ASCII that canonical_writing leaves alone: no white space, ``$``, ``\``, braces
#: or ``~`` (RE2 syntax, for pyarrow.compute)
_PLAIN_RE2 = r"^[!-#%-\[\]-z|]*$"
#: what rational_value may read as a number (its _SIGNED or _SLASH, ASCII digits)
_NUMBER_RE2 = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_NUMERIC_RE2 = rf"^[+-]*{_NUMBER_RE2}(?:/[+-]*{_NUMBER_RE2})?$"
#: a decimal whose exact value int64 arithmetic gets right: signs, at most 18 digits
_DECIMAL_RE2 = r"^(?P<sign>[+-]*)(?P<whole>\d+)(?:\.(?P<part>\d+))?$"
_MAX_DIGITS = 18


def answer_class_keys(values: pa.Array) -> pa.Array:
    """``answer_class_key`` of every string of ``values`` (null stays null), vectorised.

    Answers that canonical_writing leaves as they are and that are either no number or a
    decimal of at most 18 digits (``42``, ``-0.50``, ``x+1``: most answers) get their key
    from pyarrow and numpy, with no Python per string; the others (LaTeX, fractions,
    exponents, long numbers) from ``answer_class_key``, one call each.
    """
    values = values.cast(pa.string())
    size = len(values)
    plain = pc.fill_null(
        pc.and_(
            pc.match_substring_regex(values, _PLAIN_RE2),
            pc.invert(pc.ends_with(values, ".")),
        ),
        False,
    )
    numeric = pc.fill_null(pc.match_substring_regex(values, _NUMERIC_RE2), False)
    parts = pc.extract_regex(pc.if_else(plain, values, pa.scalar(None, pa.string())), _DECIMAL_RE2)
    whole = pc.fill_null(parts.field("whole"), "")
    part = pc.fill_null(parts.field("part"), "")
    digits = pc.binary_join_element_wise(whole, part, "")
    decimal = pc.fill_null(
        pc.and_(pc.is_valid(parts), pc.less_equal(pc.utf8_length(digits), _MAX_DIGITS)), False
    )
    word = pc.and_(plain, pc.invert(numeric))
    keys = pc.if_else(word, pc.binary_join_element_wise("=", values, ""), None)
    # exact value of a short decimal: sign * digits / 10^len(part), in lowest terms
    is_decimal = decimal.to_numpy(zero_copy_only=False)
    if is_decimal.any():
        rows = pa.array(np.flatnonzero(is_decimal))
        mantissa = pc.cast(digits.take(rows), pa.int64()).to_numpy()
        scale = np.int64(10) ** pc.utf8_length(part.take(rows)).to_numpy().astype(np.int64)
        minus = pc.count_substring(parts.field("sign").take(rows), "-").to_numpy() % 2 == 1
        common = np.gcd(mantissa, scale)
        top = np.where(minus, -1, 1) * (mantissa // common)
        bottom = scale // common
        top_text = pc.cast(pa.array(top), pa.string())
        fraction = pc.binary_join_element_wise(
            "#", top_text, "/", pc.cast(pa.array(bottom), pa.string()), ""
        )
        number = pc.if_else(pa.array(bottom == 1), pc.binary_join_element_wise("#", top_text, ""),
                            fraction)  # fmt: skip
        keys = pc.replace_with_mask(keys, decimal, number)
    slow = pc.and_(pc.is_valid(values), pc.invert(pc.or_(word, decimal)))
    slow_rows = np.flatnonzero(slow.to_numpy(zero_copy_only=False))
    if slow_rows.size:
        texts = values.take(pa.array(slow_rows)).to_pylist()
        keys = pc.replace_with_mask(keys, slow, pa.array([answer_class_key(t) for t in texts]))
    return keys if size else pa.array([], pa.string())
