"""The checks of ``leash sample``'s run-level settings beyond their type, by field.

``config._run_setting`` converts a value of the command line or of ``--config`` to its
field's type and then calls ``RUN_CHECKS[field]``; a check returns the value or raises a
one-line ``LeashError`` naming the setting. Checks that need two settings together
(``--risk`` only with ``--adaptive``) are ``sample.adaptive.check_adaptive``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sampler.errors import LeashError
from sampler.sample.seeds import MAX_SAMPLES, check_run_seed


def _at_least(low: float, message: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value < low:
            raise LeashError(message.format(value=value))
        return value

    return check


def _check_samples(value: int) -> int:
    if not 1 <= value <= MAX_SAMPLES:
        raise LeashError(f"samples (-k) must be between 1 and {MAX_SAMPLES}, got {value}")
    return value


def _check_top_p(value: float) -> float:
    if not 0.0 < value <= 1.0:
        raise LeashError(f"top_p must be in (0, 1], got {value}")
    return value


def _check_top_k(value: int) -> int:
    if value == 0 or value < -1:
        raise LeashError(f"top_k must be -1 (off) or >= 1, got {value}")
    return value


def check_risk(value: float | None) -> float | None:
    """``--risk DELTA``: None (off) or a probability strictly between 0 and 1."""
    if value is not None and not 0.0 < value < 1.0:
        raise LeashError(f"risk (--risk) must be strictly between 0 and 1 (e.g. 0.05), got {value}")
    return value


#: The checks of run-level settings beyond their type, by field; a new field may add its own.
RUN_CHECKS: dict[str, Callable[[Any], Any]] = {
    "samples": _check_samples,
    "temperature": _at_least(0, "temperature must be >= 0, got {value}"),
    "top_p": _check_top_p,
    "top_k": _check_top_k,
    "seed": check_run_seed,
    "logprobs": _at_least(0, "logprobs must be >= 0 (0 = no token entropy), got {value}"),
    "token_detail": _at_least(0, "token_detail must be >= 0, got {value}"),
    "flush_seconds": _at_least(0, "flush_seconds must be >= 0, got {value}"),
    "min_samples": _at_least(1, "min_samples (--min-samples) must be at least 1, got {value}"),
    "risk": check_risk,
}
