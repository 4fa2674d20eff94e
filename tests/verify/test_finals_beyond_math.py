"""Finals of benchmarks beyond competition math: financial tables, BIG-Bench Hard, AQuA.

The classes came from running leash on outputs of sources it had not met (BBH's Codex
chain-of-thought dumps, MMLU-Pro, Program-of-Thoughts' GPT-4 runs on AQuA and TAT-QA):
amounts with a currency sign and a scale word (``-$17,572 million``), where the scale was
dropped with the currency or the sign with it; option letters past J (BBH's ``(K)`` …
``(R)``); answers of closing brackets alone (Dyck languages); a last line that is an
option with its content (``A)1 step/minute``); "the answer would be (D)"; long word lists
(word sorting); loops cut off by the token limit, where a stray number was read as the
answer. Each positive case has its off-by-one twin, which must stay wrong.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.amounts import amount_value
from sampler.verify.answers.loops import looping
from sampler.verify.answers.one_sample import grade_completion

WORK = "From the table, revenue was 5,120 and costs were 2,220 in 2019.\n"


@pytest.mark.parametrize(
    ("text", "value", "mantissa"),
    [
        ("$2.9 million", "2900000", "2.9"),
        ("-$17,572 million", "-17572000000", "-17572"),
        ("$-17,572 million", "-17572000000", "-17572"),
        ("−€462", "-462", "-462"),
        ("93.8 thousand", "93800", "93.8"),
        ("2.5 billion dollars", "2500000000", "2.5"),
        ("\\$2.9\\text{ million}", "2900000", "2.9"),
        ("€40k", "40000", "40"),
        ("£0.1", "0.1", "0.1"),
    ],
)
def test_an_amount_is_one_signed_number_times_its_scale(text, value, mantissa):
    amount = amount_value(text)
    assert amount is not None
    assert (amount.value, amount.mantissa) == (value, mantissa)


@pytest.mark.parametrize("text", ["2.9", "5 m", "5 km", "1,000", "--$5", "2.9 million people"])
def test_what_is_no_amount_is_left_to_the_other_rules(text):
    assert amount_value(text) is None


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        # the scale was dropped with the currency sign ($2.9 million read as 2.9)
        ("2.9 million", "The answer is $2.9 million.", "correct"),
        ("2900000", "The answer is $2.9 million.", "correct"),
        ("2.9 million", "The answer is $2.8 million.", "incorrect"),
        ("2.9 million", "Answer: 2.9 thousand", "incorrect"),
        # one rule on both sides: the gold's scale is applied to it too
        ("93.8 thousand", "Answer: 93.8 thousand", "correct"),
        ("93.8 thousand", "Answer: 93,800", "correct"),
        ("93.8 thousand", "Answer: 93.9 thousand", "incorrect"),
        # a bare number is stated in the gold's scale (the table's unit is the context) …
        ("2.9 million", "Answer: 2.9", "correct"),
        ("2.9 million", "Answer: 3.9", "incorrect"),
        # … but an answer's scale is never dropped against a bare gold
        ("1", "The answer is 1 million.", "incorrect"),
        # the sign before the currency sign was lost: a false accept of the opposite value
        ("-17572 million", "The answer is -$17,572 million.", "correct"),
        ("17572 million", "The answer is -$17,572 million.", "incorrect"),
        ("-462", "The change is -€462.", "correct"),
        ("462", "The change is -€462.", "incorrect"),
        ("-0.1", "Answer: -£0.1", "correct"),
        ("0.1", "Answer: -£0.1", "incorrect"),
        ("-1.4", "Answer: -$1.4", "correct"),
        ("1.4", "Answer: -$1.4", "incorrect"),
        # a boxed amount in LaTeX
        ("2900000", "So revenue is $\\boxed{\\$2.9\\text{ million}}$.", "correct"),
        ("2800000", "So revenue is $\\boxed{\\$2.9\\text{ million}}$.", "incorrect"),
    ],
)
def test_amounts_are_read_by_one_rule_on_both_sides(gold, final, status):
    assert grade_completion(gold, WORK + final).status == status


SHAPES = "Which shape is drawn?\n" + " ".join(f"({chr(65 + i)}) shape {i}" for i in range(18))


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        ("(K)", "So the answer is (K).", "correct"),
        ("(K)", "So the answer is (L).", "incorrect"),
        ("(R)", "The answer is (R).", "correct"),
        ("(R)", "The answer is (Q).", "incorrect"),
        ("(K)", "So the answer is (K) shape 10.", "correct"),
        ("(A)", "So the answer is (A).", "correct"),
        ("(A)", "So the answer is (K).", "incorrect"),
    ],
)
def test_option_letters_past_j(gold, final, status):
    assert grade_completion(gold, "Let's think step by step.\n" + final, problem=SHAPES).status == (
        status
    )


def test_a_letter_past_j_is_a_choice_only_in_parentheses():
    # "K" alone is a symbol (kelvin, a constant): math, not option K
    assert grade_completion("K", "The answer is $K$.").status == "correct"
    assert grade_completion("K", "The answer is $k$.").status != "correct"


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        (") > >", "So the answer is ) > >.", "correct"),
        (") > >", "So the answer is ) >.", "incorrect"),
        (") > >", "So the answer is > ) >.", "incorrect"),
        ("] } )", "So the answer is ]}).", "correct"),
        ("] } )", "So the answer is ] ) }.", "incorrect"),
    ],
)
def test_closing_brackets_are_compared_bracket_by_bracket(gold, final, status):
    work = "Let's think step by step. We should process each input one by one.\n"
    assert grade_completion(gold, work + final).status == status


def test_the_options_listed_at_the_end_choose_none():
    listing = "He walks.\nThe options are:\nA) 1\nB) 2\nC) 3\nD) 4\nE) 5"
    assert grade_completion("E", listing).status != "correct"


def test_a_statement_cut_off_at_an_opening_bracket_is_no_bracket_answer():
    cut = "The answer is (a).\nThe answer is (a).\nThe answer is ("
    assert grade_completion("(a)", cut).status == "correct"


AQUA = "A man walks. How fast?\nOptions: A)1 step/minute B)2 steps/minute C)3 D)4 E)5"


@pytest.mark.parametrize(
    ("gold", "final", "problem", "status"),
    [
        ("A", "A)1 step/minute", AQUA, "correct"),
        ("A", "B)2 steps/minute", AQUA, "incorrect"),
        ("A", "A) 3 km", None, "correct"),
        ("A", "B) 3 km", None, "incorrect"),
        # a value gold, no options listed: the option's content is the answer
        ("12", "B) 12 km", None, "correct"),
        ("13", "B) 12 km", None, "incorrect"),
    ],
)
def test_a_last_line_that_is_an_option_with_its_content(gold, final, problem, status):
    completion = "He walks one step each minute, so the rate is one step per minute.\n" + final
    assert grade_completion(gold, completion, problem=problem).status == status


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        ("D", "So the correct answer would be (D).", "correct"),
        ("D", "So the correct answer would be (C).", "incorrect"),
        ("7", "Hence the answer should be 7.", "correct"),
        ("7", "Hence the answer should be 8.", "incorrect"),
    ],
)
def test_the_answer_would_be(gold, final, status):
    assert grade_completion(gold, "We count the cases.\n" + final).status == status


WORDS = (
    "abbey beatific cornerstone delirium everglade fascinate grandiose hereinafter"
    " insurmountable jubilant kaleidoscope"
)


@pytest.mark.parametrize(
    ("final", "status"),
    [
        (f"So the answer is {WORDS}.", "correct"),
        (f"So the answer is {WORDS.replace('abbey beatific', 'beatific abbey')}.", "incorrect"),
        ("So the answer is " + ", ".join(WORDS.split()) + ".", "correct"),
        ("So the answer is " + ", ".join(WORDS.split()[:-1]) + ".", "incorrect"),
    ],
)
def test_a_long_list_of_words_is_one_answer(final, status):
    work = "Let's think step by step. The first letters are a, b, c, d, e, f, g, h, i, j, k.\n"
    assert grade_completion(WORDS, work + final).status == status


LOOP = "Let me recompute: 3^4 = 81. "


@pytest.mark.parametrize(
    ("text", "loops"),
    [
        ("Work.\n" + LOOP * 5 + LOOP[:9], True),
        ("Work.\n" + "We get 3 here.\n" * 8, True),
        ("Work.\n" + "We get 3 here.\n" * 3 + "We get 3", True),  # the limit cut a copy
        # a closing line restated back to back, then the end: read once, no loop
        ("Work.\nWe get 3 here.\nWe get 3 here.\nWe get 3 here.", False),
        ("Work. So the answer is 5.", False),
        ("a\n\\end{align*}\nb\n\\end{align*}\nc\n\\end{align*}", False),
        ("| a | b |\n|---|---|---|---|---|---|---|", False),
    ],
)
def test_a_loop_is_told_by_its_end(text, loops):
    assert looping(text) is loops


def test_a_loop_cut_off_by_the_limit_states_no_answer():
    # the number its last line ends with is a step of the loop
    assert grade_completion("81", "Some work.\n" + LOOP * 6 + LOOP[:-2]).status == "no_answer"
    derivation = "We solve.\n" + "x + 1 = 3\nso x = 2\nLet me double check.\n" * 3 + "x + 1 = 3"
    assert grade_completion("3", derivation).status == "no_answer"


def test_a_loop_of_different_answers_is_undecided_but_one_answer_repeated_is_stated():
    undecided = "".join(f"The answer is ({x}).\nHmm, maybe not.\n" for x in "ABC" * 3)
    assert grade_completion("C", "Think.\n" + undecided + "The answer is (C).").status == (
        "no_answer"
    )
    decided = "The answer is 6.\n" + "This answer is correct.\n" * 8
    assert grade_completion("6", decided).status == "correct"
    assert grade_completion("7", decided).status == "incorrect"
    # a change of mind that is no loop: the last statement counts
    changed = "The answer is (A).\nNo wait, recheck: it is C.\nThe answer is (C)."
    assert grade_completion("C", changed).status == "correct"


def test_a_loops_last_statement_cut_by_the_limit_leaves_the_one_before():
    loop = (
        "We compute the limit.\n"
        + "The answer is $-\\frac{1}{2}$.\n" * 12
        + "The answer is $-\\frac{1"
    )
    assert grade_completion("-\\frac{1}{2}", loop).status == "correct"
    assert grade_completion("\\frac{1}{2}", loop).status == "incorrect"


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        # a unit stated after "the answer is" was dropped, and any unit then matched
        ("5 cents", "The answer is 5 dollars.", "incorrect"),
        ("12 cm", "The answer is 12 mg.", "incorrect"),
        ("14", "The answer is 14 bags.", "correct"),
        ("14", "The answer is 14 km.", "correct"),
        # units of one dimension compare by value, exactly
        ("12 cm", "The answer is 120 mm.", "correct"),
        ("12 cm", "The answer is 121 mm.", "incorrect"),
        ("12 cm", "The answer is $120\\text{ mm}$.", "correct"),
        ("2 hours", "The answer is 120 minutes.", "correct"),
        ("2 hours", "The answer is 121 minutes.", "incorrect"),
        ("1.5 kg", "Answer: 1500 g", "correct"),
        ("1.5 kg", "Answer: 150 g", "incorrect"),
        ("3 m^2", "Answer: 30000 cm^2", "correct"),
        ("3 m^2", "Answer: 300 cm^2", "incorrect"),
        ("5 ft", "Answer: 60 inches", "correct"),
        ("5 ft", "Answer: 61 inches", "incorrect"),
        # an approximate conversion is never made
        ("1 mi", "Answer: 1.6 km", "incorrect"),
        # a unit against a gold without one: the number decides
        ("12", "The answer is 120 mm.", "incorrect"),
    ],
)
def test_units_are_kept_and_compared_by_value(gold, final, status):
    assert grade_completion(gold, "We measure it.\n" + final).status == status


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        ("Paris", "The capital of France is Paris.", "correct"),
        ("Paris", "The capital of France is Lyon.", "incorrect"),
        ("New York", "So the biggest city is New York.", "correct"),
        ("New York", "So the biggest city is New Haven.", "incorrect"),
        ("blue", "The colour of the ball is blue.", "correct"),
        # negated, or a word on how the work stands: no answer
        ("Paris", "The capital is not Paris.", "no_answer"),
        ("done", "The word is done.", "no_answer"),
    ],
)
def test_a_text_gold_reads_the_words_after_the_last_copula(gold, final, status):
    assert grade_completion(gold, "We look it up.\n\n" + final).status == status


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        ("CD", "#### C,D", "correct"),
        ("CD", "#### C,E", "incorrect"),
        ("C", "#### C,D", "incorrect"),
        ("ACD", "Answer: A, C and D", "correct"),
        ("ACD", "Answer: A, C", "incorrect"),
    ],
)
def test_several_option_letters_listed_are_the_options_chosen(gold, final, status):
    assert grade_completion(gold, "We check each statement.\n" + final).status == status


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        ("0.5", "Answer: ½", "correct"),
        ("0.25", "Answer: ½", "incorrect"),
        ("x^2+1", "The answer is x² + 1.", "correct"),
        ("x^2+2", "The answer is x² + 1.", "incorrect"),
        ("2\\sqrt{3}", "The answer is 2√3.", "correct"),
        ("3\\sqrt{3}", "The answer is 2√3.", "incorrect"),
    ],
)
def test_a_stated_final_in_unicode_math_is_math(gold, final, status):
    assert grade_completion(gold, "We compute step by step.\n" + final).status == status


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        # a gold with ± is both values: alternatives that are those two values are no hedge
        ("\\pm 3", "The answer is $3$ or $-3$.", "correct"),
        ("\\pm 3", "The answer is $3$ or $-4$.", "incorrect"),
        ("3", "The answer is $3$ or $-3$.", "incorrect"),
        # symbols in an order, written plainly
        ("b > a > c", "The answer is b, a, c.", "correct"),
        ("b > a > c", "The answer is a, b, c.", "incorrect"),
    ],
)
def test_plus_minus_golds_and_orders_of_symbols(gold, final, status):
    assert grade_completion(gold, "We solve it.\n" + final).status == status


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        # parentheses are an accountant's minus, on an amount
        ("(1.9) million", "The ending balance is -$1.9 million.", "correct"),
        ("(1.9) million", "The ending balance is $1.9 million.", "incorrect"),
        ("-1234", "Answer: $(1,234)", "correct"),
        ("1234", "Answer: $(1,234)", "incorrect"),
        # a decimal percent gold states its precision too
        ("-27.4%", "Answer: -27.39%", "correct"),
        ("-27.4%", "Answer: -27.39", "correct"),
        ("-27.4%", "Answer: -27.49%", "incorrect"),
        ("-27.4%", "Answer: -27.5%", "incorrect"),
        # a coarser answer than the gold stays wrong
        ("38.98%", "Answer: 39.0%", "incorrect"),
    ],
)
def test_accounting_negatives_and_percent_precision(gold, final, status):
    assert grade_completion(gold, WORK + final).status == status


def test_a_number_in_parentheses_alone_is_no_negative():
    assert amount_value("(1.9)") is None
    assert grade_completion("1.9", "Answer: (1.9)").status == "correct"


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        ("Yes", "答案：是", "correct"),
        ("No", "答案：否", "correct"),
        ("Yes", "答案：否", "incorrect"),
        ("No", "答案：不是", "correct"),
        ("Yes", "Respuesta: Sí", "correct"),
        ("Yes", "Réponse : Oui", "correct"),
        ("No", "Réponse : Non", "correct"),
        ("No", "Antwort: Nein", "correct"),
        ("Yes", "Antwort: Nein", "incorrect"),
        ("No", "Ответ: Нет", "correct"),
        # and a number in words with thousands grouped by spaces
        ("27000", "Ответ: 27 000 долларов", "correct"),
        ("27", "Ответ: 27 000 долларов", "incorrect"),
    ],
)
def test_yes_and_no_in_other_languages(gold, final, status):
    assert grade_completion(gold, "We reason about it carefully.\n" + final).status == status


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        ("AC", "The correct answers are A and C.", "correct"),
        ("AC", "The correct answers are A and D.", "incorrect"),
        ("AC", "The answer is a, c.", "correct"),
        ("AC", "The answer is a, d.", "incorrect"),
        ("B", "Correct option: B", "correct"),
        ("B", "Correct option: C", "incorrect"),
        # values named one after another, for a pair gold
        ("(5, 3)", "So x = 5 and y = 3.", "correct"),
        ("(5, 3)", "So x = 3 and y = 5.", "incorrect"),
        ("(1, 2)", "So the answer is x = 1 and y = 2.", "correct"),
        ("(1, 2)", "So the answer is x = 1 and y = 3.", "incorrect"),
        # a single gold still takes the last named value, as before
        ("3", "So x = 5 and y = 3.", "correct"),
    ],
)
def test_several_answers_stated_together(gold, final, status):
    assert grade_completion(gold, "We reason about it carefully.\n" + final).status == status


S1 = (
    "<|im_start|>think\nMaybe it is \\boxed{365}? No: 3 + 4 = 7.\n"
    "<|im_start|>answer\nAnswer: The total is \\boxed{{v}}."
)


@pytest.mark.parametrize(("gold", "status"), [("7", "correct"), ("365", "incorrect")])
def test_think_and_answer_sections_of_one_turn_are_no_run_on(gold, status):
    # s1's format: <|im_start|>answer opens the model's own answer, not a new problem
    assert grade_completion(gold, S1.replace("{v}", "7")).status == status


def test_a_new_user_turn_is_still_a_run_on():
    run_on = "So \\boxed{5}.<|im_start|>user\nWhat is 2+2? \\boxed{4}"
    assert grade_completion("5", run_on).status == "correct"


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        # the answer label inside display math
        ("294", "Final Answer:\n$$ Answer: \\$294 $$", "correct"),
        ("295", "Final Answer:\n$$ Answer: \\$294 $$", "incorrect"),
        ("300", "**Final Answer**:\n$$ \\text{Answer:} \\, 300 $$", "correct"),
        ("95", "**Final Answer**:\n\\[\nAnswer: 95 \\text{ minutes}\n\\]", "correct"),
        # a decimal comma in the answer, for a single gold
        ("26", "Thus the price was \\boxed{26,00} $.", "correct"),
        ("26", "Thus the price was \\boxed{26,50} $.", "incorrect"),
        ("1000", "Thus \\boxed{1,000}.", "correct"),
        # a repeated answer line cut by the limit: the one before it
        (
            "\\frac{3}{4}",
            "Answer: $\\frac{3}{4}$\nAnswer: $\\frac{3}{4}$\nAnswer: $\\frac{3",
            "correct",
        ),
        ("3", "Answer: $\\frac{3}{4}$\nAnswer: $\\frac{3}{4}$\nAnswer: $\\frac{3", "incorrect"),
        # a dollar of money is no cut
        ("36", "Answer: $36.00\n\nAnswer: $36.00", "correct"),
        ("37", "Answer: $36.00\n\nAnswer: $36.00", "incorrect"),
        # more languages' answer words
        ("12", "**উত্তর:** 12", "correct"),
        ("12", "Jibu: 12", "correct"),
        ("13", "Jibu: 12", "incorrect"),
    ],
)
def test_answer_labels_in_math_and_cut_lines(gold, final, status):
    assert grade_completion(gold, "We work it out step by step.\n" + final).status == status


COPAL = "Memilih alternatif yang paling masuk akal.\n\nX maka...\nA. satu.\nB. dua."
REASONS = " ".join(["Alasan ini panjang dan tidak menyebut pilihan apa pun lagi."] * 60)


@pytest.mark.parametrize(
    ("gold", "opening", "status"),
    [
        ("A", "Alternatif yang paling masuk akal adalah:\n\nA. satu.", "correct"),
        ("B", "Alternatif yang paling masuk akal adalah:\n\nA. satu.", "incorrect"),
        ("B", "The answer is (B).", "correct"),
        ("C", "The answer is (B).", "incorrect"),
    ],
)
def test_an_answer_stated_first_then_argued_at_length(gold, opening, status):
    completion = opening + "\n\nAlasan:\n" + REASONS
    assert grade_completion(gold, completion, problem=COPAL).status == status


def test_an_opening_without_an_answer_states_none():
    completion = "Let us think about the options.\n\n" + REASONS
    assert grade_completion("A", completion, problem=COPAL).status == "no_answer"


@pytest.mark.parametrize(
    ("gold", "final", "status"),
    [
        ("77", "So she pays \\boxed{77\\text{ ユーロ}}.", "correct"),
        ("78", "So she pays \\boxed{77\\text{ ユーロ}}.", "incorrect"),
        ("77", "So she pays \\boxed{77\\text{ евро}}.", "correct"),
        ("77 cm", "So she pays \\boxed{77\\text{ евро}}.", "incorrect"),
    ],
)
def test_a_unit_in_any_script_is_a_unit(gold, final, status):
    assert grade_completion(gold, "We add the prices.\n" + final).status == status


@pytest.mark.parametrize(
    ("gold", "opening", "status"),
    [
        (
            "B",
            'Dari dua alternatif, pilihan B "orang itu lapar" tampak lebih masuk akal.',
            "correct",
        ),
        (
            "A",
            'Dari dua alternatif, pilihan B "orang itu lapar" tampak lebih masuk akal.',
            "incorrect",
        ),
        ("B", 'Of the two, option B ("he was hungry") is the more plausible one.', "correct"),
        # two options, a negation or both: no single choice
        ("A", "Tidak ada di antara pilihan A dan B yang paling masuk akal.", "no_answer"),
        ("A", "Kedua alternatif A dan B adalah pilihan yang masuk akal.", "no_answer"),
        ("A", "Option A is not the most plausible one here.", "no_answer"),
    ],
)
def test_an_opening_sentence_that_chooses_one_named_option(gold, opening, status):
    completion = opening + " " + REASONS
    assert grade_completion(gold, completion, problem=COPAL).status == status


@pytest.mark.parametrize(("gold", "status"), [("A", "correct"), ("B", "incorrect")])
def test_a_bold_option_on_the_line_after_the_lead_in(gold, status):
    final = (
        "Therefore, the correct answer is:\n\n**Option A**: (1S,4R,5S,6S)-4,5,6-trimethylhex-2-enol"
    )
    problem = "Which is it?\n(A) first\n(B) second\n(C) third\n(D) fourth"
    assert grade_completion(gold, "We compare.\n" + final, problem=problem).status == status
