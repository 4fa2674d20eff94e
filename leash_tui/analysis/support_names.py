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

#: each rate by name, for code that names one (a typo is then an ImportError)
SRR, NDR, SDS, NSCR = RATES

#: the pass@ measures of a row ({base, target} each) and of the estimators
PASS_AT_1, PASS_AT_K = "pass@1", "pass@k"
PASS_HAT_K, G_PASS_AT_K, MAJ_AT_N = "pass^k", "G-Pass@k", "maj@n"

#: How reports format each rate and measure (a report.columns kind): a rate is a share of
#: questions (four decimals), a measure a {base, target} pair. The one table of rate
#: names and formats: report columns, the bootstrap's intervals and the explorer's plots
#: take theirs from here.
MEASURE_KINDS = {
    **{rate: "rate" for rate in RATES},
    **{name: "pair" for name in (PASS_AT_1, PASS_AT_K, PASS_HAT_K, G_PASS_AT_K, MAJ_AT_N)},
}

#: the statistics a bootstrap interval is given for, in the order of a row's ``ci``: the
#: rates, then each model's pass@1 and pass@k and their difference (target − base)
INTERVAL_NAMES = (
    *RATES,
    *(f"{name}_{part}" for name in (PASS_AT_1, PASS_AT_K) for part in ("base", "target", "diff")),
)
