"""Round 16, fourth part, from JEEBench answered in Arabic, Chinese and Hindi (GPT-3.5 and
GPT-4): "the correct answer is" with the adjective between the word for "answer" and its
copula ("الإجابة الصحيحة هي [C]", "La risposta corretta è 5"), Arabic's copula as the anchor
of a closing statement ("قيمة $f(x)$ هي $\\frac{2}{5}$"), an option in square brackets after
选项, several options in brackets joined by 和, Arabic option letters (أ) (ب) (ج) (د) as A to
D. Each with its wrong twin."""

from __future__ import annotations

import pytest

from sampler.verify.answers.one_sample import grade_completion


@pytest.mark.parametrize(
    ("gold", "text", "status"),
    [
        ("D", "لذا، الإجابة هي [D] مركز الارتفاع.", "correct"),  # was no_answer
        ("C", "لذا، الإجابة هي [D] مركز الارتفاع.", "incorrect"),
        ("D", "لذا، الإجابة الصحيحة هي [D] 126.", "correct"),  # was the value 126
        ("B", "لذا، الإجابة الصحيحة هي [D] 126.", "incorrect"),
        ("A", "وبالتالي، الإجابة الصحيحة هي الخيار (A).", "correct"),
        ("5", "La risposta corretta è 5.", "correct"),
        ("6", "La risposta corretta è 5.", "incorrect"),
        ("0.4", "إذاً، قيمة $f(x)$ هي $\\frac{2}{5}$.", "correct"),  # a closing statement
        ("0.5", "إذاً، قيمة $f(x)$ هي $\\frac{2}{5}$.", "incorrect"),
        ("A", "因此，选项(A)是正确的。", "correct"),  # was no_answer
        ("B", "因此，选项(A)是正确的。", "incorrect"),
        ("BC", "所以，选项[B]和[C]是正确的。", "correct"),
        ("B", "所以，选项[B]和[C]是正确的。", "incorrect"),  # two options chosen
        ("BC", "الإجابة: (ب) و (ج)", "correct"),  # Arabic option letters
        ("BD", "الإجابة: (ب) و (ج)", "incorrect"),
    ],
)
def test_option_markers_in_arabic_and_chinese(gold, text, status):
    assert grade_completion(gold, "We work it out.\n\n" + text).status == status
