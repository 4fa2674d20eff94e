"""Python's and its libraries' reprs of a value, as the value they print.

A notebook shows the last expression of a cell by its ``repr``, and a program prints
containers of values the same way, so a tool's output holds ``Fraction(1, 3)``,
``np.int64(10)`` (numpy 2), ``np.float64(2.5)``, ``Decimal('2.5')``, ``mpf('2.5')``,
``array([1, 2])``, sympy's ``Rational(1, 3)``, ``Integer(5)``, ``Float('2.5', precision=53)``,
``Interval.open(0, 1)``, ``Union(…)``, ``FiniteSet(1, 2)``, ``Eq(x, 3)``, and sympy's and
Python's names: ``I`` and ``2j`` for the imaginary unit, ``log`` for the natural logarithm,
``Abs``. Read as math they are wrong: ``Fraction(1, 3)`` has the last number 3, ``I`` is a
variable, ``Interval(0, 1)`` a product. ``printed_value`` rewrites each to the value it stands
for (``1/3``, ``10``, ``2.5``, ``[1, 2]``, ``(0, 1)``, ``(-\\infty, -1) \\cup (1, \\infty)``,
``\\{1, 2\\}``, ``x = 3``, ``2 + 3*i``, ``ln(2)``, ``abs(x)``; ``oct``'s and ``hex``'s
``'0o17'`` and ``'0xff'`` as their digits, ``17`` and ``ff``, for "in base 8"), inside lists,
tuples and operations too, and leaves any other text as it is. A dict of results keyed by
names (``{'Neil': 19, 'Ana': 12}``) is written as sympy writes a solution, for the question
to pick the value it names. Parsed with ``ast`` (a repr
is a Python expression), never evaluated; used on tool outputs only, where these names are
the library's.
"""

from __future__ import annotations

import ast
import re

from sampler.verify.answers.quiet_ast import parse_quietly

#: a cheap gate: text naming none of the reprs is returned as it is
_WRAPPER_RE = re.compile(
    r"\b(?:Fraction|Decimal|mpf|mpz|mpq|Rational|Integer|Float|Eq|array|Interval|Union"
    r"|FiniteSet|EmptySet|Abs|log|(?:np|numpy)\.(?:u?int|float|complex|bool_|str_)\w*)\b"
    r"|(?<![\w.])I(?!\w)|\dj\b"
)
#: what ``bin``, ``oct`` and ``hex`` return: a sign, the base's prefix, the digits (quoted as
#: a notebook shows a string, or printed)
_BASE_PREFIXED_RE = re.compile(r"""(['"]?)(-?)0[bBoOxX]([0-9a-fA-F]+)\1""")
#: the longest output read (a repr longer than this is data, not an answer)
_MAX_CHARS = 400
_NUMERIC_FUNCS = frozenset({"Integer", "mpz", "Float", "mpf", "Decimal"})
_RATIO_FUNCS = frozenset({"Fraction", "Rational", "mpq"})
#: sympy's interval constructors and the brackets they print as
_INTERVALS = {
    "Interval": "[]",
    "Interval.open": "()",
    "Interval.Lopen": "(]",
    "Interval.Ropen": "[)",
}
#: sympy's names for what plain notation names otherwise
_RENAMES = {"I": "i", "log": "ln", "Abs": "abs", "EmptySet": "\\emptyset"}


class _NotAValue(Exception):
    """A repr with arguments of an unexpected kind."""


