"""The names of the support categories and rates, written once and imported everywhere.

The categories (Wu et al., arXiv 2507.14843) of a question for a base and a target model:
P preserved (both solve it), E expanded (only the target), S shrunk (only the base),
O out of support (neither). The rates over a set of questions are computed in
``analysis.support.support_rates``; reports, curves, series and the explorer take
their keys, columns and headers from here.
"""

from __future__ import annotations

#: the categories, in the order every table shows them
CATEGORIES = ("P", "E", "S", "O")

#: each category's name in words
CATEGORY_NAMES = dict(
    zip(CATEGORIES, ("preserved", "expanded", "shrunk", "out of support"), strict=True)
)

#: the support rates, in the order every table shows them
RATES = ("SRR", "NDR", "SDS", "NSCR")

#: each rate's name in words
RATE_NAMES = dict(
    zip(
        RATES,
        (
            "support retention rate",
            "net discovery rate",
            "support dynamic score",
            "net support change rate",
        ),
        strict=True,
    )
)

#: the rates a training series follows (SDS, their harmonic mean, is left out)
SERIES_RATES = tuple(rate for rate in RATES if rate != "SDS")
