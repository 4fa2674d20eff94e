"""The last rule of the ``stated`` strategy: the last number of a completion's last line.

math-verify's own extraction, when a completion has no box and no answer marker, takes
the last number (or expression) it can find; leash's other rules, which read the
structure of the end of a completion, find nothing in such finals as "La réduction est
de 100 * 0,30 = 30 $. Le coût final est donc de 100 - 30 = 70" or "the number is not
10 which is 1,000.99€". ``last_number`` reads those the same way, and refuses what
math-verify's extraction takes but is no final answer:

- only the completion's last non-empty line is read (a number earlier in the text is
  a step, not a conclusion), and at most ``_LINE_CHARS`` characters of it;
- the number must end the line, followed by at most a unit or currency and one short
  word (``2,74 $ a..``, ``1,000.99m²``, ``14 bags.``): a line that runs on past its
  last number in words, with no sentence end, was cut off mid-thought;
- a number negated ("… it is not 12") states nothing, nor one that is a term of an
  expression (after ``+``, ``*``, ``\\times``: "3 + 4" is a step cut off, not a result);
- two numbers joined by "or" in the last clause ("3 or -3") are a hedge: both are
  given, joined by " or ", so that the hedge is judged wrong;
- terminal control sequences (``\x1b[31m``) and other control characters are no text:
  they are removed before the line is read, so their digits are never a number;
- a line that ends mid-sentence states nothing: with a comma or a semicolon (an
  enumeration cut off: "(5, 6, 2, 0), "), or with a function word after its last number
  ("… the sum is at most 2022 to determine"), or inside a bracket it never closes ("(1, 1,
  1"): the token limit cut it, and the number is a step of what it was writing;
- a line that asks ("?") states nothing, nor a number inside LaTeX math (``$k^2 = 9$``,
  an ``align`` row): math the structural rules did not read as a conclusion is a step,
  and at the end of a completion most often one cut off at the token limit.

Numbers are read with thousands separators (``1,000.99``), a decimal comma
(``2,74``: two digits at most after it, so ``1,000`` stays a thousand), a sign, a
fraction ``13/28`` and a percent sign. Linear time in the line.
"""

from __future__ import annotations

import re

from sampler.verify.answers.answer_span import AnswerSpan, latex_span
from sampler.verify.answers.step_labels import ends_in_heading, is_heading

RULE_LAST_NUMBER = "last number"

#: the last line is read only up to this length (from its end)
_LINE_CHARS = 300
_NUMBER_RE = re.compile(
    r"(?<![A-Za-z0-9_.,/^{\\])[-−]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+,\d{1,2}(?![\d,])|\d+(?:\.\d+)?)"
    r"(?:\s*/\s*\d+)?(?:\s*\\?%)?(?![.,]\d|\d)",
)
#: what may follow the last number: a unit or currency, one short word, an end mark
_TRAILER_RE = re.compile(
    r"\s*(?:[$€£¥%°²³]|\\%|\\\$|[A-Za-z]{1,6}/[A-Za-z]{1,6}[²³]?|[A-Za-z]{1,6}[²³]?\.?"
    r"|[^\x00-\x7f\s]{1,4})?\s*"
    r"(?:[A-Za-z\u00c0-\u024f]{1,12}|[^\W\d_]{1,12})?[\s.!。．,;:)*$]*",
)
_NEGATED_RE = re.compile(
    r"(?:\b(?:not|never|no|pas|nicht|non)\b|n't|不是|并非)"
    r"(?:\s+(?:be|equal|equals|exactly|to|is|just|quite))*\s*$",
    re.IGNORECASE,
)
#: a number right after an operator is a term of an expression, not its value
_OPERATOR_BEFORE_RE = re.compile(r"[-+*/×÷^(·]\s*$|\\(?:times|cdot|div)\s*$")
#: a dollar sign that opens or closes no math: escaped, a currency after an amount ("30 $"),
#: or one before a plain amount that no closing "$" or operator follows ("Total: $12",
#: "$10 … $6.00, wato $4.00."; not "$12$", "$12 + 3$", "$12 \times 3$")
_ESCAPED_DOLLAR_RE = re.compile(
    r"\\\$|(?<=\d) \$(?=[\s.,;!)]|$)"
    r"|(?<![\w$])\$(?=\d[\d,]*(?:\.\d+)?(?![\d$])(?![ \t]*[-+*/^=<>\\{}_&|]))"
)
#: an ESC sequence (CSI, OSC, or a two-byte one) and any other C0/C1 control but tab and newline
_CONTROL_RE = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)
_HEDGE_RE = re.compile(r"\s(?:or|ou|o|oder)\s|或者?|还是", re.IGNORECASE)
#: how a line cut mid-sentence ends: a comma or semicolon, or a function word (English)
_DANGLING_END_RE = re.compile(
    r"(?:[,;，；]|\b(?:to|of|and|or|the|a|an|is|are|was|were|be|that|which|with|by|for|as|if"
    r"|then|so|than|from|into|we|it|its|this|these|in|on|at|can|will|must|would|should|mod)"
    r"|(?<=\s)[x×*/+=-])\s*\Z",  # "… = $2748779069440 x": a product cut mid-way
    re.IGNORECASE,
)
_CLAUSE_BREAK_RE = re.compile(r"[.;!?。；！？]\s|[,，]\s*(?:but|mais|aber|pero)\b", re.IGNORECASE)


