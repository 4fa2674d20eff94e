"""The unboxed-finals suite: other graders' test completions and issue 21's, graded by leash.

Every case agrees with its expectation, and no new rule accepts a wrong answer: each
case that is correct becomes incorrect once its integer gold is off by one.
"""

from __future__ import annotations

import re

import pytest

from tests.support.unboxed_suite import agrees, grade, load_unboxed_cases

CASES = load_unboxed_cases()


def test_the_suite_has_its_sources():
    assert len(CASES) == 37
    assert {c.id.split("-")[0] for c in CASES} == {"areal", "slime", "issue21"}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_each_case_agrees(case):
    assert agrees(case), grade(case.gold, case.completion)


_INTEGER = re.compile(r"-?\d+")
OFF_BY_ONE = [c for c in CASES if c.expected == "correct" and _INTEGER.fullmatch(c.gold)]


@pytest.mark.parametrize("case", OFF_BY_ONE, ids=[c.id for c in OFF_BY_ONE])
def test_a_gold_off_by_one_is_never_accepted(case):
    assert grade(str(int(case.gold) + 1), case.completion) != "correct"
