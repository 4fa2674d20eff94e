"""One verdict with math-verify: parse an extracted answer, compare it with the gold.

This is the work a verification worker process does for each distinct
(gold, answer) pair. It calls math-verify with its own signal-based timeouts
switched off (``parsing_timeout=None``, ``timeout_seconds=None``): they cannot stop
long C-level work and they turn a slow comparison into a silent "incorrect".
Time is bounded from outside instead, by ``verify_pool``, which kills a worker
that passes its deadline. Call ``judge`` in-process only on trusted input.

Argument order follows math-verify: ``verify(gold, answer)``, gold first (the
comparison is not symmetric). One rule is added: a number written with an
explicit base (``52_8``) is wrong when the answer names another base (``52_9``);
math-verify drops subscripts and would accept it. A multi-part gold is correct when the whole answer
equals the whole gold as a set, or when every gold part is matched by its own
answer part (as many parts as the gold has).
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any

from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify
from sympy import Basic, MatrixBase

from sampler.store.statuses import (
    STATUS_CORRECT,
    STATUS_ERROR,
    STATUS_INCORRECT,
    STATUS_NO_ANSWER,
)
from sampler.verify.extraction import AnswerSpan
from sampler.verify.golds import Gold, answer_parts, math_mode, strip_unit
from sampler.verify.parse_depth import too_deep
from sampler.verify.verdict import MAX_ANSWER_CHARS, Verdict

# math-verify warns once per process that its timeouts are off; leash bounds time itself.
logging.getLogger("math_verify").setLevel(logging.ERROR)

_CACHE_SIZE = 8192
_BASE_RE = re.compile(r"^\s*([0-9A-Za-z]+)\s*_\s*\{?\s*(\d+)\s*\}?\s*$")
_BOXED_CONFIG = (LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig())


class GoldUnparseable(ValueError):
    """The gold answer gives math-verify nothing to compare with."""


def span_parse_input(span: AnswerSpan) -> str:
    """What math-verify parses for ``span``: the LaTeX in a box, or the free text as is."""
    return span.text if span.free_text else "\\boxed{" + span.text + "}"


@lru_cache(maxsize=_CACHE_SIZE)
def _parse_answer(parse_input: str, free_text: bool) -> tuple[Any, ...]:
    config = (LatexExtractionConfig(), ExprExtractionConfig()) if free_text else _BOXED_CONFIG
    return tuple(parse(parse_input, extraction_config=config, parsing_timeout=None))


@lru_cache(maxsize=_CACHE_SIZE)
def _parse_gold(latex: str) -> tuple[Any, ...]:
    parsed = tuple(parse(math_mode(latex), parsing_timeout=None))
    if not parsed:
        raise GoldUnparseable(f"gold {latex[:80]!r} parses to nothing")
    return parsed


def parse_answer(span: AnswerSpan) -> list[Any]:
    """math-verify's parse of an extracted answer (sympy objects, then the raw string)."""
    return list(_parse_answer(span_parse_input(span), span.free_text))


def normal_form(parsed: list[Any]) -> str | None:
    """The stored answer: the text of the first parsed sympy object, else the raw match."""
    chosen = next((p for p in parsed if isinstance(p, Basic | MatrixBase)), None)
    if chosen is None:
        chosen = next((p for p in parsed if isinstance(p, str) and p.strip()), None)
    if chosen is None:
        return None
    text = str(chosen).strip()
    return text[:MAX_ANSWER_CHARS] if text else None


def _same(gold: tuple[Any, ...], answer: tuple[Any, ...]) -> bool:
    return bool(verify(list(gold), list(answer), timeout_seconds=None))


def _parts_match(gold: Gold, span: AnswerSpan) -> bool:
    """Every gold part matched by a distinct answer part, and no answer part left over."""
    pieces = [strip_unit(p, gold.unit) for p in answer_parts(span.text)]
    if len(pieces) != len(gold.parts):
        return False
    parsed_pieces = [_parse_answer("\\boxed{" + p + "}", False) for p in pieces]
    golds = [_parse_gold(p) for p in gold.parts]
    edges = [
        [j for j, piece in enumerate(parsed_pieces) if piece and _same(g, piece)] for g in golds
    ]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(golds)))


def _bases_differ(gold: Gold, span: AnswerSpan) -> bool:
    """Both written as numerals with a base subscript, and the bases differ."""
    if span.free_text:
        return False
    g, a = _BASE_RE.match(gold.latex), _BASE_RE.match(span.text)
    return bool(g and a and int(g.group(2)) != int(a.group(2)))


def judge(gold: Gold, span: AnswerSpan) -> Verdict:
    """The verdict for one extracted answer against one gold (unit already stripped)."""
    for what, text in (("answer", span.text), ("gold", gold.latex)):
        reason = too_deep(text)
        if reason is not None:
            return Verdict(STATUS_ERROR, None, f"{what} {reason}")
    parsed = _parse_answer(span_parse_input(span), span.free_text)
    if not parsed:
        return Verdict(STATUS_NO_ANSWER)
    answer = normal_form(list(parsed))
    if answer is None:
        return Verdict(STATUS_NO_ANSWER)
    if _bases_differ(gold, span):
        return Verdict(STATUS_INCORRECT, answer)
    try:
        gold_parsed = _parse_gold(gold.latex)
    except GoldUnparseable as exc:
        return Verdict(STATUS_ERROR, answer, str(exc))
    correct = _same(gold_parsed, parsed)
    if not correct and gold.parts and not span.free_text:
        correct = _parts_match(gold, span)
    return Verdict(STATUS_CORRECT if correct else STATUS_INCORRECT, answer)


def judge_safely(gold: Gold, span: AnswerSpan) -> Verdict:
    """``judge``, with any exception turned into status ``error`` and its reason."""
    try:
        return judge(gold, span)
    except MemoryError:
        return Verdict(STATUS_ERROR, None, "out of memory")
    except Exception as exc:  # math-verify and sympy raise many types on odd input
        return Verdict(STATUS_ERROR, None, f"{type(exc).__name__}: {str(exc)[:200]}")


def clear_caches() -> None:
    """Forget parsed answers and golds (tests; a long-lived process between folders)."""
    _parse_answer.cache_clear()
    _parse_gold.cache_clear()
