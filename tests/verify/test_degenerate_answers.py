"""Degenerate completions of 60-240 KB: every verifier extracts and judges them in linear time,
and ``--extract answer_tags`` reads tags at their place in the original text (issue #22 items
7-8). A quadratic extractor takes minutes on these; the bound is generous for a loaded machine.
"""

from __future__ import annotations

import re
import time

import pytest

from sampler.verify.answers.extraction import extract_answer_tags
from sampler.verify.verifiers import get_verifier
from sampler.verify.verifiers.base import answer_line, answer_tags
from sampler.verify.verifiers.grading import OtherVerifiers

BOUND_S = 2.0
SIZE = 240_000
DEGENERATE = {
    "unclosed answer tags": "<answer>" * (SIZE // 8),
    "spaces before answer:": " " * SIZE + "answer:",
    "spaces after answer": "answer" + " " * SIZE + "x",
    "spaces after answer is": "The answer is" + " " * SIZE,
    "spaces inside the answer": "Answer: x" + " " * SIZE + "y",
    "backticks": "`" * SIZE,
    "backtick lines": "```\n" * (SIZE // 4),
    "unclosed boxes": "\\boxed{" * (SIZE // 7),
    "think ends": "</think>" * (SIZE // 8),
    "text wrappers": "\\text" + " " * SIZE,
    "answer lines": ("Answer:" + " " * 200 + "\n") * (SIZE // 208),
}
GOLDS = {
    "exact": ("paris", {}),
    "choice": ("A", {}),
    "code": (None, {"tests": [{"input": "", "output": "x"}]}),
    "reasoning-gym": (None, {}),
}


@pytest.mark.parametrize("verifier", sorted(GOLDS))
@pytest.mark.parametrize("case", sorted(DEGENERATE))
def test_extraction_is_linear(verifier, case):
    v = get_verifier(verifier)
    text = DEGENERATE[case]
    started = time.monotonic()
    span = v.extract(text)
    gold = v.gold(*GOLDS[verifier])
    if span is not None and verifier in ("exact", "choice"):
        v.judge(gold, span)
    assert time.monotonic() - started < BOUND_S, (verifier, case)


def test_answer_tags_pair_as_before_and_stay_linear():
    assert answer_tags("<answer>a <answer>b</answer> <ANSWER>c</Answer>") == "c"
    assert answer_tags("<answer>a <answer>b</answer>") == "a <answer>b"
    assert answer_tags("<answer>unclosed") is None
    for line in LINES:
        assert answer_line(line) == _old_answer_line(line), line


#: The answer-line pattern before it was made linear: the reference on short lines.
_OLD_LINE_RE = re.compile(
    r"^[ \t>*#_-]*(?:the\s+)?(?:final\s+answer|answer)[ \t*_]*(?:[:：]|\s*is\b[ \t]*:?)"
    r"[ \t*_]*(?P<rest>\S.*?)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
LINES = [
    "x\nThe final answer is:  **D**  \n",
    "answer" + " " * 50 + "\n",
    "> **Answer:** 42\t \nmore",
    "The answer is\n 7",
    "the final\nanswer: (C) 3",
    "Final Answer: The final answer is $42$. I hope it is correct.",
    "answer:   \nAnswer: B",
    "ANSWER is: x y  ",
    "no line here",
    "answers: 5",
]


def _old_answer_line(text: str) -> str | None:
    matches = list(_OLD_LINE_RE.finditer(text))
    return matches[-1].group("rest").strip() or None if matches else None


def test_turkish_capital_dotted_i_does_not_shift_the_tags():
    text = "İstanbul'da İzmir'de İ" * 3 + " <answer>7</answer>"
    assert extract_answer_tags(text).text == "7"
    assert answer_tags(text) == "7"
    assert extract_answer_tags("İ<ANSWER>42</Answer>").text == "42"


def test_exact_and_choice_are_judged_under_the_deadline_in_workers():
    assert get_verifier("exact").in_worker and get_verifier("choice").in_worker
    exact, choice = get_verifier("exact"), get_verifier("choice")
    items = [
        ("exact", exact.gold("Paris", {}), "<answer>paris</answer>"),
        ("exact", exact.gold("Paris", {}), "Answer: Rome"),
        ("choice", choice.gold("B", {}), "Answer: (B)"),
        ("choice", choice.gold("B", {}), "<answer>" * 10_000 + "Answer: C"),
    ]
    with OtherVerifiers(workers=1, deadline_s=5.0) as others:
        verdicts = others.verify(items)
    assert [v.status for v in verdicts] == ["correct", "incorrect", "correct", "incorrect"]