#: a number in a phrase of two words or more, then ", or" and the value it comes to: "3 times
#: that, or $90,000", "4 times as much, or 80 dollars" (not "3 apples, or 4": a hedge)
_RESTATED_BY_OR_RE = re.compile(
    r"(?<![\w.])[-−]?\$?\d[\d,]*(?:\.\d+)?(?:[ \t]+[^\W\d_]{2,}){2,5}[ \t]*,[ \t]*or[ \t]+"
    r"(?=[-−]?\$?\d)"
)


def restated_by_or(clause: str) -> str:
    """``clause`` without a phrase that the value after its ", or" restates."""
    return _RESTATED_BY_OR_RE.sub("", clause)


def _dangles(line: str) -> bool:
    """Whether ``line`` ends as a sentence cut mid-way does: with a comma, a semicolon, a
    function word ("… at most 2022 to", "… is 120 and") or an operator ("… = 2748 x")."""
    return _DANGLING_END_RE.search(line) is not None


def without_control(text: str) -> str:
    """``text`` without terminal control sequences and other control characters."""
    return _CONTROL_RE.sub("", text)


def ends_with_heading(text: str) -> bool:
    """Whether the completion's last line is a numbered heading alone ("Step 2:", "Part 2."):
    what follows it was cut off, and its number is no answer (``step_labels``)."""
    line = _last_line(text)
    return line is not None and is_heading(line)


#: a last line that is a bracketed list of numbers, as a program prints a tuple or a list
_NUMBER_LIST_LINE_RE = re.compile(
    r"[ \t]*[\[(][ \t]*-?\d+(?:\.\d+)?(?:[ \t]*,[ \t]*-?\d+(?:\.\d+)?){1,20}[ \t]*[\])][ \t]*"
)


#: a last line that states the value of an unknown with the value first: "30 = x", "-27 = -x"
#: is not (a sign on the unknown is another statement)
_SOLVED_FOR_RE = re.compile(
    r"[ \t*]*(?P<n>[-−]?\$?\d[\d,]*(?:\.\d+)?)[ \t]*=[ \t]*[A-Za-z][ \t.*]*"
)


