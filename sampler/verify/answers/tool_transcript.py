"""Results of code a tool-integrated model ran, where no ```` ```output ```` block holds them.

``closing_output`` (``sampler.verify.answers.final_statements``) reads a closing
```` ```output ```` block. Models and harnesses also write the result of their code as:

- a plain fenced block after the code block (```` ```python …``` ```` then ```` ``` 42 ``` ````,
  ```` ```text ````, ```` ```console ````), alone or after a label line (``Output:``,
  ``Result:``): ``fenced_output``;
- an output between tags that end the completion (NeMo-Skills' ``<llm-code-output>`` …
  ``</llm-code-output>``, InternLM's ``<|execution_start|>`` … ``<|execution_end|>``,
  ``<output>``, ``<observation>``, ``<result>``): ``tagged_output``;
- a notebook's echo without fences (MathCoder-style transcripts: the code, then the
  expression it ends with, then its value, as a Jupyter kernel shows it: ``result`` then
  ``sqrt(2)/2``, ``solve([eq1, eq2], [a, b])`` then ``{a: 2, b: 3}``, ``52 % 13 == 0`` then
  ``True``): ``echoed_output``, when the text before it holds code (an assignment or an
  import) and the last line but one is a Python expression (a name, a call, an operation:
  not a value alone, which is a printed line of its own).

Either is read only when it ends the completion, and only a one-line result that is math
(a number, a formula) or a printed sentence with one value ("The answer is 5"); an equation
(``x = 3``) printed is a step, as is a result of several lines. Linear time in the last
``TAIL_CHARS`` characters.
"""

from __future__ import annotations

import ast
import itertools
import re

from sampler.verify.answers.answer_span import AnswerSpan
from sampler.verify.answers.bare_answer import is_bare_math
from sampler.verify.answers.final_statements import (
    ERROR_LINE_RE,
    RULE_TOOL_OUTPUT,
    TAIL_CHARS,
    latex_span,
    printed_words,
    stated_value,
)
from sampler.verify.answers.last_number import only_value
from sampler.verify.answers.plain_notation import python_matrix, sympy_solution
from sampler.verify.answers.quiet_ast import parse_quietly
from sampler.verify.answers.value_reprs import printed_value

_FENCE_RE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)\n?[ \t]*```", re.DOTALL)
_OUTPUT_INFOS = frozenset({"", "text", "txt", "console", "stdout", "out", "output", "plaintext"})
_CODE_INFOS = frozenset({"python", "py", "python3", "ipython", "sympy", "sage"})
_LABEL_RE = re.compile(
    r"[*_ \t]*(?:output|result|execution result|the output is|stdout|>>>)[*_ \t]*[:：]?[*_ \t]*",
    re.IGNORECASE,
)
#: the longest line read as a notebook's last expression
_ECHO_CHARS = 200
_CODE_LINE_RE = re.compile(
    r"^[ \t]*(?:(?:import|from)[ \t]+[A-Za-z_]|[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?[ \t]*=[^=])",
    re.MULTILINE,
)
_RESULT_CHARS = 120


def _result(line: str) -> AnswerSpan | None:
    line = printed_value(line.strip()).strip()  # "Fraction(1, 3)" is 1/3, "np.int64(10)" 10
    if not line or len(line) > _RESULT_CHARS or ERROR_LINE_RE.match(line):
        return None  # an error message states no result
    words = printed_words(line)
    if words is not None:
        return words  # "Yes", "odd", "(A) Yes": read as words, by the gold's type
    if re.search(r"(?<![<>!=])=(?!=)", line) and not re.search(r"[A-Za-z]{3,}\s", line):
        return None  # an equation printed is a step (a sentence with "=" is read as words)
    if python_matrix(line) != line or sympy_solution(line) != line:
        value: str | None = line  # Matrix([[1], [2]]), {adults: 15, children: 10}
    else:
        value = stated_value(line)
    if value is None and is_bare_math(line):
        value = line
    if value is None and len(line.split()) > 1:
        value = only_value(line)  # a printed sentence: "The answer is 5"
    return latex_span(value, RULE_TOOL_OUTPUT) if value else None


def fenced_output(text: str) -> AnswerSpan | None:
    """The one-line result of a plain fenced block that follows a code block and ends the
    completion (module docstring), else None."""
    tail = text[-TAIL_CHARS:].rstrip()
    if not tail.endswith("```"):
        return None
    blocks = list(_FENCE_RE.finditer(tail))
    if len(blocks) < 2 or blocks[-1].end() != len(tail):
        return None
    code, output = blocks[-2], blocks[-1]
    if output.group(1).lower() not in _OUTPUT_INFOS or code.group(1).lower() not in _CODE_INFOS:
        return None
    between = tail[code.end() : output.start()].strip()
    if between and not _LABEL_RE.fullmatch(between):
        return None
    lines = [line for line in output.group(2).splitlines() if line.strip()]
    return _result(lines[0]) if len(lines) == 1 else None


