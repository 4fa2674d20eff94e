"""Round 17, from sources no earlier round read (Rephrase-and-Respond's GPT-4 answers to
symbolic tasks, KoStrategyQA's Korean answers, s1.1's Global-MMLU answers, CRAFT's GPT-4
programs): a word in quotes that a last sentence gives as its result (``When concatenated, you
get "la".``); the answer to "the original question"; a yes or no after a connective or after
a restated question, or heading the reasons; a pronoun for a subject of several words;
Korean's true and false; s1's ``<|im_start|>answer``; a program that never ran states no
number. Each with its wrong twin."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion

LETTERS = 'The last letter of "Cheryl" is "l", and the last letter of "Angelica" is "a". '


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("la", LETTERS + 'When concatenated, you get "la".', "correct"),
        ("al", LETTERS + 'When concatenated, you get "la".', "incorrect"),
        ("la", LETTERS + "If you concatenate them, you'll get 'la'.", "correct"),
        ("la", LETTERS + 'So, concatenating these two letters would give "la".', "correct"),
        ("ynym", "Combining 'y', 'n', 'y' and 'm' gives you the word 'ynym'.", "correct"),
        ("ernh", 'The letters are "e", "r", "n", "h". Joined, the string "ernh" is formed.',
         "correct"),
        ("hn", 'Hence, "hn" is the answer to both the original and the rephrased questions.',
         "correct"),
        ("la", 'The answer is "la".', "correct"),
        ("la", 'The answer is "lb".', "incorrect"),
        ("ly", 'We join "l" and "y".\nAnswer: "ly"', "correct"),
        ("ao", "The original question can be answered as: \"By concatenating the last letters "
               "of 'Paula Armando', the resulting concatenation is 'ao'.\"", "correct"),
        ("la", LETTERS + 'When concatenated, you get "a" and "l".', "incorrect"),
    ],
)  # fmt: skip
def test_a_word_in_quotes_is_the_result_a_last_sentence_gives(gold, text, status):
    assert grade_completion(gold, text).status == status


ROWLING = "Was J.K. Rowling born in an even year?"
KING = "Was Martin Luther King Jr. born in an even day?"


@pytest.mark.parametrize(
    ("gold", "text", "problem", "status"),
    [
        ("No", "Therefore, the answer to the original question is no.", ROWLING, "correct"),
        ("Yes", "Therefore, the answer to the original question is no.", ROWLING, "incorrect"),
        ("No", 'So the answer to the original question, "Was J.K. Rowling born in an even '
               'year?" is no.', ROWLING, "correct"),
        ("No", "She was born in 1965. Therefore, no, she was not born in an even year.",
         ROWLING, "correct"),
        ("No", "Was the year odd? Is it even? No.", ROWLING, "correct"),
        ("Yes", "Was the year odd? Is it even? No.", ROWLING, "incorrect"),
        # the yes or no that heads the reasons, when the last statement says nothing of it
        ("No", "No, J.K. Rowling was not born in an even year. She was born in 1965, which is "
               "an odd number year.", ROWLING, "correct"),
        ("Yes", "No, J.K. Rowling was not born in an even year. She was born in 1965, which "
                "is an odd number year.", ROWLING, "incorrect"),
        # … but the last statement, where it says something, decides
        ("No", "Yes, he was. He was born on January 15, 1929. So he was not born on an even "
               "day.", KING, "correct"),
        # a pronoun for a subject of several words
        ("No", "He was born on January 15, 1929. So he was not born on an even day.", KING,
         "correct"),
        ("Yes", "He was born on January 15, 1929. So he was not born on an even day.", KING,
         "incorrect"),
        # the question's object named again is no restatement of it
        ("Yes", "Aniston was born in 1969. Therefore, Jennifer Aniston was not born earlier "
                "than Michael Jackson; Michael Jackson was born first.",
         "Was Jennifer Aniston born earlier than Michael Jackson?", "incorrect"),
        # a reply to the asking is no answer
        ("True", "Yes, let's check it. The sum is 3.", None, "incorrect"),
    ],
)  # fmt: skip
def test_a_yes_or_no_is_read_where_a_completion_puts_it(gold, text, problem, status):
    assert grade_completion(gold, text, problem=problem).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("거짓", "아니요, 그렇지 않습니다.", "correct"),
        ("사실", "아니요, 그렇지 않습니다.", "incorrect"),
        ("사실", "사실입니다. 텐징 노르가이는 1953년 에베레스트 산을 등반하였습니다.", "correct"),
        ("거짓", "사실입니다. 텐징 노르가이는 1953년 에베레스트 산을 등반하였습니다.", "incorrect"),
        ("사실", "네, 달러 스토어에서는 염소를 살 수 있습니다.", "correct"),
    ],
)  # fmt: skip
def test_korean_true_and_false_are_booleans(gold, text, status):
    assert grade_completion(gold, text).status == status


S1_THINKING = (
    "<|im_start|>think\nOkay, so I need to figure out whether the answer is A, B, C or D. "
    "Wait, EPA matters for the retina. Hmm, or memory? Alternatively, motor skills. Let me "
    "check the options again.\n<|im_start|>answer\n"
)


@pytest.mark.parametrize(
    ("gold", "end", "status"),
    [
        ("A", "Final Answer: A. দৃষ্টিগত কর্মক্ষমতা", "correct"),
        ("B", "Final Answer: A. দৃষ্টিগত কর্মক্ষমতা", "incorrect"),
        ("C", "The bird is a falcon.\n\n**Answer:** C. 鳥 (Bird)", "correct"),
    ],
)  # fmt: skip
def test_s1_answers_after_its_answer_section(gold, end, status):
    assert grade_completion(gold, S1_THINKING + end).status == status


def test_thinking_cut_before_s1_answer_section_states_nothing():
    text = S1_THINKING.removesuffix("<|im_start|>answer\n") + "So the answer might be A or"
    assert grade_completion("A", text).status == "no_answer"


PROGRAM = (
    "def find_johns_age(age_difference, total_age):\n"
    '    """John\'s age from the difference and the total."""\n'
    "    return (total_age - age_difference) / 2\n"
    "# pass parameter to call the tool to solve the original problem\n"
    "print(find_johns_age(age_difference=24, total_age=68))"
)


