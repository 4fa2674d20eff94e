"""The ``test_code`` harness: the program runs in a child, its tests here, values cross as data.

This file is a standalone script copied into the code sandbox and started as
``python -I harness.py solution.py``; ``code.py`` never imports it (tests do, for its
functions). Before it reads anything it makes itself non-dumpable (no process of its
user can read its memory or open its descriptors through ``/proc``) and forks the child.
The child closes the harness's stdin (the pipe that carries the nonce and the tests),
points its stdout at stderr (the verdict channel is the harness's alone), runs the
solution as ``__main__`` and then answers requests on a pair of pipes. Only after the
fork does the harness read the nonce and the tests from stdin: they are never in the
child's memory nor on any path it can read.

The tests run here with every name the solution defines bound to a ``Remote`` stand-in:
calling it, reading an attribute, indexing, ``len``, ``bool`` or iterating it asks the child,
which answers with data (``encode``: JSON of builtin values, tagged for tuples, sets, dicts,
bytes, complex and big integers) or, for any other object, a handle. The harness decodes
answers into builtin values only, so nothing of the program runs here. ``==`` and ``!=``
in the tests are rewritten to ``strict_eq``: builtin values compared by type, then value
(``int`` and ``float`` count as one type, ``bool`` does not), containers recursively;
anything else (a handle, an object the tests made) is never equal. The last line on
stdout is ``<nonce> ok``, ``<nonce> fail <reason>`` (an assert failed, the program ended)
or ``<nonce> error <reason>``.
"""

from __future__ import annotations

import ast
import builtins
import json
import operator
import os
import sys
import traceback
from typing import Any

#: Most bytes one message between the harness and the child may have.
MAX_MESSAGE = 64 * 1024 * 1024
#: Integers of more bits than this (about 3,900 digits) cross as hexadecimal.
_BIG_BITS = 13_000
_PLAIN = (type(None), bool, int, float, complex, str, bytes, list, tuple, dict, set, frozenset)


class ProgramEnded(Exception):
    """The child is gone (it exited, crashed or closed its pipes) before the tests finished."""


class ProgramBroke(ProgramEnded):
    """The child wrote something on the pipes that is no answer (not JSON, not data)."""


class SolutionError(Exception):
    """The program raised an exception that is not one of Python's builtin ones."""


# -- data across the pipes -----------------------------------------------------------------


def encode(value: Any, handle: Any, depth: int = 0) -> Any:
    """``value`` as JSON-ready data: builtin values (subclasses as their base), else ``handle``."""
    if depth > 200:
        raise ValueError("nested too deeply")
    if value is None or type(value) is bool:
        return value
    if isinstance(value, int):
        number = int.__index__(value)
        return {"int": hex(number)} if number.bit_length() > _BIG_BITS else number
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, complex):
        return {"complex": [complex.__complex__(value).real, complex.__complex__(value).imag]}
    if isinstance(value, bytes | bytearray):
        return {"bytes": bytes(value).hex()}
    if isinstance(value, list):
        return [encode(v, handle, depth + 1) for v in list.__iter__(value)]
    if isinstance(value, tuple):
        return {"tuple": [encode(v, handle, depth + 1) for v in tuple.__iter__(value)]}
    if isinstance(value, frozenset):
        return {"frozenset": [encode(v, handle, depth + 1) for v in frozenset.__iter__(value)]}
    if isinstance(value, set):
        return {"set": [encode(v, handle, depth + 1) for v in set.__iter__(value)]}
    if isinstance(value, dict):
        items = dict.items(value)
        pairs = [[encode(k, handle, depth + 1), encode(v, handle, depth + 1)] for k, v in items]
        return {"dict": pairs}
    return handle(value)


def decode(data: Any, remote: Any) -> Any:
    """Builtin values from ``encode``'s data; ``remote(id, kind)`` makes a handle's stand-in."""
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        return [decode(v, remote) for v in data]
    if type(data) is dict and len(data) == 1:
        ((tag, body),) = data.items()
        if tag == "tuple":
            return tuple(decode(v, remote) for v in body)
        if tag == "set":
            return {decode(v, remote) for v in body}
        if tag == "frozenset":
            return frozenset(decode(v, remote) for v in body)
        if tag == "dict":
            return {decode(k, remote): decode(v, remote) for k, v in body}
        if tag == "bytes" and type(body) is str:
            return bytes.fromhex(body)
        if tag == "complex" and type(body) is list and len(body) == 2:
            return complex(float(body[0]), float(body[1]))
        if tag == "int" and type(body) is str:
            return int(body, 16)
        if tag == "handle" and type(body) is list and len(body) == 2:
            return remote(int(body[0]), str(body[1])[:100])
    raise ValueError("the program's answer is not data")


def _kind(value: Any) -> type:
    kind = type(value)
    return float if kind is int else kind


