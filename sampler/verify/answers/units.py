"""Units at the end of an answer: found, named canonically, and never dropped from both sides.

math-verify's own unit removal (``NormalizationConfig.units``) strips any known unit
word from both sides, and with it the ``\\text{max}`` of ``v_{\\text{max}}``, the ``c``
of ``\\frac{1}{\\sqrt{2}}c`` and the ``h`` of ``4h+4``; leash turns it off and decides
here instead. ``split_unit`` takes a trailing unit off an answer (``3 \\text{ cm}``,
``\\frac{600}{7} \\mathrm{~km} / \\mathrm{h}``, ``5pm``, ``166 cm^2``) and names it
canonically (``cm``, ``km/h``, ``pm``, ``cm^2``), so that spellings compare equal and
different units do not. The rules (README, Verify):

- a unit is ignored only when the other side has none; two different units never
  compare equal (``5pm`` is not ``5am``, ``3 m`` is not ``3 cm``);
- a bare single letter (``m``, ``s``, ``h``) is a unit only after a plain number and
  only when the gold does not use that letter as a variable; a gold never loses a bare
  single letter (Minerva's ``\\frac{37}{4} m`` is a mass);
- text in ``\\text{}`` after a value is a unit when it is words only, and so are Chinese,
  Japanese or Korean characters written bare after it (``825米``, ``160元``, ``5個``); the
  percent sign and degrees are left to math-verify, which knows their values;
- two units of one dimension (length, mass, time, volume; with the same power) compare
  by value: ``120 mm`` is ``12 cm`` (``converted``: exact conversions only);
- an ordinal suffix written onto an integer (``18th``, ``3rd``) is a unit, ``ordinal``;
- one or two bare words after a plain number (lower-case, or capitalised: ``6 Trinkets``) name
  what it counts
  (``12 cookies``, ``3 red marbles``), unless they scale or operate on it (``3 dozen``,
  ``2 halves``, ``5 times``).

Only the last 80 characters are examined, so the cost does not grow with the answer.
"""

from __future__ import annotations

import re
from decimal import Decimal

from sampler.verify.answers.unicode_math import SUPERSCRIPTS

_WINDOW = 80
_WRAPPER = r"\\(?:text|textrm|textbf|textit|textnormal|textsf|mathrm|mbox|rm|operatorname)\s*"
_POWER = r"(?:\s*\^\s*\{?\s*-?\d\s*\}?)?"
#: a unit written in Chinese, Japanese or Korean characters after the value (``825米``,
#: ``160元``, ``5個``, ``0.5 平方米``, ``30千米/小时``)
#: the letters of Chinese, Japanese (kana) and Korean (hangul) writing
CJK_LETTERS = r"\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
#: (possessive: a run of them is cut into atoms one way only, so that a sentence of Chinese
#: that is no unit fails in linear time, not in every way of cutting it)
_CJK_UNIT = rf"[{CJK_LETTERS}]{{1,6}}+"
_ATOM = (
    rf"(?:{_WRAPPER}\{{[^{{}}]*\}}"  # \text{ km/h}
    r"|(?<![A-Za-z\\])[A-Za-z]+(?:\.[A-Za-z]\.?)?"  # km, p.m.
    rf"|{_CJK_UNIT}"
    r")" + _POWER
)
_JOIN = r"(?:\s|~|\\[,;: !]|/|\\cdot|\{|\})*"
_SUFFIX_RE = re.compile(rf"(?:{_ATOM})(?:{_JOIN}(?:{_ATOM}))*{_JOIN}$")
_ATOM_RE = re.compile(
    rf"(?P<wrapped>{_WRAPPER}\{{(?P<content>[^{{}}]*)\}})|(?P<bare>[A-Za-z]+(?:\.[A-Za-z]\.?)?)"
    rf"|(?P<cjk>{_CJK_UNIT})"
    rf"|(?P<slash>/)|(?P<power>\^\s*\{{?\s*(?P<exp>-?\d)\s*\}}?)"
)
#: (letters of any script: ``\text{ евро}``, ``\text{ ユーロ}`` are units as ``\text{ euros}`` is)
_TEXT_UNIT_RE = re.compile(r"[^\W\d_](?:[^\W_]|[ .~/^-])*")
_PLAIN_NUMBER_RE = re.compile(
    r"[-+]?(?:\d+(?:[.,]\d+)*|\d*\.\d+)(?:\s*\\times\s*10\^\{?-?\d+\}?)?"
    r"|[-+]?\\[dt]?frac\{\d+\}\{\d+\}"
)
#: an ordinal suffix written onto an integer: ``18th``, ``3rd``, ``21st``, ``2nd``
_ORDINAL_RE = re.compile(r"st|nd|rd|th")
_INTEGER_RE = re.compile(r"-?\d+")
_VALUE_END_RE = re.compile(r"(?:[\d}\])]|\\[A-Za-z]+)$")
#: LaTeX spacing at the end of a value (``10\,\text{inches}``, ``52\ \text{WPM}``, ``3~cm``)
_TRAILING_SPACE_RE = re.compile(r"(?:\s|~|\\[,;: !>]|\\q?quad(?![A-Za-z]))+$")
_COMMAND_RE = re.compile(r"\\[A-Za-z]+")
_WRAPPED_TEXT_RE = re.compile(_WRAPPER + r"\{[^{}]*\}")

