"""Plain and Python (sympy) notation read as math: ``pi/2``, ``exp(16)``, ``7*sin(pi*x/5)+1``.

math-verify parses every answer and gold as LaTeX, where ``pi`` is the product ``p*i`` and
``sin(x)`` is ``s*i*n*x``: ``\\boxed{pi/2}`` came out as ``(i*p)/2``, a gold written in
sympy's dialect (UGMathBench's ``ln(a)*a^x``) could only ever match itself, and a wrong
``1/sqrt(pi)`` could come out right. ``plain_to_latex`` rewrites a text that uses plain
notation, and no LaTeX command, into the LaTeX math-verify reads:

- function names followed by ``(`` become commands (``sin(`` is ``\\sin(``, ``asin(`` is
  ``\\arcsin(``, ``ln(`` is ``\\ln(``, ``log(`` is ``\\log(``, as LaTeX's ``\\log`` reads,
  except in sympy's dialect (a text with ``**`` or ``*``), where ``log`` is the natural
  logarithm, ``\\ln(``);
  ``sqrt(a)`` is ``\\sqrt{a}``, ``exp(a)`` is ``e^{a}``, ``abs(a)`` is ``\\left|a\\right|``;
- ``pi`` is ``\\pi``, ``oo``, ``inf`` and ``infinity`` are ``\\infty`` (whole words only);
- a Python module's prefix goes: ``np.arcsin(x)``, ``math.sqrt(2)``, ``sympy.pi``, ``math.e``;
- ``**`` is ``^`` (``2**100`` is ``2^{100}``), and a parenthesised or signed exponent is
  braced (``e^(-8*x)`` is ``e^{(-8*x)}``, ``10**-2`` is ``10^{-2}``);
- square brackets that group (``8*[2*cos(t)]^2``) become parentheses; brackets holding a
  comma at their top level are an interval or a list and stay.

``sympy_solution`` reads what ``print(solve(...))`` shows for a system: a dict of symbols
to values (``{x: 2, y: 3}``, alone or in a one-element list) is ``x = 2, y = 3``, which
compares as the named values it is; a set-builder (``{x: x > 0}``) is no solution.
``python_matrix`` reads a printed matrix (``[[1, 2], [3, 4]]``, ``Matrix([[1], [2]])``,
``array(...)``) as a ``pmatrix``, against a matrix gold.

A text with a backslash is LaTeX already and is left as it is, and so is a text with no
plain notation (``x^2+1``, ``(2, 3]``, words): both parse as they did.
"""

from __future__ import annotations

import re

_COMMANDS = {
    "sin": "\\sin",
    "cos": "\\cos",
    "tan": "\\tan",
    "cot": "\\cot",
    "sec": "\\sec",
    "csc": "\\csc",
    "sinh": "\\sinh",
    "cosh": "\\cosh",
    "tanh": "\\tanh",
    "asin": "\\arcsin",
    "acos": "\\arccos",
    "atan": "\\arctan",
    "arcsin": "\\arcsin",
    "arccos": "\\arccos",
    "arctan": "\\arctan",
    "ln": "\\ln",
    "log": "\\log",
}
#: functions whose argument moves into braces (``sqrt(2)`` is ``\sqrt{2}``)
_BRACED = {"sqrt": ("\\sqrt{", "}"), "exp": ("e^{", "}"), "abs": ("\\left|", "\\right|")}
_FUNCTION_RE = re.compile(
    r"(?<![A-Za-z])(" + "|".join(sorted([*_COMMANDS, *_BRACED], key=len, reverse=True)) + r")\s*\("
)
_CONSTANT_RE = re.compile(r"(?<![A-Za-z])(pi|infinity|inf|oo)(?![A-Za-z])")
_CONSTANTS = {"pi": "\\pi ", "infinity": "\\infty ", "inf": "\\infty ", "oo": "\\infty "}
#: every function and constant name plain notation reads (``atan``, ``sqrt``, ``pi``)
NAMES = frozenset([*_COMMANDS, *_BRACED, *_CONSTANTS])
_SIGNED_POWER_RE = re.compile(r"\^\s*(-\s*[0-9A-Za-z.]+)")
#: a Python module's prefix before a name plain notation reads: ``np.arcsin(``, ``math.pi``,
#: ``sympy.sqrt(``, ``math.e``
_MODULE_RE = re.compile(
    r"(?<![\w.])(?:np|numpy|math|cmath|sympy|sp)\.(?=(?:"
    + "|".join(sorted([*NAMES, "e"], key=len, reverse=True))
    + r")(?![A-Za-z0-9_]))"
)


def uses_plain_notation(text: str) -> bool:
    """Whether ``text`` is plain notation worth rewriting (no LaTeX command, and a plain
    function call, constant, ``**`` or grouping bracket)."""
    if "\\" in text:
        return False
    return bool(
        ("." in text and _MODULE_RE.search(text))
        or _FUNCTION_RE.search(text)
        or _CONSTANT_RE.search(text)
        or "**" in text
        or re.search(r"\^\s*\(", text)
        or _grouping_bracket(text) is not None
    )