def strict_eq(left: Any, right: Any) -> bool:
    """Builtin values equal by type, then value; containers recursively; anything else False."""
    if type(left) not in _PLAIN or type(right) not in _PLAIN or _kind(left) is not _kind(right):
        return False
    if type(left) in (list, tuple):
        return len(left) == len(right) and all(map(strict_eq, left, right))
    if type(left) is dict:
        return left.keys() == right.keys() and all(strict_eq(v, right[k]) for k, v in left.items())
    if type(left) in (set, frozenset):
        kinds = sorted(_kind(v).__name__ for v in left)
        return left == right and kinds == sorted(_kind(v).__name__ for v in right)
    return bool(left == right)


_CHAIN_OPS = {
    "==": strict_eq,
    "!=": lambda a, b: not strict_eq(a, b),
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "is": operator.is_,
    "is not": operator.is_not,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
}
_OP_NAMES = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}  # fmt: skip


def strict_chain(left: Any, ops: tuple[str, ...], *rights: Any) -> bool:
    """A chained comparison with ``==``/``!=`` strict; ``rights`` are thunks, evaluated lazily."""
    for op, right in zip(ops, rights, strict=True):
        value = right()
        if not _CHAIN_OPS[op](left, value):
            return False
        left = value
    return True


class _StrictCompare(ast.NodeTransformer):
    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if not any(isinstance(op, ast.Eq | ast.NotEq) for op in node.ops):
            return node
        if len(node.ops) == 1:
            pair = [node.left, node.comparators[0]]
            call = ast.Call(ast.Name("__leash_eq__", ast.Load()), pair, [])
            return ast.UnaryOp(ast.Not(), call) if isinstance(node.ops[0], ast.NotEq) else call
        ops = ast.Tuple([ast.Constant(_OP_NAMES[type(op)]) for op in node.ops], ast.Load())
        thunks = [ast.Lambda(_no_arguments(), c) for c in node.comparators]
        return ast.Call(ast.Name("__leash_chain__", ast.Load()), [node.left, ops, *thunks], [])


def _no_arguments() -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])


def compile_tests(source: str) -> Any:
    """The tests' code with ``==`` and ``!=`` made strict."""
    tree = _StrictCompare().visit(ast.parse(source, "tests"))
    return compile(ast.fix_missing_locations(tree), "tests", "exec")


# -- the two ends of the pipes ---------------------------------------------------------------


def _send(fd: int, message: Any) -> None:
    data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class _Reader:
    def __init__(self, fd: int):
        self.handle = os.fdopen(fd, "rb", buffering=1 << 16)

    def message(self) -> Any:
        line = self.handle.readline(MAX_MESSAGE + 1)
        if not line.endswith(b"\n"):
            if len(line) > MAX_MESSAGE:
                raise ValueError(f"the program's answer is over {MAX_MESSAGE:,} bytes")
            raise ProgramEnded("the program ended before its tests finished")
        try:
            return json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise ProgramBroke("the program wrote on the harness's pipe") from exc


