"""Find the final answer in a completion, by configurable strategies, per benchmark and model.

Strategies (tried in the order given, the first that finds something wins):

- ``boxed`` (default): the final answer of a boxed completion (``final_boxed``): the last
  ``\\boxed{...}``, or the closing run of boxes joined only by connectives, read as one
  list answer; a "final answer is ..." statement or an ``<answer>...</answer>`` pair after
  the last box wins;
- ``stated`` (default, after ``boxed``): a final answer stated without a box
  (``#### 5``, ``Final answer: **73**``, "the answer is \\[\\frac{207}{64}\\]", "Thus, Jean
  can fill **14** bags."), only when it is math (``sampler.verify.answers.final_statements``);
  an ``<answer>...</answer>`` pair (R1-style and GRPO format prompts; ``<solution>`` and
  ``<final_answer>`` pairs alike, as agent protocols such as MINT's propose a solution) is
  read unless a statement ends after it;
  when nothing else is found, a completion of one short line is its own answer
  (``sampler.verify.answers.bare_answer``: ``f'``, ``\\text{east}``, a bare ``pmatrix``);
- ``tool_output`` (default, last): the one-line result of a closing ```` ```output ````
  block (tool-integrated reasoning), of a plain fenced block after a code block, of output
  tags that close the completion (``<llm-code-output>``), or of a notebook's echo
  (``sampler.verify.answers.tool_transcript``);
- ``answer_line``: ``stated``, else the last line such as ``Answer: 42`` or ``Final
  Answer: The final answer is $42$. I hope it is correct.``, read as free text when it is
  prose;
- ``answer_tags``: the last ``<answer>...</answer>`` (or ``<ans>``, ``<solution>``,
  ``<final_answer>``) alone, wherever it is;
- ``hashes``: the last ``#### X`` line alone (GSM8K's format; its preset reads it first);
- ``after_think``: what follows the last ``</think>`` (its last ``\\boxed{}`` if any,
  else the whole tail read by math-verify as free text); nothing if the model never
  closed its thinking.

Before any strategy, a completion that runs on (answers, then invents a new problem
and answers that; ``sampler.verify.answers.run_on``) is cut where the invented problem
starts. The span's ``rule`` records which rule found the answer (``RULES``).

Extraction is string work done in the main process, in time linear in the text (a
72 KB completion looping ``\\boxed{x `` or ``<answer>`` takes milliseconds), so that no
input can hold it longer than the per-answer deadline; its result, an ``AnswerSpan``,
is what verification deduplicates and parses. The chosen
``ExtractionConfig`` is stored in the results manifest so that reruns extract the
same way.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sampler.errors import LeashError
from sampler.latex_boxed import final_box_run
from sampler.verify.answers.afterword import (
    ends_unexecuted,
    states_result,
    without_afterword,
    without_closing_code,
)
from sampler.verify.answers.answer_span import AnswerSpan, latex_span
from sampler.verify.answers.assignment_lists import (
    assignments,
    closing_assignments,
    gold_assignments,
)
from sampler.verify.answers.bare_answer import bare_answer
from sampler.verify.answers.calculator_notes import without_calculator_notes
from sampler.verify.answers.calendar_dates import calendar_date, last_date
from sampler.verify.answers.choice_statements import copula_letter, letter_beside
from sampler.verify.answers.closing_sentence import (
    RULE_ANSWER_HEADING,
    RULE_CLOSING_STATEMENT,
    RULE_CONCLUSION,
    RULE_JSON,
    RULE_YES_NO,
    located_final,
)
from sampler.verify.answers.end_tokens import (
    without_closing_think,
    without_end_tokens,
    without_stray_dollar,
    without_trailing_debris,
)
from sampler.verify.answers.escaped_text import as_written
from sampler.verify.answers.final_statements import (
    RULE_ANSWER_LINE,
    RULE_BOLD,
    RULE_BOLD_FINAL,
    RULE_CLOSING_OPTION,
    RULE_FEW_SHOT,
    RULE_FINISH,
    RULE_HASHES,
    RULE_MARKER,
    RULE_NAMED_ANSWER,
    RULE_OPTION_LINE,
    RULE_STATEMENT,
    RULE_TOOL_OUTPUT,
    RULE_WHOLE,
    closing_output,
    found_finals,
    hash_line,
    introduced_option,
    opening_final,
    weighed_option,
)
from sampler.verify.answers.foreign_options import as_latin_option
from sampler.verify.answers.gold_types import boolean_of
from sampler.verify.answers.last_number import RULE_LAST_NUMBER
from sampler.verify.answers.loops import looping
from sampler.verify.answers.named_alternatives import (
    agreed_pick,
    picked_alternative,
    scored_pick,
    verdict_sentences,
)
from sampler.verify.answers.named_quantities import (
    negated_as_asked,
    restated_count,
    restated_subject,
)
from sampler.verify.answers.negated_labels import label_said, negation_label
from sampler.verify.answers.number_grids import closing_grid
from sampler.verify.answers.numbered_parts import closing_math, for_part, part_answers
from sampler.verify.answers.quoted_answer import without_answer_quotes
from sampler.verify.answers.restated_option import restated_option
from sampler.verify.answers.run_on import run_on_cut
from sampler.verify.answers.sign_off import without_sign_off
from sampler.verify.answers.tag_debris import (
    is_placeholder,
    with_paired_tags,
    without_closing_placeholder,
)
from sampler.verify.answers.text_displays import displays_as_prose
from sampler.verify.answers.tool_transcript import echoed_output, fenced_output, tagged_output
from sampler.verify.answers.unfinished_thinking import cut_off_thinking
from sampler.verify.answers.unicode_math import with_triangle_minus
from sampler.verify.answers.yes_no_statements import (
    RULE_LAST_STATEMENT,
    RULE_OPENING_YES_NO,
    called_boolean,
    claim_verdict,
    last_statement,
    opening_yes_no,
    statement_polarity,
)

if TYPE_CHECKING:  # golds imports the verdict rules; only the type is needed here
    from sampler.verify.answers.golds import Gold

__all__ = [
    "AnswerSpan",
    "ExtractionConfig",
    "extract_answer",
    "parse_strategies",
    "statement_for_gold",
]

STRATEGIES = (
    "boxed",
    "stated",
    "tool_output",
    "answer_line",
    "answer_tags",
    "after_think",
    "hashes",
)
DEFAULT_STRATEGIES: tuple[str, ...] = ("boxed", "stated", "tool_output")

RULE_BOX = "box"
RULE_BOXES = "closing boxes"
RULE_MISSPELT_BOX = "misspelled box"
RULE_STATED_AFTER_BOX = "statement after box"
RULE_ANSWER_TAG = "answer tag"
RULE_AFTER_THINK = "after </think>"
#: appended to the rule when the completion was cut where it ran on
RUN_ON_SUFFIX = " (run-on cut)"
#: appended to the rule when the answer was read before a closing check or note
AFTERWORD_SUFFIX = " (before an afterword)"
#: appended to the rule of an answer stated before the check whose ``True`` ends the text
CHECKED_SUFFIX = " (before a check)"
#: appended to the rule of an answer stated first, then argued (``opening_final``)
OPENING_SUFFIX = " (opening)"
#: appended when a choice gold reads the option letter that labels the value a rule found
LETTER_BESIDE_SUFFIX = " (its option letter)"
#: every rule an extracted answer may name (``samples.answer_rule``), run-on cut aside
RULES = (
    RULE_BOX,
    RULE_BOXES,
    RULE_MISSPELT_BOX,
    RULE_STATED_AFTER_BOX,
    RULE_HASHES,
    RULE_ANSWER_LINE,
    RULE_STATEMENT,
    RULE_BOLD,
    RULE_TOOL_OUTPUT,
    RULE_WHOLE,
    RULE_ANSWER_TAG,
    RULE_AFTER_THINK,
    RULE_FEW_SHOT,
    RULE_MARKER,
    RULE_BOLD_FINAL,
    RULE_JSON,
    RULE_CONCLUSION,
    RULE_LAST_NUMBER,
    RULE_ANSWER_HEADING,
    RULE_NAMED_ANSWER,
    RULE_CLOSING_OPTION,
    RULE_CLOSING_STATEMENT,
    RULE_YES_NO,
    RULE_LAST_STATEMENT,
    RULE_OPTION_LINE,
    RULE_FINISH,
)

_ANSWER_LINE_RE = re.compile(
    # (in a numbered list too: "3. **Answer:** 42")
    r"^[ \t>*#_-]*(?:\d{1,2}[.)][ \t]+[*_]*)?"
    r"(?:final(?:\s+|[_-])answer|answer)[ \t*_]*[:：][ \t*_]*(?P<rest>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
_FINAL_IS_PREFIX_RE = re.compile(r"(?:the\s+)?final\s+answer\s+is\s*:?\s*", re.IGNORECASE)
_FINAL_IS_RE = re.compile(r"final\s+answer\s+is\s*:?[ \t]*", re.IGNORECASE)
_HOPE_TAIL_RE = re.compile(r"\.?\s*(?:I\s+hope\s+it\s+is\s+correct\.?)?\s*$", re.IGNORECASE)
_MATH_OPEN = {"$$": "$$", "$": "$", "\\(": "\\)", "\\[": "\\]"}
# A stated answer has a digit, a LaTeX command or an operator, or is one letter (a choice).
_MATHY_RE = re.compile(r"[\d\\^_=+/]|^\(?[A-Za-z]\)?$")
_SENTENCE_END_RE = re.compile(r"\.(?:\s|$)|\n")
#: the tags that hold a final answer: ``<answer>`` (R1-style and GRPO format prompts),
#: ``<solution>`` (agent protocols that propose a solution so: MINT, CodeAct), ``<final_answer>``
_ANSWER_TAG_RE = re.compile(r"<(/?)(answer|ans|solution|final_answer)>", re.IGNORECASE | re.ASCII)
_THINK_END = "</think>"
_THINK_TAG_RE = re.compile(r"</?[ \t]*(?:end)?think[ \t]*>", re.IGNORECASE)
#: misspellings of ``\boxed`` models write (a doubled or dropped letter, a capital)
_MISSPELT_BOX_RE = re.compile(r"\\(?:boxxed|boxeed|bboxed|boxd|bxed|boxde|Boxed|boxedd)\s*\{")
_WORDS_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}\s+[A-Za-z]{2,}(?![A-Za-z])")
_INLINE_MATH_RE = re.compile(r"\$[^$\n]*\$")
#: a tag's content that is more than a value: a word (``Angle A is 36 degrees``, ``3 times``)
#: or a computation (``30 * 28 = 840``)
_PROSE_OR_SUM_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}(?![A-Za-z])|\d[ \t]*=[ \t]*-?\d")
_TEXT_COMMAND_RE = re.compile(r"\\(?:text|mathrm|textbf|textrm|mbox|operatorname)\s*\{[^{}]*\}")


def _latex_span(text: str, rule: str | None = None) -> AnswerSpan | None:
    return latex_span(text, rule)


def _strip_hope(text: str) -> str:
    """``text`` without a closing "I hope it is correct." (searched in its last 80 characters)."""
    text = text.rstrip()
    cut = max(0, len(text) - 80)
    match = _HOPE_TAIL_RE.search(text, cut)
    return text[: match.start()] if match else text


def _span_from_fragment(fragment: str) -> AnswerSpan | None:
    """An answer fragment (a line's or a tag's content): its final box(es), bare LaTeX or prose."""
    fragment = fragment.strip()
    if not fragment:
        return None
    boxed = final_boxed(fragment)
    if boxed is not None:
        return boxed
    stripped = fragment.strip("*_ ").rstrip(".").strip()
    if stripped.startswith("$") and stripped.endswith("$") and stripped.count("$") in (2, 4):
        return _latex_span(stripped.strip("$"))
    if "$" in stripped or "\\(" in stripped or _WORDS_RE.search(_TEXT_COMMAND_RE.sub("", stripped)):
        return AnswerSpan(stripped, free_text=True)
    return _latex_span(stripped)


def _stated_after(tail: str) -> AnswerSpan | None:
    """The answer of the last "final answer is X" statement in ``tail``, when X is math.

    X is the math span that follows (``$7$``, ``\\(7\\)``) or the rest of the sentence;
    prose ("the final answer is correct") states nothing.
    """
    last = next(iter(deque(_FINAL_IS_RE.finditer(tail), maxlen=1)), None)
    if last is None:
        return None
    rest = tail[last.end() :]
    for left, right in _MATH_OPEN.items():
        if rest.startswith(left):
            close = rest.find(right, len(left))
            if close > len(left):
                return _latex_span(rest[len(left) : close])
            return None
    end = _SENTENCE_END_RE.search(rest)
    statement = _strip_hope(rest[: end.start()] if end else rest).strip("*_ ")
    if not _MATHY_RE.search(statement) or _WORDS_RE.search(statement) or "$" in statement:
        return None
    if "boxed" in statement:
        return None  # "The final answer is \\boxed{12": a box the token limit cut, no statement
    return _latex_span(statement)


#: an error a program raised, which a harness boxed as its result: ``KeyError: z``,
#: ``NameError: name 'math' is not defined``, ``timeout_decorator…TimeoutError: 'Timed Out'``
_BOXED_ERROR_RE = re.compile(r"(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Exit)\s*:")


def final_boxed(text: str) -> AnswerSpan | None:
    """The final answer of a completion that boxes it (the ``boxed`` strategy).

    The last box; when the boxes before it are joined to it only by connectives
    (``\\boxed{1}, \\boxed{2}``, ``x_1 = \\boxed{a} \\text{ and } x_2 = \\boxed{b}``), the
    whole run as one list answer ("1, 2"); a "final answer is X" statement after the
    last box wins. An earlier box separated by prose never joins.
    """
    run = final_box_run(text)
    if not run:
        return None
    stated = _stated_after(text[run[-1][1] :])
    if stated is not None:
        return replace(stated, rule=RULE_STATED_AFTER_BOX)
    contents = [text[a:b].strip() for _, _, a, b in run]
    if len(contents) == 1 and _BOXED_ERROR_RE.match(contents[0]):
        return None  # "\\boxed{KeyError: z}": a harness boxed its program's error, no answer
    if all(not c[:1].isdigit() and is_placeholder(c) for c in contents):
        return None  # "\\boxed{...}.", "\\boxed{answer}": the prompt's format echoed
    rule = RULE_BOXES if len(run) > 1 else RULE_BOX
    return _latex_span(", ".join(c for c in contents if c), rule)


#: a box the completion ends inside, after an answer's lead-in, holding one whole number: a
#: harness that forces the answer ("Therefore, the answer is \\(\\boxed{" appended to the
#: thinking) and stops at the closing brace
_FORCED_BOX_RE = re.compile(
    r"(?:answer|answer is|answer:|答案|答案是|respuesta|réponse|Antwort)[*:： \t]*"
    r"(?:\\\(|\$)?[ \t]*"
    r"\\boxed[ \t]*\{[ \t]*([-−]?\d[\d,]*(?:\.\d+)?)[ \t]*\Z",
    re.IGNORECASE,
)
RULE_FORCED_BOX = "unclosed forced box"


def _foreign_option(text: str) -> str | None:
    """The Latin letter of an option of another script that a completion chooses: the whole
    completion (``ب) سارا …``), its last line a label alone (``… = 1 نفر`` then ``**ب**``),
    or its first line a label alone before the reasons (``الف``, then ``**توضیح:** …``)."""
    if "\n" not in text:
        found = as_latin_option(text)
        return found[0] if found is not None else None
    for line in (text.rpartition("\n")[2], text.partition("\n")[0]):
        found = as_latin_option(line)
        if found is not None and not found[1]:
            return found[0]
    return None


def _forced_box(text: str) -> AnswerSpan | None:
    """The number of a box the completion ends inside after an answer's lead-in
    (``_FORCED_BOX_RE``): the answer a harness forced, cut at its closing brace."""
    tail = text[-200:].rstrip()
    if not tail[-1:].isdigit() or "boxed" not in tail:
        return None  # (the cheap tests first: most completions end otherwise)
    forced = _FORCED_BOX_RE.search(tail)
    if forced is None:
        return None
    number = forced.group(1)
    earlier = _NUMBER_BOX_RE.findall(text[-2000:])
    if earlier and earlier[-1] != number and earlier[-1].startswith(number):
        # "The final answer is \boxed{12.5}. … The final answer is \boxed{12": a loop cut by
        # the token limit inside a copy of its last box, not a box forced and closed
        return None
    return AnswerSpan(number.replace("−", "-"), rule=RULE_FORCED_BOX)


#: a complete box that holds one number
_NUMBER_BOX_RE = re.compile(r"\\boxed[ \t]*\{[ \t]*([-−]?\d[\d,]*(?:\.\d+)?)[ \t]*\}")


def extract_boxed(text: str) -> AnswerSpan | None:
    forced = _forced_box(text)
    if forced is not None:  # "… is 240+20=\nTherefore, the answer is \\(\\boxed{260": 260
        return forced
    span = final_boxed(text)
    if span is not None and "</" in text:
        tagged = _tagged(text)
        if tagged is not None and not final_box_run(text[tagged[0] :]):
            return tagged[2]  # "<think>… \\boxed{4} … wait …</think><answer>5</answer>"
    if span is None and _MISSPELT_BOX_RE.search(text):
        # ``\boxxed{12}``, ``\boxd{12}``: a misspelled box is still the model's box
        span = final_boxed(_MISSPELT_BOX_RE.sub(r"\\boxed{", text))
        if span is not None:
            span = replace(span, rule=RULE_MISSPELT_BOX)
    return span


def extract_stated(text: str) -> AnswerSpan | None:
    tagged = _tagged(text) if "</" in text else None
    if tagged is not None and not found_finals(text[tagged[1] :]):
        return tagged[2]  # the answer the format asked for, unless a statement follows it
    return located_final(text)


def extract_hashes(text: str) -> AnswerSpan | None:
    found = hash_line(text)
    return found[1] if found is not None else None


def extract_tool_output(text: str) -> AnswerSpan | None:
    return closing_output(text) or fenced_output(text) or tagged_output(text) or echoed_output(text)


def extract_answer_line(text: str) -> AnswerSpan | None:
    stated = located_final(text)
    if stated is not None:
        return stated
    matches = list(_ANSWER_LINE_RE.finditer(text))
    for match in reversed(matches):
        rest = _strip_hope(match.group("rest"))
        prefix = _FINAL_IS_PREFIX_RE.match(rest)
        if prefix and rest[prefix.end() :].strip():
            rest = rest[prefix.end() :]
        span = _span_from_fragment(rest)
        if span is not None:
            return replace(span, rule=RULE_ANSWER_LINE)
    return None


def extract_answer_tags(text: str) -> AnswerSpan | None:
    """The last ``<answer>`` before the last ``</answer>``: its content's answer."""
    tagged = _tagged(text)
    return tagged[2] if tagged is not None else None


