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