@pytest.mark.parametrize("gold", ["68", "22", "24"])
def test_a_program_that_never_ran_states_no_number(gold):
    assert grade_completion(gold, PROGRAM).status == "no_answer"


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("22", PROGRAM + "\n```output\n22.0\n```\nJohn is 22.", "correct"),
        ("5", "x = 2\ny = 5", "correct"),  # values stated, not a program
    ],
)  # fmt: skip
def test_a_program_with_its_output_or_stated_values_is_read(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("D", "So the answer to this question is 20. Among all the answer choices, the best "
              "option is D) 20.", "correct"),
        ("C", "So the answer to this question is 20. Among all the answer choices, the best "
              "option is D) 20.", "incorrect"),
        ("B", "The answer is 3% profit. The correct one is B) 3% Profit.", "correct"),
        ("D", "The answer is 20. So the best choice is D.", "correct"),
    ],
)  # fmt: skip
def test_the_option_named_after_the_value_is_the_answer(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("answer", "status"),
    [(r"2e^{\frac{\pi}{2}-2}", "correct"), (r"2e^{\frac{\pi}{2}-3}", "incorrect")],
)
def test_a_gold_written_as_a_sentence_loses_its_stop(answer, status):
    gold = r"\(2e^{\frac{\pi}{2}-2}\)."
    assert grade_completion(gold, f"$$\\boxed{{{answer}}}$$").status == status


@pytest.mark.parametrize(
    ("gold", "text", "problem", "status"),
    [
        ("ae", 'Therefore, the answer to the original question is "ae."', None, "correct"),
        ("nl", '- The last letter of "Samuel" is "l".\n\nBy combining these last letters, the '
               'resulting concatenation would be "nl".', None, "correct"),
        ("ay", "So by putting them together, you can form the two-letter combination 'ay'.",
         None, "correct"),
        ("yes", "Can we assume that the coin is still heads up?\n\nMy answer is, Yes.",
         "Is the coin still heads up?", "correct"),
        ("No", "Harrison Ford was born on July 13, 1942, so he was not born in an "
               "even-numbered month.", "Was Harrison Ford born in an even month?", "correct"),
        ("Yes", "Harrison Ford was born on July 13, 1942, so he was not born in an "
                "even-numbered month.", "Was Harrison Ford born in an even month?", "incorrect"),
        ("Yes", "Is it true that Hitler was born before Jolie? Yes, Adolf Hitler was born "
                "earlier than Angelina Jolie. Hitler was born on April 20, 1889, while Jolie "
                "was born on June 4, 1975.", "Was Adolf Hitler born earlier than Angelina "
                "Jolie?", "correct"),
        ("No", "Is it true that Hitler was born before Jolie? Yes, Adolf Hitler was born "
               "earlier than Angelina Jolie. Hitler was born on April 20, 1889, while Jolie "
               "was born on June 4, 1975.", "Was Adolf Hitler born earlier than Angelina "
               "Jolie?", "incorrect"),
    ],
)  # fmt: skip
def test_the_last_sentence_and_the_answer_after_a_restated_question(gold, text, problem, status):
    assert grade_completion(gold, text, problem=problem).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("A", "The correct completion for AIDA is:\n\nA. Interest; Action.\n\nSo, AIDA stands "
              "for Awareness, Interest, Desire and Action.", "correct"),
        ("B", "The correct completion for AIDA is:\n\nA. Interest; Action.\n\nSo, AIDA stands "
              "for Awareness, Interest, Desire and Action.", "incorrect"),
        ("D", "したがって、正解は\n\nD. 多系進化。\n\nです。この概念は重要です。", "correct"),
        ("B", "そのため、適切な答えは：\n\nB. 起源地\n\nとなります。", "correct"),
        # a listing of the options chooses none
        ("C", "Let us look at the options:\n\nA. foo\nB. bar\nC. baz\n\nWe need more thought.",
         "no_answer"),
        ("C", "The answer choices are:\n\nA. foo\n\nB. bar\n\nC. baz\n\nMore thought needed.",
         "no_answer"),
        # a program's listing of the choices chooses none
        ("A", 'def solution():\n    """Answer Choices:\n    (a) 3 km/hr\n    ', "no_answer"),
        # options weighed one by one, cut off: none chosen
        ("D", "C. 200m: This option is incorrect because one pylon is 100 m, not 200 m.\n"
              "D. 225m: This option is incorrect because the length of one pyl", "no_answer"),
        ("D", "So we pick:\nD. 225m", "correct"),
    ],
)  # fmt: skip
def test_an_option_set_off_under_its_lead_in_is_chosen_a_listing_is_not(gold, text, status):
    assert grade_completion(gold, text).status == status