class Remote:
    """A stand-in for one of the program's objects: every use asks the child."""

    __slots__ = ("_id", "_kind", "_link")

    def __init__(self, link: Link, ident: int, kind: str):
        object.__setattr__(self, "_link", link)
        object.__setattr__(self, "_id", ident)
        object.__setattr__(self, "_kind", kind)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._link.ask("call", self._id, list(args), kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._link.ask("getattr", self._id, [name], {})

    def __getitem__(self, key: Any) -> Any:
        return self._link.ask("getitem", self._id, [key], {})

    def __len__(self) -> int:
        length = self._link.ask("len", self._id, [], {})
        if type(length) is not int:
            raise TypeError("the program's len() is not an integer")
        return length

    def __bool__(self) -> bool:
        truth = self._link.ask("bool", self._id, [], {})
        if type(truth) is not bool:
            raise TypeError("the program's truth value is not a bool")
        return truth

    def __iter__(self) -> Any:
        items = self._link.ask("list", self._id, [], {})
        if type(items) is not list:
            raise TypeError("the program's iteration gave no list")
        return iter(items)

    def __repr__(self) -> str:
        return f"<the program's {self._kind} object>"


class Link:
    """The harness's end: requests out, answers decoded into builtin values or ``Remote``s."""

    def __init__(self, out_fd: int, in_fd: int):
        self.out_fd, self.reader = out_fd, _Reader(in_fd)

    def _remote(self, ident: int, kind: str) -> Remote:
        return Remote(self, ident, kind)

    def _argument(self, value: Any) -> Any:
        if isinstance(value, Remote):
            return {"handle": [object.__getattribute__(value, "_id"), ""]}

        def refuse(other: Any) -> Any:
            if isinstance(other, Remote):
                return {"handle": [object.__getattribute__(other, "_id"), ""]}
            raise TypeError(f"a {type(other).__name__} cannot be passed to the program")

        return encode(value, refuse)

    def ask(self, op: str, ident: int, args: list, kwargs: dict) -> Any:
        request = {
            "op": op,
            "id": ident,
            "args": [self._argument(a) for a in args],
            "kwargs": {str(k): self._argument(v) for k, v in kwargs.items()},
        }
        try:
            _send(self.out_fd, request)
        except OSError as exc:
            raise ProgramEnded("the program ended before its tests finished") from exc
        return self.answer(self.reader.message())

    def answer(self, reply: Any) -> Any:
        if type(reply) is dict and "value" in reply:
            try:
                return decode(reply["value"], self._remote)
            except (ValueError, TypeError, RecursionError) as exc:
                raise ProgramBroke("the program's answer is not data") from exc
        if type(reply) is dict and type(reply.get("raise")) is list and len(reply["raise"]) == 2:
            name, message = (str(part)[:300] for part in reply["raise"])
            error = getattr(builtins, name, None)
            if isinstance(error, type) and issubclass(error, Exception):
                raise error(message)
            raise SolutionError(f"{name}: {message}")
        if type(reply) is dict and "exit" in reply:
            raise ProgramEnded(f"the program exited ({str(reply['exit'])[:50]}) before its tests")
        raise ProgramBroke("the program's answer is not data")


def _serve(source_path: str, in_fd: int, out_fd: int) -> None:
    """The child: run the solution, then answer requests until the pipe closes."""
    objects: dict[int, Any] = {}

    def handle(value: Any) -> Any:
        ident = len(objects) + 1
        objects[ident] = value
        return {"handle": [ident, type(value).__name__]}

    def reply(value: Any) -> dict:
        try:
            return {"value": encode(value, handle)}
        except (ValueError, RecursionError, TypeError):
            return {"value": handle(value)}

    def argument(data: Any) -> Any:
        return decode(data, lambda ident, kind: objects[ident])

    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        with open(source_path, encoding="utf-8") as file:
            code = compile(file.read(), source_path, "exec")
        try:
            exec(code, namespace)
        except SystemExit as end:
            if end.code not in (None, 0):
                _send(out_fd, {"exit": str(end.code)})
                return
    except BaseException as exc:  # every failure of the program is reported
        traceback.print_exc()
        _send(out_fd, {"raise": [type(exc).__name__, str(exc)[:300]]})
        return
    names = {k: v for k, v in namespace.items() if not k.startswith("__")}
    _send(out_fd, {"value": {"dict": [[k, reply(v)["value"]] for k, v in names.items()]}})
    reader = _Reader(in_fd)
    operations = {
        "call": lambda target, args, kwargs: target(*args, **kwargs),
        "getattr": lambda target, args, kwargs: getattr(target, args[0]),
        "getitem": lambda target, args, kwargs: target[args[0]],
        "len": lambda target, args, kwargs: len(target),
        "bool": lambda target, args, kwargs: bool(target),
        "list": lambda target, args, kwargs: list(target),
    }
    while True:
        try:
            request = reader.message()
        except ProgramEnded:
            return
        try:
            target = objects[int(request["id"])]
            args = [argument(a) for a in request["args"]]
            kwargs = {str(k): argument(v) for k, v in request["kwargs"].items()}
            answer = reply(operations[request["op"]](target, args, kwargs))
        except SystemExit as end:
            _send(out_fd, {"exit": str(end.code)})
            return
        except BaseException as exc:  # reported to the harness as data
            answer = {"raise": [type(exc).__name__, str(exc)[:300]]}
        _send(out_fd, answer)


def _non_dumpable() -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE, 0
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE) failed")


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _line(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:300]


def main(source_path: str) -> int:
    _non_dumpable()
    child_in, harness_out = os.pipe()  # (read end, write end)
    harness_in, child_out = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: nothing of the nonce or the tests is read yet
        try:
            os.close(harness_out)
            os.close(harness_in)
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
            os.close(devnull)
            os.dup2(2, 1)
            _serve(source_path, child_in, child_out)
        finally:
            os._exit(0)
    os.close(child_in)
    os.close(child_out)
    nonce, _, tests = _read_all(0).partition(b"\n")
    os.close(0)
    link = Link(harness_out, harness_in)
    verdict = "ok"
    try:
        names = link.answer(link.reader.message())
        namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__}
        namespace.update(names)
        namespace["__leash_eq__"], namespace["__leash_chain__"] = strict_eq, strict_chain
        exec(compile_tests(tests.decode("utf-8")), namespace)
    except (AssertionError, ProgramEnded) as exc:
        traceback.print_exc()
        verdict = f"fail {_line(exc)}"
    except BaseException as exc:  # the verdict names it
        traceback.print_exc()
        verdict = f"error {_line(exc)}"
    sys.stdout.flush()
    sys.stderr.flush()
    os.write(1, f"\n{nonce.decode().strip()} {verdict}\n".encode())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
