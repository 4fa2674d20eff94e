"""Witnesses of support claims: the accepted samples a question's support rests on.

At the paper's budgets a question enters a model's support on a single accepted
sample, so one false positive of the verifier invents support. A support claim is
*fragile* when it rests on at most M accepted samples (default 2); for each such
(question, model) the witnesses are the distinct accepted answers, with how many
samples gave each, set beside the gold so that a person can check every fragile
claim in minutes.

``notation_difference`` flags an accepted answer that differs from the gold beyond
notation. It compares the answer *as the model wrote it* (the sample's
``answer_written``; the normalised ``answer`` only for folders verified before that
column), never sympy's form of it: ``$\\frac{2}{3}$`` against ``\\boxed{\\frac{2}{3}}`` is
the same text. It is a screen for a human, not a second verifier: it compares the two
strings after removing what is only notation (spacing, ``\\left``/``\\right``,
``\\dfrac``, ``$``, thin spaces, a leading ``x =``), and names what remains different:

- ``units``: text units (``\\text{cm}``, ``\\mathrm{m}``, ``^\\circ``, ``\\%``) on one side
  only or different on the two sides;
- ``symbols``: sub- or superscripts whose text differs (``v_{\\text{min}}`` against
  ``v_{\\text{max}}``);
- ``extra terms``: a different number of top-level terms (``a + b`` against ``a``);
- ``written differently``: anything else (equal values in another form, such as
  ``0.5`` and ``\\frac12``, land here too: a look settles it).

Pure functions on small tables; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sampler.store import natural_key

#: A support claim resting on this many accepted samples or fewer is fragile by default.
DEFAULT_MAX_SAMPLES = 2

_NOTATION = [
    (re.compile(r"\\left|\\right|\\displaystyle|\\!|\\,|\\;|\\:|\\ |\$"), ""),
    (re.compile(r"\\[dt]frac"), r"\\frac"),
    (re.compile(r"\s+"), ""),
    (re.compile(r"^\\boxed\{(.*)\}$"), r"\1"),
    (re.compile(r"^[A-Za-z](?:_\{?\w+\}?)?=(?!=)"), ""),  # "x =" before a value
    (re.compile(r"\.$"), ""),
]
_UNIT = re.compile(
    r"\\(?:text|mathrm|textrm|operatorname|mbox)\{\s*([^{}]*?)\s*\}|\^\{?\\circ\}?|\\%|%"
)


@dataclass(frozen=True)
class Witness:
    """One distinct accepted answer of a fragile claim: as written, and its normal form."""

    answer: str  # as the model wrote it (the normal form where that was not stored)
    samples: int
    sample_ids: tuple[int, ...]
    differs: str | None  # None: the same as the gold up to notation
    normal: str | None = None  # the verifier's normal form (``answer``)
    rule: str | None = None  # the extraction rule that found it


@dataclass
class Claim:
    """A (question, model) whose support rests on few accepted samples."""

    benchmark: str
    question_id: str
    model: str
    role: str
    n_verified: int
    n_correct: int
    gold: str | None
    witnesses: list[Witness] = field(default_factory=list)

    @property
    def suspicious(self) -> bool:
        """Whether some accepted answer differs from the gold beyond notation."""
        return any(w.differs for w in self.witnesses)


def normal_form(text: str) -> str:
    """``text`` without what is only notation (see the module docstring)."""
    out = text.strip()
    for pattern, repl in _NOTATION:
        out = pattern.sub(repl, out)
    return out


_DEGREE = re.compile(r"\^\{?\\circ\}?")


def _script_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every sub- and superscript: ``_x``, ``^\\alpha``, ``_{…}`` (balanced)."""
    spans, i = [], 0
    while i < len(text):
        if text[i] in "_^" and i + 1 < len(text):
            j = i + 1
            if text[j] == "{":
                depth = 0
                while j < len(text):
                    depth += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                    if depth == 0:
                        break
            elif text[j] == "\\":
                j += 1
                while j < len(text) and text[j].isalpha():
                    j += 1
            else:
                j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


def _units(text: str) -> list[str]:
    """Units written as text or symbols, outside sub- and superscripts (there they name)."""
    degrees = ["°"] * len(_DEGREE.findall(text))
    plain = _DEGREE.sub("", text)
    for start, end in reversed(_script_spans(plain)):
        plain = plain[:start] + plain[end:]
    return sorted(
        [
            (m.group(1) or m.group(0)).strip().lower()
            for m in _UNIT.finditer(plain)
            if (m.group(1) or m.group(0)).strip()
        ]
        + degrees
    )


