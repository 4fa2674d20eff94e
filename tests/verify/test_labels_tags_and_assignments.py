"""Round 20's classes from sources leash had not seen, each with a wrong twin.

- an answer tag closed with a backslash, ``<answer> 44.38 <\\answer>`` (MedCalc-Bench's GPT-4);
- a choice answer labelled by a word leash has no list for, ``Seçenek: E`` (Turkish), first
  line then explanation; and a statement that closes with ``…: B.`` (FLAN-T5);
- a logic puzzle's gold that assigns a word to each name (knights and knaves), answered as a
  numbered list, one clause a line, or ``Name: Word``;
- an option's letter with its own content, and options labelled in LaTeX (AMC, MathOdyssey);
- a gold that is a grid of numbers (a solved Sudoku), compared whole: read as math it was
  its last number, a false accept of any grid that ended alike.
"""

from __future__ import annotations

import pytest

from sampler.verify.answers.assignment_lists import assignments, closing_assignments
from sampler.verify.answers.gold_types import options_from_problem
from sampler.verify.answers.number_grids import gold_grid
from sampler.verify.answers.one_sample import grade_completion

OPTIONS = "Hangisi doğrudur?\nA) bir\nB) iki\nC) üç\nD) dört\nE) beş"
KK_GOLD = "Amelia is a knight, Matthew is a knave, Daniel is a knight, and Mia is a knave."
KK_LIST = (
    "(1) Amelia is a knight\n(2) Matthew is a knave\n(3) Daniel is a knight\n(4) Mia is a knave"
)


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        (
            "44.384",
            "[code execution output]\n44.38424137676157\n\n<answer> 44.384 <\\answer>",
            "correct",
        ),
        (
            "44.384",
            "[code execution output]\n44.38424137676157\n\n<answer> 41.2 <\\answer>",
            "incorrect",
        ),
        ("7", "<answer>7<\\answer>", "correct"),
    ],
)
def test_an_answer_tag_closed_with_a_backslash(gold: str, completion: str, expected: str) -> None:
    graded = grade_completion(gold, completion)
    assert graded.status == expected
    assert graded.rule == "answer tag"


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        ("E", "Seçenek: E\nAçıklama: Parçada E seçeneği bu fikri doğrudan yansıtıyor.", "correct"),
        (
            "D",
            "Seçenek: E\nAçıklama: Parçada E seçeneği bu fikri doğrudan yansıtıyor.",
            "incorrect",
        ),
        ("B", "Opción: B\n\nExplicación: la segunda es la única correcta.", "correct"),
        ("B", "**Choice:** B\nBecause the second one holds.", "correct"),
        ("A", "**Choice:** B\nBecause the second one holds.", "incorrect"),
        (
            "B",
            "Porcelain is a dense substance. To prevent porosity it should be baked: B.",
            "correct",
        ),
        (
            "C",
            "Porcelain is a dense substance. To prevent porosity it should be baked: B.",
            "incorrect",
        ),
    ],
)
def test_a_labelled_or_colon_closed_option_letter(
    gold: str, completion: str, expected: str
) -> None:
    assert grade_completion(gold, completion, problem=OPTIONS).status == expected


def test_a_colon_letter_without_a_full_stop_may_be_cut_off_at_a_variable() -> None:
    cut = "We can express the distance between X and Y (D) in terms of k: D"
    assert grade_completion("D", cut, problem=OPTIONS).status == "no_answer"


