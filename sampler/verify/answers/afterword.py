"""What a completion writes after its answer that is no answer: a check, a note, code that
verifies, a closing rule line.

"The sum is \\( 5 \\). Let's verify this with code:\\n```python\\nprint(2+3)\\n```" states 5;
so do "The sum is 5.\\n\\nNote: this assumes integer inputs." and "… is $5$\\n\\n---". When no
rule finds an answer at the end of a completion, extraction
(``sampler.verify.answers.extraction``) reads it again without its afterword:
``without_afterword`` removes, from the end, up to ``_STEPS`` parts of these kinds:

- a fenced code block (with the output block and the one sentence that may follow it,
  "The code confirms it."), or a stray fence or rule line (```` ``` ````, ``---``, ``***``);
- a notebook cell without fences that ends the completion (its code, then its output,
  ``<empty_execution>`` or a traceback: ``tool_transcript.closing_cell_start``), after prose;
- a last sentence that holds no value, no negation and no word about the answer ("Thus, the
  result is confirmed.", "This matches our expectation.");
- the last sentences from the last one that opens a check or a note ("Let's verify", "Let's double
  check", "Verification:", "Check:", "Note:", "**Important Note:**", "Remark:", "Caveat:",
  "Sanity check") or confirms ("This
  is the final result.", "That is correct."), when it starts a paragraph, a line or a
  sentence, and no line after it concludes again with a value ("… = 104,976. That's
  correct.\n\nTherefore, the maximum is 540.": the check was a step of the reasoning);
- a closing paragraph that restates the task's instructions or asks for another problem
  ("Let's start by solving a math problem following the guidelines provided. … using a
  `\\boxed{}`.", "Please provide me with the math problem …"), with no value and no filled box;
- a last paragraph that explains the answer before it, from a line that opens "This is
  because", "The reason is", "This compound …", "This structure …", "Explanation:" or
  "Reasoning:" to the end.

An afterword that is cut off (no sentence end, an unclosed fence) is not removed: the
completion stopped mid-thought, and what came before it was no conclusion. Linear time in
the last ``_TAIL`` characters.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterator

from sampler.verify.answers.number_words import has_number_word
from sampler.verify.answers.partial_math import LATEX_COMMAND_RE
from sampler.verify.answers.quiet_ast import parse_quietly
from sampler.verify.answers.tool_transcript import closing_cell_start, is_literal

_TAIL = 3000
_STEPS = 2
_CODE_TAIL_RE = re.compile(
    r"\n?[ \t]*```[A-Za-z0-9_+-]*[ \t]*\n(?:(?!```).)*\n[ \t]*```[ \t]*"
    r"(?:\n[ \t]*```[A-Za-z]*[ \t]*\n(?:(?!```).)*\n?[ \t]*```[ \t]*)?"
    r"(?:\s*[^\n`]{0,160}[.!])?\s*\Z",
    re.DOTALL,
)
#: the last fenced block of a text that ends with one: its info string and its body
_LAST_FENCED_RE = re.compile(
    r"```([A-Za-z0-9_+-]*)[ \t]*\n((?:(?!```).)*)\n?[ \t]*```\s*\Z", re.DOTALL
)
_CODE_LANGUAGES = frozenset({"python", "py", "python3", "sympy", "ipython"})
_RULE_LINE_RE = re.compile(r"\n[ \t]*(?:-{3,}|\*{3,}|_{3,}|```)[ \t]*\s*\Z")
_CHECK_RE = re.compile(
    r"(?:^|(?<=\n)|(?<=[.!?)$])[ \t]+)[ \t*#>_-]*(?:let(?:'s|\s+us|\s+me)\s+(?:double[- ]?)?"
    r"(?:check|verify|confirm)|(?:double[- ]?check|verification|check|sanity\s+check"
    r"|(?:(?:important|additional|final|side)\s+)?(?:note|remark|caveat|disclaimer))"
    r"[*_ \t]*[:：.]|to\s+(?:verify|check|confirm)\b|we\s+can\s+(?:verify|check|confirm)\b"
    r"|(?:this|that)(?:'s|\s+is)\s+(?:the\s+)?(?:final\s+)?(?:answer|result|solution)\b"
    r"|(?:this|that)(?:'s|\s+is)\s+(?:correct|right)\b)",
    re.IGNORECASE,
)


#: a conclusion that states a value, at the start of a line: after a check
#: ("… = 104,976. That's correct.\n\nTherefore, the maximum is 540.") the check is no
#: afterword, the text after it concludes again
_CONCLUSION_RE = re.compile(
    r"(?<=\n)[ \t*#>_-]*(?:therefore|thus|hence|so|in conclusion|finally"
    r"|consequently)\b[^\n.!?]{0,200}?(?:\d|\\boxed|\\[(\[]|\$)",
    re.IGNORECASE,
)
#: a last paragraph that explains the answer before it: a line that opens "This is because",
#: "Explanation:", "Reasoning:" (read only when no blank line follows: the explanation ends
#: the completion)
_EXPLANATION_RE = re.compile(
    r"(?:^|(?<=\n))[ \t*#>_-]*(?:(?:this|that)(?:'s|\s+is)\s+because\b|the\s+reason\s+is\b"
    r"|this\s+(?:compound|structure|product|molecule|reaction|mechanism|process|option|choice)\b"
    r"|(?:explanation|reasoning|rationale|justification)[*_ \t]*[:：])",
    re.IGNORECASE,
)
#: a closing paragraph that restates the task's instructions or asks for another problem (a
#: tool-integrated model that runs on after its output: "Let's start by solving a math problem
#: following the guidelines provided.", "Please provide me with the math problem …")
_TEMPLATE_ECHO_RE = re.compile(
    r"let(?:'s|\s+us)\s+(?:start\s+by\s+|now\s+)?(?:solv(?:e|ing)|proceed\s+with|move\s+on\s+to)"
    r"\s+(?:a|the\s+next|another|a\s+new|the\s+following)\s+(?:new\s+)?(?:math(?:ematical)?\s+)?"
    r"(?:problem|question)"
    r"|please\s+provide\s+(?:me\s+with\s+)?(?:the|a|another|your)\s+(?:specific\s+)?"
    r"(?:math(?:ematical)?\s+|integration\s+)?(?:problem|question)"
    r"|following\s+the\s+(?:guidelines|instructions)\s+(?:provided|given|above)"
    r"|it\s+(?:appears|seems)\s+there\s+was\s+a\s+repetition",
    re.IGNORECASE,
)
_NON_EMPTY_BOX_RE = re.compile(r"\\boxed\s*\{\s*[^\s}]")
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s)|\n")
#: what makes a last sentence more than an afterword: a value, a negation, the answer itself
_HOLDS_VALUE_RE = re.compile(
    r"\d|\$|\\[(\[]|\\boxed|\b(?:no|not|none|never|neither|nor|answer|impossible|undefined"
    r"|zero|infinite(?:ly)?|empty)\b|n't|[A-Z]\b(?![.'])",
)


def _cut_once(text: str) -> str | None:
    """``text`` without its last afterword part, or None when it ends with none."""
    stripped = text.rstrip()
    start = max(0, len(stripped) - _TAIL)
    # a closing fence pairs with an opening one when the fences are even in number: it ends
    # a code block, which goes whole; an odd one out is a stray fence, a rule line
    rule = _RULE_LINE_RE.search(stripped, start)
    if rule is not None and not (stripped.endswith("```") and stripped.count("```") % 2 == 0):
        return stripped[: rule.start()]
    if stripped.endswith("```") or stripped.endswith((".", "!")):
        code = _CODE_TAIL_RE.search(stripped, start)
        if code is not None and code.start() > 0:
            return stripped[: code.start()]
    if rule is not None:
        return stripped[: rule.start()]
    # a notebook cell without fences and its output (a sentence at the end is prose, not it)
    cell = closing_cell_start(stripped) if not stripped.endswith((".", "!", "?")) else None
    if cell is not None and cell > 0:
        return stripped[:cell]
    if not stripped.endswith((".", "!", "✓", ")", ":")):
        return None  # cut off: no afterword to remove
    echo = _without_template_echo(stripped)
    if echo is not None:
        return echo
    checks = list(_CHECK_RE.finditer(stripped, start))
    if checks and checks[-1].start() > 0 and not _CONCLUSION_RE.search(stripped, checks[-1].end()):
        return stripped[: checks[-1].start()]
    explained = list(_EXPLANATION_RE.finditer(stripped, start))
    if explained and explained[-1].start() > 0 and "\n\n" not in stripped[explained[-1].start() :]:
        return stripped[: explained[-1].start()]
    return _without_valueless_sentence(stripped)


def _without_template_echo(stripped: str) -> str | None:
    """``stripped`` without a closing paragraph that restates the task's instructions or asks
    for another problem (``_TEMPLATE_ECHO_RE``) and holds no value, else None."""
    echo = _TEMPLATE_ECHO_RE.search(stripped, max(0, len(stripped) - 600))
    if echo is None:
        return None
    line = stripped.rfind("\n", 0, echo.start()) + 1
    rest = stripped[line:]
    if line == 0 or _NON_EMPTY_BOX_RE.search(rest) or re.search(r"\d", rest):
        return None
    return stripped[:line]


def _without_valueless_sentence(text: str) -> str | None:
    """``text`` without its last sentence when that holds no value, no negation and no word
    about the answer ("Thus, the result is confirmed.", "This matches our expectation.")."""
    if not text.endswith((".", "!")):
        return None
    ends = [
        m.end() for m in _SENTENCE_END_RE.finditer(text, max(0, len(text) - 400), len(text) - 1)
    ]
    if not ends:
        return None
    sentence = text[ends[-1] :]
    if len(sentence) > 200 or _HOLDS_VALUE_RE.search(sentence) or has_number_word(sentence):
        return None
    return text[: ends[-1]]


def ends_unexecuted(text: str) -> bool:
    """Whether ``text`` ends with code and no output under it (a notebook cell's code, or a
    fenced ```` ```python ```` block with no output block after it): the kernel never
    answered (a transcript cut at its tool call), so what the prose before it says is what
    the code was to compute, not a result."""
    stripped = text.rstrip()
    if stripped.endswith("```") and stripped.count("```") % 2 == 0:
        # a fenced block ends it: code (```python, or a bare fence whose body parses with a
        # call in it) that no output block follows
        block = _LAST_FENCED_RE.search(stripped, max(0, len(stripped) - _TAIL))
        if block is None:
            return False
        language, body = block.group(1).lower(), block.group(2)
        if language in _CODE_LANGUAGES:
            return True
        return not language and "(" in body and _parses(body)
    cell = closing_cell_start(stripped)
    if cell is None:
        return False
    code = textwrap.dedent(stripped[cell:])
    try:
        tree = parse_quietly(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False  # the lines under the code are its output
    last = tree.body[-1] if tree.body else None
    # a value alone on the last line ("360", "(2, 3)") is what the kernel printed
    return not (isinstance(last, ast.Expr) and is_literal(last.value))


#: a ``\\text{}`` that follows no number: a quantity's name, an operand, not a unit
_OPERAND_TEXT_RE = re.compile(r"(?:^|[^\d\s}])\s*\\text\{")
_LATEX_SPACE_RE = re.compile(r"\\[,;:! ]|~")
_CURRENCY_RE = re.compile(r"\\?\$")
_VARIABLE_RE = re.compile(r"[A-Za-z]")
#: a sentence that says what to do, not what came out: a plan's step
_PLAN_RE = re.compile(
    r"\bwe\s+(?:can|will|need|must|should|have\s+to|sum|add|subtract|multiply|divide|calculate"
    r"|compute|find|use|determine)\b|\bby\s+[a-z]+ing\b|\blet'?s\b"
    r"|\bto\s+(?:find|get|calculate|compute|determine)\b",
    re.IGNORECASE,
)
#: where the left side of an equation starts: a line, a math delimiter, a clause
_EQUATION_START_RE = re.compile(r"\n|\\[(\[]|\$|[,;:](?=\s)|=")
#: "There are 1/10 as many …", "3 times as many": a ratio, not a result
_NOT_A_RATIO = r"(?![ \t]+(?:as|times|of|more|less|fewer)\b)"
_FRACTION_RE = re.compile(r"\s*-?\d+\s*/\s*\d+\s*|\s*-?\\[dt]?frac\{\d+\}\{\d+\}\s*")
_TRAILING_UNIT_RE = re.compile(r"(?<=\d)[ \t]+[A-Za-z][A-Za-z ./-]{0,30}$")
_NOT_AN_OPERAND = r"(?![\d.]\d)(?!\s*(?:[*×÷/+^-]|\\(?:times|cdot|div)))"
_OPERATOR_RE = re.compile(r"[+*/×÷^]|(?<=\S)\s*-\s*(?=\S)|\\(?:frac|times|cdot|div)")


def states_result(value: str, before: str, concluded: bool = False) -> bool:
    """Whether ``value``, read from the statement in ``before`` (the prose above code that
    never ran), is a result rather than a step: numbers only (symbols, ``T + C + S``, are
    the plan's), and either a computed value (``… = 156 kg``; a bare number only where
    ``before`` computes it, ``20 - 15 = 5``) or the arithmetic the code was to do
    (``4 + 12 + 6``). A sentence that opens with a conclusion word (``concluded``:
    "Therefore, Terry spends $75 on yogurt.") states any one number it reads."""
    result = _LATEX_SPACE_RE.sub(" ", value.rsplit("=", 1)[-1])
    result = _TRAILING_UNIT_RE.sub("", result)  # "2 seconds": its number
    if _OPERAND_TEXT_RE.search(result):
        return False  # "\text{total sprints} \times 60": a quantity named, not computed
    bare = LATEX_COMMAND_RE.sub(" ", result)
    if re.search(r"[A-Za-z]", bare) or not re.search(r"\d", bare):
        return False
    if "=" in value:
        # "30 \\times (n + 1) = 90": an equation still to solve, not a result
        solved = value.rsplit("=", 2)[-2]
        return not (
            _OPERATOR_RE.search(solved) and _VARIABLE_RE.search(LATEX_COMMAND_RE.sub(" ", solved))
        )
    if _OPERATOR_RE.search(result) and not _FRACTION_RE.fullmatch(result):
        return True  # "4 + 12 + 6"; a fraction alone ("1/10 as many") is a number
    number = re.escape(_CURRENCY_RE.sub("", result).strip().replace(",", ""))
    last = _CURRENCY_RE.sub("", _last_sentence(before)).replace(",", "")
    if _computed(last, re.finditer(r"=[\s\\(\[]*" + number + _NOT_AN_OPERAND, last)):
        return True  # "… to get the eggs their friends found: \\(90 - 60 = 30\\)."
    if _PLAN_RE.search(last):
        return False  # "So, we divide the photos by 50.", "Finally, we sum their salaries."
    if concluded:
        return True
    tail = _CURRENCY_RE.sub("", before[-400:]).replace(",", "")
    # "= 5", "= \( 5 \)", "… is 9.", not "= $8000 * 1.2%" (the value ends the computation)
    # nor "Each carton costs $4.00" (a given)
    anchored = (
        r"(?:=|(?<!there )\b(?:is|was|equals|(?:equivalent|equal)\s+to))[\s\\(\[]*"
        + number
        + _NOT_AN_OPERAND
    )
    return _computed(tail, re.finditer(anchored + _NOT_A_RATIO, tail))


def _computed(text: str, matches: Iterator[re.Match[str]]) -> bool:
    """Whether one of ``matches`` (a value after "=", "is", …) states a result: a value
    after "=" only when the left side is no equation still to solve (``30 \\times (n + 1) =
    90``: a variable and an operator)."""
    for found in matches:
        if not found.group().startswith("="):
            return True
        left = _EQUATION_START_RE.split(text[max(0, found.start() - 120) : found.start()])[-1]
        if not (_OPERATOR_RE.search(left) and _VARIABLE_RE.search(LATEX_COMMAND_RE.sub(" ", left))):
            return True
    return False


def _last_sentence(text: str) -> str:
    tail = text.rstrip()[-400:]
    sentence = max(tail.rfind(". ", 0, len(tail) - 1), tail.rfind("\n")) + 1
    return tail[sentence:]


def _parses(code: str) -> bool:
    try:
        parse_quietly(textwrap.dedent(code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def without_closing_code(text: str) -> str | None:
    """``text`` before the code that ends it (a fenced code block and its output block, or a
    notebook cell without fences and its output), or None when code does not end it."""
    stripped = text.rstrip()
    start = max(0, len(stripped) - _TAIL)
    code = _CODE_TAIL_RE.search(stripped, start) if stripped.endswith("```") else None
    if code is not None and code.start() > 0:
        return stripped[: code.start()]
    cell = closing_cell_start(stripped)
    return stripped[:cell] if cell else None


def afterword_cuts(text: str) -> list[str]:
    """``text`` without its afterword one part at a time: the text without the last part,
    then without the last two (module docstring); empty when it ends with none."""
    cuts: list[str] = []
    for _ in range(_STEPS):
        current = cuts[-1] if cuts else text
        shorter = _cut_once(current)
        if shorter is None or not shorter.strip():
            break
        cuts.append(shorter)
        if shorter == _without_template_echo(current.rstrip()):
            break  # what the restated instructions followed is the answer: an output, a statement
    return cuts


def without_afterword(text: str) -> str | None:
    """``text`` without the checks, notes and verifying code that follow its answer
    (module docstring), or None when it ends with none of them."""
    cuts = afterword_cuts(text)
    return cuts[-1] if cuts else None
