"""Issue 32: finals wherever a model writes them, compared by what the gold is.

Each case is graded the way ``leash verify`` grades a sample (``grade_completion``);
an answer one off, or the other option, must stay wrong.
"""

from __future__ import annotations

import pytest

from sampler.errors import LeashError
from sampler.verify.answers.extraction import extract_answer, parse_strategies
from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("completion", "gold", "status", "rule"),
    [
        ("So he walks 5*6 = 30 miles\nA: 30", "30", "correct", "few-shot answer line"),
        ("So he walks 5*6 = 31 miles\nA: 31", "30", "incorrect", "few-shot answer line"),
        ("所以，正确答案是A. $\\frac{1}{6}$。", "A", "correct", "answer marker"),
        ("综上所述，故选：D．", "D", "correct", "answer marker"),
        ("综上所述，故选：C．", "D", "incorrect", "answer marker"),
        ("因此，选项 B 正确。", "B", "correct", "answer marker (words)"),
        ("Hence, the correct option is $B$.", "B", "correct", "answer marker"),
        ("综上所述，正确的选项是A、B和D。", "ABD", "correct", "answer marker (words)"),
        ("综上所述，正确的选项是C和D。", "BC", "incorrect", "answer marker (words)"),
        ("正确答案是：\nC. 第一句\nD. 第二句", "C", "incorrect", "answer marker"),
        ("因此，弗兰克一共有**858颗**糖果。", "858", "correct", "bold final"),
        ("因此，弗兰克一共有**859颗**糖果。", "858", "incorrect", "bold final"),
        ("Answer \\[ 9 \\]", "9", "correct", "answer line"),
        (
            "Final Answer: The volume of $ABCD$ is 120. I hope it is correct.",
            "120",
            "correct",
            None,
        ),
        ("The answer is No.", "False", "correct", "statement (words)"),
        ("The answer is Yes.", "False", "incorrect", "statement (words)"),
        ('So, the final answer is "esln".', "esln", "correct", "statement (words)"),
        ('So, the final answer is "fnenl".', "fnel", "incorrect", "statement (words)"),
        ("The answer is Yes.", "12", "incorrect", "statement (words)"),  # stated, wrong
        # an ordinal written in math is its number
        ("So the answer is the $5^{\\mathrm{th}}$ term.", "5", "correct", "statement (words)"),
        ("So the answer is the $5^{\\mathrm{th}}$ term.", "6", "incorrect", "statement (words)"),
        ("$\\boxed{5^{th}}$", "5", "correct", "box"),
        # a completion that is only a value in a text wrapper, a number word or yes/no
        ("\\text{10 inches}", "10", "correct", "whole completion"),
        ("\\text{10 inches}", "11", "incorrect", "whole completion"),
        ("two", "2", "correct", "whole completion (words)"),
        ("two", "3", "incorrect", "whole completion (words)"),
        ("Yes.", "True", "correct", "whole completion (words)"),
        ("Yes.", "False", "incorrect", "whole completion (words)"),
        ("I give up.", "5", "no_answer", None),
        ("The answer: D, it doesn't make sense for it to be A or B", "D", "correct", None),
        ("The answer: D, it doesn't make sense for it to be A or B", "A", "incorrect", None),
        ("答案：每份应该是 (\\frac{2}{5}) 吨。", "2/5", "correct", "answer marker (words)"),
        ("答案：每份应该是 (\\frac{3}{5}) 吨。", "2/5", "incorrect", "answer marker (words)"),
        ("Réponse: il reste 220 $ à payer.", "220", "correct", "answer marker (words)"),
        ("Réponse: il reste 220 $, pas 210 $.", "220", "incorrect", "answer marker (words)"),
        ("Thus the final answer is $3$ or $-3$.", "3", "incorrect", "statement"),
        ("Therefore the answer is D or E.", "D", "incorrect", "statement (words)"),
        ("The answer is 3.6667.", "3.67", "correct", "statement"),
        ("The answer is 3.6.", "3.67", "incorrect", "statement"),
        ("so the answer is $\\boxed{pi/2}$", "\\frac{\\pi}{2}", "correct", "box"),
        ("so the answer is $\\boxed{1/sqrt(pi)}$", "\\sqrt{\\pi}", "incorrect", "box"),
        ("which gives $\\boxed{exp(16)}$", "e^{16}", "correct", "box"),
    ],
)
def test_final_found_and_compared_by_the_gold(completion, gold, status, rule):
    graded = grade_completion(gold, completion)
    assert graded.status == status
    if rule is not None:
        assert graded.rule == rule


def test_a_marker_whose_sentence_calls_it_wrong_states_nothing():
    text = "这对应于选项 B. $2\\sqrt{3}-1$ 是错误的，因为我们的计算结果是 $2+\\sqrt{3}$。"
    assert grade_completion("B", text).status != "correct"


def test_the_question_lists_the_options_an_answer_gives_the_content_of():
    problem = (
        "Which looks closer to blue? (a) Color 1: $(\\pi, 0.3,0.5)$, (b) Color 2: $(0.5, 0.8)$"
    )
    text = "Color 1 is closer to blue.\nThe answer is Color 1."
    assert grade_completion("(a)", text, problem=problem).status == "correct"
    assert grade_completion("(b)", text, problem=problem).status == "incorrect"
    assert grade_completion("(a)", text).status != "correct"  # no problem text: as before


def test_user_regex_reads_the_stated_format_and_is_checked_at_start():
    strategies = parse_strategies('boxed,regex:"answer":\\s*"([^"]*)"')
    span = extract_answer('{\n "reasoning": "…",\n "answer": "540"\n}', strategies)
    assert span is not None and span.text == "540" and span.rule == "regex"
    for bad in ("regex:(a)\\1", "regex:(?=a)(b)", "regex:no group", "regex:((a+)+)", "regex:("):
        with pytest.raises(LeashError, match="--extract"):
            parse_strategies(bad, "--extract")