def _closing(text: str, start: int, opener: str, closer: str) -> int | None:
    """The index of the bracket closing the one at ``start``, else None."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == opener:
            depth += 1
        elif text[i] == closer:
            depth -= 1
            if depth == 0:
                return i
    return None


def _grouping_bracket(text: str) -> tuple[int, int] | None:
    """The first ``[...]`` pair whose content has no top-level comma (it groups)."""
    for start, char in enumerate(text):
        if char != "[":
            continue
        end = _closing(text, start, "[", "]")
        if end is None:
            return None
        inner, depth = text[start + 1 : end], 0
        listed = False
        for c in inner:
            depth += c in "([{"
            depth -= c in ")]}"
            listed = listed or (c == "," and depth == 0)
        if not listed:
            return start, end
    return None


def _functions(text: str) -> str:
    out, pos = [], 0
    while True:
        match = _FUNCTION_RE.search(text, pos)
        if match is None:
            return "".join(out) + text[pos:]
        name, paren = match.group(1), match.end() - 1
        end = _closing(text, paren, "(", ")")
        if end is None:
            return "".join(out) + text[pos:]
        inner = _functions(text[paren + 1 : end])
        out.append(text[pos : match.start()])
        if name in _BRACED:
            left, right = _BRACED[name]
            out.append(left + inner + right)
        else:
            out.append(_COMMANDS[name] + "(" + inner + ")")
        pos = end + 1


def _powers(text: str) -> str:
    out, pos = [], 0
    while True:
        match = re.compile(r"\^\s*\(").search(text, pos)
        if match is None:
            return "".join(out) + text[pos:]
        end = _closing(text, match.end() - 1, "(", ")")
        if end is None:
            return "".join(out) + text[pos:]
        out.append(text[pos : match.start()] + "^{" + text[match.end() - 1 : end + 1] + "}")
        pos = end + 1


#: Python's operators (``**``, or ``*`` between operands): the text is in sympy's dialect
_PYTHON_PRODUCT_RE = re.compile(r"\*\*|[\w)]\s*\*\s*[\w(]")


def plain_to_latex(text: str) -> str:
    """``text`` in LaTeX when it is plain notation (module docstring), else unchanged."""
    if not uses_plain_notation(text):
        return text
    if "." in text:
        text = _MODULE_RE.sub("", text)  # "np.arcsin(10/13)": the function, not n*p
    out = re.sub(r"\*\*\s*(-?[0-9.]+|[A-Za-z]\w*)", r"^{\1}", text).replace("**", "^")
    while (found := _grouping_bracket(out)) is not None:
        start, end = found
        out = out[:start] + "(" + out[start + 1 : end] + ")" + out[end + 1 :]
    out = _functions(out)
    if _PYTHON_PRODUCT_RE.search(text):  # sympy's dialect: its log is the natural logarithm
        out = out.replace("\\log(", "\\ln(")
    out = _powers(out)
    out = _SIGNED_POWER_RE.sub(lambda m: "^{" + m.group(1).replace(" ", "") + "}", out)
    out = _CONSTANT_RE.sub(lambda m: _CONSTANTS[m.group(1)], out)
    return re.sub(r" +(?=[)}\]^,]|$)", "", out)


#: a symbol's name: ``x``, ``a_1``, or a word (``adults``, ``num_apples``: sympy's symbols are
#: often named for what they count)
_SYMBOL = r"[A-Za-z]\w{0,24}"
_VALUE_CHAR = r"[^{}:,<>=|\\\s]"
#: ``x: 2``: a value that starts and ends with no space, so that the spaces around it are
#: the pattern's, one way only (linear time)
_SOLUTION_PAIR = (
    r"\s*(" + _SYMBOL + r")\s*:\s*(" + _VALUE_CHAR + r"(?:[^{}:,<>=|\\]*" + _VALUE_CHAR + r")?)\s*"
)
_SOLUTION_RE = re.compile(r"\[?\s*\{(" + _SOLUTION_PAIR + r"(?:," + _SOLUTION_PAIR + r")*)\}\s*\]?")
_PAIR_RE = re.compile(_SOLUTION_PAIR)


def sympy_solution(text: str) -> str:
    """``{x: 2, y: 3}`` (sympy's printed solution) as ``x = 2, y = 3`` (module docstring);
    any other text unchanged."""
    match = _SOLUTION_RE.fullmatch(text.strip())
    if match is None:
        return text
    pairs = [_PAIR_RE.fullmatch(part) for part in match.group(1).split(",")]
    if any(p is None for p in pairs):
        return text
    names = [p.group(1) for p in pairs if p is not None]
    values = [p.group(2) for p in pairs if p is not None]
    if len(set(names)) != len(names):
        return text
    if any(
        re.search(r"(?<![A-Za-z_])" + re.escape(n) + r"(?![A-Za-z_0-9])", v)
        for n in names
        for v in values
    ):
        return text  # a value in terms of a named symbol: a set-builder, not a solution
    return ", ".join(f"{n} = {v}" for n, v in zip(names, values, strict=True))


_ROW = r"\[[^\[\]]+\]"  # one pass: the row's content holds no bracket
_PY_MATRIX_RE = re.compile(
    r"(?:(?:sympy\.|sp\.|np\.|numpy\.)?(?:Matrix|ImmutableMatrix|array)\s*\(\s*)?"
    r"\[\s*(" + _ROW + r"(?:\s*,\s*" + _ROW + r")*)\s*\]\s*\)?"
)


def python_matrix(text: str) -> str:
    """A matrix printed by Python (``[[1, 2], [3, 4]]``, sympy's ``Matrix([[1], [2]])``,
    numpy's ``array([[1, 2], [3, 4]])``) as a ``pmatrix``, when its rows have one length;
    any other text unchanged. Used against a matrix gold only (``verdict.prepare_span``)."""
    match = _PY_MATRIX_RE.fullmatch(text.strip())
    if match is None:
        return text
    rows = [
        [cell.strip() for cell in row.strip().strip("[]").split(",")]
        for row in re.findall(_ROW, match.group(1))
    ]
    if len({len(row) for row in rows}) != 1 or any(not c for row in rows for c in row):
        return text
    body = " \\\\ ".join(" & ".join(plain_to_latex(c) for c in row) for row in rows)
    return f"\\begin{{pmatrix}} {body} \\end{{pmatrix}}"
