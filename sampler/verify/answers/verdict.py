"""Plain data passed between verification's parent process and its workers.

Kept free of math-verify and sympy, so that the parent (which only extracts,
deduplicates and schedules) never loads them; only the workers do. The one
verdict the parent gives itself is integer against integer
(``integer_verdict``), where math-verify's answer is known exactly: equal values.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from sampler.store import STATUS_CORRECT, STATUS_INCORRECT
from sampler.verify.answers.amounts import amount_value, in_scale, same_number
from sampler.verify.answers.answer_forms import (
    answer_form,
    arithmetic_result,
    dot_thousands,
    without_condition,
)
from sampler.verify.answers.boxed_derivation import derivation_conclusion
from sampler.verify.answers.clock import gold_time
from sampler.verify.answers.comparisons import compared_value
from sampler.verify.answers.extraction import RULE_GOLD_VERBATIM, AnswerSpan
from sampler.verify.answers.final_statements import QUOTES, RULE_OPTION_LINE
from sampler.verify.answers.float_repr import without_float_noise
from sampler.verify.answers.foreign_options import as_latin_option, circled_option
from sampler.verify.answers.gold_types import boolean_of, labelled, labelled_content
from sampler.verify.answers.golds import (
    DECIMAL_COMMA_RE,
    Gold,
    answer_choice,
    choice_letter,
    expand_scientific,
    joined_values,
    option_label,
    split_top_level,
    without_sizing,
    without_stray_backslash,
    without_wrapper_spacing,
)
from sampler.verify.answers.integrals import (
    integral_value,
    natural_logs,
    without_integration_constant,
)
from sampler.verify.answers.keyed_answer import keyed_answer
from sampler.verify.answers.last_number import (
    RULE_LAST_NUMBER,
    only_value,
    value_after_is,
    value_before_remark,
    without_ordinal,
)
from sampler.verify.answers.named_quantities import asked_value, word_named_value
from sampler.verify.answers.named_values import named_value, named_values_in
from sampler.verify.answers.number_words import fraction_from_words, number_from_words
from sampler.verify.answers.parse_depth import braced
from sampler.verify.answers.partial_math import joined_math, words_outside_commands
from sampler.verify.answers.plain_notation import (
    plain_to_latex,
    python_matrix,
    sympy_solution,
)
from sampler.verify.answers.preference_verdicts import stated_preference
from sampler.verify.answers.repeating_decimal import repeating_to_fraction
from sampler.verify.answers.unicode_math import ascii_digits, unicode_to_latex
from sampler.verify.answers.units import (
    CJK_LETTERS,
    converted,
    has_unit_notation,
    split_unit,
    unit_notation,
)
from sampler.verify.answers.yes_no_statements import called_boolean, statement_polarity

#: Longest normalised answer stored; longer ones are cut (they still group together).
MAX_ANSWER_CHARS = 500
#: The reason stored with status ``no_gold``.
NO_GOLD_DETAIL = "question has no gold answer"


@dataclass(frozen=True)
class VerifyTask:
    """One distinct pair to verify: the gold and the extracted answer (unit removed).

    ``verifier`` names the verifier that judges it in a worker; for any but ``math``,
    ``gold`` is that verifier's own gold object (``sampler.verify.verifiers``).
    """

    gold: Gold
    span: AnswerSpan
    verifier: str = "math"


@dataclass(frozen=True)
class Verdict:
    """The outcome for one (gold, answer) pair: a status, the normalised answer, a reason,
    and a partial score where the verifier gives one (Reasoning Gym)."""

    status: str
    answer: str | None = None
    detail: str | None = None
    score: float | None = None

    @property
    def correct(self) -> bool:
        return self.status == STATUS_CORRECT


#: GSM8K's hash marks before (and after) a value: "#### 25", "#11#"
_HASHES_RE = re.compile(r"#{1,4}[ \t]*([^#\s][^#]*?)[ \t]*#{0,4}")
_BOLD_WRAPPERS = ("\\boldsymbol", "\\mathbf", "\\bm", "\\pmb")
_BOLD_OPEN_RE = re.compile(r"\\(?:boldsymbol|mathbf|bm|pmb)\s*\{")


def _bold_inner(text: str) -> str | None:
    """What a bold wrapper around the whole answer holds (``\\boldsymbol{…}``, ``\\bm{…}``,
    braces inside it balanced), or None when the wrapper is not the whole answer."""
    match = _BOLD_OPEN_RE.match(text)
    group = braced(text, match.end() - 1) if match is not None else None
    return group[0].strip() if group is not None and group[1] == len(text) else None


#: a gold that may be an option's number (1 to 10), and an answer that is a numbered option
#: with its content ("2: 16", "4번: …", the Korean CSAT's "N: choice" format)
_OPTION_NUMBER_GOLD_RE = re.compile(r"[1-9]|10")
_NUMBERED_CHOICE_RE = re.compile(r"[ \t*]*([1-9]|10)(?:번)?[ \t*]*[:：)][ \t]+\S")


def prepare_span(span: AnswerSpan, gold: Gold) -> AnswerSpan:
    """``span`` in the form leash compares, so that equal answers are one answer.

    ``1e-3`` becomes ``1\\times10^{-3}``; ``1 和 3`` becomes ``1, 3`` and ``\\mathrm{~N}``
    ``\\mathrm{N}`` (as the gold's are, ``golds``); against a multiple-choice gold, ``(D) (2,0)``
    becomes ``D``, and so does ``D) content`` whose content is the question's option D; of
    several named values (``k = -2, q = -4``) the one the question asks for
    (``Gold.asked``); words in a box (``\\boxed{\\text{The answer is 5}}``) are read as
    words; a number in words ("forty-three") against a gold that is no text is the
    integer, and words that hold one value (``last_number.only_value``) that value; a
    trailing unit is removed when the gold has none or the same one
    (``5 km`` and ``5`` are one answer). A unit other than the gold's stays, and
    ``judge`` calls the answer incorrect; so does ``am``/``pm`` against a time of day
    (``sampler.verify.answers.clock`` compares the times). A closing statement answers a
    yes/no question's boolean gold (``yes_no_statements``). An amount is its signed, scaled
    value (``-$17,572 million``; a bare number in a scaled gold's scale, ``amounts``); a unit
    of the gold's dimension is converted to the gold's (``120 mm`` for ``12 cm``); values a
    sentence names one after another are the pair a tuple gold is (``x = 5 and y = 3``); a
    closing option line's content answers a question that lists no options (``B) 12 km``); a
    float a program printed with its rounding error is the number it stands for
    (``803.0000000000001`` is 803, ``float_repr``); a bold wrapper around the whole answer
    (``\\boldsymbol{\\frac{1}{2}}``) is dropped. A JSON object is the gold's when its
    fields and values are, in any order and case (``same_json_object``). Against a choice
    gold, an option label of another script (``**ب**``, ``б)``) is its Latin letter
    (``foreign_options``). A completion that is the gold word for word stays as it is. A
    judge's preference (``[[B>>A]]``, ``A<B``) is written as the gold's (``B>A``,
    ``preference_verdicts``).
    """
    if span.rule == RULE_GOLD_VERBATIM:
        return span
    if gold.integral and not span.prose and not span.free_text:
        value = integral_value(span.text)
        if value is not None:  # "\\int_1^e \\log x \\, dx = 1": the integral's value
            span = replace(span, text=value)
        bare = without_integration_constant(span.text)
        if bare is not None:  # "\\tanh x + C": an antiderivative, up to its constant
            span = replace(span, text=bare)
        span = replace(span, text=natural_logs(span.text))  # calculus's log is ln
    if span.text.lstrip("` ").startswith("{") and (keyed := keyed_answer(span.text)) is not None:
        span = AnswerSpan(keyed, rule=span.rule)  # "{'1': ['A']}": the answer its one entry holds
    if (
        "$" in span.text
        or span.text.endswith(("\\)", "\\]"))
        or span.text.startswith(("\\(", "\\["))
    ):
        joined = joined_math(span.text)
        if joined is not None and (
            not span.prose or not words_outside_commands(joined)
        ):  # "15$\pi$", "80 $\text{cm}$", "\$70": one value, its math delimited in part
            span = replace(span, text=joined, prose=False, free_text=False)
    if not span.text.isascii() and (circled := circled_option(span.text)) is not None:
        span = AnswerSpan(circled, rule=span.rule)  # "답: ②", "③번이다": the option's number
    if _OPTION_NUMBER_GOLD_RE.fullmatch(gold.latex) and not gold.parts:
        numbered = _NUMBERED_CHOICE_RE.match(span.text)
        if numbered is not None:  # "2: 16", "2번: …" for the gold 2: option 2 and its content
            span = AnswerSpan(numbered.group(1), rule=span.rule)
    if ">" in gold.latex or "=" in gold.latex:
        preference = stated_preference(span.text, gold.latex)
        if preference is not None:  # "[[B>>A]]" for the gold "B>A": B preferred, as the gold
            return AnswerSpan(preference, rule=span.rule)
    if gold.kind == "choice" and not span.text.isascii():
        foreign = as_latin_option(span.text)
        if foreign is not None:  # "**ب**" for the gold "ب) سارا …": option B
            return AnswerSpan(foreign[0], rule=span.rule)
    if not span.prose and not span.free_text and not span.text.isascii():
        digits = ascii_digits(span.text)
        if digits != span.text:  # "\\boxed{২৫,০০০}": Bengali digits and a thousands comma
            span = replace(span, text=digits)
    if not span.free_text and span.text.startswith("#"):
        hashed = _HASHES_RE.fullmatch(span.text)
        if hashed is not None:  # "\\(#### 25\\)" read as math: GSM8K's marks, then 25
            span = replace(span, text=hashed.group(1), prose=False)
    label = option_label(span.text) if not span.free_text and span.text[:1] in "OoCc" else None
    if label is not None:
        span = AnswerSpan(label, rule=span.rule)  # "\\boxed{Option 1}": the option's label
    if not span.prose and not span.free_text and span.text.startswith(_BOLD_WRAPPERS):
        inner = _bold_inner(span.text)
        if inner is not None:  # "\boldsymbol{\dfrac{\sqrt{6}}{3}}": bold, not math
            span = replace(span, text=inner)
    if not span.prose and not span.free_text and has_unit_notation(span.text):
        span = replace(span, text=unit_notation(span.text))  # "m/s²", "700°C": LaTeX's spelling
    if not span.prose and not span.free_text and "\\text" in span.text:
        unconditional = without_condition(span.text, gold.latex)
        if unconditional != span.text:  # "A = \frac{1}{4-\omega^2}, \quad \text{for } …"
            span = replace(span, text=unconditional)
    if span.prose and gold.kind == "" and " " not in span.text.strip():
        # "ff" printed for the base-16 gold ff; "la" in quotes for the gold la, also "la."
        if span.text.strip().strip(QUOTES).rstrip(".").strip(QUOTES) == gold.latex.strip():
            return AnswerSpan(gold.latex.strip(), rule=span.rule)
    if gold.latex.lstrip().startswith("{") and same_json_object(gold.latex, span.text):
        # '{"Sport": ["Soccer", "Cricket"], …}' for '{"Hobby": …, "Sport": ["soccer",
        # "cricket"]}': a puzzle's JSON answer, its fields in any order, its words in any case
        return AnswerSpan(gold.latex.strip(), rule=span.rule)
    if gold.kind in ("", "text") and same_short_answer(gold.latex, span.text):
        # "Beauty and the Beast" for HotpotQA's "beauty and beast", "February 14, 1859" for
        # "february 14 1859": a question-answering gold's exact match, as SQuAD normalises it
        return AnswerSpan(gold.latex.strip(), rule=span.rule)
    if gold.kind == "boolean":
        statement = span.last_statement or span.sentence or (span.text if span.prose else None)
        if statement and boolean_of(statement) is None:
            polarity = statement_polarity(statement, gold.yes_no_words)
            if polarity is None and span.prose:
                polarity = called_boolean(statement)  # "… the final result is: True"
            if polarity is not None:  # "Therefore, 1232 is a multiple of 7." for "Is 1232 …?"
                return AnswerSpan("Yes" if polarity else "No", rule=span.rule, prose=True)
    sentence = span.sentence or (span.text if span.prose else None)
    if sentence and not gold.parts and _TUPLE_GOLD_RE.fullmatch(gold.latex):
        named = named_values_in(sentence)
        if len(named) == len(split_top_level(gold.latex.strip()[1:-1])):
            # "So x = 5 and y = 3." for the gold (5, 3): the pair the sentence names
            return prepare_span(AnswerSpan(", ".join(named), rule=span.rule), gold)
    if sentence and not gold.parts and _NUMBER_LIST_GOLD_RE.fullmatch(gold.latex):
        stated = [
            ("-" if m["sign"] else "") + m["n"].replace(",", "")
            for m in _STATED_NUMBER_RE.finditer(sentence)
        ]
        if len(stated) == gold.latex.count(",") + 1 and span.text.strip() in stated:
            # "Therefore, Evan is 8 years old, and Cody is 16 years old." for the gold "8.0,
            # 16.0" (DRAW's unknowns): the values the sentence states, a list as the gold's
            return prepare_span(AnswerSpan(", ".join(stated), rule=span.rule), gold)
    if gold.compared and gold.kind in ("", "decimal"):
        compared = compared_value(span.sentence or span.text, gold.compared)
        if compared is not None:  # "So 0.3 is bigger than 2/7." for "Which is bigger: …?"
            return prepare_span(AnswerSpan(compared, rule=span.rule), gold)
    if sentence and (gold.asked_words or gold.asked) and gold.kind in ("", "decimal"):
        picked = asked_value(sentence, gold.asked_words, gold.asked)  # none for a multi-part gold
        if (
            picked in gold.given
            and picked != span.text
            and (not span.prose or only_value(sentence, gold.given) not in (None, picked))
        ):
            # "After getting 20 more marbles, she has 270 marbles." read as 270: 20 was given
            # ("Therefore, after 15 days, Ryan has 25 flowers …" as words too: 25)
            picked = None
        if picked is not None:  # "The area is 12 and the perimeter is 14." asked the area
            span = AnswerSpan(picked, rule=span.rule)
    if (
        span.sentence
        and (span.rule or "").startswith(RULE_LAST_NUMBER)
        and gold.given
        and gold.kind in ("", "decimal")
        and not gold.parts
    ):
        new_value = only_value(span.sentence, gold.given)
        if new_value is not None:  # "Tom has 7 apples left after giving away 5 apples.": 7
            span = AnswerSpan(new_value, rule=span.rule)
    if not span.prose and not span.free_text and "\\" in span.text:
        conclusion = derivation_conclusion(span.text)
        if conclusion is not None:  # "\boxed{\sqrt{100-x}=9 \Rightarrow x=19}": what it concludes
            span = AnswerSpan(conclusion[0], rule=span.rule, prose=conclusion[1])
    if not span.prose and not span.free_text:
        words = _boxed_words(span.text)
        if words is not None:  # ``\boxed{\text{The answer is 5}}``, ``\boxed{five}``: words
            span = AnswerSpan(words, rule=span.rule, prose=True)
    if gold.kind == "choice" and _BULLET_RE.match(span.text):
        # "the correct answer is:\n\n- C. 2.08% Per Year": a list's bullet, not a minus
        span = replace(span, text=_BULLET_RE.sub("", span.text, count=1))
    label = labelled(span.text) if gold.kind == "choice" and gold.options else None
    if label is not None and labelled_content(span.text, gold.options) is not None:
        # "A) Rocks are made of one or more minerals." where the question lists that option A:
        # its letter (the words of its content, "or", an article "A", choose nothing more)
        return AnswerSpan(label[0], rule=span.rule)
    if span.prose and gold.options and gold.kind in ("", "decimal") and not gold.parts:
        content = labelled_content(span.text, gold.options)
        if content is not None:  # "(D) May '21" for the gold May '21: the option's content
            return prepare_span(AnswerSpan(content), gold)
    if span.prose and not gold.options and gold.kind == "" and not gold.parts:
        label = labelled(span.text)
        if label is not None and span.rule and span.rule.startswith(RULE_OPTION_LINE):
            # "B) 12 km" closing a completion whose question lists no options: its content
            return prepare_span(AnswerSpan(label[1].strip()), gold)
    if span.prose and gold.kind in ("", "decimal") and not gold.parts:
        number = number_from_words(span.text)
        if number is not None:  # "forty-three" against a numeric gold
            return AnswerSpan(str(number), rule=span.rule)
        fraction = fraction_from_words(span.text)
        if fraction is not None:  # "three quarters", "one half"
            return AnswerSpan(fraction, rule=span.rule)
        value = (
            only_value(span.text, gold.given)
            or value_after_is(span.text)
            or value_before_remark(span.text)  # "6, with 2 students left over"
        )
        if value is not None:  # "每份应该是 (\frac{2}{5}) 吨": the one value the words hold
            return AnswerSpan(value, rule=span.rule)
    if span.free_text or span.prose:
        return span
    label = _ANSWER_LABEL_RE.match(span.text)
    if label is not None and label.end() < len(span.text):
        # "$$ Answer: \$294 $$", "\[\text{Answer:} \, 300\]": the label inside the math
        span = AnswerSpan(span.text[label.end() :].strip(), rule=span.rule)
    if not gold.parts and "," not in gold.latex and DECIMAL_COMMA_RE.fullmatch(span.text.strip()):
        # "\boxed{26,00}" for the gold 26: a decimal comma (a gold with a comma is a list)
        span = AnswerSpan(span.text.strip().replace(",", "."), rule=span.rule)
    plain = without_float_noise(span.text)
    if plain != span.text:  # "803.0000000000001", a float a program printed: 803
        span = AnswerSpan(plain, rule=span.rule)
    thousands = dot_thousands(span.text, gold.latex) if "." in span.text else None
    if thousands is not None:  # "$57.500" for the gold 57500: dots group the thousands
        span = AnswerSpan(thousands, rule=span.rule)
    amount = amount_value(span.text)
    if (
        amount is not None
        and gold.scale is not None
        and gold.mantissa is None
        and gold.unit is None
        and in_scale(amount, gold.scale, gold.latex)
    ):
        # "$16,525 million" for the gold 16525 of a question "… (in USD millions)?"
        return AnswerSpan(gold.latex, rule=span.rule)
    if amount is not None and (amount.scaled or gold.unit is None):
        # "\$2.9\text{ million}", "-€462": the signed number times its scale
        span = AnswerSpan(amount.value, rule=span.rule)
    if gold.mantissa is not None and same_number(span.text, gold.mantissa):
        # "2.9" for the gold "2.9 million": stated in the gold's scale
        return AnswerSpan(gold.latex, rule=span.rule)
    text = sympy_solution(span.text)  # "{x: 2, y: 3}" is x = 2, y = 3
    if "matrix}" in gold.latex:
        text = python_matrix(text)  # "[[1, 2], [3, 4]]" is a pmatrix
    text = repeating_to_fraction(unicode_to_latex(text))  # 0.\overline{3} is \frac{1}{3}
    if "=" in text and "=" not in gold.latex:
        text = arithmetic_result(text)  # "51484185 - 65752551 = **-14268366**": its result
    text = plain_to_latex(without_stray_backslash(text))  # "pi/2" is \pi/2
    text = without_wrapper_spacing(joined_values(text))  # "1 和 3" is 1, 3; \mathrm{~N} is N
    text = without_sizing(text)  # "\Bigl(x+1\Bigr)" is (x+1), "y(x) \sim x" is y(x) \approx x
    if without_ordinal(gold.latex) == gold.latex:
        text = without_ordinal(text)  # "5^{\\mathrm{th}}" is 5 (unless the gold writes one too)
    text = expand_scientific(text)
    if gold.asked and not gold.parts and "=" in text and "=" not in gold.latex:
        value = named_value(split_top_level(text), gold.asked)
        if value is not None:  # "k = -2, q = -4" when the question asks for q
            text = value
    if gold.asked_words and not gold.parts and "=" in text and "=" not in gold.latex:
        value = word_named_value(split_top_level(text), gold.asked_words)
        if value is not None:  # "adults = 15, children = 10" for "How many child tickets …?"
            text = value
    if not gold.parts and not choice_letter(gold.latex):
        text = answer_form(text, gold.latex)
        text = list_brackets_as_gold(text, gold.latex)
    if not gold.parts:
        letter = answer_choice(text) if choice_letter(gold.latex) else None
        if letter is not None:
            text = letter
        elif gold.options and re.fullmatch(r"\s*\(?[A-J]\)?\s*", text):
            # a letter for a value gold: the option's content (the question lists them)
            chosen = dict(gold.options).get(text.strip().strip("()"))
            if chosen and not re.fullmatch(r"\s*\(?[A-J]\)?\s*", chosen):
                # the content in the form an answer is compared in (``50°`` is ``50^\circ``)
                return prepare_span(AnswerSpan(chosen.strip()), gold)
        else:
            value, unit = split_unit(text, gold.variables)
            clock = unit in ("am", "pm") and gold_time(gold.latex, gold.unit) is not None
            # an option letter's gold keeps the answer's unit: "60 mm" is not "(A) 60 cm"
            by_option = bool(gold.options) and choice_letter(gold.latex) is not None
            same_unit = gold.unit is None or unit == gold.unit
            if unit is not None and same_unit and not clock and not by_option:
                text = value
            elif unit is not None and gold.unit is not None:
                text = converted(value, unit, gold.unit) or text  # "120 mm" for "12 cm": 12
    return span if text == span.text else AnswerSpan(text, span.free_text)


#: a list item's bullet before an answer: "- C. 2.08%", "* (B)", "• D"
_BULLET_RE = re.compile(r"\s*[-*•][ \t]+(?=[*_]{0,2}\(?[A-J]\b)")
_BRACKETED_RE = re.compile(r"\s*\[(?P<x>[^\[\]]*)\]\s*")
_PARENTHESISED_RE = re.compile(r"\s*\((?P<x>[^()]*)\)\s*")
#: an answer label that opens a math span: ``Answer: 5``, ``\text{Final Answer:} \, 5``
_ANSWER_LABEL_RE = re.compile(
    r"\s*(?:\\text(?:bf|rm)?\s*\{\s*)?(?:final\s+)?answer\s*[:：]\s*\}?(?:\s|\\[,;: !]|~)*",
    re.IGNORECASE,
)
#: a gold that is a tuple: ``(5, 3)``
_TUPLE_GOLD_RE = re.compile(r"\s*\([^()]*,[^()]*\)\s*")


#: a short answer in words as question-answering golds write it: letters, digits, spaces and
#: light punctuation, no math marks (``Geneva, Switzerland``, ``79 A.D.``, ``play-by-post``)
_SHORT_ANSWER_RE = re.compile(r"[\w .,;:'’&!?\"“”。！？、-]{1,200}")
_WORD_OF_TWO_RE = re.compile(r"[^\W\d_]{2,}")
#: punctuation not between two digits (``2.5`` keeps its point, ``14, 1859`` loses its comma)
#: and no sign before a digit (``-5`` is not ``5``)
_LOOSE_PUNCTUATION_RE = re.compile(r"[-+−](?!\d)|(?<!\d)[^\w\s+−-]|[^\w\s+−-](?!\d)")
_ARTICLE_RE = re.compile(r"\b(?:a|an|the)\b")


#: a gold that lists plain numbers: ``8.0, 16.0``, ``-2, 3`` (a comma and a space: "54,000"
#: is one number)
_NUMBER_LIST_GOLD_RE = re.compile(r"[ \t]*-?\d+(?:\.\d+)?(?:[ \t]*,[ \t]+-?\d+(?:\.\d+)?)+[ \t]*")
#: a number a sentence states, its sign kept and a price's sign dropped: "$35", "-0.18",
#: "1,200"
_STATED_NUMBER_RE = re.compile(
    r"(?<![\w.])(?P<sign>[-−]?)\$?(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w.]|\.\d)"
)


def same_short_answer(gold: str, answer: str) -> bool:
    """Whether an answer in words is a gold in words up to case, punctuation and articles,
    as SQuAD's and HotpotQA's exact match normalise them (``The Shins`` for ``shins``); both
    plain text of a word of two letters or more, no math marks, so that ``x+1`` and ``x-1``
    stay apart, and a decimal point between digits counts (``2.5 km`` is not ``25 km``)."""
    plain = _SHORT_ANSWER_RE.fullmatch(gold.strip()) and _SHORT_ANSWER_RE.fullmatch(answer.strip())
    if not plain or not _WORD_OF_TWO_RE.search(gold):
        return False
    return _short_normal(gold) == _short_normal(answer)


def same_json_object(gold: str, answer: str) -> bool:
    """Whether ``answer`` and ``gold`` are one JSON object (a logic puzzle's answer: ``{"Food":
    ["grapes", "raspberry"], …}``) with the same fields, in any order, whose strings are
    equal up to case and spacing; lists stay ordered. False when either is no object."""
    if not answer.lstrip().startswith("{"):
        return False
    try:
        expected, stated = json.loads(gold), json.loads(answer)
    except (ValueError, RecursionError):
        return False
    if not isinstance(expected, dict) or not isinstance(stated, dict):
        return False
    return _json_normal(expected) == _json_normal(stated)


def _json_normal(value: object) -> object:
    if isinstance(value, dict):
        return {" ".join(str(k).casefold().split()): _json_normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_normal(v) for v in value]
    if isinstance(value, str):
        return " ".join(value.casefold().split())
    return value


#: the ending that makes a noun a statement in Japanese, Chinese and Korean ("増加した" is the
#: noun "増加" stated, "增加了", "증가했다"); a negative ending ("増加しなかった") is none of these
_CJK_ENDING_RE = re.compile(
    r"(?<=[\u3400-\u9fff\uac00-\ud7af])(?:しました|した|しています|している|します|する|でした"
    r"|です|である|だ|了|했습니다|했다|하였다|함|됐다|되었다|입니다)[。.!！]?\Z"
)


def _short_normal(text: str) -> str:
    if not text.isascii():
        text = _CJK_ENDING_RE.sub("", text.strip())  # "増加した" for the gold "増加"
    text = _LOOSE_PUNCTUATION_RE.sub("", text.lower())
    return " ".join(_ARTICLE_RE.sub(" ", text).split())


def list_brackets_as_gold(text: str, gold: str) -> str:
    """A list answer with the brackets the gold's list has: ``[-2, 2]`` (Python's list)
    for the gold ``-2, 2`` is ``-2, 2``, and ``3, 5`` for the gold ``[3, 5]`` is ``[3, 5]``,
    so that a list is never read as an interval on one side only. A tuple of three values or
    more (``(30, 120, 30)``, no interval) for an unbracketed gold list is that list too."""
    mine, theirs = _BRACKETED_RE.fullmatch(text), _BRACKETED_RE.fullmatch(gold)
    tuple_ = _PARENTHESISED_RE.fullmatch(text)
    if tuple_ is not None and not gold.strip().startswith(("(", "[", "\\{", "\\left")):
        values = split_top_level(tuple_.group("x"))
        if len(values) >= 3 and len(values) == len(split_top_level(gold)):
            return tuple_.group("x").strip()
    if mine is not None and theirs is None and len(split_top_level(gold)) > 1:
        if len(split_top_level(mine.group("x"))) == len(split_top_level(gold)):
            return mine.group("x").strip()
    if theirs is not None and tuple_ is not None:
        listed, written = split_top_level(theirs.group("x")), split_top_level(tuple_.group("x"))
        if len(listed) == len(written) > 1 and not _ascending_pair(listed):
            # "(5, 5)" for the gold "[5, 5]" (a Python list, no interval: three values or more,
            # or two not in ascending order): the same values in the same order
            return f"[{tuple_.group('x').strip()}]"
    if theirs is not None and mine is None and len(split_top_level(text)) > 1:
        if len(split_top_level(text)) == len(split_top_level(theirs.group("x"))):
            return f"[{text.strip()}]"
    return text


def _ascending_pair(values: list[str]) -> bool:
    """Whether ``values`` are two numbers, the first the smaller: what an interval has."""
    if len(values) != 2:
        return False
    try:
        low, high = (float(v.strip().replace("−", "-")) for v in values)
    except ValueError:
        return True  # "[a, b]", "[-\\infty, 3]": an interval may be written so
    return low < high


def _boxed_words(text: str) -> str | None:
    """The words an answer is, when it is words (several in a ``\\text{}`` wrapper, or a
    number word alone, ``five``), else None."""
    wrapped = _BOXED_WORDS_RE.fullmatch(text)
    inner = " ".join((wrapped.group(1) if wrapped else text).split())
    if wrapped is not None and re.search(r"[A-Za-z]{2,}\s+\S", inner):
        return inner
    if wrapped is not None and len(_CJK_RE.findall(inner)) >= 2 and re.search(r"\d", inner):
        return inner  # "\boxed{\text{奶糖有 12 块}}": a sentence
    if re.fullmatch(r"[A-Za-z][A-Za-z -]{2,40}", inner) and number_from_words(inner) is not None:
        return inner
    words = len(_PROSE_WORDS_RE.findall(inner)) + len(_CJK_RE.findall(inner))
    if wrapped is None and words >= 2 and _BOXED_PROSE_RE.fullmatch(inner):
        if len(re.findall(r"\d+(?:[.,]\d+)*", inner)) == 1:
            return inner  # "\boxed{Seth is 16 years old}", "\boxed{10 miles per hour}": words
    return None


#: a box that holds plain words (of any of these scripts) and one number, no LaTeX or relation
_BOXED_PROSE_RE = re.compile(rf"[A-Za-z0-9 ,.'/$%\u3000-\u303f{CJK_LETTERS}\uff01-\uff5e-]{{2,80}}")
_CJK_RE = re.compile(rf"[{CJK_LETTERS}]")
_PROSE_WORDS_RE = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}(?![A-Za-z])")


_INTEGER_RE = re.compile(r"-?\d{1,60}")
#: an answer that is words in one ``\text{}``-like wrapper
_BOXED_WORDS_RE = re.compile(
    r"\s*\\(?:text|textbf|textrm|mbox|mathrm)\s*\{([^{}$]{1,200})\}\s*\.?\s*"
)


def integer_verdict(gold: Gold, span: AnswerSpan) -> Verdict | None:
    """The verdict when gold and answer are both plain integers (``-?digits``), else None.

    math-verify parses both to sympy Integers (leading zeros and the sign of zero
    dropped) and compares them exactly; this does the same without parsing.
    ``bench/verify_speed.py`` and the tests check it agrees with math-verify.
    """
    if gold.parts or span.free_text:
        return None
    if not (_INTEGER_RE.fullmatch(gold.latex) and _INTEGER_RE.fullmatch(span.text)):
        return None
    value = int(span.text)
    status = STATUS_CORRECT if value == int(gold.latex) else STATUS_INCORRECT
    return Verdict(status, str(value))
