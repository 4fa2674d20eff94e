"""The sandboxed Reasoning Gym scorer: only an answer that is data is ever evaluated.

This file is a standalone script copied into the code sandbox (``reasoning_gym_sandbox``
starts it as ``python -I score.py``, the sandbox's first process); leash never imports
it except in tests. It reads a nonce and a job (task, size, seed, entry, answer) from
its stdin, makes the task's dataset, and only then puts ``guard`` in front of Python's
evaluators (``eval``, ``exec``, ``compile``), which sympy's ``parse_expr`` and
``sympify`` use too. A guarded evaluator parses its source first and runs it only when
it is data (``is_data``): literals, names, arithmetic, comparisons, lists, tuples,
sets, dicts, and calls of an allowed function name (sympy's number and symbol
constructors, common maths functions) on such data; no attribute, subscript, lambda,
comprehension, f-string, starred or private name, so nothing an answer says can reach
the scorer's own variables (its nonce), its modules or the machine. Anything else
raises ``NotData``, which the task's ``score_answer`` sees as an unparseable answer
(or fails on: then no score). The last line on stdout is ``<nonce> <score>``, with
`` refused`` when an evaluation was refused.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import sys
from typing import Any

_NODES = (
    ast.Expression, ast.Module, ast.Expr, ast.Constant, ast.Name, ast.Load, ast.BinOp,
    ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Tuple, ast.List, ast.Set, ast.Dict,
    ast.Call, ast.keyword, ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
)  # fmt: skip
#: Functions data may call: sympy's constructors and maths, and Python's numeric builtins.
CALLABLE = frozenset(
    """Symbol Symbols Integer Float Rational Number Add Mul Pow Abs abs sqrt cbrt root exp log ln
    sin cos tan cot sec csc asin acos atan atan2 acot sinh cosh tanh asinh acosh atanh
    factorial binomial gamma floor ceiling sign erf re im conjugate Max Min max min pow round
    int float complex bool list tuple set frozenset dict sum pi E I oo nan zoo""".split()
)
_PRIVATE_PREFIX = "_"
#: What the scoring libraries themselves run (sympy's ``parse_expr`` fills its namespace).
TRUSTED_SOURCES = frozenset({"from sympy import *"})


class NotData(ValueError):
    """An evaluator was asked to run something that is not data (it never runs)."""


def is_data(tree: ast.AST) -> str | None:
    """None when ``tree`` is data (see the module docstring), else what is not."""
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            return type(node).__name__
        if isinstance(node, ast.Name) and node.id.startswith(_PRIVATE_PREFIX):
            return f"name {node.id!r}"
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id in CALLABLE
        ):
            name = node.func.id if isinstance(node.func, ast.Name) else type(node.func).__name__
            return f"a call of {name}"
        if isinstance(node, ast.keyword) and node.arg is None:
            return "**"
        if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
            if len(node.value) > 1000:
                return "a long string"
        if isinstance(node, ast.Module) and not all(isinstance(s, ast.Expr) for s in node.body):
            return "a statement"
    return None


class Guard:
    """Python's evaluators, each refusing what is not data; ``refused`` counts refusals."""

    def __init__(self) -> None:
        self.eval, self.exec, self.compile = builtins.eval, builtins.exec, builtins.compile
        self.approved: list[Any] = []  # code objects compiled here from data
        self.refused = 0

    def _check(self, source: Any, mode: str) -> None:
        if isinstance(source, bytes | bytearray):
            source = bytes(source).decode("utf-8", "replace")
        if type(source) is str and source in TRUSTED_SOURCES:
            return
        try:
            tree = source if isinstance(source, ast.AST) else ast.parse(str(source), mode=mode)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            self.refused += 1
            raise NotData(f"not Python: {type(exc).__name__}") from None
        problem = is_data(tree)
        if problem is not None:
            self.refused += 1
            raise NotData(f"the answer is not data ({problem}); it is not evaluated")

    def _code(self, source: Any, mode: str) -> Any:
        if isinstance(source, type(self._code.__code__)):  # a module imported late is trusted
            if not any(source is code for code in self.approved) and not _installed(
                source.co_filename
            ):
                self.refused += 1
                raise NotData("a code object not compiled from data")
            return source
        self._check(source, mode)
        return source

    def guarded_eval(self, source: Any, globals_: Any = None, locals_: Any = None) -> Any:
        globals_, locals_ = _caller_scope(globals_, locals_)
        return self.eval(self._code(source, "eval"), globals_, locals_)

    def guarded_exec(self, source: Any, globals_: Any = None, locals_: Any = None) -> Any:
        globals_, locals_ = _caller_scope(globals_, locals_)
        return self.exec(self._code(source, "exec"), globals_, locals_)

    def guarded_compile(self, source: Any, filename: Any, mode: str, flags: int = 0, *args: Any,
                        **kwargs: Any) -> Any:  # fmt: skip
        if flags & ast.PyCF_ONLY_AST or _installed(filename):  # a tree runs nothing; an import
            return self.compile(source, filename, mode, flags, *args, **kwargs)
        self._check(source, "eval" if mode == "eval" else "exec")
        code = self.compile(source, filename, mode, flags, *args, **kwargs)
        self.approved.append(code)
        return code

    def install(self) -> None:
        builtins.eval, builtins.exec = self.guarded_eval, self.guarded_exec
        builtins.compile = self.guarded_compile


def _caller_scope(globals_: Any, locals_: Any) -> tuple[Any, Any]:
    """The scope ``eval``/``exec`` would use: the caller's (two frames up) when none is given."""
    if globals_ is not None:
        return globals_, locals_ if locals_ is not None else globals_
    frame = sys._getframe(2)
    return frame.f_globals, frame.f_locals if locals_ is None else locals_


def _installed(filename: Any) -> bool:
    """A module file of the interpreter or its environment (read-only in the sandbox)."""
    if not isinstance(filename, str) or not filename.endswith(".py"):
        return False
    real = os.path.realpath(filename)
    prefixes = {os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix)}
    return any(real.startswith(p) for p in prefixes) and os.path.isfile(real)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def main() -> int:
    nonce, _, job_bytes = _read_all(0).partition(b"\n")
    os.close(0)
    job = json.loads(job_bytes)
    import reasoning_gym
    import sympy
    import sympy.parsing.sympy_parser

    sympy.Symbol("x")
    dataset = reasoning_gym.create_dataset(job["task"], size=job["size"], seed=job["seed"])
    guard = Guard()
    guard.install()
    score = float(dataset.score_answer(job["answer"], job["entry"]))
    sys.stdout.flush()
    refused = " refused" if guard.refused else ""
    os.write(1, f"\n{nonce.decode().strip()} {score!r}{refused}\n".encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
