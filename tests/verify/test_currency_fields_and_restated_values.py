"""Round 16, second part, from sources no earlier round read (AfriMGSM's answers in
twenty African languages, a base Llama's GSM8K answers, GPT-4.1 under reasoning budgets):
a dollar before a plain amount is a currency, not LaTeX math that hides the number after it
(``Amsar ita ce: $4.00``, ``Total: $12``); "3 times that, or $90,000" restates one value,
it offers no two; fields a prompt asked for after the answer line (``ANSWER: D\\nCONFIDENCE:
100``) end a completion that thinks aloud; a product cut after its operator states nothing.
Each with its wrong twin."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("4", "Carl ya biya da $10, canjin $10 daidai da $6.00, wato $4.00.\n\n"
              "Amsar ita ce: $4.00", "correct"),
        ("5", "Carl ya biya da $10, canjin $10 daidai da $6.00, wato $4.00.\n\n"
              "Amsar ita ce: $4.00", "incorrect"),
        ("350", "u$1250 - u$200 - u$700 = u$350\n\nImpendulo ithi: $350\n", "correct"),
        ("255", "$765 / 3 = $255.\n\nEky’okuddamu kiri nti: $255\n", "correct"),
        ("12", "So it is twelve dollars.\n\nTotal: $12", "correct"),
        ("13", "So it is twelve dollars.\n\nTotal: $12", "incorrect"),
        ("13", "He paid $12 and then $13", "no_answer"),  # two amounts: which one is unclear
        ("15", "Thus $12 + 3 = 15$ and", "no_answer"),  # math, cut off: no amount
    ],
)  # fmt: skip
def test_a_dollar_before_a_plain_amount_is_a_currency(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("90000", "The lot is $30,000.\nThe cost of the house is 3 times that, or $90,000.",
         "correct"),
        ("80", "x = 20\nBrad gets 20 dollars, so Jeff gets 4 times as much, or 80 dollars.",
         "correct"),
        ("3", "He has 3 apples or 4", "incorrect"),  # a hedge still
        ("30", "It costs $30, or maybe $40", "incorrect"),
        ("3", "So x is 3 or -3", "incorrect"),
    ],
)  # fmt: skip
def test_a_value_restated_after_or_is_no_hedge(gold, text, status):
    assert grade_completion(gold, text).status == status


THINKING_ALOUD = (
    "Wait, let me check the discount. Alternatively, multiply by 0.89. Alternatively, "
    "multiply by 0.96. Alternatively, multiply by 0.79.\nSo, the final price is $4,210.78.\n\n"
)


@pytest.mark.parametrize(
    ("gold", "end", "status"),
    [
        ("D", "ANSWER: D\nCONFIDENCE: 100", "correct"),
        ("C", "ANSWER: D\nCONFIDENCE: 100", "incorrect"),
        ("5", "ANSWER: 5\nConfidence: 95%", "correct"),
        ("5", "So the total is 3 + 2 and then we multiply by", "no_answer"),  # cut: states nothing
    ],
)
def test_fields_after_the_answer_line_end_a_completion_that_thinks_aloud(gold, end, status):
    assert grade_completion(gold, THINKING_ALOUD + end).status == status


def test_a_product_cut_after_its_operator_states_nothing():
    text = "$1374389534400 x 2 = $2748779069440\n$2748779069440 x"
    assert grade_completion("2748779069440", text).status == "no_answer"
    assert grade_completion("2748779069440", text[: -len(" x")]).status == "correct"


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("7", "They sold some.\nIn total, 3 + 4 + 0 = 7 DVDs were sold.", "correct"),  # no_answer
        ("8", "They sold some.\nIn total, 3 + 4 + 0 = 7 DVDs were sold.", "incorrect"),
        ("7", "They sold some.\nSo 3 + 4 = 7 DVDs were sold.", "correct"),
        ("30", "Let x be the amount.\n12 + 10 = x - 8\n22 = x - 8\n22 + 8 = x\n30 = x", "correct"),
        ("31", "Let x be the amount.\n22 + 8 = x\n30 = x", "incorrect"),
        ("10", "200 + 5x = 25x\n200 = 20x\n10 = x", "correct"),
    ],
)
def test_a_computation_comes_to_its_result_and_an_unknown_to_its_value(gold, text, status):
    # the operands of "3 + 4 + 0 = 7" are no values the sentence states; "30 = x" solves x
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("3", "So 1.5 hours were left. Since each episode is 0.5 hours, he must have watched 3 "
              "episodes on Wednesday.", "correct"),  # the reason's 0.5 was read
        ("0.5", "So 1.5 hours were left. Since each episode is 0.5 hours, he must have watched 3 "
                "episodes on Wednesday.", "incorrect"),
        ("45", "It takes 30 minutes. Therefore, peeling takes 15 minutes and sautéing takes 30 "
               "minutes, totaling 45 minutes.", "correct"),  # several values: no_answer
        ("12", "Then 1 quarter is 3. Therefore, the total number of novels she wrote this year "
               "is 3 times 4, which equals 12.", "correct"),  # the relative clause computes
        ("3", "Then 1 quarter is 3. Therefore, the total number of novels she wrote this year "
              "is 3 times 4, which equals 12.", "incorrect"),
        ("81", "In the fourth round, 27 families each call 3 families, so 27 × 3 = 81 families "
               "are notified.", "correct"),
        ("7200", "There are 30 days in June, so Derrick makes $240 x 30 = $7,200 in June.",
         "correct"),
    ],
)  # fmt: skip
def test_a_closing_sentence_states_its_result_not_its_reason_or_operands(gold, text, status):
    assert grade_completion(gold, text).status == status


def test_a_value_the_question_gave_is_no_answer_to_what_it_asks():
    problem = (
        "Maddison has 5 boxes with 50 marbles in each box. Then she gets 20 marbles from her "
        "friend. How many marbles does she have now?"
    )
    text = (
        "<think>5 * 50 = 250</think> <answer> After getting 20 more marbles from her friend, "
        "Maddison has 250 + 20 = 270 marbles.</answer>"
    )
    assert grade_completion("270", text, problem=problem).status == "correct"
    assert grade_completion("20", text, problem=problem).status == "incorrect"


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("85", "We count them.\n</think>\nThe clear pieces are 140 - 20 - 35 = 85. Jerry swept "
               "up 85 clear pieces.\n</think>", "correct"),  # was no_answer
        ("84", "We count them.\n</think>\nThe clear pieces are 140 - 20 - 35 = 85. Jerry swept "
               "up 85 clear pieces.\n</think>", "incorrect"),
        ("180", "So E = 9 * 20 = 180.\nThe cost of the eel is $180.\n</think>\n</answer>",
         "correct"),
        ("35", "Therefore, Dany should have 35 bushels for his farm for a day.</wort", "correct"),
        ("330", "The rest is the table. </think>\n\n User: $2430-$2100=330. So, it is $330\n"
                "Assistant: <answer> The cost of the coffee table is $330. </answer>", "correct"),
    ],
)  # fmt: skip
def test_thinking_closed_with_nothing_after_it_states_its_last_answer(gold, text, status):
    # read only when nothing else states one: an invented turn after it is read as before
    assert grade_completion(gold, text).status == status