def test_a_labelled_first_line_is_no_option_when_the_next_lines_list_options() -> None:
    listing = "Options: A\nB) iki\nC) üç\n\nI cannot decide."
    assert grade_completion("A", listing, problem=OPTIONS).status != "correct"


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        (f"</think>\n<answer>\n{KK_LIST}\n</answer>", "correct"),
        (f"</think>\n<answer>{KK_LIST.replace(chr(10), '.' + chr(10))}.</answer>", "correct"),
        (
            "<answer>(1) Amelia: Knight (2) Matthew: Knave (3) Daniel: Knight"
            " (4) Mia: Knave</answer>",
            "correct",
        ),
        (
            "Summarizing:\n- Mia is a knave\n- Daniel is a knight\n- Matthew is a knave"
            "\n- Amelia is a knight",
            "correct",
        ),
        # one word changed, a name missing, a name twice: wrong answers, not none
        (f"<answer>{KK_LIST.replace('Mia is a knave', 'Mia is a knight')}</answer>", "incorrect"),
        (f"<answer>{KK_LIST.rsplit(chr(10), 1)[0]}</answer>", "incorrect"),
        (f"<answer>{KK_LIST}\n(5) Mia is a knight</answer>", "incorrect"),
        (
            "<answer>(1) Amelia is not a knight (2) Matthew is a knave (3) Daniel is a knight"
            " (4) Mia is a knave</answer>",
            "incorrect",
        ),
    ],
)
def test_a_logic_puzzles_assignments_in_any_layout(completion: str, expected: str) -> None:
    assert grade_completion(KK_GOLD, completion).status == expected


@pytest.mark.parametrize(
    "text",
    [
        "Paris",  # one clause: a text gold as before
        "Beauty and the Beast",
        "The answer is 5, and the remainder is 2.",  # numbers, no word assigned
        "Amelia is a knight, and he said so because the others lie about it.",
    ],
)
def test_texts_that_assign_nothing(text: str) -> None:
    assert assignments(text) is None


def test_closing_assignments_reads_only_a_block_of_assignments() -> None:
    assert closing_assignments("So Amelia lies.\n\nAmelia is a knave, and Mia is a knight.") == (
        "Amelia is a knave, and Mia is a knight."
    )
    assert (
        closing_assignments("Amelia is a knave, and Mia is a knight.\n\nSo I am not sure.") is None
    )


ROCKS = (
    "What do all rocks have in common?\n\nA) Rocks are made of one or more minerals.\n"
    "B) Rocks are made of two or more elements.\nC) A rock is cleared to make space."
)


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        # an option's letter with its own content: the letter, whatever words the content has
        ("A", "A) Rocks are made of one or more minerals.", "correct"),  # "or" is no hedge
        ("B", "A) Rocks are made of one or more minerals.", "incorrect"),
        ("C", "C) A rock is cleared to make space.", "correct"),  # the article "A" is no letter
        ("A", "C) A rock is cleared to make space.", "incorrect"),
        ("A", "Therefore, the answer is A) Rocks are made of one or more minerals.", "correct"),
        # a list's bullet before the option is no minus sign
        ("A", "The correct answer is:\n\n- A. Rocks are made of one or more minerals.", "correct"),
        (
            "B",
            "The correct answer is:\n\n- A. Rocks are made of one or more minerals.",
            "incorrect",
        ),
        # a letter with another option's content: which one is meant cannot be told
        ("A", "B) Rocks are made of one or more minerals.", "incorrect"),
    ],
)
def test_an_option_letter_with_its_own_content(gold: str, completion: str, expected: str) -> None:
    assert grade_completion(gold, completion, problem=ROCKS).status == expected


AMC = (
    "What is the surface area? $\\textbf{(A)}\\ 85 \\qquad \\textbf{(B)}\\ 220 \\qquad"
    " \\textbf{(C)}\\ 310 \\qquad \\textbf{(D)}\\ 400$"
)
ALIGNED = (
    "What is the center of the circle $(x-1)^2+(y+3)^2=25$?\n\\begin{align*}\n"
    "\\text{A)}\\ & (-1,3) &\n\\text{B)}\\ & (3,-1)  \\\\\n\\text{C)}\\ & (1,-3) &\n"
    "\\text{D)}\\ & (-3,1)\\\\\n\\end{align*}"
)


@pytest.mark.parametrize(
    ("problem", "options"),
    [
        (AMC, (("A", "85"), ("B", "220"), ("C", "310"), ("D", "400"))),
        (ALIGNED, (("A", "(-1,3)"), ("B", "(3,-1)"), ("C", "(1,-3)"), ("D", "(-3,1)"))),
        ("$\\textbf{(A) }\\frac{1}{2}\\qquad\\textbf{(B) }1$", (("A", "\\frac{1}{2}"), ("B", "1"))),
        # one LaTeX label is no list of options; a point named in \text{} is no option
        ("Let $\\text{(A)}$ be the first case.", ()),
        ("The points $\\text{A}$ and $\\text{B}$ lie on the circle.", ()),
    ],
)
def test_options_labelled_in_latex(problem: str, options: tuple[tuple[str, str], ...]) -> None:
    assert options_from_problem(problem) == options


