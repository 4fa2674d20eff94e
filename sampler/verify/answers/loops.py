"""A completion that loops: its end repeats one passage until the token limit cut it.

A model caught in a loop writes the same line, or the same few lines, again and again
("Let me recompute: 3^4 = 81. Let me recompute: …"), and the sampler's token limit cuts
it wherever it is. The number its last line ends with is a step of the loop, not an
answer; when the loop states answers ("The answer is (A). … The answer is (C)."), they
are a model that cannot decide. ``looping`` tells such an end: the last non-empty line
(at least ``_MIN_LINE`` characters) occurs at least ``_REPEATS`` times in the last
``_WINDOW`` characters, or those characters end with one passage of at most
``_MAX_PERIOD`` characters repeated ``_REPEATS`` times. Linear in the window for each
period tried; the window is bounded, so the cost does not grow with the completion.
"""

from __future__ import annotations

_WINDOW = 3000
_REPEATS = 3
_MIN_LINE = 8
_MAX_PERIOD = 300
_MIN_PERIOD = 4


def looping(text: str) -> bool:
    """Whether ``text`` ends in a loop (module docstring)."""
    tail = text[-_WINDOW:].rstrip()
    if len(tail) < _MIN_PERIOD * _REPEATS:
        return False
    last = tail[tail.rfind("\n") + 1 :].strip()
    if len(last) >= _MIN_LINE and " " in last and "\n" in tail:  # a sentence, not "\end{align}"
        lines = [line.strip() for line in tail.split("\n")]
        if sum(line == last for line in lines) >= _REPEATS:
            return True
    return _periodic_end(tail)


def _periodic_end(tail: str) -> bool:
    """Whether ``tail`` ends with a passage repeated ``_REPEATS`` times (the last copy may be
    cut short: the limit cuts a loop anywhere, so the end is periodic from any point)."""
    for period in range(_MIN_PERIOD, min(_MAX_PERIOD, len(tail) // _REPEATS) + 1):
        end = tail[-period * _REPEATS :]
        if end[period:] == end[:-period] and len(set(end[:period].split())) >= 2:
            return True  # two words at least: "|---|---|" or "0000" is no loop of a model
    return False
