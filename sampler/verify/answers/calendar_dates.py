"""Calendar dates: a gold such as ``May, 1747`` or ``08/30/1909`` is a date, compared as one.

The rules read numbers, so "… after May 1742 is May 1747." states ``1747`` and "which can be
written as 08/30/1909" states ``30``: a part of the date. Against a gold that is a date
(``calendar_date``: a month by name or abbreviation with a year and maybe a day,
``May, 1747``, ``Sep 3, 1876``, ``3 September 1876``; ISO ``1876-09-03``; or the US
``MM/DD/YYYY`` of BIG-Bench's date questions), the last date of the completion's last
statement (``last_date``) is its answer when the value a rule found is a part of it: a date
is equal when its year, month and day are the gold's (a gold without a day names a month,
and so must the answer). Pure string work.
"""

from __future__ import annotations

import re
from functools import lru_cache

_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
#: a month's name or its abbreviation ("Sep", "Sept.", "Oct")
_MONTH = (
    r"(?P<{g}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_YEAR = r"(?P<{g}>\d{{3,4}})"
_DAY = r"(?P<{g}>[0-3]?\d)(?:st|nd|rd|th)?"
_DATE_RE = re.compile(
    # "May, 1747", "Sep 3, 1876", "September 3rd 1876"
    rf"(?<![^\W\d_]){_MONTH.format(g='m1')}(?:[ \t]+{_DAY.format(g='d1')})?,?[ \t]+"
    rf"{_YEAR.format(g='y1')}(?!\d)"
    # "3 September 1876", "3rd of May, 1747"
    rf"|(?<!\d){_DAY.format(g='d2')}[ \t]+(?:of[ \t]+)?{_MONTH.format(g='m2')},?[ \t]+"
    rf"{_YEAR.format(g='y2')}(?!\d)"
    # ISO "1876-09-03"; US "09/03/1876"
    r"|(?<!\d)(?P<y3>\d{4})-(?P<m3>[01]?\d)-(?P<d3>[0-3]?\d)(?!\d)"
    r"|(?<![\d/])(?P<m4>[01]?\d)/(?P<d4>[0-3]?\d)/(?P<y4>\d{4})(?!\d)",
    re.IGNORECASE,
)

Date = tuple[int, int, int | None]


def _date(match: re.Match[str]) -> Date | None:
    for n in "1234":
        if match.group(f"y{n}") is None:
            continue
        month = match.group(f"m{n}")
        number = int(month) if month.isdigit() else 1 + _month_index(month)
        day = match.group(f"d{n}")
        if not 1 <= number <= 12 or (day is not None and not 1 <= int(day) <= 31):
            return None
        return int(match.group(f"y{n}")), number, int(day) if day is not None else None
    return None


def _month_index(name: str) -> int:
    lowered = name.lower().rstrip(".")
    return next(i for i, month in enumerate(_MONTHS) if month.startswith(lowered[:3]))


@lru_cache(maxsize=4096)
def calendar_date(text: str) -> Date | None:
    """``text`` as a date (year, month, day or None) when it is one, whole; else None."""
    stripped = text.strip().rstrip(".").strip()
    match = _DATE_RE.fullmatch(stripped)
    return _date(match) if match is not None else None


def last_date(text: str) -> tuple[Date, str] | None:
    """The last date ``text`` writes, with how it is written; None when it writes none."""
    found = None
    for match in _DATE_RE.finditer(text):
        date = _date(match)
        if date is not None:
            found = (date, match.group(0))
    return found
