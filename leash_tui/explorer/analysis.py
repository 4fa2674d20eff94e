"""The analysis functions the explorer uses (TEMPORARY shim until the analysis branch lands)."""

try:
    from leash_tui.support_analysis import (
        answer_distribution,
        answer_entropy,
        budget_curve,
        compare_questions,
        gold_share_and_rank,
        pass_at_k,
        summary_rows,
    )
except ImportError:  # pragma: no cover
    from leash_tui.explorer._analysis_standin import (  # noqa: F401
        answer_distribution,
        answer_entropy,
        budget_curve,
        compare_questions,
        gold_share_and_rank,
        pass_at_k,
        summary_rows,
    )