def last_number(text: str) -> AnswerSpan | None:
    """The number that ends the completion's last line, read as its final (see module)."""
    line = _last_line(text)
    if line is None or line.rstrip().endswith(("?", "？")):
        return None
    if _NUMBER_LIST_LINE_RE.fullmatch(line):
        return latex_span(line.strip(), RULE_LAST_NUMBER)  # "(30, 120, 30)": the tuple, whole
    solved = _SOLVED_FOR_RE.fullmatch(line)
    if solved is not None:  # "22 + 8 = x\n30 = x": the value the unknown was solved for
        return latex_span(_number_value(solved.group("n")), RULE_LAST_NUMBER)
    if _OPTION_ITEM_RE.match(line):
        return None  # "(a) 3 km/hr": an option listed, not chosen (``option_line`` reads those)
    numbers = list(_NUMBER_RE.finditer(line))
    if not numbers:
        return None
    last = numbers[-1]
    if not _TRAILER_RE.fullmatch(line, last.end()) or _dangles(line[last.end() :]):
        return None
    root = _ROOT_BEFORE_RE.search(line, max(0, last.start() - 24), last.start())
    start = last.start() if root is None else root.start()
    if _OPERATOR_BEFORE_RE.search(line, max(0, start - 12), start):
        return None
    if _unclosed_bracket(line):
        return None  # "(1, 1, 1": a tuple cut off
    if _inside_math(line, last.start()):
        return None
    if ends_in_heading(line[max(0, last.start() - 20) : last.end() + 3]):
        return None  # "Step 2:": a heading of what was cut off, no answer
    clause_start = _clause_start(line, last.start())
    if _NEGATED_RE.search(line[clause_start : last.start()]):
        return None
    value = _number_value(last.group(0)) if root is None else _root_value(root, last.group(0))
    if root is not None and root.group("coef") is not None:
        numbers.pop()  # "0,06√2 m": the coefficient is the root's, not a number before it
    if len(numbers) > 1:
        before = numbers[-2]
        hedge = _HEDGE_RE.search(line, before.end(), last.start())
        restated = _RESTATED_BY_OR_RE.match(line, before.start())  # "3 times that, or $90,000"
        if before.start() >= clause_start and hedge is not None and restated is None:
            return AnswerSpan(f"{_number_value(before.group(0))} or {value}", rule=RULE_LAST_NUMBER)
    unit = _SLASH_UNIT_RE.match(line, last.end())
    if unit is not None:  # "Speed = 60 km/h": the unit stays, to be compared with the gold's
        return latex_span(f"{value} {unit.group(1)}", RULE_LAST_NUMBER)
    return latex_span(value, RULE_LAST_NUMBER)


#: a root sign right before the last number, with the coefficient it multiplies ("√3 cm",
#: "2√10 rad/s", "0,06√2 m", "6π√3 cm/s"): the number is the radicand, not the value
_ROOT_BEFORE_RE = re.compile(
    r"(?:(?<![\w.,])(?P<coef>\d+(?:[.,]\d+)?)[ \t]*[.·*×]?[ \t]*(?P<pi>π)?[ \t]*)?"
    r"(?P<root>[√∛∜])[ \t]*\Z"
)
_ROOT_INDEX = {"√": "", "∛": "[3]", "∜": "[4]"}


def _root_value(root: re.Match[str], radicand: str) -> str:
    """The LaTeX of a root the last number is the radicand of: ``2\\sqrt{10}``; a fraction
    read with the radicand ("√3/2") divides the root."""
    number, _, denominator = _number_value(radicand).partition("/")
    value = f"\\sqrt{_ROOT_INDEX[root.group('root')]}{{{number}}}"
    if root.group("pi"):
        value = f"\\pi {value}"
    if root.group("coef"):
        value = f"{_number_value(root.group('coef'))} {value}"
    return f"{value}/{denominator}" if denominator else value


#: a line that is an item of a listing of options: "(a) 3 km/hr", "b) 12"
_OPTION_ITEM_RE = re.compile(r"[ \t]*\([A-Ja-j]\)[ \t]|[ \t]*[a-j]\)[ \t]")
#: a unit written with a slash after the last number (``km/h``, ``m/s²``, ``mg/dL``)
_SLASH_UNIT_RE = re.compile(r"[ \t]*([A-Za-z]{1,6}/[A-Za-z]{1,6}[²³]?)(?![A-Za-z/])")