@pytest.mark.parametrize(
    ("gold", "completion", "problem", "expected"),
    [
        ("D", '{"reasoning": "100 + 300 = 400", "answer": 400}', AMC, "correct"),
        ("C", '{"reasoning": "100 + 300 = 400", "answer": 400}', AMC, "incorrect"),
        ("C", "The center is $(1, -3)$.", ALIGNED, "correct"),
        ("A", "The center is $(1, -3)$.", ALIGNED, "incorrect"),
    ],
)
def test_an_options_value_answers_a_latex_listed_choice(
    gold: str, completion: str, problem: str, expected: str
) -> None:
    assert grade_completion(gold, completion, problem=problem).status == expected


SUDOKU = "4 3 1 2\n2 1 4 3\n3 4 2 1\n1 2 3 4"


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        ("Solution:\n```\n4 3 1 2\n2 1 4 3\n3 4 2 1\n1 2 3 4\n```", "correct"),
        (
            "| 4 | 3 | 1 | 2 |\n|---|---|---|---|\n| 2 | 1 | 4 | 3 |\n| 3 | 4 | 2 | 1 |"
            "\n| 1 | 2 | 3 | 4 |",
            "correct",
        ),
        ("[[4, 3, 1, 2],\n [2, 1, 4, 3],\n [3, 4, 2, 1],\n [1, 2, 3, 4]]", "correct"),
        # a wrong grid whose last number is the gold's last: read as math, it was correct
        ("Solution:\n1 3 4 2\n2 1 1 3\n3 4 2 1\n4 2 3 4", "incorrect"),
        (
            "Draft:\n4 3 1 2\n2 1 4 3\n3 4 2 1\n1 2 3 4"
            "\n\nFixed:\n4 3 2 1\n2 1 4 3\n3 4 2 1\n1 2 3 4",
            "incorrect",
        ),
        # no grid of the gold's width: no answer, whatever number closes the text
        ("The answer is 4.", "no_answer"),
        ("4 3 1\n2 1 4\n3 4 2", "no_answer"),
    ],
)
def test_a_grid_gold_is_compared_whole(completion: str, expected: str) -> None:
    assert grade_completion(SUDOKU, completion).status == expected


@pytest.mark.parametrize(
    ("gold", "grid"),
    [
        (SUDOKU, SUDOKU),
        ("[1, 2]\n[3, 4]", "1 2\n3 4"),
        ("1 2\n3 4 5", None),  # rows of other lengths
        ("6 4 0", None),  # one line: a list of numbers, as before
        ("x = 5\ny = 3", None),
        ("Natalia sold 48/2 = 24 clips.\nThen 72 in all.", None),
    ],
)
def test_which_golds_are_grids(gold: str, grid: str | None) -> None:
    assert gold_grid(gold) == grid


@pytest.mark.parametrize(
    ("gold", "completion", "expected"),
    [
        # a Greek letter alone is a symbol, in a JSON answer or a sentence
        ("$\\theta^2$", '{"reasoning": "…", "answer": "θ^2"}', "correct"),
        ("$\\theta^3$", '{"reasoning": "…", "answer": "θ^2"}', "incorrect"),
        ("$\\alpha+\\beta$", '{"answer": "α+β"}', "correct"),
        ("$\\alpha+\\beta$", '{"answer": "α−β"}', "incorrect"),
        ("$\\Delta x$", "The answer is Δx.", "correct"),
        # a Greek word stays words; a unit's μ stays a unit
        ("4", "Η απάντηση είναι 4.", "correct"),
        ("5 μm", "The answer is 5 μm.", "correct"),
        ("5 μm", "The answer is 6 μm.", "incorrect"),
    ],
)
def test_a_greek_letter_alone_is_a_symbol(gold: str, completion: str, expected: str) -> None:
    assert grade_completion(gold, completion).status == expected
