"""Verdicts on tricky pairs: our fixtures and pairs drawn from the real benchmark files."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sampler.benchmarks.presets import load_benchmark_file
from sampler.verify.answers.extraction import AnswerSpan, extract_answer
from sampler.verify.answers.golds import Gold, gold_from_question, strip_math_delimiters
from sampler.verify.answers.math_verifier import judge
from sampler.verify.answers.verdict import integer_verdict, prepare_span
from tests.support.verify_fixtures import BENCHMARKS_DIR


def verdict(gold: str, answer_text: str, metadata: dict | None = None):
    """Full path for one sample: gold quirks, extraction from a completion, unit, judge."""
    g = gold_from_question(gold, json.dumps(metadata) if metadata else None)
    span = extract_answer(answer_text)
    if span is None:
        return "no_answer"
    return judge(g, prepare_span(span, g)).status


def boxed(answer: str) -> str:
    return f"We compute carefully.\nThe final answer is $\\boxed{{{answer}}}$."


CASES = [
    # fractions, decimals, \dfrac
    (r"\frac{1}{2}", "0.5", None, "correct"),
    ("0.5", r"\frac12", None, "correct"),
    (r"\dfrac{9}{7}", r"\frac{9}{7}", None, "correct"),
    (r"\frac{9}{7}", r"\dfrac{9}{7}", None, "correct"),
    (r"\frac{1}{3}", "0.33", None, "incorrect"),
    (r"\frac{9}{7}", r"\frac{7}{9}", None, "incorrect"),
    (r"\frac{9}{7}", "1.29", None, "incorrect"),
    # AMC float golds
    ("27.0", "27", None, "correct"),
    ("27", "27.0", None, "correct"),
    ("27.0", "28", None, "incorrect"),
    # intervals
    ("(3,4]", "(3,4]", None, "correct"),
    ("(3,4]", "(3,4)", None, "incorrect"),
    ("(3,4]", "[3,4]", None, "incorrect"),
    (r"(-\infty, 0]", r"(-\infty,0]", None, "correct"),
    (r"x \in [-2,7]", "[-2,7]", None, "correct"),
    (r"(-\infty, 2) \cup (3, \infty)", r"(-\infty,2)\cup(3,\infty)", None, "correct"),
    (r"(-\infty, 2) \cup (3, \infty)", r"(-\infty,2]\cup(3,\infty)", None, "incorrect"),
    # tuples: order matters
    ("(1,-2)", "(1, -2)", None, "correct"),
    ("(1,-2)", "(-2, 1)", None, "incorrect"),
    (r"\left( 3, \frac{\pi}{2} \right)", r"(3, \frac{\pi}{2})", None, "correct"),
    (r"\left( 3, \frac{\pi}{2} \right)", r"(3, \frac{\pi}{3})", None, "incorrect"),
    # radicals, thousands separators, money, degrees, text
    (r"2\sqrt{3}", r"\sqrt{12}", None, "correct"),
    (r"2\sqrt{3}", "3.46", None, "incorrect"),
    (r"10,\!080", "10080", None, "correct"),
    (r"10,\!080", "10,080", None, "correct"),
    (r"10,\!080", "10,081", None, "incorrect"),
    (r"\$18.90", "18.90", None, "correct"),
    (r"90^\circ", "90", None, "correct"),
    (r"\text{Evelyn}", r"\text{Evelyn}", None, "correct"),
    (r"\text{Evelyn}", r"\text{Navin}", None, "incorrect"),
    # numerals in a base: another base is wrong even though the digits agree
    ("52_8", "52_8", None, "correct"),
    ("4210_{5}", "4210_5", None, "correct"),
    ("52_8", "52_9", None, "incorrect"),
    # multi-part (OlympiadBench): every part, in any order, nothing extra
    ("$69$,$84$", "84, 69", {"is_multiple_answer": True}, "correct"),
    ("$69$,$84$", "69", {"is_multiple_answer": True}, "incorrect"),
    ("$69$,$84$", "69, 84, 1", {"is_multiple_answer": True}, "incorrect"),
    (
        "$(6,3),(9,3),(9,5),(54,5)$",
        "(9,3),(6,3),(54,5),(9,5)",
        {"is_multiple_answer": True},
        "correct",
    ),
    (
        "$(6,3),(9,3),(9,5),(54,5)$",
        "(9,3),(6,3),(54,5),(5,9)",
        {"is_multiple_answer": True},
        "incorrect",
    ),
    ("$f(x)=x,f(x)=-x$", r"f(x)=-x \text{ and } f(x)=x", {"is_multiple_answer": True}, "correct"),
    ("$-2,0,2$", r"\{-2, 0, 2\}", {"is_multiple_answer": True}, "correct"),
    # units from the metadata
    (r"$\frac{600}{7}$", r"\frac{600}{7} \text{ km/h}", {"unit": "km/h"}, "correct"),
    (r"$\frac{600}{7}$", r"\frac{600}{7} km/h", {"unit": "km/h"}, "correct"),
    ("$166$", "166 cm^2", {"unit": "$cm^2$"}, "correct"),
    ("4.2", r"4.2\%", {"unit": "%"}, "correct"),
    ("45", r"45 \text{ minutes}", {"unit": "minute"}, "correct"),
    ("45", r"46 \text{ minutes}", {"unit": "minute"}, "incorrect"),
]


@pytest.mark.parametrize(("gold", "answer", "metadata", "expected"), CASES)
def test_fixture_verdicts(gold, answer, metadata, expected):
    assert verdict(gold, boxed(answer), metadata) == expected


def test_a_qualified_statement_without_a_box_is_never_right():
    # "the answer is" states words that qualify the value: a stated answer, not a right one
    assert verdict("5", "I think the answer is 5, but I ran out of time") == "incorrect"
    assert verdict("5", "I ran out of time before I could finish the") == "no_answer"


def test_normalised_answers_group_equal_spellings():
    gold = Gold("1/2")
    forms = {judge(gold, AnswerSpan(a)).answer for a in (r"\frac{1}{2}", r"\dfrac12", "1/2")}
    assert forms == {"1/2"}
    assert judge(gold, AnswerSpan(r"\frac{1}{3}")).answer == "1/3"


def test_unparseable_gold_is_an_error_not_a_wrong_answer():
    assert judge(Gold(""), AnswerSpan("3")).status == "error"


@settings(max_examples=25, deadline=None)
@given(
    st.from_regex(r"-?0{0,2}[0-9]{1,4}", fullmatch=True),
    st.from_regex(r"-?0{0,2}[0-9]{1,4}", fullmatch=True),
)
def test_integer_shortcut_agrees_with_math_verify(gold, answer):
    g, span = Gold(gold), AnswerSpan(answer)
    quick = integer_verdict(g, span)
    slow = judge(g, span)
    assert quick is not None
    assert (quick.status, quick.answer) == (slow.status, slow.answer)


def test_integer_shortcut_only_for_plain_integers():
    assert integer_verdict(Gold("27"), AnswerSpan("27.0")) is None
    assert integer_verdict(Gold("1, 2", ("1", "2")), AnswerSpan("1")) is None
    assert integer_verdict(Gold("5"), AnswerSpan("5", free_text=True)) is None


# -- real benchmark files ------------------------------------------------------------------

REAL = [
    ("math500", 40),
    ("aime24", 30),
    ("amc23", 40),
    ("minerva_math", 12),
    ("olympiadbench", 25),
]


def _questions(name: str, count: int):
    path = BENCHMARKS_DIR / name / "test.jsonl"
    return load_benchmark_file(name, str(path)).questions[:count]


def _bumped(answer: str) -> str | None:
    """The answer with its last number increased by one (a wrong answer that looks close)."""
    numbers = list(re.finditer(r"\d+", answer))
    if not numbers:
        return None
    hit = numbers[-1]
    return answer[: hit.start()] + str(int(hit.group()) + 1) + answer[hit.end() :]


@pytest.mark.parametrize(("name", "count"), REAL)
def test_real_golds_verify_against_themselves_as_a_model_writes_them(name, count):
    """The gold, boxed as a model would write it ($ removed), is correct on every question."""
    for q in _questions(name, count):
        answer = strip_math_delimiters(q.gold)
        assert verdict(q.gold, boxed(answer), q.metadata) == "correct", (q.question_id, q.gold)


@pytest.mark.parametrize(("name", "count"), REAL)
def test_real_golds_reject_a_number_off_by_one(name, count):
    checked = 0
    for q in _questions(name, count):
        wrong = _bumped(strip_math_delimiters(q.gold))
        if wrong is None or re.search(r"\^\{?\d+\}?\s*$|\\mbox|\\text", wrong):
            continue  # a unit's exponent or a word changed, not the value
        assert verdict(q.gold, boxed(wrong), q.metadata) == "incorrect", (q.question_id, wrong)
        checked += 1
    assert checked > 0


def test_real_amc_float_golds_match_integer_answers():
    """AMC golds are JSON floats (27.0); an import may carry them as "27.0" text."""
    path = BENCHMARKS_DIR / "amc23" / "test.jsonl"
    golds = [json.loads(line)["answer"] for line in path.read_text().splitlines() if line.strip()]
    integral = [g for g in golds if isinstance(g, float) and g.is_integer()]
    assert len(integral) > 20
    for gold in integral[:20]:
        assert verdict(repr(gold), boxed(str(int(gold)))) == "correct", gold
        assert verdict(repr(gold), boxed(str(int(gold) + 1))) == "incorrect", gold


def test_real_math500_reference_solutions_are_correct():
    """A reference solution, used as a completion, is judged correct by its own gold."""
    path = BENCHMARKS_DIR / "math500" / "test.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()[:40]]
    for row in rows:
        assert verdict(row["answer"], row["solution"]) == "correct", row["unique_id"]


def test_real_olympiadbench_multi_part_golds():
    multi = [q for q in _questions("olympiadbench", 675) if q.metadata.get("is_multiple_answer")]
    assert multi
    for q in multi[:8]:
        gold = gold_from_question(q.gold, q.metadata)
        if len(gold.parts) < 2:
            continue
        # parts reversed: still correct; one part missing: incorrect
        assert verdict(q.gold, boxed(", ".join(reversed(gold.parts))), q.metadata) == "correct"
        assert verdict(q.gold, boxed(", ".join(gold.parts[1:])), q.metadata) == "incorrect"


# -- issue 12: every example of items 1 and 2 ---------------------------------------------

MULTI = {"is_multiple_answer": True}

ISSUE_12 = [
    # the final answer written in several boxes (item 1)
    ("$(2,2),(6,2)$", r"So \boxed{(2, 2)} \quad \text{and} \quad \boxed{(6, 2)}", MULTI, "correct"),
    ("$(2,2),(6,2)$", r"So \boxed{(6, 2)} \quad \text{and} \quad \boxed{(2, 2)}", MULTI, "correct"),
    ("1,2,3", r"So \boxed{1}, \boxed{2}, \boxed{3}", None, "correct"),
    ("$k=45$, $n=2$", r"\boxed{k = 45} \text{ and } \boxed{n = 2}", MULTI, "correct"),
    ("$x_{1}=2,x_{2}=-3$", r"\(x_1 = \boxed{2}\) and \(x_2 = \boxed{-3}\)", MULTI, "correct"),
    # named parts take bare answers in their own order; unnamed parts in any order
    ("$x_{1}=2,x_{2}=-3$", r"\(x_1 = \boxed{-3}\) and \(x_2 = \boxed{2}\)", MULTI, "incorrect"),
    ("$x_{1}=2,x_{2}=-3$", r"\boxed{-3, 2}", MULTI, "incorrect"),
    ("$x_{1}=2,x_{2}=-3$", r"\boxed{x_2 = -3, x_1 = 2}", MULTI, "correct"),
    # an intermediate box never joins the final one
    ("10", r"First \boxed{5}; after more work we find \boxed{10}", None, "correct"),
    ("5", r"First \boxed{5}; after more work we find \boxed{10}", None, "incorrect"),
    # scientific notation, spacing in lists, symbols, percent, choices (item 2)
    ("1e-3", boxed("0.001"), None, "correct"),
    ("1e-3", boxed("10^{-3}"), None, "correct"),
    ("1e-3", boxed("1e-3"), None, "correct"),
    ("1e-3", boxed("1e-4"), None, "incorrect"),
    ("4.5e33", boxed(r"4.5 \times 10^{33}"), None, "correct"),
    ("E_{1},E_{2}", boxed("E_{1}, E_{2}"), None, "correct"),
    ("E_{1},E_{2}", boxed("E_{1}, E_{3}"), None, "incorrect"),
    (r"\frac{1}{\sqrt{2}}c", boxed(r"\frac{c}{\sqrt{2}}"), None, "correct"),
    (r"\frac{1}{\sqrt{2}}c", boxed(r"\frac{1}{\sqrt{2}}"), None, "incorrect"),
    ("50", boxed(r"50.0\%"), None, "correct"),
    ("50", boxed(r"50\%"), None, "correct"),
    ("0.5", boxed(r"50\%"), None, "correct"),
    ("50", boxed(r"51.0\%"), None, "incorrect"),
    ("D", boxed("(D) (2,0)"), None, "correct"),
    ("D", boxed("(C) (2,0)"), None, "incorrect"),
    (r"\text{(D)}", boxed(r"\text{(D) } (2,0)"), None, "correct"),
    ("C(h)=4h+4", boxed("C(h) = 4 + 4h"), None, "correct"),
    ("C(h)=4h+4", boxed("C(h) = 4 + 4"), None, "incorrect"),
    ("8", boxed("4 + 4h"), None, "incorrect"),
    # text in sub- and superscripts is part of the symbol
    (r"v_{\text{max}}", boxed(r"v_{\text{min}}"), None, "incorrect"),
    (r"v_{\text{max}}", boxed(r"v_{\text{max}}"), None, "correct"),
    (
        r"\lambda_{\text {red}} / \sqrt{2}",
        boxed(r"\lambda_{\text{red}}\sqrt{2+\sqrt{2}}"),
        None,
        "incorrect",
    ),
    (
        r"\lambda_{\text {red}} / \sqrt{2}",
        boxed(r"\frac{\lambda_{\text{red}}}{\sqrt{2}}"),
        None,
        "correct",
    ),
    # units: ignored only when one side has none; different units never equal
    ("5am", boxed("5pm"), None, "incorrect"),
    (r"5 \text{ a.m.}", boxed(r"5 \text{ p.m.}"), None, "incorrect"),
    ("5am", boxed(r"5 \text{ a.m.}"), None, "correct"),
    ("5am", boxed("5"), None, "correct"),
    ("3 cm", boxed("3 m"), None, "incorrect"),
    (r"3 \text{ cm}", boxed(r"3 \text{ m}"), None, "incorrect"),
    ("3 cm", boxed(r"3 \text{ centimeters}"), None, "correct"),
    ("3", boxed(r"3 \text{ m}"), None, "correct"),
    ("$166$", boxed("166 m^2"), {"unit": "$cm^2$"}, "incorrect"),
    (r"864 \mbox{ inches}^2", boxed(r"864 \text{ square inches}"), None, "correct"),
    (r"\frac{37}{4} m", boxed(r"\frac{37}{4}"), None, "incorrect"),  # m is a mass here
    # a gold that does not parse is never a fraction found inside it
    (r"\frac{1}{3}E_{1}+\frac{2}{3}E_{2}", boxed(r"\frac{2}{3}"), None, "incorrect"),
    (
        r"\frac{1}{3}E_{1}+\frac{2}{3}E_{2}",
        boxed(r"\frac{1}{3}E_{1}+\frac{2}{3}E_{2}"),
        None,
        "correct",
    ),
    ("2/3", boxed(r"\frac{1}{3}E_{1}+\frac{2}{3}E_{2}"), None, "incorrect"),
    # tiny numbers: 6 decimal places would make every one of them 0
    ("2.88e-19", boxed("2.88e-20"), None, "incorrect"),
    ("2.88e-19", boxed(r"2.88 \times 10^{-19}"), None, "correct"),
]


@pytest.mark.parametrize(("gold", "text", "metadata", "expected"), ISSUE_12)
def test_issue_12_examples(gold, text, metadata, expected):
    assert verdict(gold, text, metadata) == expected


# -- every gold of every benchmark file, through the rules above (skipped without them) ----

ALL_BENCHMARKS = ("math500", "aime24", "amc23", "minerva_math", "olympiadbench")


@pytest.mark.parametrize("name", ALL_BENCHMARKS)
def test_every_real_gold_is_correct_boxed_and_a_number_off_is_not(name):
    wrong_checked = 0
    for q in _questions(name, 10_000):
        answer = strip_math_delimiters(q.gold)
        assert verdict(q.gold, boxed(answer), q.metadata) == "correct", (q.question_id, q.gold)
        wrong = _bumped(answer)
        if wrong is None or re.search(r"\^\{?\d+\}?\s*$|\\mbox|\\text|_\{?\d+\}?", wrong):
            continue
        assert verdict(q.gold, boxed(wrong), q.metadata) == "incorrect", (q.question_id, wrong)
        wrong_checked += 1
    assert wrong_checked > 0


def test_every_real_multi_part_gold_accepts_its_parts_in_separate_boxes_in_any_order():
    multi = [q for q in _questions("olympiadbench", 10_000) if q.metadata.get("is_multiple_answer")]
    checked = 0
    for q in multi:
        gold = gold_from_question(q.gold, q.metadata)
        if len(gold.parts) < 2:
            continue
        text = "So " + " and ".join(f"\\boxed{{{p}}}" for p in reversed(gold.parts)) + "."
        assert verdict(q.gold, text, q.metadata) == "correct", (q.question_id, text)
        # the last box alone is one part, not the answer
        assert verdict(q.gold, boxed(gold.parts[0]), q.metadata) == "incorrect", q.question_id
        checked += 1
    assert checked > 80