def _unclosed_bracket(line: str) -> bool:
    """Whether ``line`` leaves a round or square bracket open."""
    depth = 0
    for char in line:
        if char in "([":
            depth += 1
        elif char in ")]" and depth:
            depth -= 1
    return depth > 0


def _inside_math(line: str, pos: int) -> bool:
    """Whether ``pos`` is inside a LaTeX math span (an odd number of unescaped ``$`` before
    it, an unclosed ``\\(`` or ``\\[``, an ``align`` row): a step of a derivation, which
    the structural rules read when it concludes, and a cut-off one when they do not."""
    before = _ESCAPED_DOLLAR_RE.sub(lambda m: " " * len(m.group(0)), line)[:pos]
    if before.count("$") % 2:
        return True
    if before.rfind("\\(") > before.rfind("\\)") or before.rfind("\\[") > before.rfind("\\]"):
        return True
    return "&" in line or "\\begin" in line or line.rstrip().endswith("\\\\")


def _last_line(text: str) -> str | None:
    stripped = _CONTROL_RE.sub("", text).rstrip()
    if not stripped:
        return None
    start = stripped.rfind("\n") + 1
    line = stripped[max(start, len(stripped) - _LINE_CHARS) :].strip()
    return line or None


def _clause_start(line: str, before: int) -> int:
    """Where the clause holding position ``before`` begins."""
    start = 0
    for match in _CLAUSE_BREAK_RE.finditer(line, 0, before):
        start = match.end()
    return start


def _number_value(raw: str) -> str:
    value = raw.replace("−", "-").replace(" ", "").replace("\\%", "%")
    if re.fullmatch(r"-?\d+,\d{1,2}", value):
        return value.replace(",", ".")  # a decimal comma
    return value.replace(",", "")


#: thousands grouped by spaces, in words: "27 000 долларов" is 27000
_SPACED_THOUSANDS_RE = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.,])")
_PROSE_VALUE_RE = re.compile(
    r"\$(?P<a>[^$\n]{1,120})\$|\\\((?P<b>.{1,120}?)\\\)|(?P<c>\\[dt]?frac\{[^{}]{1,20}\}\{[^{}]{1,20}\})"
)


#: words that negate or qualify a statement ("5, but I ran out of time")
_QUALIFIED_RE = re.compile(
    r"\b(?:not|never|but|however|unless|maybe|perhaps|mais|pas|aber|nicht|pero)\b|n't|不是|并非|但"
    r"|可能",
    re.IGNORECASE,
)


#: a number joined to a one-letter symbol by an operator ("78-x", "2 * n", "y + 3"): an
#: expression, not a value (a unit's power, "m^2", and a unit's slash, "m/s", are no operator)
_SYMBOLIC_RE = re.compile(
    r"\d[ \t]*[-+*/^][ \t]*[A-Za-z](?![A-Za-z])|(?<![A-Za-z\\])[A-Za-z][ \t]*[-+*][ \t]*\d"
)


def only_value(prose: str, given: frozenset[str] = frozenset()) -> str | None:
    """The one value a stated answer in words holds ("每份应该是 (\\frac{2}{5}) 吨", "Janeth
    owes 220 $"): a math span, a ``\\frac``, or a number; None when it holds none, several,
    a negation, a qualification ("but", "maybe") or a hedge. Of several, the numbers the
    question gave (``given``, ``given_numbers``) are restated, not the answer: "It will take
    Jane 7 more weeks to have saved a total of $60." is 7 when the question gave the $60."""
    if _HEDGE_RE.search(prose) or _QUALIFIED_RE.search(prose):
        return None
    if _SYMBOLIC_RE.search(prose):
        return None  # "the answer is #### 78-x": an expression in a symbol, not the number 78
    distinct = set(values_in(prose))
    if len(distinct) > 1 and given:
        distinct = {v for v in distinct if _plain_number(v) not in given}
    return distinct.pop() if len(distinct) == 1 else None