def _tagged(text: str) -> tuple[int, int, AnswerSpan] | None:
    """(where the last ``<answer>`` pair opens, where it ends, the content's answer), found
    in ``text`` itself (ASCII case-insensitively): offsets found in ``text.lower()`` would
    shift after each ``İ``. None when no pair holds an answer.

    ``<solution>`` and ``<final_answer>`` pairs are read alike. A closing tag pairs with the
    last opening tag of its name before it that no other closing tag took, so that of a
    nested pair (``<solution>The answer is <solution> 40 </solution>.</solution>``) the
    inner one is read, and a stray tag (an ``<answer>`` mentioned after the pair) pairs with
    nothing. A content in words ("Jim spends 36 hours in 4 weeks.") is read by the rules for
    a closing sentence (``closing_sentence.located_final``), else (``$306 - $275 = 31``, or
    words those rules do not read) as free text."""
    open_by_name: dict[str, re.Match[str]] = {}
    pair = None
    for tag in _ANSWER_TAG_RE.finditer(text):
        name = tag.group(2).lower()
        if not tag.group(1):
            open_by_name[name] = tag
        elif name in open_by_name:
            pair = (open_by_name.pop(name), tag)
    if pair is None:
        return None
    opened, close = pair
    content = _THINK_TAG_RE.sub("\n", text[opened.end() : close.start()])  # "840\n</think> "
    span = _span_from_fragment(content)
    if span is None:
        return None
    if (span.free_text and _WORDS_RE.search(_INLINE_MATH_RE.sub(" ", content))) or (
        not span.free_text and span.rule is None and _PROSE_OR_SUM_RE.search(content)
    ):
        # "Jim spends 36 hours in 4 weeks.", "Angle A is 36 degrees.", "30 * 28 = 840",
        # "3 times": what a closing sentence states
        stated = located_final(content.strip())
        if stated is not None:
            span = stated
    return opened.start(), close.end(), replace(span, rule=RULE_ANSWER_TAG)


