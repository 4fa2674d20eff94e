"""Two-stage parsing for math-verify's LaTeX parser: SLL prediction first, full LL on failure.

math-verify turns LaTeX into sympy through latex2sympy2_extended, an ANTLR 4
grammar run by the pure-Python ANTLR runtime in its default LL prediction mode.
On this grammar most of a parse goes into full-context (LL) prediction, which
ANTLR never caches, so every answer pays it again. The SLL mode caches every
prediction in the parser's shared DFA; ANTLR documents that an SLL parse
either returns the very parse tree LL would return, or reports a syntax error
(``PredictionMode.SLL`` in the ANTLR 4 runtime API). latex2sympy's error
listener raises on the first syntax error, so the two-stage strategy ANTLR
recommends is exact: parse with SLL, and when that raises, parse the same
string again from scratch with LL, exactly as before. The tree, hence the sympy
object and every verdict, is unchanged; only the time differs (about a third
less per answer on MATH-style answers, more once the DFA is warm).

``install`` patches ``_Latex2Sympy.create_parser`` of latex2sympy2_extended in
this process. The verification workers call it (``sampler.verify.workers.worker``);
nothing else does, so a plain ``import math_verify`` elsewhere is untouched.
It installs nothing, and says so, when latex2sympy2_extended or the ANTLR
runtime do not have the shape it expects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["install", "installed", "uninstall"]

_original: Callable[[Any, str], Any] | None = None


def _two_stage(create: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    """``create_parser`` whose ``math()`` tries SLL first and falls back to a fresh LL parser."""
    from antlr4.atn.PredictionMode import PredictionMode

    def create_parser(self: Any, latex_str: str) -> Any:
        parser = create(self, latex_str)
        ll_math = parser.math

        def math() -> Any:
            parser._interp.predictionMode = PredictionMode.SLL
            try:
                return ll_math()
            except Exception:
                # a syntax error under SLL: a real one, or input that needs full LL;
                # redo the whole parse as the library does it (LL) and let it decide
                return create(self, latex_str).math()

        parser.math = math
        return parser

    return create_parser


def install() -> bool:
    """Make latex2sympy parse in two stages in this process; False if it cannot be done."""
    global _original
    if _original is not None:
        return True
    try:
        from antlr4.atn.ParserATNSimulator import ParserATNSimulator
        from antlr4.atn.PredictionMode import PredictionMode
        from latex2sympy2_extended.latex2sympy2 import _Latex2Sympy
    except ImportError:
        return False
    create = getattr(_Latex2Sympy, "create_parser", None)
    if create is None or not hasattr(PredictionMode, "SLL"):
        return False
    if "predictionMode" not in getattr(ParserATNSimulator, "__slots__", ("predictionMode",)):
        return False
    _original = create
    _Latex2Sympy.create_parser = _two_stage(create)
    return True


def uninstall() -> None:
    """Back to latex2sympy's own single-stage LL parsing (tests compare the two)."""
    global _original
    if _original is None:
        return
    from latex2sympy2_extended.latex2sympy2 import _Latex2Sympy

    _Latex2Sympy.create_parser = _original
    _original = None


def installed() -> bool:
    """Whether ``install`` is in effect in this process."""
    return _original is not None
