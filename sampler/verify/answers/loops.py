"""A completion that loops: its end repeats one passage until the token limit cut it.

A model caught in a loop writes the same line, or the same few lines, again and again
("Let me recompute: 3^4 = 81. Let me recompute: …"), and the sampler's token limit cuts
it wherever it is. The number its last line ends with is a step of the loop, not an
answer; when the loop states answers ("The answer is (A). … The answer is (C)."), they
are a model that cannot decide. ``looping`` tells such an end: the last non-empty line
(at least ``_MIN_LINE`` characters) occurs at least ``_REPEATS`` times in the last
``_WINDOW`` characters with the same passage (numbers aside) between two pairs of
consecutive copies; or the last line is an unfinished copy of a line written at least
``_REPEATS - 1`` times before it in the window (the limit cut the loop mid-copy, whatever
the model wrote between the copies: "## Step 31: Consider …" and "## Step 32: Calculate
…" headings); or those characters end with one passage of at most ``_MAX_PERIOD``
characters repeated ``_REPEATS`` times, numbers aside when the passage is prose of a few
words (a loop's counters move on: "## Step 54: By considering …\n## Step 55: We can
then use …").

A closing line restated back to back a few times, its last copy complete ("The cost is
$2300." three times, then the end), is read once: a loop that the limit cut ends mid-copy
or has written many more copies. A line restated after different work is no loop either:
a multi-turn agent that closes every turn with "The value of y is 34." (after an apology,
a second cell, a retry) states its answer each time, and a loop would have written the
same passage between the copies.
Linear in the window for each period tried; the window is bounded, so the cost does not
grow with the completion.
"""

from __future__ import annotations

import itertools
import re

_WINDOW = 3000
_REPEATS = 3
_MIN_LINE = 8
_MAX_PERIOD = 300
_MIN_PERIOD = 4
_DIGITS_RE = re.compile(r"\d+")
_MAX_RESTATED = 4
#: how a complete line ends: a sentence end, closing math or brackets, a number
_COMPLETE_RE = re.compile(r"[.!?。)\]}$*\d]$")
#: distinct words a passage needs for its numbers to be set aside: prose, not a table of
#: numbers or a list of pairs ("(1, 2), (3, 4), …" is an answer, not a loop)
_MIN_WORDS = 3
_WORD_RE = re.compile(r"[A-Za-z]{2,}")


def looping(text: str) -> bool:
    """Whether ``text`` ends in a loop (module docstring)."""
    tail = _one_restatement(text[-_WINDOW:].rstrip())
    if len(tail) < _MIN_PERIOD * _REPEATS:
        return False
    last = tail[tail.rfind("\n") + 1 :].strip()
    if len(last) >= _MIN_LINE and " " in last and "\n" in tail:  # a sentence, not "\end{align}"
        lines = [line.strip() for line in tail.split("\n")]
        copies = [i for i, line in enumerate(lines) if line == last]
        if len(copies) >= _REPEATS and _passage_repeated(lines, copies):
            return True
        if _cut_copy(lines, last):
            return True
    return _periodic_end(tail) or _periodic_end(_DIGITS_RE.sub("0", tail), _MIN_WORDS)


def _one_restatement(tail: str) -> str:
    """``tail`` with its closing line kept once when it is restated back to back (two to
    ``_MAX_RESTATED`` copies, only blank lines between them, the last one complete): a model
    that stops after "The cost is $2300." written three times restated its answer; a loop
    the limit cut ends mid-copy, or has written many more copies by then."""
    lines = tail.split("\n")
    last = lines[-1].strip()
    if len(last) < _MIN_LINE or " " not in last or not _COMPLETE_RE.search(last):
        return tail
    first, copies = len(lines) - 1, 1
    for i in range(len(lines) - 2, -1, -1):
        line = lines[i].strip()
        if not line:
            continue
        if line != last:
            break
        first, copies = i, copies + 1
        if copies > _MAX_RESTATED:
            return tail
    return "\n".join(lines[: first + 1]) if copies > 1 else tail


def _passage_repeated(lines: list[str], copies: list[int]) -> bool:
    """Whether two consecutive passages between ``copies`` (line indices) are the same
    non-blank lines, numbers aside (a loop's counters move on: ``Cell In[3]``, ``Cell In[4]``):
    a loop writes one passage again, a restatement follows new work."""
    passages = [
        tuple(_DIGITS_RE.sub("0", line) for line in lines[above + 1 : below] if line)
        for above, below in itertools.pairwise(copies)
    ]
    return any(a == b for a, b in itertools.pairwise(passages))


def _cut_copy(lines: list[str], last: str) -> bool:
    """Whether ``last`` (the last line) is an unfinished copy of a line written at least
    ``_REPEATS - 1`` times before it: those lines go on past it in words or numbers (a
    closing line restated without its period is no cut copy)."""
    longer = 0
    for line in lines[:-1]:
        if len(line) > len(last) and line.startswith(last):
            if any(c.isalnum() for c in line[len(last) :]):
                longer += 1
                if longer >= _REPEATS - 1:
                    return True
    return False


def _periodic_end(tail: str, min_words: int = 0) -> bool:
    """Whether ``tail`` ends with a passage repeated ``_REPEATS`` times (the last copy may be
    cut short: the limit cuts a loop anywhere, so the end is periodic from any point), a
    passage of two words at least, and of ``min_words`` distinct words of letters."""
    for period in range(_MIN_PERIOD, min(_MAX_PERIOD, len(tail) // _REPEATS) + 1):
        end = tail[-period * _REPEATS :]
        if end[period:] == end[:-period] and len(set(end[:period].split())) >= 2:
            # two words at least: "|---|---|" or "0000" is no loop of a model
            if not min_words or len(set(_WORD_RE.findall(end[:period]))) >= min_words:
                return True
    return False
