"""What the gold is decides the comparison: its type, found once, and the verdicts it gives.

``gold_kind`` reads a gold (``Gold.latex``) as one of: ``boolean`` (True/False/Yes/No),
``choices`` (several option letters, ``ABD``), ``choice`` (one letter), ``decimal`` (a
number written with decimals: its stated precision counts), ``brackets`` (brackets alone,
``) ] >``: compared bracket by bracket), ``text`` (a word or words
that are no formula, ``esln``, ``\\text{Evelyn}``), or ``""`` (math, left to math-verify).

``typed_verdict`` gives the verdict for the types that math-verify cannot judge, or None
to let it judge:

- a boolean gold accepts yes/no and true/false (``The answer is No.`` is False);
- option letters: the letters the answer starts with (``A、B和D``, ``A, B and D``, ``(C)``,
  ``[B]和[C]``; Arabic's ``(ب) و (ج)`` is B and C) must be the gold's letters, all of them
  and no other (``C或D`` is wrong for ``C``); with
  the question's options (``Gold.options``, read from the problem text) an answer that
  gives an option's content (``Color 1`` for ``(a) Color 1: …``) counts as its letter;
- a decimal gold (``3.67``) accepts a more precise plain number that rounds to it at the
  gold's precision (``3.6667``), and no other;
- a text gold is equal to the answer up to case, quotes, spaces and ``\\text{}``;
- an option label with its content (``(A) baseball team``, ``(B) no``) against a text or
  boolean gold: the content is compared, and where the question lists its options the
  letter must be the gold's option too (``(A) Thursday`` is wrong when Thursday is (B));
  a gold that is a letter and its content (``C Cecile``) takes the bare letter (``C``);
- an answer that offers alternatives (``3 or -3``, ``D或E``) is wrong unless the gold is
  a list of them (``hedged``).

A prose answer (``AnswerSpan.prose``) that none of these reads states nothing a math gold
can use: ``no_answer``.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache

from sampler.verify.answers.named_alternatives import labelled_name
from sampler.verify.answers.negated_labels import negation_label

_BOOLEAN = {"true": True, "yes": True, "false": False, "no": False}
#: true and false in Korean (KoStrategyQA's golds 사실 and 거짓), golds as the English words are
_BOOLEAN.update({"사실": True, "참": True, "거짓": False})
#: the endings a Korean word takes as a predicate: 사실입니다 ("it is true"), 거짓이다
_KOREAN_COPULA_RE = re.compile(r"(?<=[\uac00-\ud7a3])(?:입니다|이다|이에요|예요|이야|임)$")
#: yes and no in other languages, read in an answer (never a gold's type: "Non" may be a name)
_BOOLEAN_WORDS = {
    **_BOOLEAN,
    **dict.fromkeys("sí si oui ja sim sì tak да evet ya はい 네 예".split(), True),
    **dict.fromkeys("non nein não nao nie нет hayır tidak いいえ 아니요 아니오".split(), False),
    #: true and false
    **dict.fromkeys("wahr vrai verdadero verdadeiro vero benar doğru верно правда".split(), True),
    **dict.fromkeys("falsch faux falso salah yanlış неверно ложь".split(), False),
}
#: yes and no in Chinese, read at the start of an answer (不是 and 错误 before 是)
_CJK_BOOLEAN_RE = re.compile(r"(不是|不对|不正确|错误|错|否)|(是|对|正确)")
_WRAP_RE = re.compile(r"\\(?:text|textbf|mathrm|mathbf|textnormal)\s*\{([^{}]*)\}")
_EDGE_RE = re.compile(r"^[\s*_$\"'“”‘’`(（\[{]+|[\s*_$\"'“”‘’`)）\]}.,;:!?。，；：！？]+$")
_FIRST_WORD_RE = re.compile(r"[^\W\d_]+")
_LETTERS_GOLD_RE = re.compile(r"[A-J]{2,6}")
_SEPARATED_LETTERS_GOLD_RE = re.compile(r"\(?[A-J]\)?(?:[ \t]*[,，、;&][ \t]*\(?[A-J]\)?){1,9}")
_DECIMAL_RE = re.compile(r"-?\d+\.(\d+)")
_PLAIN_NUMBER_RE = re.compile(r"-?\d+(?:\.\d+)?")
#: a decimal in percent (``-27.4%``, ``12.50\%``), and any number in percent
_PERCENT_DECIMAL_RE = re.compile(r"\s*(?P<v>-?\d+\.\d+)\s*\\?%\s*")
_PERCENT_RE = re.compile(r"\s*(?P<v>-?[\d,]+(?:\.\d+)?)\s*\\?%\s*")
#: a gold that is brackets alone (``) ] >``, BBH's Dyck languages): compared bracket by bracket
_BRACKETS_GOLD_RE = re.compile(r"\s*[()\[\]{}<>](?:\s*[()\[\]{}<>])*\s*")
_BRACKET_RE = re.compile(r"[()\[\]{}<>]")
_NOT_BRACKET_RE = re.compile(r"[^()\[\]{}<>\s$]")
_TEXT_GOLD_RE = re.compile(r"[A-Za-z][A-Za-z '\-]{2,40}")
#: words alone, at least four, joined by spaces or commas: a list of words, of any length
WORD_LIST_RE = re.compile(
    r"[A-Za-z][A-Za-z'\-]*(?:(?:[ \t]*,[ \t]*|[ \t]+)[A-Za-z][A-Za-z'\-]*){3,80}"
)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'\-]*")
#: cells of one or two letters or digits, spaced, rows parted by commas or semicolons (a
#: crossword's grid, ``S A V E 0,A 0 A 0 A``): at least four; read as math, a product
_CELLS_RE = re.compile(r"[A-Za-z\d]{1,2}(?:(?:[ \t]*[,;][ \t]*|[ \t]+)[A-Za-z\d]{1,2}){3,300}")
_LETTER_CELL_RE = re.compile(r"(?<![A-Za-z\d])[A-Za-z]{1,2}(?![A-Za-z\d])")
_MATH_WORDS = frozenset(
    "sin cos tan cot sec csc log ln exp sqrt pi inf infty frac mod gcd lcm max min".split()
)
#: letters an answer starts with: ``A、B和D``, ``A, C and D``, ``(A)(C)``, ``ABD``
#: (a letter that an operator or a digit follows is a symbol in a formula: ``E*2``, ``A^2``)
_LETTER_RE = re.compile(r"\(?([A-J])\)?(?![A-Za-z\d]|\s*[*/^=_+])")
#: the last option letter read by default; a question with more options (BBH's ``(R)``)
#: reads up to its gold's letter or its last listed option (``letter_range``)
LAST_LETTER = "J"
_LETTER_SEP_RE = re.compile(r"\s*(?:、|,|，|和|与|及|以及|&|and|و|और)\s*|\s+")
_LOWER_OPTION_RE = re.compile(r"\(([a-j])\)")
_LETTER_RUN_RE = re.compile(r"([A-J]{2,6})(?![A-Za-z])")
_HEDGE_RE = re.compile(r"\s(?:or|或者?|还是)\s|(?<=[A-J\d}$)])\s*(?:或者?|还是)\s*(?=[A-J\d$\\(-])")


def strip_wrappers(text: str) -> str:
    """``text`` without ``\\text{}``-like wrappers, edge punctuation, quotes and bold."""
    out = _WRAP_RE.sub(r"\1", text).replace("\\(", "").replace("\\)", "")
    return _EDGE_RE.sub("", out.strip())


def gold_kind(latex: str) -> str:
    """The type of a gold, for ``typed_verdict`` (see the module docstring)."""
    bare = strip_wrappers(latex)
    if bare.lower() in _BOOLEAN:
        return "boolean"
    if _LETTERS_GOLD_RE.fullmatch(bare) and list(bare) == sorted(set(bare)):
        return "choices"
    if _SEPARATED_LETTERS_GOLD_RE.fullmatch(bare):
        letters = re.findall(r"[A-J]", bare)
        if letters == sorted(set(letters)):
            return "choices"  # "\text{A,B,C,D}", "A, C": the options of a multi-select question
    if re.fullmatch(r"[A-J]", bare) or re.fullmatch(r"\s*\(([a-j])\)\s*", latex):
        return "choice"
    if (
        _DECIMAL_RE.fullmatch(latex.strip())
        or _PERCENT_DECIMAL_RE.fullmatch(latex)
        or _rounded_scientific(latex) is not None
    ):
        return "decimal"  # "3.67", "-27.4%", "4.4e7": the stated precision counts
    if _BRACKETS_GOLD_RE.fullmatch(latex):
        return "brackets"
    if "\\" not in latex and len(bare) <= 600 and WORD_LIST_RE.fullmatch(bare):
        return "text"  # "abbey beatific cornerstone …": a list of words (BBH's word sorting)
    if len(bare) <= 600 and _CELLS_RE.fullmatch(bare) and len(_LETTER_CELL_RE.findall(bare)) > 1:
        return "text"  # "S A V E 0,A 0 A 0 A": a grid's cells, not a product (it was 0 = 0)
    if "\\" not in latex.replace("\\text", "") and _TEXT_GOLD_RE.fullmatch(bare):
        words = bare.lower().split()
        if len(bare) >= 3 and not any(w in _MATH_WORDS for w in words):
            return "text"
    if "\\" not in latex.replace("\\text", "") and _named_in_words(bare):
        return "text"
    if "\\" not in latex and labelled_name(latex) is not None:
        return "text"  # "Output (b)", "Response A": an alternative's name, not b's function
    negation = negation_label(latex)
    if negation is not None and negation[1]:
        return "text"  # "no_error", "not_entailment": a label's negation, not a product
    return ""


#: what a math gold has that a name in words has not
_MATH_MARKS_RE = re.compile(r"[=<>^_{}$\\|/*]")
#: a number that is part of a word: "2nd", "10-week", "2A", "IL-5", "COVID-19"
_WORD_NUMBER_RE = re.compile(r"\d+(?:st|nd|rd|th|[A-Z])\b|\d+-[A-Za-z]|[A-Za-z]-?\d+")
_NUMBER_TOKEN_RE = re.compile(r"\d+(?:[.,]\d+)?")


def _cells(text: str) -> tuple[tuple[str, ...], ...] | None:
    """A grid's cells (``S A V E 0, A 0 A 0 A``) as rows of upper-case cells, else None."""
    bare = strip_wrappers(text)
    if len(bare) > 600 or not _CELLS_RE.fullmatch(bare):
        return None
    return tuple(tuple(row.upper().split()) for row in re.split(r"[ \t]*[,;][ \t]*", bare))


