"""A number a program printed from a binary float: ``803.0000000000001`` is 803.

Python prints a float with the fewest digits that read back to it (``repr``), so a value
computed in binary arithmetic shows its rounding error in the last of 15 to 17 significant
digits: ``0.1 + 0.2`` prints ``0.30000000000000004``, ``15 * 1.1 / 1.1`` prints
``15.000000000000002``. Program-of-thought and tool-integrated completions state such
outputs as their answers. ``without_float_noise`` gives the number such a printed value
stands for: when it has at least ``_FLOAT_DIGITS`` significant digits and rounding it to
``_KEPT_DIGITS`` leaves at most ``_SHORT_DIGITS`` (the error is confined to the last
digits), the rounded number; any other text unchanged. ``15.0000000222`` (an answer
computed from rounded steps) and ``5.999999`` keep their digits. Exact decimal arithmetic.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_NUMBER_RE = re.compile(r"\s*-?\d+\.\d+\s*")
#: a float's repr shows 15 to 17 significant digits when it is no short decimal
_FLOAT_DIGITS = 15
_KEPT_DIGITS = 12
_SHORT_DIGITS = 10


def without_float_noise(text: str) -> str:
    """The number ``text`` stands for when it is a float printed with its binary rounding
    error (module docstring), else ``text``."""
    if not _NUMBER_RE.fullmatch(text):
        return text
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        return text
    digits = value.as_tuple().digits
    significant = len(digits) - next((i for i, d in enumerate(digits) if d), len(digits))
    if significant < _FLOAT_DIGITS:
        return text
    exponent = value.adjusted() - _KEPT_DIGITS + 1
    rounded = value.quantize(Decimal(1).scaleb(exponent)).normalize()
    if len(rounded.as_tuple().digits) > _SHORT_DIGITS:
        return text
    return format(rounded, "f")