def extract_after_think(text: str) -> AnswerSpan | None:
    end = text.rfind(_THINK_END)
    if end < 0:
        return None
    tail = text[end + len(_THINK_END) :].strip()
    if not tail:
        return None
    boxed = final_boxed(tail)
    if boxed is not None:
        return replace(boxed, rule=RULE_AFTER_THINK)
    return AnswerSpan(tail, free_text=True, rule=RULE_AFTER_THINK)


_EXTRACTORS = {
    "boxed": extract_boxed,
    "stated": extract_stated,
    "tool_output": extract_tool_output,
    "answer_line": extract_answer_line,
    "answer_tags": extract_answer_tags,
    "after_think": extract_after_think,
    "hashes": extract_hashes,
}


def _prefix_answer(prefix: str, strategies: tuple[str, ...]) -> AnswerSpan | None:
    """The answer of the text before a run-on marker: by a rule, or by a rule before an
    afterword ("Answer: Very little. The circuit has …" before ``[/INST]``). Never a bare
    answer: a first line such as "Sure!" is none."""
    return _first(prefix, strategies) or _before_afterword(prefix, strategies)


def _before_afterword(text: str, strategies: tuple[str, ...]) -> AnswerSpan | None:
    """The answer a rule reads in ``text`` without its afterword (``afterword``), or None."""
    before = without_afterword(text)
    span = _first(before, strategies) if before else None
    return replace(span, rule=(span.rule or "") + AFTERWORD_SUFFIX) if span else None


def _as_read(text: str) -> str:
    """``text`` as the rules read it, before anything is cut: escapes as written
    (``'{"answer": "\\\\boxed{…}"}'``), a triangle as a minus (``△5.3%``), GSM8K's calculator
    notes removed (``32 - 30 = <<32-30=2>>2 ounces``)."""
    return without_calculator_notes(with_triangle_minus(as_written(text)))


