"""How much work an answer asks of the parser and of sympy, read from its text before either runs.

Profiling completions shaped like real harness outputs (``bench/verify_speed.py --real
--profile``) found three shapes that take seconds to minutes in math-verify while no real
answer needs them; each is judged by its structure here, in time linear in the text, and
such an answer gets status ``error`` with the reason (``parse_depth.too_deep`` asks):

- **size**: the LaTeX parser costs a few milliseconds a token (an expanded polynomial of
  200 tokens takes about a second of CPU), so an answer of more than ``MAX_TOKENS``
  tokens (a number, a command, a letter or a symbol each; a ``\\text{...}`` group one) is not
  parsed (the longest gold of MATH-500, AIME, AMC, Minerva and OlympiadBench has 206 as
  stored, 136 as read), nor one of more than ``MAX_POWERS`` powers (``^``), the costliest
  token (those golds write 7 at most; a 37-term expanded polynomial takes 1.4 s of CPU, one
  of 17 terms 0.4 s; one of 25 still timed out at load 14);
- **nested fractions and roots**: sympy's comparison of ``\\frac{5}{4+\\frac{5}{4+...}}``
  grows about twofold a level (0.5 s at 8 levels, 98 s at 16), so fractions and roots
  nested more than ``MAX_FRACTION_DEPTH`` deep in one another are refused (real answers
  nest two or three);
- **powers of sums**: a bracketed sum raised to an integer power is expanded term by term
  (``(x+1)^{1000}`` runs past any deadline, ``(x+y+1)^{20}`` takes a second), so one whose
  expansion would hold more than ``MAX_EXPANDED_TERMS`` terms is refused.
"""

from __future__ import annotations

import math
import re

#: tokens of the largest answer handed to the parser
MAX_TOKENS = 320
#: powers (``^``) in the largest answer handed to the parser
MAX_POWERS = 16
#: fractions and roots nested in one another, at most
MAX_FRACTION_DEPTH = 8
#: terms of the expansion of a power of a bracketed sum, at most
MAX_EXPANDED_TERMS = 128

_TEXT_GROUP = re.compile(r"\\(?:text\w*|mathrm|mbox|operatorname)\s*\{[^{}]*\}")
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\d+(?:\.\d+)?|[A-Za-z]|\S")
_NESTING = re.compile(r"\\(?:[dtc]?frac|sqrt)(?![A-Za-z])|[{}]")
_ARGUMENT = re.compile(r"\s*(?:\[[^\]{}]*\]\s*)?\{")
_CLOSING = re.compile(
    r"(?:\\right\s*)?([)\]])\s*\^\s*(?:\{\s*(\d{1,30})\s*\}|(\d)"
    r"|\{\s*(\d{1,30})\s*\^\s*\{?\s*(\d{1,30})\s*\}?\s*\})"
)


def token_count(text: str) -> int:
    """Tokens of ``text`` as the size rule counts them (a ``\\text{}`` group is one)."""
    return len(_TOKEN.findall(_TEXT_GROUP.sub("T", text)))


def fraction_depth(text: str) -> int:
    """The most ``\\frac``/``\\dfrac``/``\\tfrac``/``\\cfrac``/``\\sqrt`` open inside one another.

    A command opens a level for its brace arguments (two for a fraction, one for a root);
    the level closes with its last one. ``\\frac12`` (no braces) is one level that closes
    at once."""
    waiting: list[list[int]] = []  # [arguments still to open] of each open command
    braces: list[list[int] | None] = []  # per open brace: the command it is an argument of
    level = deepest = 0
    for match in _NESTING.finditer(text):
        token = match.group()
        if token == "{":
            frame = waiting[-1] if waiting and waiting[-1][0] > 0 else None
            if frame is not None:
                frame[0] -= 1
            braces.append(frame)
        elif token == "}":
            frame = braces.pop() if braces else None
            if frame is not None and frame[0] == 0 and waiting and waiting[-1] is frame:
                waiting.pop()
                level -= 1
        else:
            deepest = max(deepest, level + 1)
            if _ARGUMENT.match(text, match.end()):  # braces follow (\sqrt[3]{x}: after the index)
                level += 1
                waiting.append([1 if token.startswith("\\sqrt") else 2])
    return deepest


def _top_level_terms(body: str) -> int:
    """Terms of a sum written in ``body`` (signs at bracket depth 0, not leading)."""
    depth = 0
    terms = 1
    previous = ""
    for ch in body:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif ch in "+-" and depth == 0 and previous not in ("", "(", "^", "_", "e", "E"):
            terms += 1
        if not ch.isspace():
            previous = ch
    return terms


def _group_before(text: str, close: int) -> str | None:
    """The inside of the bracket pair closing at ``text[close]``, or None if unmatched."""
    depth = 0
    for i in range(close, -1, -1):
        if text[i] in ")]":
            depth += 1
        elif text[i] in "([":
            depth -= 1
            if depth == 0:
                return text[i + 1 : close]
    return None


def _exponent(match: re.Match[str]) -> float:
    """The integer exponent a ``_CLOSING`` match writes (``{64}``, ``7``, ``{2^{40}}``)."""
    if match.group(4) is not None:  # a power of literals
        base, power = int(match.group(4)), int(match.group(5))
        if base < 2:
            return 1.0
        return math.inf if power * math.log10(base) > 9 else float(base**power)
    return float(match.group(2) or match.group(3))


def expanded_terms(text: str) -> float:
    """The most terms the expansion of one power of a bracketed sum in ``text`` would have
    (``(x+1)^{64}``: 65; ``(x+y+1)^{20}``: 231; 0 when there is none; inf: too many to count)."""
    largest = 0.0
    for match in _CLOSING.finditer(text):
        body = _group_before(text, match.start(1))
        if body is None:
            continue
        terms = _top_level_terms(body.replace("\\left", "").replace("\\right", ""))
        if terms < 2:
            continue
        power = _exponent(match)
        if power > 10**9:
            return math.inf
        count = math.comb(int(power) + terms - 1, terms - 1)
        largest = max(largest, float(min(count, 10**18)))
    return largest


def too_much_work(text: str) -> str | None:
    """Why ``text`` would take the parser or sympy too long (None when it would not)."""
    tokens = token_count(text)
    if tokens > MAX_TOKENS:
        return f"is {tokens:,} tokens long, more than the {MAX_TOKENS} leash hands to the parser"
    powers = text.count("^")
    if powers > MAX_POWERS:
        return f"writes {powers} powers, more than the {MAX_POWERS} leash hands to the parser"
    depth = fraction_depth(text)
    if depth > MAX_FRACTION_DEPTH:
        return (
            f"nests fractions or roots {depth} deep, more than the {MAX_FRACTION_DEPTH}"
            " leash evaluates"
        )
    terms = expanded_terms(text)
    if terms > MAX_EXPANDED_TERMS:
        size = "more than a billion" if math.isinf(terms) else f"{terms:,.0f}"
        return (
            f"raises a sum to a power of {size} terms, more than the {MAX_EXPANDED_TERMS}"
            " leash expands"
        )
    return None