_LAST_IS_RE = re.compile(
    r"\s(?:is|are|was|were|equals|est|es|ist)\s|(?<![<>!=])=(?!=)", re.IGNORECASE
)


def value_after_is(prose: str) -> str | None:
    """The one value after the last "is" / "=" of an answer in words ("so the number is 10
    which is 1,000.99m²" is 1000.99), else None."""
    ends = [m.end() for m in _LAST_IS_RE.finditer(prose)]
    return only_value(prose[ends[-1] :]) if ends else None


#: an answer in words that opens with its value, then a remark after a comma ("6, with 2
#: students left over", "12, since each box holds 3")
_VALUE_THEN_REMARK_RE = re.compile(
    r"[ \t]*(?P<v>[-−]?\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-−]?\$?\d+(?:\.\d+)?(?:/\d+)?)[ \t]*,[ \t]*"
    r"(?:with|which|since|because|as|leaving|where|so|given|plus|remainder)\b",
    re.IGNORECASE,
)


def value_before_remark(prose: str) -> str | None:
    """The value an answer in words opens with, when a remark follows it after a comma
    ("6, with 2 students left over" is 6), else None."""
    match = _VALUE_THEN_REMARK_RE.match(prose)
    if match is None:
        return None
    return match.group("v").replace("−", "-").replace("$", "").replace(",", "")


def values_in(prose: str) -> list[str]:
    """The values an answer in words holds (math spans, ``\\frac``, numbers), each once."""
    values = [next(g for g in m.groups() if g is not None) for m in _PROSE_VALUE_RE.finditer(prose)]
    rest = _PROSE_VALUE_RE.sub(" ", prose)
    rest = _SPACED_THOUSANDS_RE.sub(lambda m: re.sub(r"\s", "", m.group(0)), rest)  # "27 000"
    values += [_number_value(m.group(0)) for m in _NUMBER_RE.finditer(rest)]
    return list(dict.fromkeys(without_ordinal(v).strip() for v in values if v.strip()))


def gold_among(gold: str, prose: str) -> bool:
    """Whether a gold that is a plain number is one of the several values a sentence in
    words holds, unqualified ("Jasper has 2 blue and 9 yellow tubes" for the gold 9); a
    list without words ("(2)、(4)") is no sentence."""
    if not re.fullmatch(r"[-+]?\d+(?:\.\d+)?", gold.strip()):
        return False
    values = values_in(prose)
    if len(values) < 2 or _HEDGE_RE.search(prose) or _QUALIFIED_RE.search(prose):
        return False
    if len(re.findall(r"[^\W\d_]{2,}", _PROSE_VALUE_RE.sub(" ", prose))) < 2:
        return False
    return _plain_number(gold.strip()) in {_plain_number(v) for v in values}


def given_numbers(problem: str | None) -> frozenset[str]:
    """The numbers a question's text gives, in one plain form (``1,000`` and ``1000.0`` are
    ``1000``), for ``only_value``."""
    if not problem:
        return frozenset()
    return frozenset(_plain_number(_number_value(m.group(0))) for m in _NUMBER_RE.finditer(problem))


def _plain_number(value: str) -> str:
    value = value.lstrip("+")
    if re.fullmatch(r"-?\d+\.\d*", value):
        value = value.rstrip("0").rstrip(".")
    return value


#: an ordinal written in math: ``5^{\\mathrm{th}}``, ``2^{nd}``, ``1^\\text{st}``
_ORDINAL_RE = re.compile(
    r"(\d+)\s*\^\s*(?:\{\s*)?(?:\\(?:mathrm|text|textrm|rm)\s*)?\{?\s*(?:st|nd|rd|th)\s*\}?\s*\}?"
)


def without_ordinal(text: str) -> str:
    """``text`` with each ordinal written in math (``5^{\\mathrm{th}}``) as its number."""
    return _ORDINAL_RE.sub(r"\1", text) if "^" in text else text