_COUNT_WORD_RE = re.compile(r"[A-Za-z][a-z]{2,}")  # "cookies", "Trinkets" (not "PQ", "MeV")
#: words after a number that are no count of things: scales, fractions, operations, functions
_NOT_COUNT_NOUNS = frozenset(
    """and or nor not but than then only each per all total more less times plus minus over
    into divided multiplied squared cubed factorial mod modulo percent percentage
    dozen dozens score hundred hundreds thousand thousands million millions billion
    billions trillion trillions lakh crore half halves third thirds quarter quarters fourth
    fourths fifth fifths sixth sixths seventh sevenths eighth eighths ninth ninths tenth
    tenths hundredth hundredths thousandth thousandths sin cos tan cot sec csc log exp sqrt
    arcsin arccos arctan sinh cosh tanh pi infinity inf alpha beta gamma delta theta lambda
    sigma omega""".split()
)
#: Unit words and their canonical names. Keys are lower case; single letters are matched
#: case-sensitively (``_LETTERS``).
_SYNONYMS: dict[str, str] = {}
for _name, _spellings in {
    "m": "m meter meters metre metres",
    "cm": "cm centimeter centimeters centimetre centimetres",
    "mm": "mm millimeter millimeters",
    "km": "km kilometer kilometers kilometre kilometres",
    "nm": "nm nanometer nanometers",
    "ft": "ft foot feet",
    "in": "inch inches",
    "yd": "yd yard yards",
    "mi": "mi mile miles",
    "s": "s sec secs second seconds",
    "ms": "ms millisecond milliseconds",
    "min": "min mins minute minutes",
    "h": "h hr hrs hour hours",
    "day": "day days",
    "week": "week weeks",
    "month": "month months",
    "year": "year years yr yrs",
    "g": "g gram grams",
    "kg": "kg kilogram kilograms",
    "mg": "mg milligram milligrams",
    "lb": "lb lbs pound pounds",
    "oz": "oz ounce ounces",
    "L": "liter liters litre litres",
    "ml": "ml milliliter milliliters",
    "gal": "gal gallon gallons",
    "mph": "mph",
    "km/h": "kmph kph",
    "deg": "deg degree degrees",
    "rad": "rad radian radians",
    "am": "am a.m a.m.",
    "pm": "pm p.m p.m.",
    "dollar": "dollar dollars",
    "cent": "cent cents",
    "unit": "unit units",
    "J": "joule joules",
    "N": "newton newtons",
    "W": "watt watts",
    "V": "volt volts",
    "K": "kelvin",
    "Pa": "pa pascal pascals",
    "Hz": "hz hertz",
    "eV": "ev",
    "keV": "kev",
    "MeV": "mev",
    "GeV": "gev",
}.items():
    for _spelling in _spellings.split():
        _SYNONYMS[_spelling] = _name