def extract_answer(
    text: str | None, strategies: tuple[str, ...] = DEFAULT_STRATEGIES
) -> AnswerSpan | None:
    """The answer of ``text`` by the first of ``strategies`` that finds one; None if none does.

    A completion cut off inside thinking it never closed (``<think>`` without ``</think>``,
    ending mid-sentence: ``unfinished_thinking``) states no answer.
    A completion that runs on into a problem of its own is read up to where that starts;
    end-of-sequence tokens (``<eoa>``, ``</s>``, ``<|im_end|>``) are read as line breaks, and
    closing courtesies ("Let me know if …") are removed (``sampler.verify.answers.sign_off``).
    When nothing is found, the completion is read again without the checks, notes and
    verifying code that follow its answer (``sampler.verify.answers.afterword``).
    With the ``stated`` strategy, a short completion no rule reads is its own answer
    (``sampler.verify.answers.bare_answer``). An answer read before an afterword keeps the
    completion's last statement (``AnswerSpan.last_statement``), which a yes/no question's
    gold reads (``sampler.verify.answers.yes_no_statements``).
    """
    if not text or (cut_off_thinking(text) and _forced_box(text) is None):
        return None  # "<think> … perhaps the answer is 25. But let me verify … x *": cut
    text = _as_read(text)
    text = with_paired_tags(text)  # "Answer: 4</answer>", "answer> 320 </answer>"
    answers: dict[int, AnswerSpan] = {}  # the answer before each marker, read once

    def answered(prefix: str) -> bool:
        found = _prefix_answer(_cleaned(prefix), strategies)
        if found is not None:
            answers[len(prefix)] = found
        return found is not None

    cut = run_on_cut(text, answered)
    whole = _cleaned(text)
    span = None
    if cut is not None:
        before = answers[cut]  # run_on_cut cuts only where the text before answers
        # "User:" in a transcript whose turns the model labels "Assistant:": the dialogue's
        # next turn (a tool's prompt, its results), not a problem of the model's own
        turn = bool(_TURN_RE.match(text, cut) and _ASSISTANT_RE.search(text, 0, cut))
        span = _first(whole, strategies) if turn and before and _is_weak(before) else None
        if span is None or not _is_strong(span):
            # the text before the new problem answers; a prose guess before a dialogue's
            # "User:" turn, with the box at the end, does not (a tool dialogue: ChatCoT)
            return replace(before, rule=(before.rule or "") + RUN_ON_SUFFIX) if before else None
    if span is None:
        span = _first(whole, strategies)
    if span is not None and _is_check_result(span):
        span = _with_checked_answer(span, whole, strategies)
    elif span is not None and (span.rule or "").startswith(RULE_YES_NO):
        span = _with_confirmed_answer(span, whole, strategies)
    if span is None and (closed := without_closing_think(whole)) != whole:
        span = _first(closed, strategies)  # "… 85 pieces.\n</think>": the thinking's last word
    if span is None and "stated" in strategies:
        span = bare_answer(whole)  # the completion is nothing but its answer
        if span is None and _THINK_END in whole:  # "<think>…</think>Paris": the answer alone
            span = bare_answer(whole[whole.rfind(_THINK_END) + len(_THINK_END) :])
    if span is None:
        before = without_afterword(whole)  # "… is 5. Let's verify this with code: ```…```"
        span = _first(before, strategies) if before else None
        if span is not None and (span.rule or "").startswith(_UNRUN_WEAK_RULES):
            if ends_unexecuted(whole) and not (
                (span.rule or "").startswith((RULE_CONCLUSION, RULE_CLOSING_STATEMENT))
                and (
                    span.prose
                    or states_result(span.text, before or "", _opens_conclusion(before or ""))
                )
            ):
                # "… we subtract the boys." then code that never ran: an output or number
                # above it was a step; only a statement of a result before the code (a
                # computed value, "20 - 15 = 5", or the arithmetic the code was to do,
                # "4 + 12 + 6"; a statement in words, "Terry spends $75 on yogurt") states
                # one, not a plan's given ("Each carton costs $4.00") or its symbols
                span = None
        if span is not None:
            return replace(
                span,
                rule=(span.rule or "") + AFTERWORD_SUFFIX,
                last_statement=last_statement(whole),
            )
    if span is None and "stated" in strategies:
        span = opening_final(whole) or introduced_option(whole)
        # "The answer is (B). Explanation: …": stated first; "… is:\n\nA. Interest.\n\nSo, …"
        if span is not None:
            return replace(span, rule=(span.rule or "") + OPENING_SUFFIX)
    return span


_CONCLUSION_OPENING_RE = re.compile(
    r"(?:[-*]|\d{1,2}\.)?[ \t*]*(?:therefore|thus|so|hence|finally|in conclusion|as a result)\b",
    re.IGNORECASE,
)


def _opens_conclusion(text: str) -> bool:
    """Whether the last sentence of ``text`` opens with a conclusion word ("Therefore, …")."""
    tail = text.rstrip()[-300:]
    sentence = tail.rfind(". ", 0, len(tail) - 1)
    start = max(tail.rfind("\n") + 1, sentence + 2 if sentence >= 0 else 0)
    return _CONCLUSION_OPENING_RE.match(tail, start) is not None


#: what a completion that ends with code that never ran may have read as a step, not a result
_UNRUN_WEAK_RULES = (RULE_LAST_NUMBER, RULE_TOOL_OUTPUT, RULE_CONCLUSION, RULE_CLOSING_STATEMENT)
#: rules that read a prose sentence or a bare number: what a completion that states no
#: answer still gives
_WEAK_RULES = (RULE_CONCLUSION, RULE_CLOSING_STATEMENT, RULE_LAST_NUMBER, RULE_LAST_STATEMENT)
#: rules that read an answer the completion marks as its answer
_STRONG_RULES = (
    RULE_BOX,
    RULE_BOXES,
    RULE_STATED_AFTER_BOX,
    RULE_HASHES,
    RULE_ANSWER_LINE,
    RULE_ANSWER_TAG,
    RULE_MARKER,
    RULE_FEW_SHOT,
)


_TURN_RE = re.compile(r"[ \t#]*(?:User|Human)[ \t]*:")
_ASSISTANT_RE = re.compile(r"^[ \t#]*Assistant[ \t]*:", re.MULTILINE)


def _is_weak(span: AnswerSpan) -> bool:
    return (span.rule or "").startswith(_WEAK_RULES)


def _is_strong(span: AnswerSpan) -> bool:
    rule = (span.rule or "").split(" (")[0]
    return rule in _STRONG_RULES


def _is_check_result(span: AnswerSpan) -> bool:
    """Whether ``span`` is a tool's ``True`` or ``False``: the verdict of a check, or the
    answer to a yes/no question."""
    return (span.rule or "").startswith(RULE_TOOL_OUTPUT) and span.text in ("True", "False")


def _with_checked_answer(span: AnswerSpan, whole: str, strategies: tuple[str, ...]) -> AnswerSpan:
    """``span`` (a tool's ``True``) with the answer stated before the code that printed it
    ("The number is 12. Let's verify." then ``apples == 12`` and ``True``), which a gold
    that is no boolean reads (``statement_for_gold``)."""
    before = without_closing_code(whole)
    if not before:
        return span
    earlier = _first(before, strategies)
    if earlier is None:  # "… is 12. Let's verify." before the code: without the check
        shorter = without_afterword(before)
        earlier = _first(shorter, strategies) if shorter else None
    if earlier is None or _is_check_result(earlier):
        return span
    checked = replace(earlier, rule=(earlier.rule or "") + CHECKED_SUFFIX)
    return replace(span, before_check=checked)


#: a question the completion asks itself, closing the text before its yes or no ("Is that
#: right? Yes."): no answer of its own
_ASKED_LAST_RE = re.compile(r"[^.!?。\n]*\?[ \t\n]*$")


def _with_confirmed_answer(span: AnswerSpan, whole: str, strategies: tuple[str, ...]) -> AnswerSpan:
    """``span`` (a closing yes or no) with the answer stated before it ("So he has 42 apples.
    Let me double-check: 6*7=42. Yes.", "… is 42.\n\nIs that right? Yes."), which a gold
    that is no boolean reads (``statement_for_gold``): there the yes confirms a check."""
    word = span.text.split(",")[0].split()[0] if span.text.strip() else ""
    at = whole.rfind(word) if word else -1
    if at <= 0:
        return span
    before = _ASKED_LAST_RE.sub("", whole[:at]).rstrip()
    earlier = _first(before, strategies) if before else None
    if earlier is None or (earlier.rule or "").startswith(RULE_YES_NO):
        return span
    return replace(span, before_check=replace(earlier, rule=(earlier.rule or "") + CHECKED_SUFFIX))