@pytest.mark.parametrize(
    ("gold", "answer", "status"),
    [
        ("beauty and beast", "Beauty and the Beast", "correct"),
        ("shins", "The Shins", "correct"),
        ("february 14 1859", "February 14, 1859", "correct"),
        ("february 15 1859", "February 14, 1859", "incorrect"),
        ("playbypost roleplaying game", "play-by-post roleplaying game", "correct"),
        ("79 ad", "79 A.D.", "correct"),
        ("2.5 km", "25 km", "incorrect"),  # a decimal point between digits counts
        ("-5 degrees", "5 degrees", "incorrect"),  # and a sign
        ("x+1", "x-1", "incorrect"),  # math marks: no text comparison
    ],
)
def test_question_answering_golds_match_as_squad_normalises_them(gold, answer, status):
    text = f"Thought: I have the answer.\nAction: finish[{answer}]"
    assert grade_completion(gold, text).status == status


def test_a_plan_to_find_the_answer_chooses_no_option():
    text = (
        "Let's analyze each statement to find the correct answer:\n\n(A) Conductivity rises "
        "with temperature,\nas carriers are freed.\n\n(B) It falls, as fewer\ncarriers are freed."
    )
    assert grade_completion("A", text).status != "correct"


@pytest.mark.parametrize(
    ("gold", "text", "problem", "status"),
    [
        ("or", 'The last letter of "Christopher" is "r." When concatenated, they form "or."',
         None, "correct"),
        ("no", "Seeing as the coin has been flipped, the response is no.",
         "Is the coin still heads up?", "correct"),
        ("Yes", 'It was 1930, an even year. Therefore, the answer to the original question '
                '"Was Neil Armstrong born in an even year?" is Yes.',
         "Was Neil Armstrong born in an even year?", "correct"),
        ("Yes", "Yes, it is true that he was born in a month with an even number of days.",
         "Was he born in an even month?", "correct"),
        ("Yes", "Leonardo da Vinci was born earlier than J.R.R. Tolkien.",
         "Was Leonardo da Vinci born earlier than J.R.R. Tolkien?", "correct"),
        ("No", "Leonardo da Vinci was born earlier than J.R.R. Tolkien.",
         "Was Leonardo da Vinci born earlier than J.R.R. Tolkien?", "incorrect"),
        ("yes", "Hence, the coin should still be heads up. Answer: Yes.",
         "Is the coin still heads up?", "correct"),
        ("no", "Hence, the coin should still be heads up. Answer: Yes.",
         "Is the coin still heads up?", "incorrect"),
        ("13", "So he has 12 apples in all. Final answer: 12", None, "incorrect"),
    ],
)  # fmt: skip
def test_answers_after_initials_quotes_and_inline_labels(gold, text, problem, status):
    assert grade_completion(gold, text, problem=problem).status == status


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("②", "따라서 참인 것은 ㄱ과 ㄷ이다.\n\n②", "correct"),
        ("③", "따라서 참인 것은 ㄱ과 ㄷ이다.\n\n②", "incorrect"),
    ],
)
def test_a_circled_number_alone_on_the_last_line_is_the_chosen_option(gold, text, status):
    assert grade_completion(gold, text).status == status