#: Bare single letters that may be units (after a plain number, when not a gold variable).
_LETTERS = {
    "m": "m", "s": "s", "g": "g", "h": "h", "L": "L", "J": "J", "N": "N", "W": "W", "V": "V",
    "K": "K",
}  # fmt: skip
#: Units with an SI prefix or a symbol of mixed case, matched as written (science answers:
#: ``115 MPa``, ``1.1 kV``, ``2.5 mol``, ``760 mmHg``)
_CASED = frozenset(
    """kPa MPa GPa hPa mV kV MV mA kA kJ MJ kW MW GW kN MN mN kHz MHz GHz THz mol mmol kmol
    kcal cal atm bar mbar torr Torr psi mmHg ppm ppb kDa Da dB""".split()
)
_AREA = {"square": "^2", "sq": "^2", "cubic": "^3"}


def _word(word: str, bare: bool) -> str | None:
    """The canonical name of one unit word; None when a bare word is not a known unit."""
    word = word.strip(" .~") if not word.endswith(".") else word.strip(" ~")
    if len(word) == 1:
        return _LETTERS.get(word) if bare else word
    if word in _CASED:  # "MPa" is not "mPa": prefixed units are read as written
        return word
    canonical = _SYNONYMS.get(word.lower()) or _SYNONYMS.get(word.lower().rstrip("."))
    if canonical is not None:
        return canonical
    if bare:
        return None
    word = word.lower().rstrip(".")
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _text_unit(content: str) -> list[str] | None:
    """The unit words of a ``\\text{...}`` (``km/h``, ``square inches``); None if not a unit."""
    content = content.replace("~", " ").strip()
    if not content or not _TEXT_UNIT_RE.fullmatch(content):
        return None
    return re.findall(r"[^\W\d_]+(?:\.[A-Za-z]\.?)?|/|\^-?\d", content)


def _canonical(tokens: list[str], bare_flags: list[bool]) -> str | None:
    """Join unit tokens (words, ``/``, ``^2``) into one canonical name, or None."""
    out: list[str] = []
    pending_power = ""
    for token, bare in zip(tokens, bare_flags, strict=True):
        if token == "/":
            out.append("/")
        elif token.startswith("^"):
            if not out or out[-1] == "/":
                return None
            out[-1] += token
        elif token.lower() in _AREA and not bare:
            pending_power = _AREA[token.lower()]
        elif token.lower() in ("sq", "square", "cubic"):
            pending_power = _AREA[token.lower()]
        else:
            name = _word(token, bare)
            if name is None:
                return None
            out.append(name + pending_power)
            pending_power = ""
    if not out or out[0] == "/" or out[-1] == "/" or pending_power:
        return None
    text = "".join(
        t if t == "/" or i == 0 or out[i - 1] == "/" else "*" + t for i, t in enumerate(out)
    )
    return text


def _tokens(unit: str) -> tuple[list[str], list[bool]] | None:
    tokens: list[str] = []
    bare: list[bool] = []
    for match in _ATOM_RE.finditer(unit):
        if match.group("wrapped"):
            words = _text_unit(match.group("content"))
            if words is None:
                return None
            tokens.extend(words)
            bare.extend([False] * len(words))
        elif match.group("bare"):
            tokens.append(match.group("bare"))
            bare.append(True)
        elif match.group("cjk"):
            tokens.append(match.group("cjk"))
            bare.append(False)  # written as a unit is in \text{}: its own name
        elif match.group("slash"):
            tokens.append("/")
            bare.append(True)
        else:
            tokens.append("^" + match.group("exp"))
            bare.append(True)
    return tokens, bare


def canonical_unit(unit: str | None) -> str | None:
    """A unit as a benchmark writes it (``$cm^2$``, ``km/h``, ``minute``, ``^{\\circ}``)."""
    if not unit:
        return None
    text = unit.strip().strip("$").strip()
    if re.fullmatch(r"\^?\s*\{?\s*\\circ\s*\}?|°", text):
        return "deg"
    if text in ("%", "\\%"):
        return "%"
    parsed = _tokens(text)
    if parsed is None or not parsed[0]:
        return None
    tokens, _ = parsed
    return _canonical(tokens, [False] * len(tokens))