#: a thousands comma followed by LaTeX's negative thin space (``1,\\!920``), as MATH writes it
_LATEX_THOUSANDS_RE = re.compile(r"(?<=\d),\\!(?=\d{3}(?!\d))")


def _cleaned(text: str) -> str:
    """``text`` as the rules read it: end tokens as line breaks, a sentence typeset as
    display math as prose (``text_displays``), ``1,\\!920`` as ``1,920``, the decoder's
    trailing debris and closing courtesies removed."""
    cleaned = without_trailing_debris(displays_as_prose(without_end_tokens(text)))
    cleaned = without_closing_placeholder(cleaned)  # "Final Answer: 6 [final numeric answer]"
    if ",\\!" in cleaned:  # "$1,\\!920$": MATH's thin space after a thousands comma
        cleaned = _LATEX_THOUSANDS_RE.sub(",", cleaned)
    cleaned = without_answer_quotes(cleaned)  # 'FINAL ANSWER:\n"""\n42\n"""': the label's 42
    return without_sign_off(without_stray_dollar(cleaned) if "$" in cleaned else cleaned)


#: a completion that opens with its option letter alone on the first line ("C", "**B.**",
#: "(D)", "B입니다.", "C. 970 Ω", "C: 60 mg/L"), or after a label of one or two words in
#: any language ("Seçenek: E", "Opción: B", "**Choice:** C"), then explains
_OPENING_LETTER_RE = re.compile(
    r"[ \t\n]*(?:[*_]{0,2}[^\W\d_]{2,20}(?:[ \t][^\W\d_]{2,20})?[*_]{0,2}[ \t]*[:：]"
    r"[*_]{0,2}[ \t]*)?"
    r"[*_]{0,2}\(?([A-J])\)?(?:[.)]?[*_]{0,2}(?:입니다|です)?[.。]?[ \t]*(?:\n|$)"
    r"|[.):：][ \t]*[^\n]{1,120}(?:\n|$))"
)
RULE_OPENING_LETTER = "opening letter"
#: a completion that is one option of a script other than Latin, label and content ("ب) …")
RULE_FOREIGN_OPTION = "option of another script"
#: a completion that is one of the question's options written out, label and content
RULE_RESTATED_OPTION = "option written out"
RULE_CLAIM_VERDICT = "verdict on the claim"
RULE_ASSIGNMENTS = "closing assignments"
RULE_GRID = "closing grid"
RULE_PARTS = "numbered parts"
RULE_ITEM_ANSWERS = "an answer for each item"
RULE_GOLD_VERBATIM = "the gold, word for word"
#: a label or its negation (``error``, ``no_error``) that the conclusion says
RULE_LABEL_SAID = "label said"
#: one of the alternatives the question names, picked by the conclusion ("Output (b)")
RULE_PICKED_ALTERNATIVE = "alternative picked"
#: a word of prose: three letters or more
_PROSE_WORD_RE = re.compile(r"[^\W\d_]{3,}")
#: between the letters of items answered one by one: judged in order (``math_verifier``)
ITEM_SEPARATOR = " → "
#: a gold that is a sequence of option letters, one for each item ("BCCB")
_LETTER_SEQUENCE_GOLD_RE = re.compile(r"[A-J]{2,40}")
#: an answer marker and one letter: an item's answer
_ITEM_ANSWER_RE = re.compile(r"(?:【答案】|\[答案\]|答案[:：])[ \t]*([A-J])(?![A-Za-z])")
_LETTER_SPAN_RE = re.compile(r"[ \t*_]*\(?[A-J]\)?(?:[ \t.:)、,]|$)")


def _states_letter(span: AnswerSpan | None) -> bool:
    """Whether ``span`` states an option letter (``C``, ``(B) Thursday``, ``C、D``)."""
    return span is not None and _LETTER_SPAN_RE.match(span.text) is not None


#: the answer tags around an answer's content
_TAG_EDGES_RE = re.compile(r"^\s*<[A-Za-z_]{1,20}>|</[A-Za-z_]{1,20}>\s*$")


def _numbered_answer(span: AnswerSpan | None, gold: Gold, text: str) -> AnswerSpan | None:
    """Against a gold in numbered parts, the answer of each part's section of ``text``, each
    read for its part's gold (``numbered_parts``); ``span`` when the completion does not
    answer in those parts."""
    places = tuple(place for place, _ in gold.numbered)
    golds = dict(gold.numbered)
    tagged = _tagged(text) if "</" in text else None
    body = text[tagged[0] : tagged[1]] if tagged is not None else text  # "<answer>（1）…"
    body = _TAG_EDGES_RE.sub("", body)

    def read(place: tuple[str, ...], section: str) -> AnswerSpan | None:
        part = golds[place]
        span = statement_for_gold(extract_answer(section), part, section)
        if span is None or (span.rule or "").endswith(AFTERWORD_SUFFIX):
            # a part's worked solution ends with its result, no afterword to it
            result = closing_math(section)
            span = latex_span(result, RULE_PARTS) if result is not None else span
        if span is not None:
            read_for_part = for_part(span.text, part.latex)
            if read_for_part != span.text:  # "综上所述，$\cos A = …$，$CE = 3\sqrt{5}$": CE's
                span = latex_span(read_for_part, RULE_PARTS)
        return span

    answers = part_answers(body, places, read)
    if answers is None:
        return span
    joined = "; ".join(a.text for a in answers)
    return AnswerSpan(joined, free_text=True, rule=RULE_PARTS, parts=answers)