def _scripts(text: str) -> list[str]:
    """The text of every sub- and superscript (degree signs are units, not scripts)."""
    plain = _DEGREE.sub("", text)
    return [plain[start + 1 : end] for start, end in _script_spans(plain)]


def _top_level_terms(text: str) -> int:
    depth, terms = 0, 1
    for i, ch in enumerate(text):
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth = max(0, depth - 1)
        elif ch in "+-" and depth == 0 and i > 0 and text[i - 1] not in "^_{(=,":
            terms += 1
    return terms


def notation_difference(answer: str, gold: str | None) -> str | None:
    """What differs between an accepted ``answer`` and the ``gold`` beyond notation, or None."""
    if gold is None:
        return None
    a, g = normal_form(answer), normal_form(gold)
    if a == g:
        return None
    if _scripts(a) != _scripts(g):
        return "symbols"
    if _units(a) != _units(g):
        return "units"
    if _top_level_terms(_UNIT.sub("", a)) != _top_level_terms(_UNIT.sub("", g)):
        return "extra terms"
    return "written differently"


def fragile_claims(counts: pa.Table, max_samples: int = DEFAULT_MAX_SAMPLES) -> pa.Table:
    """The (benchmark, question_id, model) rows of ``counts`` (``ResultsFolder.verdict_counts``)
    whose support rests on 1 to ``max_samples`` accepted samples."""
    if max_samples < 1:
        raise ValueError("max_samples must be at least 1")
    c = counts.column("n_correct")
    keep = pc.and_(pc.greater_equal(c, 1), pc.less_equal(c, max_samples))
    return counts.filter(keep)


def build_claims(
    fragile: pa.Table,
    accepted: pa.Table,
    golds: dict[tuple[str, str], str | None],
    roles: dict[str, str],
) -> list[Claim]:
    """One ``Claim`` per row of ``fragile``, with its witnesses from ``accepted`` (the
    accepted samples: benchmark, question_id, model, sample, answer, and optionally
    answer_written and answer_rule), most samples first; answers are grouped by their
    written text."""
    answers: dict[tuple[str, str, str], dict[str, list[int]]] = {}
    seen: dict[tuple[str, str, str, str], tuple[str | None, str | None]] = {}
    for row in accepted.to_pylist():
        key = (row["benchmark"], row["question_id"], row["model"])
        written = row.get("answer_written")
        text = written if written else (row["answer"] if row["answer"] is not None else "")
        answers.setdefault(key, {}).setdefault(text, []).append(int(row["sample"]))
        seen.setdefault((*key, text), (row["answer"], row.get("answer_rule")))
    claims = []
    for row in fragile.to_pylist():
        key = (row["benchmark"], row["question_id"], row["model"])
        gold = golds.get(key[:2])
        witnesses = [
            Witness(
                text,
                len(ids),
                tuple(sorted(ids)),
                notation_difference(text, gold),
                *seen[(*key, text)],
            )
            for text, ids in answers.get(key, {}).items()
        ]
        witnesses.sort(key=lambda w: (-w.samples, w.answer))
        claims.append(
            Claim(
                benchmark=key[0],
                question_id=key[1],
                model=key[2],
                role=roles.get(key[2], "target"),
                n_verified=int(row["n_verified"]),
                n_correct=int(row["n_correct"]),
                gold=gold,
                witnesses=witnesses,
            )
        )
    claims.sort(
        key=lambda c: (
            not c.suspicious,
            c.n_correct,
            c.benchmark,
            natural_key(c.question_id),
            c.model,
        )
    )
    return claims


def fragile_mask(c: np.ndarray, max_samples: int = DEFAULT_MAX_SAMPLES) -> np.ndarray:
    """Per element: whether a correct count rests on 1 to ``max_samples`` samples."""
    c = np.asarray(c)
    return (c >= 1) & (c <= max_samples)


def claim_line(n_correct: int, n_verified: int, answers: Iterable[str]) -> str:
    """``support rests on 1 of 8192 samples: v_{\\text{min}}`` (plain text, untrusted parts)."""
    shown = ", ".join(a if a else "(no answer text)" for a in answers)
    noun = "sample" if n_verified == 1 else "samples"
    return f"support rests on {n_correct} of {n_verified:,} {noun}: {shown}"
