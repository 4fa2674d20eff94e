"""Times of day: a gold such as ``1:58 am`` is a time, compared as minutes after midnight.

math-verify reads ``1:58`` as the ratio 1/58, so that ``2:116`` and ``\\frac{1}{58}``
equal the gold ``1:58 am``. The rule (docs/verification.md, Times of day):

- a gold is a time of day when it is ``H:MM`` (two-digit minutes, hour at most 23)
  or an hour with a clock suffix (``1:58 am``, ``5pm``, ``5 \\text{ p.m.}``), also written
  whole as text (``\\text{4:30 p.m.}``, which an answer may be too);
- against such a gold, an answer is read as a time when it is written as one; a
  time is equal when it names the same minute of the day: ``13:58`` is ``1:58 pm``,
  ``12:05 am`` is ``0:05``; an hour of 1 to 12 without a suffix is either (``1:58``
  is ``1:58 am`` and ``1:58 pm``), one of 0 or 13 to 23 is a 24-hour time;
- a bare hour (``5`` for ``5am``) is left to the other rules (a unit is ignored when
  the other side has none); a bare hour gold of a question that asks for a time of day
  ("What is the latest time …?", GSM8K's ``2`` for 2 pm) is that hour, on the hour: ``2:00 pm``
  and ``14:00`` name it, ``2:30 pm`` does not (``hour_verdict``); any other answer that
  is not a valid time (``2:116``, ``\\frac{1}{58}``) is incorrect against a gold with a
  suffix; against a bare
  ``H:MM`` gold, which may be a ratio, only an answer written with a colon is read as a time.

Pure string work: ``clock_verdict`` answers True, False, or None (not a time question).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SUFFIX = (
    r"(?:\\[,;: ]|~|\s|\\q?quad)*"
    r"(?:\\(?:text|mathrm|textrm|rm|mbox)\s*\{[\s~]*(?P<w>[ap]\.?\s*m\.?)\s*\}|(?P<b>[ap]\.?\s*m\.?))"
)
_TIME_RE = re.compile(
    r"\s*(?P<h>\d{1,2})(?:\s*:\s*(?P<m>\d+))?(?:" + _SUFFIX + r")?\s*\.?\s*", re.IGNORECASE
)
_HOUR_RE = re.compile(r"\s*\d{1,2}\s*")
#: a time written whole as text: ``\text{4:30 p.m.}``, ``\mbox{9:15 am}``
_WRAPPED_RE = re.compile(r"\s*\\(?:text|mathrm|textrm|rm|mbox)\s*\{([^{}]*)\}\s*\.?\s*")


def _unwrapped(latex: str) -> str:
    """``latex`` without a text command that wraps the whole of it."""
    match = _WRAPPED_RE.fullmatch(latex)
    return match.group(1) if match is not None else latex


_COLON_RE = re.compile(r"^\s*\d{1,2}\s*:\s*\d{2}\s*$")


@dataclass(frozen=True)
class ClockTime:
    """A written time: hour and minute as written, and ``am``/``pm`` or None."""

    hour: int
    minute: int
    suffix: str | None

    def minutes(self) -> set[int]:
        """The minutes after midnight this time may name (two for a bare 12-hour time)."""
        h, m = self.hour, self.minute
        if self.suffix is not None:
            base = (h % 12) + (12 if self.suffix == "pm" else 0)
            return {base * 60 + m}
        if 1 <= h <= 12:
            return {(h % 12) * 60 + m, ((h % 12) + 12) * 60 + m}
        return {h * 60 + m}

    def text(self) -> str:
        tail = f" {self.suffix}" if self.suffix else ""
        return f"{self.hour}:{self.minute:02d}{tail}"


def read_time(latex: str, unit: str | None = None) -> ClockTime | None:
    """``latex`` (with the unit the caller split off, if any) as a time, or None.

    ``unit`` is the canonical unit (``am``/``pm``) already taken off the value.
    """
    match = _TIME_RE.fullmatch(_unwrapped(latex))
    if match is None:
        return None
    written = match.group("w") or match.group("b")
    suffix = None
    if written:
        suffix = "pm" if written.lower().startswith("p") else "am"
    if unit in ("am", "pm"):
        if suffix is not None and suffix != unit:
            return None
        suffix = unit
    elif unit is not None:
        return None
    hour, minute = int(match.group("h")), int(match.group("m") or 0)
    if match.group("m") is not None and len(match.group("m")) != 2:
        return None
    if minute > 59 or hour > 23 or (suffix is not None and not 1 <= hour <= 12):
        return None
    if suffix is None and match.group("m") is None:
        return None  # a bare number is no time
    return ClockTime(hour, minute, suffix)


def gold_time(latex: str, unit: str | None) -> ClockTime | None:
    """The gold as a time of day, when it is one (see the module docstring); a gold written
    whole as text (``\\text{4:30 p.m.}``) is one when the text is a time with a suffix."""
    inner = _unwrapped(latex)
    if unit in ("am", "pm") or _COLON_RE.match(inner):
        return read_time(inner, unit)
    if inner != latex:
        written = read_time(inner)
        return written if written is not None and written.suffix is not None else None
    return None


def clock_verdict(gold_latex: str, gold_unit: str | None, answer: str) -> bool | None:
    """Whether ``answer`` names the gold's time of day; None when the gold is no time
    (or is a bare ``H:MM`` and the answer is not written as a time)."""
    gold = gold_time(gold_latex, gold_unit)
    if gold is None:
        return None
    if gold.suffix is None and ":" not in answer and not re.search(r"[ap]\.?\s*m", answer, re.I):
        return None  # ``10:21`` may be a ratio; ``\\frac{10}{21}`` is left to math-verify
    if _HOUR_RE.fullmatch(answer):
        return None  # ``5`` for ``5am``: a unit is ignored when the other side has none
    written = read_time(answer)
    if written is None:
        return False
    g, a = gold.minutes(), written.minutes()
    if gold.suffix is None or written.suffix is None:
        return bool(g & a)
    return g == a


#: a question that asks for a time of day
_ASKS_TIME_RE = re.compile(
    r"\b(?:what|which|latest|earliest)[ \t]+time\b|\btime[ \t]+of[ \t]+(?:the[ \t]+)?day\b"
    r"|\bo'clock\b|\bat[ \t]+what[ \t]+hour\b",
    re.IGNORECASE,
)
_BARE_HOUR_RE = re.compile(r"\s*(?P<h>\d{1,2})\s*")


def asks_time_of_day(problem: str | None) -> bool:
    """Whether the question (its last 300 characters) asks for a time of day."""
    return bool(problem) and _ASKS_TIME_RE.search(problem[-300:]) is not None


def hour_verdict(gold_latex: str, answer: str) -> bool | None:
    """Whether ``answer``, written as a time, names the bare hour ``gold_latex`` on the
    hour (of either half of the day when the answer has no suffix); None when the gold is no
    bare hour or the answer is no time."""
    hour = _BARE_HOUR_RE.fullmatch(gold_latex)
    written = read_time(answer)
    if hour is None or written is None or int(hour.group("h")) > 23:
        return None
    return written.minute == 0 and written.hour % 12 == int(hour.group("h")) % 12