def variables(latex: str) -> frozenset[str]:
    """The letters ``latex`` uses as symbols (command names and ``\\text{}`` words aside)."""
    text = _COMMAND_RE.sub(" ", _WRAPPED_TEXT_RE.sub(" ", latex))
    return frozenset(re.findall(r"[A-Za-z]", text))


#: superscripts written as Unicode characters (``m/s²``, ``kcal m⁻² yr⁻¹``)
_SUPERSCRIPT_RE = re.compile(r"[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
#: a temperature's degree sign before its scale: ``°C``, ``^\circ C``, ``^{\circ}\text{F}``
_DEGREES_SCALE_RE = re.compile(
    r"\s*(?:°|\^\s*\{?\s*\\circ\s*\}?)\s*(?:\\(?:text|mathrm|rm)\s*\{\s*([CFK])\s*\}|([CFK]))(?![A-Za-z])"
)
_UNIT_NOTATION_CHARS = ("⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹", "°", "\\circ")


def has_unit_notation(latex: str) -> bool:
    """Whether ``latex`` writes a unit in Unicode that ``unit_notation`` rewrites."""
    return any(c in latex for c in _UNIT_NOTATION_CHARS)


def _power(match: re.Match[str], text: str) -> str:
    """A superscript run as a power: braced after a number (``10⁻³`` is ``10^{-3}``), bare after
    a unit's letters, as a unit in ``\\text{}`` must be (``m⁻²`` is ``m^-2``)."""
    exponent = match.group(0).translate(SUPERSCRIPTS)
    after_letter = match.start() > 0 and text[match.start() - 1].isalpha()
    return "^" + exponent if len(exponent) == 1 or after_letter else "^{" + exponent + "}"


def unit_notation(latex: str) -> str:
    """``latex`` with units written in Unicode as LaTeX writes them: superscripts as powers
    (``m/s²`` is ``m/s^2``, ``m⁻²`` is ``m^{-2}``) and a temperature's degree sign joined to
    its scale as one unit (``700°C`` and ``700^\\circ C`` are ``700 \\text{degC}``)."""
    latex = _SUPERSCRIPT_RE.sub(lambda m: _power(m, latex), latex)
    return _DEGREES_SCALE_RE.sub(lambda m: " \\text{deg" + (m.group(1) or m.group(2)) + "}", latex)


#: a number and a word in what precedes a unit: another quantity ("2 hours and 45")
_QUANTITY_IN_RE = re.compile(r"\d[ \t]+[^\W\d_]{2,}")


def split_unit(
    latex: str, gold_variables: frozenset[str] = frozenset(), *, is_gold: bool = False
) -> tuple[str, str | None]:
    """``latex`` as (value, canonical unit); the unit is None when there is none.

    ``gold_variables``: letters that are variables in the gold, never units. A gold
    (``is_gold``) never loses a bare single letter.
    """
    if has_unit_notation(latex):
        latex = unit_notation(latex)
    start = max(0, len(latex) - _WINDOW)
    match = _SUFFIX_RE.search(latex, start)
    while match is not None:
        value = _TRAILING_SPACE_RE.sub("", latex[: match.start()])
        unit = _unit_of(latex[match.start() :], value, gold_variables, is_gold)
        if unit is not None and _QUANTITY_IN_RE.search(value):
            return latex, None  # "2 hours and 45 minutes": a quantity in two units, whole
        if unit is not None and value.count("{") == value.count("}"):
            return value, unit  # (never a unit cut out of a group: ``\text{4:30 p.m.}``)
        # the longest suffix is no unit (``4 + 4h``); try a shorter one (``... cm``)
        next_start = match.start() + 1
        match = _SUFFIX_RE.search(latex, next_start) if next_start < len(latex) else None
    return latex, None


def _unit_of(suffix: str, value: str, gold_variables: frozenset[str], is_gold: bool) -> str | None:
    """The canonical unit ``suffix`` names after ``value``, or None when it is no unit."""
    if not value or not _VALUE_END_RE.search(value):
        return None
    parsed = _tokens(suffix)
    if parsed is None or not parsed[0]:
        return None
    tokens, bare = parsed
    if len(tokens) == 1 and _ORDINAL_RE.fullmatch(suffix) and _INTEGER_RE.fullmatch(value):
        return "ordinal"  # "18th" (floor), "3rd": the number, its ordinal suffix a unit
    if len(tokens) == 1 and bare[0] and len(tokens[0]) == 1:
        # a lone bare letter: a unit only after a plain number, never a gold's variable
        if is_gold or tokens[0] in gold_variables or not _PLAIN_NUMBER_RE.fullmatch(value):
            return None
    return _canonical(tokens, bare) or _count_noun(tokens, bare, value)


def _count_noun(tokens: list[str], bare: list[bool], value: str) -> str | None:
    """What a plain number counts, as its unit: ``12 cookies``, ``3 red marbles`` (one or
    two words, lower-case or capitalised, singular); None for words that scale or operate on
    the number (``3 dozen``, ``2 halves``, ``5 times``) and after anything but a plain number."""
    if not 1 <= len(tokens) <= 2 or not all(bare) or not _PLAIN_NUMBER_RE.fullmatch(value):
        return None
    if not all(_COUNT_WORD_RE.fullmatch(t) and t.lower() not in _NOT_COUNT_NOUNS for t in tokens):
        return None
    tokens = [t.lower() for t in tokens]
    words = [*tokens[:-1], tokens[-1][:-1] if tokens[-1].endswith("s") else tokens[-1]]
    return "count:" + " ".join(words)


#: Units of one dimension, in a base unit of it, where the conversion is exact by definition.
_IN_BASE: dict[str, tuple[str, Decimal]] = {
    **{u: ("length", Decimal(f)) for u, f in (
        ("m", "1"), ("cm", "0.01"), ("mm", "0.001"), ("km", "1000"), ("nm", "1e-9"),
        ("in", "0.0254"), ("ft", "0.3048"), ("yd", "0.9144"), ("mi", "1609.344"),
    )},
    **{u: ("mass", Decimal(f)) for u, f in (
        ("g", "1"), ("kg", "1000"), ("mg", "0.001"), ("lb", "453.59237"), ("oz", "28.349523125"),
    )},
    **{u: ("time", Decimal(f)) for u, f in (
        ("s", "1"), ("ms", "0.001"), ("min", "60"), ("h", "3600"), ("day", "86400"),
        ("week", "604800"),
    )},
    **{u: ("volume", Decimal(f)) for u, f in (("L", "1"), ("ml", "0.001"))},
}  # fmt: skip
_POWERED_RE = re.compile(r"(?P<u>[A-Za-z]+)(?:\^(?P<p>[23]))?")
_DECIMAL_VALUE_RE = re.compile(r"-?\d+(?:\.\d+)?")


def converted(value: str, unit: str, to: str) -> str | None:
    """``value`` in ``unit`` written in the unit ``to`` (``120``, ``mm``, ``cm``: ``12``;
    ``3``, ``m^2``, ``cm^2``: ``30000``), exactly, when both are units of one dimension
    with the same power and ``value`` is a plain number; else None. ``5 ft`` is ``60 in``;
    an approximate conversion is never made."""
    mine, theirs = _POWERED_RE.fullmatch(unit), _POWERED_RE.fullmatch(to)
    if mine is None or theirs is None or not _DECIMAL_VALUE_RE.fullmatch(value.strip()):
        return None
    a, b = _IN_BASE.get(mine.group("u")), _IN_BASE.get(theirs.group("u"))
    if a is None or b is None or a[0] != b[0] or mine.group("p") != theirs.group("p"):
        return None
    power = int(mine.group("p") or 1)
    result = Decimal(value.strip()) * (a[1] / b[1]) ** power
    text = format(result.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