def statement_for_gold(
    span: AnswerSpan | None, gold: Gold | None, text: str | None
) -> AnswerSpan | None:
    """``span``, or the answer stated before the check whose ``True`` ``span`` is when the
    gold is no boolean (``AnswerSpan.before_check``); against a choice gold, the option letter
    the completion opens with alone on its first line ("C\n\nExplanation: …", rule ``opening
    letter``) when ``span`` states no letter; or, when no rule found an answer, what the
    completion's last statement answers to what the gold is, else None:

    - a yes/no question's gold (``Gold.yes_no_words``): Yes or No, by what the statement
      says of the question (``sampler.verify.answers.yes_no_statements``: "Therefore, 1232 is
      a multiple of 7.");
    - a text gold (``Paris``): the words after the statement's last copula ("The capital of
      France is Paris."), a few words at most and not negated; they must equal the gold.
    - a number gold: the count a last statement opens with when its other words are the
      question's ("3 pieces of clothing could go in each of the small loads."), which the
      rules refuse for its "could" (``named_quantities.restated_count``), or the one value
      of a statement negated as the question is ("Dave did not wash 16 shirts.",
      ``named_quantities.negated_as_asked``);
    - a choice gold: the bare letter after the statement's copula, or the letter it calls
      the answer ("Thus, the major product is C.", ``choice_statements.copula_letter``), also
      before an afterword; of a question that lists its options, the option whose content
      the statement ends with after its copula ("The strongest acid is 4-nitrobenzoic
      acid." for "C) 4-nitrobenzoic acid"), ``named_option``;
    - a boolean gold without a question to restate: what the statement calls its subject
      ("… the expression … is False.", ``called_boolean``);
    - a choice gold whose options are labelled in another script: the completion that is
      one option (``ب) سارا …``), or a label alone on its last or first line (``**ب**``,
      ``foreign_options``).

    Against a grid gold (a solved Sudoku) the answer is the grid the completion closes with,
    whatever span a rule found (``number_grids.closing_grid``), or none; against a gold that
    assigns a word to each name (knights and knaves), the assignments the completion closes
    with when the span holds none (``assignment_lists.closing_assignments``).

    Whether or not a rule found an answer: against a choice gold, the letter that labels the
    value it found ("**0.32 (Option C)**", ``choice_statements.letter_beside``); against a
    calendar-date gold, the last statement's date when the value is part of it, and against
    a year gold that date's year (``calendar_dates``); against a gold that is no boolean,
    the answer before a closing yes that confirms a check (``AnswerSpan.before_check``); a
    one-line completion that writes out one of the question's options, label and content,
    is that option (``restated_option``: MedMCQA's ``1. Nasal cavity …`` for the gold 1).

    Called where a sample's text meets its gold (``verify.run``, ``one_sample``); for any
    other gold no answer stays no answer."""
    text = _as_read(text) if text else text  # as ``extract_answer`` read it
    if gold is not None and gold.numbered and text:
        return _numbered_answer(span, gold, text)
    if gold is not None and text and _gold_verbatim(text, gold):
        # "Proton exchange membrane fuel cells are more efficient than …": a completion that
        # is its sentence gold word for word, which no rule reads as an answer
        return AnswerSpan(" ".join(text.split()), rule=RULE_GOLD_VERBATIM, prose=True)
    if gold is not None and text and _LETTER_SEQUENCE_GOLD_RE.fullmatch(gold.latex):
        marked = _ITEM_ANSWER_RE.findall(text)
        if len(marked) == len(gold.latex) > 1:
            # "59. 【答案】 B <eoa>\n60. 【答案】 C <eoa>": one letter for each item of the
            # question (GAOKAO-Bench's cloze and reading sections), the gold their sequence
            return AnswerSpan(ITEM_SEPARATOR.join(marked), rule=RULE_ITEM_ANSWERS)
    if gold is not None and gold.kind == "grid":  # a grid gold's answer is a grid, or none
        grid = closing_grid(text, gold.latex) if text else None
        return AnswerSpan(grid, free_text=True, rule=RULE_GRID) if grid is not None else None
    if span is not None and span.before_check is not None and gold is not None:
        return span if gold.kind == "boolean" else span.before_check
    if gold is not None and gold.kind == "text" and text and gold_assignments(gold.latex):
        if span is None or assignments(span.text) is None:
            block = closing_assignments(text)
            if block is not None:  # "<answer>(1) Grace is a knight.\n(2) …</answer>"
                return AnswerSpan(block, rule=RULE_ASSIGNMENTS)
    if gold is not None and text and gold.kind in ("", "text"):
        dated = _written_date(span, gold, text)
        if dated is not None:  # "… after May 1742 is May 1747." for the gold "May, 1747"
            return dated
    if gold is not None and gold.kind == "text" and text and negation_label(gold.latex):
        said = _label_said(span, gold.latex, text)
        if said is not None:  # "Therefore, the model response contains no error." (no_error)
            return said
    if gold is not None and gold.alternatives and text:
        picked = _picked_alternative(span, gold.alternatives, text)
        if picked is not None:  # "Therefore, Output (b) is better." for "Output (a) or (b)?"
            return picked
    lettered = gold.options if gold is not None and gold.kind in ("choice", "choices") else ()
    if gold is not None and text and (lettered or gold.numbered_options):
        chosen = restated_option(text, lettered, gold.numbered_options)
        if chosen is not None:  # "1. Nasal cavity and anterior cranial fossa": option 1
            return AnswerSpan(chosen, rule=RULE_RESTATED_OPTION)
    if gold is not None and gold.kind == "choice" and text and not _states_letter(span):
        opening = _OPENING_LETTER_RE.match(text)
        following = text[opening.end() :].lstrip("\n").partition("\n")[0] if opening else ""
        if opening is not None and not weighed_option(
            opening.group(0), following, opening.group(1)
        ):
            # "C\n\nExplanation: … the mean is 40.": the letter first (not "D) 4\nE) 5")
            return AnswerSpan(opening.group(1), rule=RULE_OPENING_LETTER)
        explained = _explained_letter(text, gold.options) if opening is None else None
        if explained is not None:  # "B: Roosevelt's speech emphasizes …" (a long first line)
            return AnswerSpan(explained, rule=RULE_OPENING_LETTER)
        statement = _span_statement(span, text) if span is not None else None
        beside = letter_beside(statement, span.text) if statement and span is not None else None
        if beside is not None:  # "approximately **0.32 (Option C)**": the letter asked for
            return AnswerSpan(beside, rule=(span.rule or "") + LETTER_BESIDE_SUFFIX)
    if span is not None and text and gold is not None and gold.kind == "boolean":
        if span.before_check is None and boolean_of(span.text) is None:
            # "Therefore 17747 is a prime number." read as 17747 for "Is 17747 a prime
            # number?": what the closing statement says of the question, where it says it,
            # else the yes or no the completion heads its reasons with
            said = _yes_no_said(text, gold.yes_no_words) or _claim_said(text) or _opening_said(text)
            if said is not None:
                return said
    if span is not None or not text or gold is None:
        return span
    if gold.kind == "choice":
        foreign = _foreign_option(text.strip()) if not text.isascii() else None
        if foreign is not None:  # "ب) سارا …", "**ب**" closing the working: option B, chosen
            return AnswerSpan(foreign, rule=RULE_FOREIGN_OPTION)
        cleaned = _cleaned(text)
        statement = last_statement(cleaned) if not looping(cleaned) else None
        letter = copula_letter(statement) if statement else None  # (a loop decides nothing)
        if letter is None and statement:  # "… is **17 atoms (Option B).**\n\n**Note:** …"
            before = without_afterword(cleaned)
            earlier = last_statement(before) if before else None
            letter = copula_letter(earlier) if earlier else None
        if letter is None and statement and gold.options:
            letter = named_option(statement, gold.options)
        if letter is None:
            return None
        return AnswerSpan(letter, rule=RULE_LAST_STATEMENT)
    if gold.kind == "text" and not gold.parts:
        statement = last_statement(_cleaned(text))
        complement = copula_complement(statement, gold.latex) if statement else None
        if complement is None and statement:
            # "United States has the most forward position players.": the subject, when the
            # rest restates the question
            complement = restated_subject(statement, gold.asked_words)
        if complement is None:
            return None
        return AnswerSpan(complement, rule=RULE_LAST_STATEMENT, prose=True)
    if gold.kind in ("", "decimal") and not gold.parts and gold.asked_words:
        statement = last_statement(_cleaned(text))
        count = restated_count(statement, gold.asked_words) if statement else None
        if count is None and statement:  # "Dave did not wash 16 shirts." for "… not wash?"
            count = negated_as_asked(statement, gold.asked_words, gold.given)
        return AnswerSpan(count, rule=RULE_LAST_STATEMENT) if count is not None else None
    if gold.kind != "boolean":
        return None
    return (
        _yes_no_said(text, gold.yes_no_words)
        or _called_boolean(text)
        or _claim_said(text)
        or _opening_said(text)
    )


def _verdict_statements(span: AnswerSpan | None, text: str) -> tuple[str, list[str]]:
    """The completion as the rules read it, and where a judge states its verdict: the words a
    rule found, the last statement, the last statement before an afterword ("Therefore,
    Output (b) is better.\n\nExplanation: …") and the verdict sentences
    (``named_alternatives.verdict_sentences``); empty ones left out."""
    cleaned = _cleaned(text)
    statements = [span.text] if span is not None and span.prose else []
    before = without_afterword(cleaned)
    statements += [last_statement(cleaned) or "", (last_statement(before) if before else "") or ""]
    statements += verdict_sentences(cleaned)
    return cleaned, [statement for statement in statements if statement]