def _named_in_words(bare: str) -> bool:
    """Whether a gold is a name in words (up to 200 characters, two words of three letters or
    more, no math marks): "Oral mifepristone + misoprostol", "Intravenous immunoglobulin
    (IVIG)", "Ventral part of 2nd pouch." (a number only as part of a word), so that it is
    compared as text: read as math, "Dorsal part of 2nd pouch." was its 2."""
    if len(bare) > 200 or _MATH_MARKS_RE.search(bare):
        return False
    words = [w for w in re.findall(r"[A-Za-z]{3,}", bare) if w.lower() not in _MATH_WORDS]
    if len(words) < 2:
        return False
    numbers = _NUMBER_TOKEN_RE.findall(_WORD_NUMBER_RE.sub("", bare))
    return not numbers


@lru_cache(maxsize=32)
def _letter_patterns(last: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``_LETTER_RE`` and ``_LETTER_RUN_RE`` for the option letters A to ``last``."""
    if last <= LAST_LETTER:
        return _LETTER_RE, _LETTER_RUN_RE
    letter = re.compile(rf"\(?([A-{last}])\)?(?![A-Za-z\d]|\s*[*/^=_+])")
    return letter, re.compile(rf"([A-{last}]{{2,6}})(?![A-Za-z])")


def letter_range(latex: str, options: tuple[tuple[str, str], ...] = ()) -> str:
    """The last option letter an answer to this gold may name: J, or the gold's letter or the
    question's last option where that comes later (``(K)`` … ``(R)``)."""
    letters = [c for c in strip_wrappers(latex).upper() if "A" <= c <= "Z"]
    return max([LAST_LETTER, *letters, *(letter for letter, _ in options)])


def leading_letters(text: str, last: str = LAST_LETTER) -> frozenset[str]:
    """The option letters (A to ``last``) an answer starts with (empty when it starts with
    none); a lowercase letter in parentheses (``(a)``) is one too."""
    letter_re, run_re = _letter_patterns(last)
    rest = _LOWER_OPTION_RE.sub(lambda m: "(" + m.group(1).upper() + ")", text)
    rest = strip_wrappers(rest)
    run = run_re.match(rest)
    if run is not None:
        return frozenset(run.group(1))
    found: set[str] = set()
    while True:
        match = letter_re.match(rest)
        if match is None:
            break
        found.add(match.group(1))
        rest = rest[match.end() :]
        sep = _LETTER_SEP_RE.match(rest)
        if sep is None or not letter_re.match(rest[sep.end() :]):
            break
        rest = rest[sep.end() :]
    return frozenset(found)


#: a later option label joined to the first by "and" or a comma: ``… and (E) intertidal zone``
_JOINED_LABEL_RE = re.compile(r"(?:\band|,|，|、|和|&|(?<!\S)و|और)[ \t]*\(([A-J])\)")


def joined_labels(clause: str) -> frozenset[str]:
    """The option letters in parentheses that ``clause`` joins to its first with "and" or a
    comma (``(D) tide pool and (E) intertidal zone`` holds ``E``): chosen too."""
    return frozenset(m.group(1) for m in _JOINED_LABEL_RE.finditer(clause))


def alternatives(text: str) -> list[str]:
    """The alternatives an answer offers (``3 or -3`` is ``3``, ``-3``), stripped."""
    return [p.strip(" ,;$") for p in _HEDGE_RE.split(" " + text + " ") if p.strip(" ,;$")]


#: the words that say an alternative is the same value written another way: "… or
#: $\\frac34$ as a fraction", "0.75 in decimal form", "i.e. 25%"
_RESTATED_RE = re.compile(
    r"^(?:(?:equivalently|i\.e\.|that\s+is|which\s+is|exactly|approximately)[,:]?\s+)?"
    r"(?P<v>.+?)"
    r"(?:,?\s+(?:as\s+an?\s+(?:improper\s+|mixed\s+|simplified\s+|common\s+)?"
    r"(?:fraction|decimal|percent(?:age)?|mixed\s+number|integer|whole\s+number)"
    r"|in\s+(?:its\s+)?(?:simplest|lowest|decimal|fraction(?:al)?|exact|radical|percent)"
    r"(?:\s+(?:form|terms))?|exactly|approximately|equivalently))?[\s.)]*$",
    re.IGNORECASE,
)


def restated(alternative: str) -> str:
    """An alternative without the words that call it the same value in another form
    (``$\\frac{3}{4}$ as a fraction`` is ``\\frac{3}{4}``), and without its dollars."""
    match = _RESTATED_RE.match(alternative.strip())
    value = match.group("v") if match else alternative
    return value.strip().strip("$").strip()


def hedged(text: str) -> bool:
    """Whether an answer offers alternatives (``3 or -3``, ``D或E``, ``either A or E``)."""
    return bool(_HEDGE_RE.search(" " + text + " "))


_CLAUSE_END_RE = re.compile(r"[.;](?=\s)|[。；]|,(?!\s*(?:or|and|或|和)\b)|，(?!\s*(?:或|和))")


def first_clause(text: str) -> str:
    """An answer in words up to its first clause end (``D. it can't be A or B`` is ``D``):
    what it states, before the reasons; a comma before "or" (``A, or possibly B``) goes on."""
    end = _CLAUSE_END_RE.search(text)
    return text[: end.start()] if end else text


#: a sentence that ends by calling its subject true or false ("The statement is true.")
_CALLED_TRUE_RE = re.compile(
    r"\b(?:is|are|was|were|holds?\s+as)\s+(?P<not>not\s+)?(?:(?:always|indeed|then)\s+)?"
    r"(?P<word>true|false)\s*[.!]?\s*$",
    re.IGNORECASE,
)


def boolean_of(text: str) -> bool | None:
    """True/False of an answer that starts with yes/no/true/false (or yes or no in another
    language: ``Sí``, ``Nein``, ``是``, ``否``, ``いいえ``; true or false in Korean, also
    as a predicate: ``사실입니다``), or of a short sentence
    that ends by calling its subject true or false ("The statement is not true."), else
    None."""
    stripped = strip_wrappers(text)
    word = _FIRST_WORD_RE.match(stripped)
    first = _KOREAN_COPULA_RE.sub("", word.group(0).lower()) if word else ""
    if first in _BOOLEAN_WORDS:
        return _BOOLEAN_WORDS[first]
    cjk = _CJK_BOOLEAN_RE.match(stripped)
    if cjk is not None and len(stripped) <= 4:  # "是", "否", "不对", "正确。"
        return cjk.group(2) is not None
    if len(stripped) > 300:
        return None
    called = _CALLED_TRUE_RE.search(stripped, max(0, len(stripped) - 200))
    if called is None:
        return None
    return (called.group("word").lower() == "true") != bool(called.group("not"))


_ONE_CHAR_SUBSCRIPT_RE = re.compile(r"_\{\s*([A-Za-z0-9])\s*\}")


def without_subscript_braces(text: str) -> str:
    """``text`` without the braces of a one-character subscript: ``E_{1}`` is ``E_1``
    (math-verify cannot parse a subscripted ``E``, and compares the two as strings)."""
    return _ONE_CHAR_SUBSCRIPT_RE.sub(r"_\1", text) if "_{" in text else text


def _normal_text(text: str) -> str:
    text = without_subscript_braces(text)  # as ``golds.without_wrapper_spacing`` writes answers
    return re.sub(r"[\s\"'“”‘’`]+", "", strip_wrappers(text)).lower()


def rounds_to(gold: str, answer: str) -> bool | None:
    """Whether a number ``answer``, more precise than the decimal ``gold``, rounds to it at
    the gold's precision (a percent gold reads a bare answer in percent, as math-verify
    does); None when the answer is no more precise number. Either may be written in
    scientific notation (``4.4e7``, ``4.43 \\times 10^{7}``, ``5.907 x 10^-3``): the
    precision is that of its last stated digit, so ``44281397`` rounds to ``4.4e7`` and
    ``5.907\\times10^{-3}`` to ``0.006``."""
    percent = _PERCENT_DECIMAL_RE.fullmatch(gold)
    if percent is not None:  # "-27.39%" or "-27.39" for "-27.4%": in the gold's percent
        answer_percent = _PERCENT_RE.fullmatch(answer)
        gold = percent.group("v")
        answer = answer_percent.group("v") if answer_percent is not None else answer
    g = _DECIMAL_RE.fullmatch(gold.strip())
    stated = _rounded_scientific(gold) if g is None else None
    if g is not None:
        stated = Decimal(gold.strip()), -len(g.group(1))
    mine = _number_and_last_digit(answer)
    if stated is None or mine is None or mine[1] >= stated[1]:
        return None
    try:
        quantum = Decimal(1).scaleb(stated[1])
        return mine[0].quantize(quantum, rounding=ROUND_HALF_UP) == stated[0]
    except InvalidOperation:
        return None


#: a number in scientific notation: ``4.4e7``, ``4.4\\times10^{7}``, ``4.4 \\cdot 10^7``,
#: ``4.4×10^7``, ASCII ``4.4 x 10^7`` and Python's ``4.4*10**7``
_SCIENTIFIC_RE = re.compile(
    r"\s*(?P<m>-?\d+(?:\.(?P<f>\d+))?)\s*(?:[eE](?P<e>[+-]?\d+)"
    r"|(?:\\times|\\cdot|×|·|[xX*])\s*10\s*(?:\^|\*\*)\s*\{?\s*(?P<p>[+\-−]?\d+)\s*\}?)\s*"
)


def _number_and_last_digit(text: str) -> tuple[Decimal, int] | None:
    """A plain or scientific number's value and the exponent of its last stated digit
    (``0.005907``: -6; ``5.907\\times10^{-3}``: -6; ``44281397``: 0), else None."""
    plain = text.strip().replace(",", "")
    if _PLAIN_NUMBER_RE.fullmatch(plain):
        return Decimal(plain), -len(plain.split(".", 1)[1]) if "." in plain else 0
    match = _SCIENTIFIC_RE.fullmatch(text)
    if match is None:
        return None
    exponent = int((match.group("e") or match.group("p")).replace("−", "-"))
    if abs(exponent) > 400:
        return None
    return Decimal(match.group("m")).scaleb(exponent), exponent - len(match.group("f") or "")


def _rounded_scientific(latex: str) -> tuple[Decimal, int] | None:
    """A gold in scientific notation with decimals in its mantissa (``4.4e7``, ``4.6 \\times
    10^{-24}``): its value and the exponent of its last stated digit, else None."""
    match = _SCIENTIFIC_RE.fullmatch(latex)
    if match is None or match.group("f") is None:
        return None
    return _number_and_last_digit(latex)


_SCIENTIFIC_GOLD_RE = re.compile(
    r"(-?\d+(?:\.(\d+))?)\s*\\times\s*10\s*\^\s*\{?\s*([+-]?\d+)\s*\}?"
)
#: least significant digits a gold must state before an exact answer is rounded to it:
#: ``3.1416`` and ``2.2892`` are roundings, while ``0.5`` or ``33.3`` may be exact values
#: (``\\frac{100}{3}`` is no answer for ``33.3``, as the Qwen grader's cases judge)
MIN_ROUNDED_DIGITS = 4


def stated_precision(latex: str) -> tuple[Decimal, int] | None:
    """A decimal gold's value and the exponent of its last stated digit (``3.67``:
    (3.67, -2); ``1.0995\\times10^{12}``: (1.0995e12, 8)), when it states at least
    ``MIN_ROUNDED_DIGITS`` significant digits; else None."""
    text = latex.strip()
    plain = _DECIMAL_RE.fullmatch(text)
    scientific = _SCIENTIFIC_GOLD_RE.fullmatch(text) if plain is None else None
    if plain is not None:
        mantissa, places, exponent = text, len(plain.group(1)), 0
    elif scientific is not None:
        mantissa, exponent = scientific.group(1), int(scientific.group(3))
        places = len(scientific.group(2) or "")
    else:
        return None
    digits = mantissa.lstrip("-").replace(".", "").lstrip("0")
    if len(digits) < MIN_ROUNDED_DIGITS:
        return None
    return Decimal(mantissa).scaleb(exponent), exponent - places


def value_rounds_to(latex: str, value: Decimal) -> bool:
    """Whether ``value`` (an answer's exact value, to many places) rounds to the decimal
    gold at its stated precision (``stated_precision``): ``11/3`` and ``\\pi`` for the
    golds ``3.67`` and ``3.1416``; ``3.675`` does not round to ``3.67``."""
    stated = stated_precision(latex)
    if stated is None:
        return False
    gold, last = stated
    try:
        return value.quantize(Decimal(1).scaleb(last), rounding=ROUND_HALF_UP) == gold
    except InvalidOperation:
        return False


def option_letter(options: tuple[tuple[str, str], ...], answer: str) -> str | None:
    """The letter of the option whose content the answer is (text equality), else None."""
    mine = _normal_text(answer)
    if not mine:
        return None
    for letter, content in options:
        theirs = _normal_text(content)
        if theirs and (mine == theirs or theirs.startswith(mine + ":")):
            return letter
    return None


#: an option label, then its content: ``(A) baseball team``, ``B. Thursday``, ``C) yes``
_LABELLED_RE = re.compile(
    r"\s*(?:\(([A-Ja-j])\)[ \t]*[,，:：]?|([A-J])[.)．:：])\s*(\S.*?)\s*", re.S
)
#: the letter first, its content in parentheses after it: ``B (bottom)``, ``C (Linear).``
_LETTER_THEN_CONTENT_RE = re.compile(r"\s*([A-J])[ \t]*\(([^()\n]+)\)[ \t]*[.。]?\s*")
#: a gold that is a letter, a space and a capitalised content: ``C Cecile`` (``(D) Alina``
#: and ``B. 12`` are choices already, ``golds.labelled_choice``; ``A`` and ``I`` are words:
#: ``A Tale`` is a title)
_GOLD_LABEL_RE = re.compile(r"\s*([B-HJ])\s+([A-Z].*?)\s*")
_BARE_LETTER_RE = re.compile(r"[A-J]")


def labelled(text: str) -> tuple[str, str] | None:
    """The option letter (upper case) and the content of an answer that gives both
    (``(A) baseball team``, ``(B), No``, ``B (bottom)``), else None."""
    after = _LETTER_THEN_CONTENT_RE.fullmatch(text)
    if after is not None:
        return after.group(1), after.group(2).strip()
    match = _LABELLED_RE.fullmatch(text)
    if match is None:
        return None
    return (match.group(1) or match.group(2)).upper(), match.group(3)


def labelled_content(text: str, options: tuple[tuple[str, str], ...]) -> str | None:
    """The content of the option an answer in words names with its content (``(D) May '21``
    where the question lists ``(D) May '21``), else None (a content that is not that
    option's: which one is meant cannot be told)."""
    label = labelled(text)
    if label is None:
        return None
    letter, content = label
    theirs = dict(options).get(letter)
    if theirs is None or _normal_text(theirs) != _normal_text(content.rstrip(".。")):
        return None
    return theirs


def _gold_label(latex: str) -> tuple[str, str] | None:
    match = _GOLD_LABEL_RE.fullmatch(strip_wrappers(latex))
    return (match.group(1), match.group(2)) if match else None


def _label_is_gold(letter: str, options: tuple[tuple[str, str], ...], latex: str) -> bool:
    """Whether an answer's option letter is the gold's: the option whose content is the
    gold, when the question lists one (True when it lists none)."""
    theirs = option_letter(options, latex) if options else None
    return theirs is None or theirs == letter


def labelled_as_gold(latex: str, options: tuple[tuple[str, str], ...], text: str) -> bool:
    """Whether ``text`` is an option's label with the gold itself as its content (``(C) Tower
    of linearly-spaced masses, proportional to 1/R`` for that gold, whatever its type), the
    label the question's options give the gold where it lists them."""
    label = labelled(text)
    if label is None or not _normal_text(latex):
        return False
    letter, content = label
    return _normal_text(content.rstrip(".")) == _normal_text(latex) and _label_is_gold(
        letter, options, latex
    )


def _labelled_verdict(
    latex: str, kind: str, options: tuple[tuple[str, str], ...], text: str
) -> bool | None:
    """The verdict on an option label with its content against a text or boolean gold, or
    on a bare letter against a gold that is a label and its content; None for neither."""
    gold_label = _gold_label(latex) if kind == "text" else None
    label = labelled(text)
    if gold_label is not None:
        letter, content = gold_label
        if label is not None:
            return label[0] == letter and _normal_text(label[1]) == _normal_text(content)
        bare = strip_wrappers(text)
        if _BARE_LETTER_RE.fullmatch(bare):
            return bare == letter
        return True if _normal_text(text) == _normal_text(content) else None
    if label is None:
        return None
    letter, content = label
    if kind == "boolean":
        stated = boolean_of(content)
        if stated is None:
            return None
        same = stated == _BOOLEAN[strip_wrappers(latex).lower()]
    else:
        same = _normal_text(content) == _normal_text(latex)
    return same and _label_is_gold(letter, options, latex)


def typed_verdict(
    latex: str, kind: str, options: tuple[tuple[str, str], ...], text: str, prose: bool
) -> bool | None:
    """The verdict (True: correct) that the gold's type gives, or None to let math decide."""
    if kind == "boolean":
        stated = boolean_of(text)
        if stated is None:
            by_label = _labelled_verdict(latex, kind, options, text)
            if by_label is not None:
                return by_label
            return None if not prose else False
        return stated == _BOOLEAN[strip_wrappers(latex).lower()]
    if kind in ("choice", "choices"):
        if prose:  # "**Option A**: (1S,4R)-…": bold marks are no part of the letter
            text = text.replace("**", "").replace("__", "")
        text = _BRACKETED_LETTER_RE.sub(_latin_letter, text)  # "[B]和[C]", "(ب) و (ج)"
        text = _OPTION_WORD_RE.sub("", text.strip(), count=1)  # "option B", "choice (C)"
        lone = _LONE_LOWER_RE.fullmatch(text.strip())
        if lone is not None and options:  # "the answer is b" among options (A) … (D)
            text = lone.group(1).upper()
        elif kind == "choices" and _LOWER_LETTERS_RE.fullmatch(text.strip()):
            # "a, c" for the gold AC: several letters are options
            text = re.sub(r"\b[a-j]\b", lambda m: m.group(0).upper(), text)
        letters = leading_letters(text, letter_range(latex, options))
        if not letters and options:
            letter = option_letter(options, text)
            letters = frozenset(letter) if letter else frozenset()
        if not letters:
            return None if not prose else False
        if prose:  # "(D) tide pool and (E) intertidal zone": both options are chosen
            letters |= joined_labels(first_clause(text))
        return letters == frozenset(re.findall(r"[A-Z]", strip_wrappers(latex).upper()))
    if kind == "text":
        if _normal_text(text) == _normal_text(latex):
            return True
        if WORD_LIST_RE.fullmatch(strip_wrappers(latex)) and WORD_LIST_RE.fullmatch(
            strip_wrappers(text)
        ):  # "apple, banana, cherry, date" for "apple banana cherry date": the same words
            return _WORD_RE.findall(text.lower()) == _WORD_RE.findall(latex.lower())
        cells = _cells(latex)
        if cells is not None and (theirs := _cells(text.rstrip("."))) is not None:
            return theirs == cells  # a grid's cells against a grid's, row by row
        by_label = _labelled_verdict(latex, kind, options, text)
        if by_label is not None:
            return by_label
        return False if prose else None
    if kind == "decimal" and not prose:
        return rounds_to(latex, text)
    if kind == "brackets":  # ") ] >": the same brackets in the same order, spacing aside
        return _BRACKET_RE.findall(text.strip().rstrip(".")) == _BRACKET_RE.findall(latex) and not (
            _NOT_BRACKET_RE.search(text.strip().rstrip("."))
        )
    return None


#: the word that names an option before its letter: "option B", "choice (C)", "Choice_B"
_OPTION_WORD_RE = re.compile(
    r"^[*_]*(?:option|choice|الخيار|الاختيار|选项)(?:[ \t]+|[ \t]*[_-][ \t]*)?"
    r"(?=[*_]*[(\[（]?[A-Ja-j](?![A-Za-z\d]))",
    re.I,
)
#: the option letters of Arabic exams, (أ) (ب) (ج) (د), as A to D
_ARABIC_LETTERS = {"أ": "A", "ب": "B", "ج": "C", "د": "D"}
_BRACKETED_LETTER_RE = re.compile(r"[(\[（]([A-Jأبجد])[)\]）]|(?<![^\W\d_])([أبجد])\)")


def _latin_letter(match: re.Match[str]) -> str:
    """An option letter in brackets, as ``(A)``: ``[B]``, ``（C）``, ``(ب)``."""
    letter = match.group(1) or match.group(2)
    return f"({_ARABIC_LETTERS.get(letter, letter)})"


#: a lowercase option letter alone: "b", "b)", "(b)", "b."
_LONE_LOWER_RE = re.compile(r"[*_]*\(?([a-j])[).]?[*_]*\.?")
#: lowercase option letters listed: "a, c", "a and c"
_LOWER_LETTERS_RE = re.compile(r"[a-j](?:\s*(?:,|&|and|,\s*and)\s*[a-j])+\.?")
_OPTION_RE = re.compile(r"(?:^|[\s:：;；,，])\(?([A-Za-j])[).．.、:：]\s*")


#: an option's label written in LaTeX: AMC's ``\\textbf{(A) }``, ``\\text{A)}``, ``\\mathrm{(B)}``
_LATEX_LABEL_RE = re.compile(
    r"\\(?:textbf|text|textrm|mathrm|mathbf)\s*\{\s*(?:\(\s*([A-J])\s*\)|([A-J])\s*[).])\s*\}"
)
#: what lays LaTeX options out, not their content: spacing, alignment, row ends, math
#: delimiters and an align environment's bounds
_LATEX_LAYOUT_RE = re.compile(
    r"\\q?quad\b|\\(?:hspace|hfill|vspace)\s*(?:\{[^{}]*\})?|\\\\|\\[ ,;:]|&|\$"
    r"|\\(?:begin|end)\s*\{(?:align|aligned|array|tabular|gather)\*?\}(?:\{[^{}]*\})?"
)


def _latex_options_as_lines(text: str) -> str:
    """``text`` with options labelled in LaTeX (``$\\textbf{(A)}\\ 3 \\qquad \\textbf{(B)}\\ 4$``,
    an align of ``\\text{A)}\\ & 85 &``) written one to a line, ``(A) 3``, their layout
    removed; ``text`` itself when fewer than two labels are LaTeX."""
    first = _LATEX_LABEL_RE.search(text)
    if first is None or len(_LATEX_LABEL_RE.findall(text, first.end())) < 1:
        return text
    start = first.start()
    options = _LATEX_LABEL_RE.sub(lambda m: f"\n({m.group(1) or m.group(2)}) ", text[start:])
    return text[:start] + _LATEX_LAYOUT_RE.sub(" ", options)


def options_from_problem(problem: str | None) -> tuple[tuple[str, str], ...]:
    """The lettered options a problem lists (``(A) 550 (B) 570``, ``A. 1/6\\nB. 1/3``,
    ``(a) Color 1: …, (b) Color 2: …``, AMC's ``$\\textbf{(A)}\\ 550 \\qquad \\textbf{(B)}\\
    570$``): letters from A in order, at least two; else (). The ACT's second set, ``(F) (G)
    (H) (J) (K)`` (from F, without I), is read too."""
    if not problem:
        return ()
    tail = _latex_options_as_lines(problem[-3000:])
    marks = list(_OPTION_RE.finditer(tail))
    best: list[re.Match[str]] = []
    for start in range(len(marks)):
        run = [marks[start]]
        for m in marks[start + 1 :]:
            before, letter = run[-1].group(1).upper(), m.group(1).upper()
            if ord(letter) == ord(before) + 1 or (before, letter) == ("H", "J"):
                run.append(m)
        if run[0].group(1).upper() in ("A", "F") and len(run) > len(best):
            best = run
    if len(best) < 2:
        return ()
    out = []
    for i, m in enumerate(best):
        end = best[i + 1].start() if i + 1 < len(best) else len(tail)
        content = tail[m.end() : end].split("\n", 1)[0].strip().rstrip(",，;；")
        out.append((m.group(1).upper(), content[:200]))
    return tuple(out)
