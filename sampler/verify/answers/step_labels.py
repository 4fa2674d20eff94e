"""Step labels, which number a step and state no value.

"Step 3: Concatenate the last letters." holds the number 3, but it names the step: a
completion that ends with its plan (Plan-and-Solve's ``Step 1: …``) or whose last sentence
follows a step's label states nothing with it. ``without_step_labels`` blanks each label
that opens a line or a sentence (``Step 3:``, ``**Step 2.**``, ``Step 4)``) with spaces of
the same length, so that the rules reading values from the end of a completion keep their
positions and never read a step's number; one pass of one regular expression.

A numbered heading that ends a line ("Step 2:", "### Case 3", "Part 2.") is what a cut-off
completion stopped at: ``is_heading`` says whether a line is one alone, ``ends_in_heading``
whether a text ends with one; the rules reading a last value then read none
(``last_number``).
"""

from __future__ import annotations

import re

_STEP_LABEL_RE = re.compile(
    r"(?:^|(?<=[.!?。]) )[ \t*#]*step[ \t]+\d{1,3}[ \t*]*[:：.)][ \t*]*",
    re.IGNORECASE | re.MULTILINE,
)


def without_step_labels(text: str) -> str:
    """``text`` with every step label blanked (module docstring)."""
    return _STEP_LABEL_RE.sub(lambda m: " " * len(m.group(0)), text)


#: the number of a heading that ends the line: "Step 2:", "### Case 3", "Part 2."
_HEADING_RE = re.compile(
    r"\b(?:step|case|part|stage|phase|method|approach|question|problem|example|solution|"
    r"section|subcase|scenario|option|hint|note|attempt)\s*#?\d+\s*[:.)]?[*_# \t]*$",
    re.IGNORECASE,
)


def ends_in_heading(text: str) -> bool:
    """Whether ``text`` ends with a numbered heading ("… Step 2:")."""
    return _HEADING_RE.search(text) is not None


def is_heading(line: str) -> bool:
    """Whether ``line`` is a numbered heading alone ("**Step 2:**", "Part 2.")."""
    return _HEADING_RE.match(line.strip(" \t*_#")) is not None