def _label_said(span: AnswerSpan | None, gold: str, text: str) -> AnswerSpan | None:
    """The label of a gold's pair (``error`` / ``no_error``) the completion's conclusion says
    (``negated_labels``): its last statement, its last statement before an afterword and its
    verdict sentences, all that say one agreeing; None when a rule found the label itself."""
    if span is not None and label_said(span.text, gold) is None and negation_label(span.text):
        return None  # "\\boxed{no_error}": the label itself, read as it is
    said = {label_said(statement, gold) for statement in _verdict_statements(span, text)[1]}
    said.discard(None)
    return AnswerSpan(said.pop(), rule=RULE_LABEL_SAID, prose=True) if len(said) == 1 else None


def _picked_alternative(
    span: AnswerSpan | None, alternatives: tuple[str, ...], text: str
) -> AnswerSpan | None:
    """The alternative the completion's verdict picks (``named_alternatives``): the answer a
    rule found when it is one alternative's name; else the one that the found words, the
    last statement, the last statement before an afterword and the verdict sentences
    (``verdict_sentences``) that pick agree on."""
    if span is not None and picked_alternative(span.text, alternatives) == span.text.strip():
        return None  # "\\boxed{Output (b)}": the name itself, read as it is
    cleaned, statements = _verdict_statements(span, text)
    picked = agreed_pick(statements, alternatives, scored_pick(cleaned, alternatives))
    return AnswerSpan(picked, rule=RULE_PICKED_ALTERNATIVE, prose=True) if picked else None


#: a letter and a colon that open a completion's long first line, its explanation after
_EXPLAINED_LETTER_RE = re.compile(
    r"[ \t\n]*[*_]{0,2}\(?([A-J])\)?[*_]{0,2}[.):：][ \t]+(\S[^\n]{120,1500})"
)


def _explained_letter(text: str, options: tuple[tuple[str, str], ...]) -> str | None:
    """The option letter a completion opens with before a long explanation on its first line
    ("B: Roosevelt's speech emphasizes international cooperation, …"), when nothing else
    states a letter. ``A:`` is also a few-shot answer's label, so it counts only where the
    line goes on with option A's content (the question must list its options)."""
    match = _EXPLAINED_LETTER_RE.match(text)
    if match is None or _OPTION_HEAD_RE_NEXT.search(match.group(2)):
        return None  # "A: 5 (B) 6 …": a listing
    letter = match.group(1)
    if letter != "A":
        return letter
    content = dict(options).get("A")
    if not content:
        return None
    words = _CONTENT_WORD_RE.findall(content.lower())
    line = match.group(2).lower()
    return letter if words and sum(w in line for w in words) >= 0.8 * len(words) else None


_OPTION_HEAD_RE_NEXT = re.compile(r"(?<![A-Za-z])\([B-J]\)[ \t]")
_CONTENT_WORD_RE = re.compile(r"[^\W\d_]{3,}")


def _gold_verbatim(text: str, gold: Gold) -> bool:
    """Whether the whole completion is a gold of several words (two of three letters at
    least, no LaTeX command) as written (spacing, case and a closing period aside)."""
    if gold.parts or gold.kind not in ("", "text") or len(text) > 2 * len(gold.latex) + 20:
        return False
    wanted = " ".join(gold.latex.split()).rstrip(".").casefold()
    if "\\" in wanted or len(_PROSE_WORD_RE.findall(wanted)) < 2:
        return False  # "(x, t)", "\\text{east}": math, which the rules read
    return " ".join(text.split()).rstrip(".").casefold() == wanted


def _claim_said(text: str) -> AnswerSpan | None:
    """True or False, as the completion's last verdict on a claim says ("Based on the table,
    the claim is true. Brian Finch's rank is 7, …"; ``yes_no_statements.claim_verdict``)."""
    true = claim_verdict(_cleaned(text))
    if true is None:
        return None
    return AnswerSpan("True" if true else "False", rule=RULE_CLAIM_VERDICT, prose=True)


def _called_boolean(text: str) -> AnswerSpan | None:
    """True or False, as the completion's last statement calls its subject one after its
    last copula (a Boolean expression's value, a claim judged), when no rule found an answer;
    "is not true" is False."""
    statement = last_statement(_cleaned(text))
    true = called_boolean(statement) if statement else None
    if true is None:
        return None
    return AnswerSpan("True" if true else "False", rule=RULE_LAST_STATEMENT, prose=True)


def _span_statement(span: AnswerSpan, text: str) -> str | None:
    """The last statement of the text ``span`` was read from: the completion, or the
    completion without its afterword when the span was read before one."""
    cleaned = _cleaned(text)
    if (span.rule or "").endswith(AFTERWORD_SUFFIX):
        cleaned = without_afterword(cleaned) or cleaned
    return last_statement(cleaned)


#: how much of a completion's end is searched for a date before it is cleaned and read
_DATE_TAIL_CHARS = 3000
#: a gold that is a year: what a date in the answer may state
_YEAR_GOLD_RE = re.compile(r"1\d{3}|20\d{2}")


def _written_date(span: AnswerSpan | None, gold: Gold, text: str) -> AnswerSpan | None:
    """Against a gold that is a calendar date, the last date of the completion's last
    statement, when ``span`` is none or a part of it ("1747" of "May 1747"): the gold itself
    when it names the same day or month (``calendar_dates``), else the date as written.
    Against a year, the year of the date that ``span`` is a part of ("3" of "May 3, 1909")."""
    expected = calendar_date(gold.latex)
    year = _YEAR_GOLD_RE.fullmatch(gold.latex.strip()) if expected is None else None
    if expected is None and (year is None or span is None):
        return None
    if last_date(text[-_DATE_TAIL_CHARS:]) is None:
        return None  # no date near the end (most samples of a year gold): nothing to clean
    statement = last_statement(_cleaned(text))
    written = last_date(statement) if statement else None
    if written is None or (span is not None and span.text.strip() not in written[1]):
        return None
    date, shown = written
    rule = span.rule if span is not None else RULE_LAST_STATEMENT
    if expected is None:  # "He was born on May 3, 1909." for the year 1909: its year
        return AnswerSpan(str(date[0]), rule=rule)
    return AnswerSpan(gold.latex.strip() if date == expected else shown, rule=rule, prose=True)


def _opening_said(text: str) -> AnswerSpan | None:
    """Yes or No, as the completion heads its reasons with it ("No, J.K. Rowling was not
    born in an even year. She was born in 1965, …"), when its last statement says nothing
    of the question (``yes_no_statements.opening_yes_no``); else None."""
    polarity = opening_yes_no(_cleaned(text))
    if polarity is None:
        return None
    return AnswerSpan("Yes" if polarity else "No", rule=RULE_OPENING_YES_NO, prose=True)


def _yes_no_said(text: str, words: tuple[str, ...]) -> AnswerSpan | None:
    """Yes or No, as the completion's last statement answers the question of ``words``; None
    when it does not answer it (it states nothing) or no question was read."""
    if not words:
        return None
    statement = last_statement(_cleaned(text))
    polarity = statement_polarity(statement, words) if statement else None
    if polarity is None:
        return None
    return AnswerSpan("Yes" if polarity else "No", rule=RULE_LAST_STATEMENT, prose=True)


def named_option(statement: str, options: tuple[tuple[str, str], ...]) -> str | None:
    """The letter of the one option whose content a statement ends with after "is"/"are"/
    "was"/"were"/"be" (case, spacing, bold and quotes aside), else None."""
    said = " ".join(statement.lower().replace("*", "").replace('"', "").split()).rstrip(" .。!")
    found = set()
    for letter, content in options:
        named = " ".join(content.lower().replace("*", "").split()).rstrip(" .。!")
        if len(named) < 3:
            continue
        if any(said.endswith(f" {verb} {named}") for verb in ("is", "are", "was", "were", "be")):
            found.add(letter)
    return found.pop() if len(found) == 1 else None


