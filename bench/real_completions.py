"""Completions shaped like real evaluation-harness outputs, built here from a seed (no downloads).

``bench/verify_speed.py --real`` verifies them. Each question has a gold of one of the kinds
benchmarks use (integers, fractions, radicals, multiples of pi, intervals, tuples,
polynomials, matrices, degrees, text, lists, large integers); each sample is a completion
as harnesses record them: a long chain of thought full of LaTeX, sometimes
tool-integrated (```` ```python ```` blocks each followed by an ```` ```output ```` block),
ending in one of the layouts models use (``\\boxed{}``, ``\\[\\boxed{}\\]``, "The final
answer is $...$. I hope it is correct.", a closing output block, ``**Answer:**``), or cut off
at the token limit. Its final is the gold as written, the gold in another spelling, a
wrong answer close to it, or one of the heavy shapes real samples hold: nested fractions
and powers, power towers, huge integers and decimals, long expanded polynomials and sums,
long tool-output lists, whole sentences in the box.

``build_real_corpus(n)`` returns (question rows, sample rows, kinds), where ``kinds[i]``
names the shape of sample ``i``'s final (for the per-answer profile).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

BENCHMARK = "harness"
#: samples per question; 41 questions x 81 samples = 3,321 (the size of the issue's run)
K = 81


def _gold(kind: str, rng: random.Random) -> tuple[str, list[str], list[str]]:
    """(gold as written, equivalent spellings, wrong answers close to it) for ``kind``."""
    a, b = rng.randint(2, 19), rng.randint(2, 19)
    if kind == "integer":
        n = rng.randint(2, 999)
        return (
            str(n),
            [f"{n}.0", f"{n:,}" if n > 999 else f"\\text{{{n}}}", f"x = {n}"],
            [
                str(n + 1),
                str(n - 2),
                str(2 * n),
            ],
        )
    if kind == "fraction":
        f = Fraction(a, b + a)
        g = f"\\frac{{{f.numerator}}}{{{f.denominator}}}"
        return (
            g,
            [g.replace("\\frac", "\\dfrac"), f"{f.numerator}/{f.denominator}", f"{float(f):.6g}"],
            [
                f"\\frac{{{f.numerator + 1}}}{{{f.denominator}}}",
                f"\\frac{{{f.denominator}}}{{{f.numerator}}}",
            ],
        )
    if kind == "radical":
        s = rng.choice([2, 3, 5, 6, 7])
        return (
            f"{a}\\sqrt{{{s}}}",
            [f"\\sqrt{{{a * a * s}}}", f"{a} \\sqrt {s}", f"{a}\\cdot\\sqrt{{{s}}}"],
            [f"{a + 1}\\sqrt{{{s}}}", f"{a}\\sqrt{{{s + 1}}}"],
        )
    if kind == "pi":
        return (
            f"\\frac{{{a}\\pi}}{{{b}}}",
            [f"\\frac{{{a}}}{{{b}}}\\pi", f"{a}\\pi/{b}", f"\\dfrac{{{a} \\pi}}{{{b}}}"],
            [f"\\frac{{{a + 1}\\pi}}{{{b}}}", f"{a}\\pi"],
        )
    if kind == "interval":
        return (
            f"(-\\infty, {a}]",
            [f"\\left(-\\infty, {a}\\right]", f"(-\\infty,{a}]"],
            [f"(-\\infty, {a})", f"[{a}, \\infty)"],
        )
    if kind == "tuple":
        return (
            f"({a}, -{b})",
            [f"\\left({a}, -{b}\\right)", f"({a},-{b})"],
            [f"(-{b}, {a})", f"({a}, {b})"],
        )
    if kind == "polynomial":
        return (
            f"x^2 + {a}x - {b}",
            [f"x^{{2}}+{a}x-{b}", f"-{b} + {a}x + x^2"],
            [f"x^2 - {a}x - {b}", f"x^2 + {a}x + {b}"],
        )
    if kind == "matrix":
        m = f"\\begin{{pmatrix}} {a} & {b} \\\\ {b} & {a} \\end{{pmatrix}}"
        return (
            m,
            [m.replace("pmatrix", "bmatrix")],
            [m.replace(f"{a} \\end", f"{a + 1} \\end")],
        )
    if kind == "degrees":
        d = rng.choice([30, 45, 60, 120, 150])
        return f"{d}^\\circ", [f"{d}", f"{d}^{{\\circ}}", f"{d} degrees"], [f"{d + 15}^\\circ"]
    if kind == "text":
        word = rng.choice(["east", "even", "Monday", "Bob"])
        return f"\\text{{{word}}}", [word, f"\\textbf{{{word}}}"], ["\\text{west}", "odd"]
    if kind == "list":
        return (
            f"{a}, {a + b}",
            [f"{a + b}, {a}", f"{a},{a + b}", f"x = {a}, x = {a + b}"],
            [f"{a}, {a + b + 1}", str(a)],
        )
    # a large integer, written out
    n = a**40 + b
    return str(n), [f"{n:,}".replace(",", "{,}")], [str(n + 1), f"{a}^{{40}}"]


GOLD_KINDS = (
    ["integer"] * 14
    + ["fraction"] * 5
    + ["radical"] * 3
    + ["pi"] * 3
    + ["interval", "interval", "tuple", "tuple", "polynomial", "polynomial"]
    + ["matrix", "degrees", "text", "list", "list", "large"]
)


def _heavy(rng: random.Random) -> tuple[str, str]:
    """(shape, final) of one of the heavy answers real samples hold."""
    shape = rng.choice(
        [
            "nested_fraction",
            "continued_fraction",
            "power_tower",
            "symbolic_power",
            "huge_integer",
            "long_decimal",
            "expanded_polynomial",
            "long_sum",
            "long_product",
            "nested_radical",
            "tool_list",
            "sentence",
            "big_binomial",
            "repeated_equation",
        ]
    )
    if shape == "nested_fraction":
        depth = rng.randint(4, 40)
        text = "1"
        for _ in range(depth):
            text = f"\\frac{{{rng.randint(1, 9)}}}{{{rng.randint(1, 9)}+{text}}}"
        return shape, text
    if shape == "continued_fraction":
        depth = rng.randint(8, 60)
        text = "x"
        for _ in range(depth):
            text = f"1+\\frac{{1}}{{{text}}}"
        return shape, text
    if shape == "power_tower":
        levels = rng.randint(2, 5)
        text = str(rng.randint(2, 9))
        for _ in range(levels):
            text = f"{rng.randint(2, 9)}^{{{text}}}"
        return shape, text
    if shape == "symbolic_power":
        e = rng.choice([10**3, 10**5, 10**7, 2**40])
        form = rng.choice(
            [
                f"(x+1)^{{{e}}}",
                f"x^{{{e}}} - (x-1)^{{{e}}}",
                f"\\left(1+\\frac{{1}}{{n}}\\right)^{{{e}}}",
                f"(\\sqrt{{2}}+1)^{{{e}}}",
                f"{rng.randint(2, 9)}^{{{e}}} \\bmod 7",
                f"\\frac{{{rng.randint(2, 9)}^{{{e}}}-1}}{{{rng.randint(2, 9)}}}",
            ]
        )
        return shape, form
    if shape == "huge_integer":
        digits = rng.choice([80, 400, 2000, 6000, 20000])
        return shape, str(rng.randint(1, 9)) + "".join(rng.choices("0123456789", k=digits))
    if shape == "long_decimal":
        digits = rng.choice([50, 500, 3000, 12000])
        return shape, "0." + "".join(rng.choices("0123456789", k=digits))
    if shape == "expanded_polynomial":
        n = rng.randint(10, 80)
        terms = [
            f"{math.comb(n, i)}x^{{{n - i}}}" if n - i > 1 else f"{math.comb(n, i)}x"
            for i in range(n)
        ]
        return shape, " + ".join(terms) + " + 1"
    if shape == "long_sum":
        n = rng.randint(30, 400)
        return shape, " + ".join(f"\\frac{{1}}{{{i * (i + 1)}}}" for i in range(1, n))
    if shape == "long_product":
        n = rng.randint(20, 200)
        return shape, " \\cdot ".join(f"\\left(1-\\frac{{1}}{{{i}^2}}\\right)" for i in range(2, n))
    if shape == "nested_radical":
        depth = rng.randint(3, 30)
        text = "2"
        for _ in range(depth):
            text = f"\\sqrt{{2+{text}}}"
        return shape, text
    if shape == "tool_list":
        n = rng.randint(50, 800)
        return shape, "[" + ", ".join(str(rng.randint(0, 10**6)) for _ in range(n)) + "]"
    if shape == "sentence":
        return shape, (
            "\\text{the total is } " + str(rng.randint(1, 99)) + " \\text{ since each of the "
            "cases above contributes once and no case is counted twice}"
        )
    if shape == "big_binomial":
        n = rng.choice([100, 1000, 10**5, 10**8])
        return shape, f"\\binom{{{n}}}{{{n // 2}}}"
    # the same equation written over and over, as a looping sample does
    eq = f"x_{{{rng.randint(1, 9)}}} = \\frac{{{rng.randint(1, 9)}}}{{{rng.randint(2, 9)}}}"
    return shape, ", ".join([eq] * rng.randint(20, 300))


_STEPS = (
    "First, note that ${a}x + {b} = {c}$, so $x = \\frac{{{c} - {b}}}{{{a}}}$.",
    "We compute \\[ \\sum_{{k=1}}^{{{a}}} k^2 = \\frac{{{a}({a}+1)(2\\cdot{a}+1)}}{{6}}. \\]",
    "Since $\\sqrt{{{d}}} \\approx {e:.4f}$, the bound holds for all $n \\ge {a}$.",
    "Let $f(x) = x^{{{a}}} - {b}x + {c}$. Then $f'(x) = {a}x^{{{a1}}} - {b}$.",
    "By the Law of Cosines, $c^2 = a^2 + b^2 - 2ab\\cos\\theta = {c}$.",
    "Wait, let me double-check this step. If $k = {a}$, then $k^2 = {a2}$, which is correct.",
    "The probability is $\\dfrac{{\\binom{{{a}}}{{2}}}}{{\\binom{{{c}}}{{2}}}}$ at first.",
    "Multiplying both sides by ${b}$ gives \\begin{{align*}} {b}y &= {c} \\\\ y &= "
    "\\frac{{{c}}}{{{b}}} \\end{{align*}}",
    "Hmm, that is not an integer, so we try the next case: $n = {a1}$.",
)


def _chain_of_thought(rng: random.Random, steps: int) -> str:
    lines = []
    for _ in range(steps):
        a, b = rng.randint(2, 30), rng.randint(1, 50)
        c, d = a * rng.randint(2, 9) + b, rng.randint(2, 99)
        step = rng.choice(_STEPS).format(a=a, b=b, c=c, d=d, e=math.sqrt(d), a1=a - 1, a2=a * a)
        lines.append(step)
    return "\n\n".join(lines)


def _tool_block(rng: random.Random, final: str | None) -> str:
    code = (
        "```python\nfrom sympy import *\nx = symbols('x')\n"
        f"expr = (x + {rng.randint(1, 9)})**{rng.randint(2, 6)}\nprint(expand(expr))\n```\n"
    )
    shown = final if final is not None else str(rng.randint(1, 10**6))
    return code + f"```output\n{shown}\n```\n"


def _completion(rng: random.Random, final: str | None) -> str:
    """A whole completion ending in ``final`` in one of the harness layouts (None: cut off)."""
    tir = rng.random() < 0.3
    parts = ["Let's think step by step.", _chain_of_thought(rng, rng.randint(6, 40))]
    if tir:
        for _ in range(rng.randint(1, 3)):
            parts.append(_tool_block(rng, None))
            parts.append(_chain_of_thought(rng, rng.randint(1, 4)))
    if final is None:  # cut at the token limit, mid-sentence
        text = "\n\n".join(parts)
        return text[: int(len(text) * rng.uniform(0.6, 0.95))]
    layout = rng.choice(["boxed", "display", "final_answer", "tool_output", "bold", "boxed"])
    if layout == "tool_output" and tir:
        parts.append(_tool_block(rng, final))
        parts.append(f"The final answer is $\\boxed{{{final}}}$.")
    elif layout == "display":
        parts.append(f"Therefore, the answer is\n\\[\n\\boxed{{{final}}}\n\\]")
    elif layout == "final_answer":
        parts.append(f"Final Answer: The final answer is ${final}$. I hope it is correct.")
    elif layout == "bold":
        parts.append(f"**Answer:** $\\boxed{{{final}}}$")
    else:
        parts.append(f"So the answer is $\\boxed{{{final}}}$.")
    return "\n\n".join(parts)


def build_real_corpus(n: int = 41 * K, seed: int = 0) -> tuple[list[dict], list[dict], list[str]]:
    """(question rows, sample rows, shape of each sample's final): ``n`` samples, K per
    question, the golds' kinds in ``GOLD_KINDS``'s proportions."""
    rng = random.Random(seed)
    questions: list[dict] = []
    samples: list[dict] = []
    kinds: list[str] = []
    q = 0
    while len(samples) < n:
        kind = GOLD_KINDS[q % len(GOLD_KINDS)]
        gold, same, wrong = _gold(kind, rng)
        qid = f"q{q:03d}"
        questions.append(
            {
                "benchmark": BENCHMARK,
                "question_id": qid,
                "problem": f"Question {q} (a {kind} answer).",
                "gold": gold,
                "metadata": None,
            }
        )
        for s in range(min(K, n - len(samples))):
            roll = rng.random()
            if roll < 0.08:
                shape, final = "cut_off", None
            elif roll < 0.45:
                shape, final = "gold", gold
            elif roll < 0.6:
                shape, final = "respelled", rng.choice(same)
            elif roll < 0.8:
                shape, final = "wrong", rng.choice(wrong)
            else:
                shape, final = _heavy(rng)
            samples.append(
                {
                    "benchmark": BENCHMARK,
                    "question_id": qid,
                    "model": "base",
                    "sample": s,
                    "text": _completion(rng, final),
                }
            )
            kinds.append(shape)
        q += 1
    return questions, samples, kinds