#: a closing tag of a tool's output: ``</llm-code-output>``, ``<|execution_end|>``, ``</output>``
_OUTPUT_CLOSE_RE = re.compile(
    r"(?:</(?P<x>[\w-]*(?:output|execution|result|observation|stdout)[\w-]*)>"
    r"|<\|(?P<p>[\w-]*(?:output|execution|result|observation)[\w-]*?)_?end\|>)\s*$",
    re.IGNORECASE,
)


def tagged_output(text: str) -> AnswerSpan | None:
    """The one-line result between output tags that end the completion (module
    docstring), else None."""
    tail = text[-TAIL_CHARS:].rstrip()
    close = _OUTPUT_CLOSE_RE.search(tail, max(0, len(tail) - 80))
    if close is None:
        return None
    if close.group("x"):
        opener = f"<{close.group('x')}>"
    else:
        opener = f"<|{close.group('p').rstrip('_')}_start|>"
    start = tail.rfind(opener, 0, close.start())
    if start < 0:
        return None
    lines = [
        line for line in tail[start + len(opener) : close.start()].splitlines() if line.strip()
    ]
    return _result(lines[0]) if len(lines) == 1 else None


def echoed_output(text: str) -> AnswerSpan | None:
    """The result a notebook echoed under the expression that ends the code (module
    docstring), else None."""
    tail = text[-TAIL_CHARS:].rstrip()
    lines = tail.split("\n")
    if len(lines) < 3 or not is_echo(lines[-2]):
        return None
    if _CODE_LINE_RE.search(tail, 0, len(tail) - len(lines[-1]) - len(lines[-2]) - 1) is None:
        return None
    return _result(lines[-1])


