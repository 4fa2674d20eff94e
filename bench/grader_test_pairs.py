"""Answer pairs out of a grader's own test file, for the verdict corpus (bench only).

A grader's tests state pairs as assertions: ``assert math_equal(pred, gold)``,
``assert not is_equiv(a, b)``, ``assert judge(a, b) is False``, a result kept in a local
(``out = math_equal(a, b); assert out is True``), or a ``pytest.mark.parametrize`` table
the test's assertion reads (``(pred, gold)`` tuples, a module-level list, a tuple indexed
as ``pair[0]``). This reads them with :mod:`ast`, never by running the file, and yields
each pair with the expectation its test states. ``GraderCall`` says which argument of a
grader function is the answer and which the gold.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class GraderCall:
    """Where a grader function takes the answer and the gold: positional indexes, or the
    keys of the one dict it takes (``eval_math({"prediction": [p], "answer": [g]})``)."""

    pred: int | str
    gold: int | str
    #: where the call's answer type sits (``judge_answer(pred, gold, "NV")``), and the
    #: types kept: a type that changes what equality means (unordered lists, booleans
    #: spelt Y/N, option labels) is not a pair a reader can judge without the type
    kind_at: int | None = None
    kinds: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Pair:
    test: str
    pred: str
    gold: str
    expected: bool
    kind: str | None


class _Skip(Exception):
    """A call whose arguments are not literal strings or numbers."""


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _literal(node: ast.expr, env: dict[str, ast.expr]) -> object:
    if isinstance(node, ast.Name) and node.id in env:
        return _literal(env[node.id], {})
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        holder = env.get(node.value.id)
        index = node.slice
        if isinstance(holder, ast.Tuple | ast.List) and isinstance(index, ast.Constant):
            return _literal(holder.elts[index.value], {})
        raise _Skip
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = _literal(node.left, env), _literal(node.right, env)
        if isinstance(left, int | float) and isinstance(right, int | float):
            return left / right
        raise _Skip
    try:
        return ast.literal_eval(node)
    except ValueError as exc:
        raise _Skip from exc


def _text(value: object) -> str:
    """The answer as the test hands it over; a one-element list is that element."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, bool) or value is None or not isinstance(value, str | int | float):
        raise _Skip
    return str(value)


def _pair_of(
    call: ast.Call, spec: GraderCall, env: dict[str, ast.expr]
) -> tuple[str, str, str | None]:
    if isinstance(spec.pred, str):
        arg = _literal(call.args[0], env) if call.args else None
        if not isinstance(arg, dict):
            raise _Skip
        pred, gold = _text(arg.get(spec.pred)), _text(arg.get(spec.gold))
    else:
        if len(call.args) <= max(spec.pred, spec.gold):
            raise _Skip
        pred = _text(_literal(call.args[spec.pred], env))
        gold = _text(_literal(call.args[spec.gold], env))
    kind = None
    if spec.kind_at is not None:
        if len(call.args) <= spec.kind_at:
            raise _Skip
        kind = _text(_literal(call.args[spec.kind_at], env))
        if kind not in spec.kinds:
            raise _Skip
    return pred, gold, kind


def _truth(node: ast.expr, env: dict[str, ast.expr]) -> bool | None:
    """The boolean an assertion compares a grader's result with: ``True``, ``0``, a
    parameter (``want``), or a one-element list of one (``[want]``)."""
    if isinstance(node, ast.List) and len(node.elts) == 1:
        node = node.elts[0]
    if isinstance(node, ast.Name) and node.id in env:
        node = env[node.id]
    if isinstance(node, ast.Constant) and node.value in (True, False, 0, 1):
        return bool(node.value)
    return None


def _claims(
    test: ast.expr,
    graders: dict[str, GraderCall],
    kept: dict[str, ast.Call],
    env: dict[str, ast.expr],
) -> Iterator[tuple[ast.Call, GraderCall, bool]]:
    """(grader call, its spec, what the assertion says it returns)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        for value in test.values:
            yield from _claims(value, graders, kept, env)
    elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        for call, spec, expected in _claims(test.operand, graders, kept, env):
            yield call, spec, not expected
    elif isinstance(test, ast.Name) and test.id in kept:
        yield from _claims(kept[test.id], graders, kept, env)
    elif isinstance(test, ast.Call):
        name = _name(test.func)
        if name == "bool" and len(test.args) == 1:
            yield from _claims(test.args[0], graders, kept, env)
        elif name in graders:
            yield test, graders[name], True
    elif (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is | ast.Eq)
        and (truth := _truth(test.comparators[0], env)) is not None
    ):
        for call, spec, expected in _claims(test.left, graders, kept, env):
            yield call, spec, expected == truth


def _table(node: ast.expr, module: dict[str, ast.expr]) -> list[ast.expr]:
    if isinstance(node, ast.Name) and node.id in module:
        return _table(module[node.id], module)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _table(node.left, module) + _table(node.right, module)
    if isinstance(node, ast.List | ast.Tuple):
        return list(node.elts)
    return []


def _parameter_sets(
    func: ast.FunctionDef, module: dict[str, ast.expr]
) -> list[dict[str, ast.expr]]:
    sets: list[dict[str, ast.expr]] = [{}]
    for deco in func.decorator_list:
        if not (isinstance(deco, ast.Call) and _name(deco.func) == "parametrize"):
            continue
        if len(deco.args) < 2:
            continue
        names_node = deco.args[0]
        if isinstance(names_node, ast.Constant) and isinstance(names_node.value, str):
            names = [n.strip() for n in names_node.value.split(",")]
        elif isinstance(names_node, ast.Tuple | ast.List):
            names = [str(ast.literal_eval(e)) for e in names_node.elts]
        else:
            continue
        rows = []
        for element in _table(deco.args[1], module):
            if isinstance(element, ast.Call) and _name(element.func) == "param":
                values = list(element.args)
            elif len(names) > 1 and isinstance(element, ast.Tuple):
                values = list(element.elts)
            else:
                values = [element]
            rows.append(dict(zip(names, values, strict=False)))
        sets = [{**old, **new} for old in sets for new in rows]
    return sets


def grader_pairs(source: str, graders: dict[str, GraderCall]) -> Iterator[Pair]:
    """Every (answer, gold, expectation) the test file's assertions state, in file order,
    each (answer, gold) once."""
    tree = ast.parse(source)
    module = {
        t.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    #: a pair two tests assert both ways (a tolerance setting) is kept once, as first seen
    seen: set[tuple[str, str]] = set()
    funcs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    funcs.sort(key=lambda n: n.lineno)
    for func in funcs:
        for env in _parameter_sets(func, module):
            kept: dict[str, ast.Call] = {}
            nodes = [n for n in ast.walk(func) if isinstance(n, ast.Assign | ast.Assert)]
            for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset)):
                if isinstance(node, ast.Assign):
                    if (
                        len(node.targets) == 1
                        and isinstance(node.targets[0], ast.Name)
                        and isinstance(node.value, ast.Call)
                        and _name(node.value.func) in graders
                    ):
                        kept[node.targets[0].id] = node.value
                    continue
                for call, spec, expected in _claims(node.test, graders, kept, env):
                    try:
                        pred, gold, kind = _pair_of(call, spec, env)
                    except (_Skip, IndexError, KeyError, TypeError):
                        continue
                    if not gold.strip() or (pred, gold) in seen:
                        continue
                    seen.add((pred, gold))
                    yield Pair(func.name, pred, gold, expected, kind)
