"""A completion that is nothing but its answer: a grader's test pair, a terse model's reply.

``bare_answer`` is extraction's last resort (``sampler.verify.answers.extraction``), tried
on the whole completion after every other rule found nothing, and never on the text before
a run-on cut (where a first line such as "Sure!" is no answer). A completion of one line and
at most ``BARE_CHARS`` characters is read as:

- math, when it has no prose once LaTeX markup is set aside: an environment
  (``\\begin{pmatrix}1\\\\2\\end{pmatrix}``), a symbol without digits (``f'``, ``(x, t)``),
  a value with a ``\\text{}`` unit (``17\\text{ cm}``);
- words (``AnswerSpan.prose``), otherwise: ``\\text{east}``, ``odd``, ``dog``; the gold's type
  judges them (a text gold compares the words; a math gold calls them wrong: an answer was
  given, it is not math), when they are at most six words and no sentence: not about the
  model ("I give up."), the answer ("the answer is correct"), no negated number ("not 5 but
  7"), and not cut off ("… finish the").

It states nothing when it is empty, longer, on several lines, a refusal ("I don't know",
"not sure"), a generation's failure ("ran out of tokens", "timed out", "N/A"), a box (the
box rules read those), or cut off inside its LaTeX (unbalanced braces, ``\\frac{{{``, a
trailing ``\\``): those stay ``no_answer``.
"""

from __future__ import annotations

import re

from sampler.verify.answers.answer_span import AnswerSpan, latex_span
from sampler.verify.answers.final_statements import RULE_WHOLE, WORDS_SUFFIX, stated_value
from sampler.verify.answers.last_number import without_control
from sampler.verify.answers.plain_notation import NAMES
from sampler.verify.answers.step_labels import without_step_labels

#: the longest completion read whole as its answer
BARE_CHARS = 80

_ENVIRONMENT_RE = re.compile(r"\\(?:begin|end)\s*\{[A-Za-z*]{1,20}\}")
_COMMAND_RE = re.compile(r"\\[A-Za-z]+|\\.")
_TEXT_RE = re.compile(r"\\(?:text|textbf|textrm|textit|mathrm|mbox|operatorname)\s*\{([^{}]*)\}")
_WORD_RE = re.compile(r"(?<![A-Za-z])[A-Za-z]{3,}(?![A-Za-z])")
#: words that are math, not prose: function and constant names
_MATH_WORDS = NAMES | frozenset("mod gcd lcm max min det lim floor ceil infty".split())
#: what math is written with, once markup is set aside
_MATH_CHARS_RE = re.compile(r"[\w{}^()\[\]/*.+\-−,;=<>|!':√≤≥·×÷°&~%\s]+", re.ASCII)
_REFUSAL_RE = re.compile(
    r"\b(?:i\s+(?:do\s*n['o]?t|don't|dont|cannot|can't|can\s+not)\s+(?:know|tell|say|solve|answer"
    r"|help|determine)|(?:i'?m|i\s+am)\s+(?:not\s+sure|unsure|sorry)|not\s+sure|no\s+idea"
    r"|sorry|(?:ran|run|running)\s+out\s+of|out\s+of\s+(?:tokens|time)|truncated|cut\s+off"
    r"|max(?:imum)?\s+(?:tokens|length)|timed?\s*out|no\s+(?:response|output)|n/a)\b"
    r"|不知道|无法(?:回答|确定)",
    re.IGNORECASE,
)
#: words about the answer, not an answer ("no box here, the answer is correct")
_META_RE = re.compile(r"\b(?:answer|solution|box(?:ed)?|question|problem)s?\b|答案", re.IGNORECASE)
#: the most words a bare answer in words has (more is a sentence, not an answer)
_WORDS_MAX = 6
#: a sentence about the model or its work: no answer
_ABOUT_MODEL_RE = re.compile(r"\b(?:i|i'm|im|we|me|my|us|our|let's|think|guess)\b", re.IGNORECASE)
#: a negation or a qualification, no answer when the words hold a number ("not 5 but 7")
_QUALIFIED_RE = re.compile(r"\b(?:not|no|never|but|maybe|perhaps)\b|n't", re.IGNORECASE)
#: a last word that leaves the phrase open: cut off (lower case: a closing "A" is a letter)
_OPEN_END_RE = re.compile(
    r"\b(?:the|a|an|of|to|and|or|in|on|at|for|with|is|are|be|that|which|by|from)\W*$",
)


def _balanced(text: str) -> bool:
    depth = 0
    for i, char in enumerate(text):
        if text[i - 1 : i] == "\\":
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _without_markup(text: str) -> str:
    """``text`` with environments, ``\\text{}`` wrappers and command names set aside."""
    text = _ENVIRONMENT_RE.sub(" ", text)
    text = _TEXT_RE.sub(r" \1 ", text)
    return _COMMAND_RE.sub(" ", text)


def is_bare_math(text: str) -> bool:
    """Whether ``text`` is math alone once its LaTeX markup is set aside (no prose word)."""
    plain = _without_markup(text).replace("$", " ")
    return (
        bool(plain.strip())
        and _MATH_CHARS_RE.fullmatch(plain) is not None
        and all(w.group(0).lower() in _MATH_WORDS for w in _WORD_RE.finditer(plain))
    )


def bare_answer(text: str) -> AnswerSpan | None:
    """The completion as its own answer (module docstring), or None when it states none."""
    stripped = without_control(text).strip()  # "\x1b[31m" is no text
    if without_step_labels(stripped) != stripped:
        return None  # "Step 3: Concatenate the last letters.": a step of a plan
    if not stripped or len(stripped) > BARE_CHARS or "\n" in stripped:
        return None
    if _REFUSAL_RE.search(stripped) or not _balanced(stripped) or stripped.endswith("\\"):
        return None
    if "\\boxed" in stripped:
        return None
    if is_bare_math(stripped):
        return latex_span(stripped.strip("$ "), RULE_WHOLE)
    unwrapped = " ".join(_TEXT_RE.sub(r" \1 ", stripped).split())
    value = stated_value(unwrapped)  # "17\text{ cm}": the value, its unit words dropped
    if value is not None:
        return latex_span(value, RULE_WHOLE)
    words = unwrapped.strip("*_ ").strip()
    if not words or len(words.split()) > _WORDS_MAX or "\\boxed" in words:
        return None
    if _META_RE.search(words) or _ABOUT_MODEL_RE.search(words) or _OPEN_END_RE.search(words):
        return None
    if _QUALIFIED_RE.search(words) and re.search(r"\d", words):
        return None
    return AnswerSpan(words, rule=RULE_WHOLE + WORDS_SUFFIX, prose=True)
