"""A box that holds a derivation, not a value: its conclusion is the answer.

Some models box their whole working: ``\\boxed{\\sqrt{100-x}=9 \\Rightarrow 100-x=81
\\Rightarrow x=19}``, ``\\boxed{\\text{So there are }1232\\text{ integers between }1 …}``,
``\\boxed{\\begin{aligned} … \\\\ \\therefore AD = 12+\\frac{15}{4} = \\frac{63}{4}.
\\end{aligned}}``, ``\\boxed{C_n = \\frac{1}{2n} \\quad\\text{for all integers }n\\ge 2.}``.
Compared whole, none equals its gold. ``derivation_conclusion`` reads such a box as its
working ends: the last row of an aligned environment, the clause after its last implication
(``\\Rightarrow``, ``\\implies``, ``\\therefore``, "so", "then", "hence"), without a closing
qualifier after spacing (``\\quad\\text{for all …}``, ``\\quad(\\text{eastward})``); a clause
written in words (``\\text{So there are }1232\\text{ integers …}``) as the sentence it is,
words the gold's type reads (``verdict.prepare_span``: of its values, the one the question
did not give). A box that is a value (``x = 19``, ``(1, 2)``, ``a=1, b=2``, a set
``\\{x \\mid x \\text{ is even}\\}``) is left as it is.
"""

from __future__ import annotations

import re

#: what makes a box a derivation: an implication, rows, or words in \text{}
_DERIVATION_RE = re.compile(
    r"\\(?:Rightarrow|implies|Longrightarrow|therefore|Leftrightarrow|iff)(?![A-Za-z])"
    r"|\\begin\{(?:aligned|align\*?|gathered)\}"
    r"|\\text\s*\{[^{}]*[A-Za-z]{2,}[ \t]+[A-Za-z]{2,}[ \t]+[A-Za-z]{2,}[^{}]*\}(?![ \t]*[=:])"
)  # (a \text{} label before "=" names a value: "\text{Ratio of intensities} = 2:1")
_ENVIRONMENT_RE = re.compile(r"\\(?:begin|end)\{(?:aligned|align\*?|gathered)\}")
_MATRIX_RE = re.compile(r"\\begin\{(?:[pbBvV]?matrix|smallmatrix|array|cases)\}")
_ROW_RE = re.compile(r"\\\\(?:\[[^\]]*\])?")
#: the last implication or conclusion word of a row: what follows is its conclusion
_IMPLICATION_RE = re.compile(
    r"\\(?:Rightarrow|implies|Longrightarrow|therefore|Leftrightarrow|iff)(?![A-Za-z])"
    r"|\\text\s*\{[^{}]*?\b(?:so|then|hence|thus|therefore|giving|gives)\b[ \t,:]*\}",
    re.IGNORECASE,
)
#: a qualifier after spacing that closes the conclusion: "\quad\text{for all integers }n\ge 2",
#: "\quad (\text{eastward})"
_QUALIFIER_RE = re.compile(
    r"(?:\\q?quad|\\[,;: ]|~)+\s*(?:\\text\s*\{\s*\(?\s*(?:for|where|when|if|with|since|as|because"
    r"|rounded|approximately|about)\b.*|\(\s*\\text\s*\{[^{}]*\}\s*\)\s*\.?"
    r"|\\text\s*\{\s*\([^{}]*\)\s*\}\s*\.?)\s*$",
    re.IGNORECASE | re.DOTALL,
)
_TEXT_RE = re.compile(r"\\text(?:bf|rm|it)?\s*\{([^{}]*)\}")
#: spacing and alignment marks that are no part of a clause
_SPACING_RE = re.compile(r"&|\\[,;:! ]|\\q?quad(?![A-Za-z])|~")


def derivation_conclusion(content: str) -> tuple[str, bool] | None:
    """The conclusion of a box that holds a derivation (module docstring) and whether it is
    words (a sentence, for the gold's type to read), or None when the box is no derivation."""
    if _MATRIX_RE.search(content):
        return None  # a matrix's rows are its value, "\\\\" no step
    if not (_DERIVATION_RE.search(content) or _IMPLICATION_RE.search(content)):
        qualified = _QUALIFIER_RE.search(content)
        return (content[: qualified.start()].strip(), False) if qualified else None
    body = _ENVIRONMENT_RE.sub(" ", content)
    rows = [r for r in _ROW_RE.split(body) if r.strip(" \t\n&.")]
    if not rows:
        return None
    row = rows[-1]
    implications = list(_IMPLICATION_RE.finditer(row))
    if implications:
        row = row[implications[-1].end() :]
    row = _QUALIFIER_RE.sub("", row)
    row = row.strip().rstrip(".").strip()
    if not row:
        return None
    if _TEXT_RE.search(row) and re.search(r"[A-Za-z]{2,}[ \t]+[A-Za-z]{2,}", _words_of(row)):
        return _as_sentence(row), True  # "\text{So there are }1232\text{ integers …}"
    clause = _SPACING_RE.sub(" ", _TEXT_RE.sub(r" \1 ", row)).strip(" ,;")
    return (clause, False) if clause else None


def _words_of(row: str) -> str:
    return " ".join(_TEXT_RE.findall(row))


def _as_sentence(row: str) -> str:
    """A clause in ``\\text{}`` words and math, as one sentence: words as words, math inline."""
    pieces, at = [], 0
    for text in [*_TEXT_RE.finditer(row), None]:
        math = _SPACING_RE.sub(" ", row[at : text.start() if text else len(row)]).strip()
        if math:  # "2^{16}=65{,}536": what the computation comes to
            pieces.append(f"${_EQUALS_RE.split(math)[-1].strip()}$")
        if text is not None:
            pieces.append(text.group(1).strip())
            at = text.end()
    sentences = _SENTENCE_END_RE.split(" ".join(p for p in pieces if p).strip())
    last = next((t for t in reversed(sentences) if t.strip()), "").strip()
    return last if last.endswith(".") else last + "."


_EQUALS_RE = re.compile(r"(?<![<>!\\])=")
#: a sentence's end inside the words: "… 4-bit inputs. A program assigns …"
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])[ \t]+(?=[A-Z])")