def printed_value(text: str) -> str:
    """``text`` with the value reprs it holds replaced by their values (module docstring);
    ``text`` unchanged when it holds none, or does not parse as a Python expression."""
    stripped = text.strip()
    based = _BASE_PREFIXED_RE.fullmatch(stripped)
    if based is not None:  # '0o17', -0b101: the digits in their base ("15 in base 8" is 17)
        return based.group(2) + based.group(3).lower()
    if stripped.startswith("{") and len(stripped) <= _MAX_CHARS:
        named = _named_results(stripped)
        if named is not None:
            return named
    if len(stripped) > _MAX_CHARS or not _WRAPPER_RE.search(stripped):
        return text
    try:
        tree = parse_quietly(stripped, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text
    try:
        if _call_name(tree.body) == "Eq":
            left, right = _args(tree.body, 2, 2)
            return f"{_render(left)} = {_render(right)}"
        return _render(tree.body)
    except (_NotAValue, RecursionError):
        return text


#: a dict key that names a quantity: a word or a few (``'Neil'``, ``'total cost'``)
_KEY_RE = re.compile(r"[A-Za-z][A-Za-z0-9_ ]{0,24}")


def _named_results(text: str) -> str | None:
    """A printed dict of results with names as keys (``{'Neil': 19, 'Ana': 12}``) as
    sympy prints a solution (``{Neil: 19, Ana: 12}``, read as ``Neil = 19, Ana = 12``: the
    question picks one, ``named_quantities``); None when ``text`` is no such dict (a key
    that is no name, a value that is no number or value repr)."""
    try:
        tree = parse_quietly(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    node = tree.body
    if not isinstance(node, ast.Dict) or not node.keys:
        return None
    pairs = []
    try:
        for key, value in zip(node.keys, node.values, strict=True):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return None  # sympy's own {x: 2} is read as it is (plain_notation)
            name = key.value.strip()
            if not _KEY_RE.fullmatch(name) or not _scalar(value):
                return None
            rendered = _render(value)
            if not re.search(r"\d", rendered):
                return None
            pairs.append(f"{name.replace(' ', '_')}: {rendered}")
    except (_NotAValue, RecursionError):
        return None
    return "{" + ", ".join(pairs) + "}"


def _scalar(node: ast.expr) -> bool:
    """Whether ``node`` may be one value: no container, no string or boolean constant."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Dict):
        return False
    if isinstance(node, ast.UnaryOp):
        return _scalar(node.operand)
    return not (isinstance(node, ast.Constant) and isinstance(node.value, str | bool))


def _call_name(node: ast.expr) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        if func.value.id in ("np", "numpy"):
            return "np." + func.attr
        return f"{func.value.id}.{func.attr}"
    return None


def _args(node: ast.expr, least: int, most: int) -> list[ast.expr]:
    assert isinstance(node, ast.Call)
    if not least <= len(node.args) <= most:
        raise _NotAValue
    return list(node.args)


def _render(node: ast.expr, nested: bool = False) -> str:
    """The value ``node`` stands for, in the notation Python prints (``1/3``, ``[1, 2]``);
    ``nested``: inside an operation, where a ratio needs its parentheses."""
    if isinstance(node, ast.List):
        return "[" + ", ".join(_render(item) for item in node.elts) + "]"
    if isinstance(node, ast.Tuple):
        items = [_render(item) for item in node.elts]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(node, ast.Set):
        return "\\{" + ", ".join(_render(item) for item in node.elts) + "\\}"
    if isinstance(node, ast.BinOp):
        op = ast.unparse(ast.BinOp(ast.Name("a"), node.op, ast.Name("b")))[1:-1]
        text = f"{_render(node.left, True)}{op}{_render(node.right, True)}"
        return f"({text})" if nested else text
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return "-" + _render(node.operand, True)
    if isinstance(node, ast.Constant) and isinstance(node.value, complex):
        return _imaginary(node.value)
    if isinstance(node, ast.Name):
        return _RENAMES.get(node.id, node.id)
    name = _call_name(node)
    if name is None or not isinstance(node, ast.Call):
        return ast.unparse(node)
    if name in _RATIO_FUNCS:
        parts = [_number(arg) for arg in _args(node, 1, 2)]
        ratio = parts[0] if len(parts) == 1 else f"{parts[0]}/{parts[1]}"
        return f"({ratio})" if nested and len(parts) == 2 else ratio
    if name in _NUMERIC_FUNCS or name.startswith("np."):
        (arg,) = _args(node, 1, 1)
        return _render(arg, nested) if name.startswith("np.str") else _number(arg)
    if name == "array":
        (arg,) = _args(node, 1, 1)
        if not isinstance(arg, ast.List):
            raise _NotAValue
        return _render(arg)
    if name in _INTERVALS:
        low, high = (_bound(arg) for arg in _args(node, 2, 2))
        brackets = _INTERVALS[name]
        return f"{brackets[0]}{low}, {high}{brackets[1]}"
    if name == "Union":
        return " \\cup ".join(_render(arg) for arg in _args(node, 2, 8))
    if name == "FiniteSet":
        return "\\{" + ", ".join(_render(arg) for arg in _args(node, 1, 64)) + "\\}"
    if name == "Eq":
        raise _NotAValue  # an equation inside a container or an operation
    func = _RENAMES.get(name, name)
    return f"{func}(" + ", ".join(_render(arg) for arg in node.args) + ")"


def _bound(node: ast.expr) -> str:
    """An interval's end: ``oo`` is ``\\infty`` (the union is LaTeX, which plain notation
    leaves as it is)."""
    text = _render(node)
    return {"oo": "\\infty", "-oo": "-\\infty"}.get(text, text)


def _imaginary(value: complex) -> str:
    imag = value.imag
    return f"{int(imag) if imag.is_integer() else imag}*i"


def _number(node: ast.expr) -> str:
    """A numeric argument: ``1``, ``-3``, ``2.5``, ``'2.5'`` (Decimal's and mpf's string)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return "-" + _number(node.operand)
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return str(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return repr(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, complex):
        return _imaginary(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        value = node.value.strip()
        if re.fullmatch(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", value):
            return value
    raise _NotAValue