#: the last copula of a statement and the few words after it, to its end
_COPULA_COMPLEMENT_RE = re.compile(
    r"\b(?:is|are|was|were)[ \t]+(?:(?:the|a|an)[ \t]+)?[*_`\"“]*"
    r"(?P<x>[^\W\d_][\w'’-]*(?:[ \t]+[^\W\d_][\w'’-]*){0,4})[ \t*_`\"”]*[.!。]?[ \t*_]*$",
    re.IGNORECASE,
)
_NEGATED_COMPLEMENT_RE = re.compile(r"(?:not|never|no|neither|none)\b", re.IGNORECASE)
#: words after a copula that say how the work stands, not what the answer is ("The word is
#: done.", "The result is correct.")
_STATE_WORDS = frozenset(
    """done complete completed finished correct incorrect right wrong valid invalid clear
    obvious unclear unknown undefined possible impossible ready true false below above
    following same different consistent confirmed verified""".split()
)


#: a preposition or a conjunction alone after the copula: the clause goes on elsewhere
_DANGLING_WORDS = frozenset(
    "from of to in on at by with for as about into than and or but that".split()
)


#: state words that are also the labels a classification gold names (BBH's formal fallacies
#: "valid"/"invalid"): against such a gold they are an answer
_VERDICT_WORDS = frozenset(
    "valid invalid possible impossible consistent true false correct incorrect right wrong".split()
)


def copula_complement(statement: str, gold: str = "") -> str | None:
    """The words after a statement's last "is"/"are"/"was"/"were" (``Paris`` of "The capital
    of France is Paris."), without an article; None when there are none, more than five, or
    they negate ("is not Paris"), or say how the work stands ("The word is done."), unless
    the ``gold`` is a label among those words (``_VERDICT_WORDS``; BBH's formal fallacies:
    "The argument is **invalid**." for ``valid`` or ``invalid``)."""
    match = _COPULA_COMPLEMENT_RE.search(statement[-200:])
    if match is None or _NEGATED_COMPLEMENT_RE.match(match.group("x")):
        return None
    words = match.group("x").strip()
    if words.lower() in _DANGLING_WORDS:
        return None  # "… the paragraph you think the abstract is from": a clause, cut
    stands = words.lower() in _STATE_WORDS and gold.strip().lower() not in _VERDICT_WORDS
    return None if stands else words


RULE_REGEX = "regex"
#: how much of the end of a completion a user's pattern is searched in
_REGEX_TAIL_CHARS = 3000
_REGEX_REFUSED = (
    (re.compile(r"\\[1-9]|\(\?P="), "a backreference"),
    (re.compile(r"\(\?<?[=!]"), "a lookaround"),
    (re.compile(r"[*+}]\)[*+{]"), "a repeated group that repeats inside (it can backtrack)"),
)


@lru_cache(maxsize=64)
def _user_pattern(spec: str) -> re.Pattern[str]:
    return re.compile(spec[len("regex:") :], re.MULTILINE)


def check_regex(spec: str, where: str) -> None:
    """A LeashError unless ``regex:PATTERN`` compiles, has one capture group, and uses no
    backreference, lookaround or nested repetition (they make matching non-linear)."""
    pattern = spec[len("regex:") :]
    for refused, what in _REGEX_REFUSED:
        if refused.search(pattern):
            raise LeashError(f"{where}: --extract {spec!r}: {what} is not allowed")
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        raise LeashError(f"{where}: --extract {spec!r}: not a regular expression ({exc})") from exc
    if compiled.groups != 1:
        raise LeashError(
            f"{where}: --extract {spec!r}: needs exactly one capture group (the answer),"
            f" has {compiled.groups}"
        )


def extract_regex(text: str, spec: str) -> AnswerSpan | None:
    """The capture group of the last match of the user's pattern in the completion's end."""
    last = None
    for last in _user_pattern(spec).finditer(text[-_REGEX_TAIL_CHARS:]):  # noqa: B007
        pass
    if last is None or not (last.group(1) or "").strip():
        return None
    span = _span_from_fragment(last.group(1))
    return replace(span, rule=RULE_REGEX) if span is not None else None


def _first(text: str, strategies: tuple[str, ...]) -> AnswerSpan | None:
    for name in strategies:
        if name.startswith("regex:"):
            span = extract_regex(text, name)
            if span is not None:
                return span
            continue
        span = _EXTRACTORS[name](text)
        if span is not None:
            return span
    return None


def parse_strategies(
    spec: str | list[str] | tuple[str, ...], where: str = "strategy"
) -> tuple[str, ...]:
    """``"answer_tags,boxed"`` (or a list) as a checked tuple of strategy names; a
    ``regex:PATTERN`` entry (last in a comma list: the pattern may hold commas) is checked
    by ``check_regex``."""
    if isinstance(spec, str):
        head, sep, pattern = spec.partition("regex:")
        names = head.split(",") + ([sep + pattern] if sep else [])
    else:
        names = list(spec)
    names = [str(n).strip() if not str(n).startswith("regex:") else str(n) for n in names]
    names = [n for n in names if n.strip()]
    for name in names:
        if name.startswith("regex:"):
            check_regex(name, where)
    if not names:
        raise LeashError(f"{where}: empty extraction strategy; choose from {', '.join(STRATEGIES)}")
    unknown = [n for n in names if n not in _EXTRACTORS and not n.startswith("regex:")]
    if unknown:
        raise LeashError(
            f"{where}: unknown extraction strategy {unknown[0]!r}; choose from"
            f" {', '.join(STRATEGIES)} (several, tried in order, as a comma-separated list)"
        )
    return tuple(dict.fromkeys(names))


@dataclass(frozen=True)
class ExtractionConfig:
    """Which strategies apply to which samples: a model's setting beats its benchmark's,
    which beats the answer format its preset names (``Preset.answer_format``, unless a
    default other than leash's is set), which beats the default."""

    default: tuple[str, ...] = DEFAULT_STRATEGIES
    benchmarks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    models: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def strategies_for(self, benchmark: str, model: str) -> tuple[str, ...]:
        if model in self.models:
            return self.models[model]
        if benchmark in self.benchmarks:
            return self.benchmarks[benchmark]
        # Imported here, not at the top: the presets pull in the store (pyarrow), which the
        # verify workers never need; this lookup runs in the parent only (verify/run.py).
        from sampler.benchmarks.presets import PRESETS

        preset = PRESETS.get(benchmark)
        if preset is not None and preset.answer_format and self.default == DEFAULT_STRATEGIES:
            return preset.answer_format  # the format the benchmark's prompt asks for
        return self.default

    def to_json(self) -> dict[str, Any]:
        return {
            "default": list(self.default),
            "benchmarks": {k: list(v) for k, v in sorted(self.benchmarks.items())},
            "models": {k: list(v) for k, v in sorted(self.models.items())},
        }

    @classmethod
    def from_json(cls, payload: Any, where: str = "extraction config") -> ExtractionConfig:
        if not isinstance(payload, dict):
            raise LeashError(f"{where}: expected an object with default/benchmarks/models")

        def table(name: str) -> dict[str, tuple[str, ...]]:
            raw = payload.get(name) or {}
            if not isinstance(raw, dict):
                raise LeashError(f"{where}: field {name!r} must map names to strategy lists")
            return {str(k): parse_strategies(v, f"{where} {name}.{k}") for k, v in raw.items()}

        return cls(
            default=parse_strategies(
                payload.get("default", list(DEFAULT_STRATEGIES)), f"{where} default"
            ),
            benchmarks=table("benchmarks"),
            models=table("models"),
        )


def parse_assignment(spec: str, what: str) -> tuple[str, tuple[str, ...]]:
    """``NAME=STRATEGY[,STRATEGY...]`` from the command line."""
    name, sep, value = spec.partition("=")
    if not sep or not name.strip():
        raise LeashError(
            f"--extract-{what} {spec!r}: expected NAME=STRATEGY, e.g. aime24=answer_line"
        )
    return name.strip(), parse_strategies(value, f"--extract-{what} {name.strip()}")