def is_echo(line: str) -> bool:
    """Whether ``line`` is a Python expression a notebook cell ends with, whose value the
    kernel shows: a name, a call, an operation (``result``, ``sol[0]``, ``print(x)``,
    ``N(solve(eq, x)[0])``, ``52 % 13 == 0``). A value alone (``42``, ``-3``, ``(2, 3)``) is a
    printed line of its own, and prose does not parse."""
    line = line.strip()
    if not line or len(line) > _ECHO_CHARS:
        return False
    try:
        tree = parse_quietly(line, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return not is_literal(tree.body)


def is_literal(node: ast.expr) -> bool:
    """Whether ``node`` is a value alone (``42``, ``-3``, ``(2, 3)``): what a kernel prints."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(is_literal(item) for item in node.elts)
    return isinstance(node, ast.Constant)


#: the most output lines a closing cell's result may have (``closing_cell_start``)
_CELL_OUTPUT_LINES = 12
#: the most lines of code a closing cell may have
_CELL_CODE_LINES = 60
_BLOCK_HEAD_RE = re.compile(
    r"(?:for|while|if|elif|else|def|class|with|try|except|finally)\b[^\n]*:\s*(?:#.*)?$"
)
_STATEMENT_RE = re.compile(
    r"^[ \t]*(?:(?:import|from)[ \t]+[A-Za-z_]|[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?[ \t]*"
    r"(?:[-+*/%]|\*\*|//)?=[^=]|(?:assert|print|def|for|while|if|return)\b)",
    re.MULTILINE,
)


def closing_cell_start(text: str) -> int | None:
    """Where the notebook cell that ends ``text`` starts, in a transcript without fences
    (MathCoder's: prose, then code, then what the kernel showed: a value, printed lines,
    ``<empty_execution>``, a traceback), when prose comes before it; else None.

    The cell is the longest run of lines above at most ``_CELL_OUTPUT_LINES`` result lines
    that parses as Python and holds a statement (an assignment, an import, ``assert``,
    ``print``, a loop or a definition) or ends with an expression the kernel echoed; the line
    above it must not parse, and no result line ends a sentence. A line the kernel's
    ``SyntaxError`` quotes (``print($7)`` above ``SyntaxError: invalid syntax``) is code that
    failed, and counts as a line that parses. Used to read a completion again without its
    closing check (``sampler.verify.answers.afterword``)."""
    tail = text[-TAIL_CHARS:].rstrip()
    offset = len(text.rstrip()) - len(tail)
    lines = tail.split("\n")
    if any("```" in line for line in lines[-_CELL_CODE_LINES - _CELL_OUTPUT_LINES :]):
        return None  # fenced code: the fenced rules read it
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    parses: dict[int, bool] = {}
    failed = _syntax_error_lines(lines[-_CELL_OUTPUT_LINES - 1 :])

    def codeish(i: int) -> bool:
        if i not in parses:
            parses[i] = _codeish(lines[i]) or lines[i].strip() in failed
        return parses[i]

    for outputs in range(min(_CELL_OUTPUT_LINES, len(lines) - 2) + 1):
        end = len(lines) - outputs  # the code is lines[first:end]
        if outputs and _not_a_result(lines[end]):
            return None  # a sentence or markup: prose, which no result line is
        if not lines[end - 1].strip() or not codeish(end - 1):
            continue
        first = end - 1
        while first > 0 and end - first < _CELL_CODE_LINES and codeish(first - 1):
            first -= 1
        while first < end and not lines[first].strip():
            first += 1
        for top in range(first, min(end, first + 3)):  # a prose line that parses: "Hence"
            block = "\n".join(lines[top:end])
            runs = _STATEMENT_RE.search(block) or (outputs and is_echo(lines[end - 1]))
            if failed:
                block = "\n".join(_passed(line, failed) for line in lines[top:end])
            if runs and _parses(block) and _prose_above(lines, top):
                return offset + starts[top]
    return None


#: the last line of a traceback of code that does not parse
_SYNTAX_ERROR_RE = re.compile(r"[ \t]*(?:SyntaxError|IndentationError|TabError)\b")
_CARET_RE = re.compile(r"[ \t]*[~^]+[ \t]*$")


def _syntax_error_lines(results: list[str]) -> frozenset[str]:
    """The code lines a closing ``SyntaxError`` traceback quotes (each above its caret)."""
    if not any(_SYNTAX_ERROR_RE.match(line) for line in results):
        return frozenset()
    return frozenset(
        above.strip()
        for above, below in itertools.pairwise(results)
        if above.strip() and _CARET_RE.match(below)
    )


def _passed(line: str, failed: frozenset[str]) -> str:
    """``line``, or ``pass`` at its indent when it is code that failed to parse."""
    stripped = line.strip()
    return line[: len(line) - len(line.lstrip())] + "pass" if stripped in failed else line


#: what a result line does not hold: a sentence's end, or a tag (``</execute>``, ``<thought>``)
_PROSE_OR_TAG_RE = re.compile(r"[A-Za-z)][.!?](?:\s|$)|</?[A-Za-z][\w-]*>")


#: a traceback's frame line (``File "<stdin>", line 1``: the file's name is no tag)
_FRAME_RE = re.compile(r'File "[^"\n]{1,200}", line \d+')


def _not_a_result(line: str) -> bool:
    stripped = line.strip()
    if stripped == "<empty_execution>" or _FRAME_RE.match(stripped):
        return False
    return stripped.endswith((".", "!", "?")) or bool(_PROSE_OR_TAG_RE.search(stripped))


#: an indented line that is a sentence (three words or more, a sentence's end after a letter):
#: prose a transcript wrote with a leading space, not a line of a block
_INDENTED_SENTENCE_RE = re.compile(r"\S+\s+\S+\s+\S.*[A-Za-z][.!?]")


def _codeish(line: str) -> bool:
    """Whether ``line`` may be a line of code: it parses alone, is indented (and no
    sentence), a comment, blank, or opens a block."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return True
    if line[:1] in (" ", "\t"):
        return not _INDENTED_SENTENCE_RE.fullmatch(stripped)
    return bool(_BLOCK_HEAD_RE.match(stripped)) or _parses(stripped)


def _parses(code: str) -> bool:
    if len(code) > 6000:
        return False
    try:
        parse_quietly(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _prose_above(lines: list[str], top: int) -> bool:
    """Whether the last non-blank line above ``lines[top]`` is prose (does not parse)."""
    for i in range(top - 1, -1, -1):
        if lines[i].strip():
            return not _codeish(lines[i])
    return False


#: the longest completion tried as a whole program (``unrun_program``)
_PROGRAM_CHARS = 20_000


def unrun_program(text: str) -> bool:
    """Whether the whole completion is a program and nothing else (PAL's and CRAFT's
    ``def solution(): …`` then ``print(solution())``): code that states no answer until it
    runs, so that no number of it (an argument, a constant) is read as one. A program is
    Python of two statements or more with a definition or an import, or one that ends with
    a call; ``x = 5`` alone is a statement of a value."""
    code = text.strip()
    if not code or len(code) > _PROGRAM_CHARS or "\n" not in code:
        return False
    try:
        tree = parse_quietly(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    body = tree.body
    if len(body) < 2:
        return False
    defines = any(
        isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Import | ast.ImportFrom)
        for node in body
    )
    calls = isinstance(body[-1], ast.Expr) and isinstance(body[-1].value, ast.Call)
    return defines or calls
