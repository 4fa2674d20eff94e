"""The loss audit: what the target answered on the questions it lost, and format effects.

A shrinkage claim (category S: in the base's support, not in the target's) says the
target cannot solve the question any more. A systematic false reject says the same
thing: the target adopted an answer style the verifier rejects. ``loss_claims`` lists,
for every S question, the target's most frequent rejected answers with their status
(``incorrect``, ``no_answer``, ``timeout``, ...), so such a reject is seen in minutes.

``format_effect_notes`` compares base and target over a whole folder: their share of
samples without an answer (10 points apart, on 10 such samples at least), and the
extraction rules that found their answers (total variation distance 0.25, on 50 answers
of each at least). A large difference is the sign of a format effect, not of lost
support. Pure functions on small tables; no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

from sampler.store import natural_key

#: Rejected answers shown per lost question by default.
DEFAULT_TOP = 3
#: A difference in the share of samples without an answer this large is a format effect.
NO_ANSWER_GAP = 0.10
#: no_answer samples cut off at the token limit in at least this share: truncation.
TRUNCATED_SHARE = 0.5
#: A total variation distance between the two models' rule shares this large is one too.
RULE_DISTANCE = 0.25
#: Fewer samples without an answer (on the side with more) than this say nothing yet.
MIN_NO_ANSWER = 10
#: Fewer answers with a rule per model than this say nothing yet.
MIN_RULED = 50


@dataclass(frozen=True)
class Rejected:
    """One class of rejected answers of the target on a lost question."""

    answer: str  # as written ("" for no answer)
    status: str
    samples: int
    rule: str | None = None


@dataclass
class LossClaim:
    """A question the target lost (category S), with its most frequent rejected answers."""

    benchmark: str
    question_id: str
    target: str
    c_base: int
    n_base: int
    n_target: int
    gold: str | None
    rejected: list[Rejected] = field(default_factory=list)
    classes: int = 0  # distinct rejected answers


def loss_claims(
    questions: pa.Table,
    rejected: pa.Table,
    golds: Mapping[tuple[str, str], str | None],
    target: str,
    top: int = DEFAULT_TOP,
) -> list[LossClaim]:
    """One ``LossClaim`` per S row of ``questions`` (``compare_questions`` columns), with
    the ``top`` most frequent classes of the target's rejected samples in ``rejected``
    (benchmark, question_id, status, answer, answer_written, answer_rule)."""
    lost = questions.filter(pc.equal(questions.column("category"), "S"))
    classes: dict[tuple[str, str], Counter[tuple[str, str, str | None]]] = {}
    for row in rejected.to_pylist():
        key = (row["benchmark"], row["question_id"])
        text = row.get("answer_written") or row.get("answer") or ""
        classes.setdefault(key, Counter())[(text, row["status"], row.get("answer_rule"))] += 1
    out = []
    for row in lost.to_pylist():
        key = (row["benchmark"], row["question_id"])
        counted = classes.get(key, Counter())
        ranked = sorted(counted.items(), key=lambda kv: (-kv[1], kv[0][0], kv[0][1]))
        out.append(
            LossClaim(
                benchmark=key[0],
                question_id=key[1],
                target=target,
                c_base=int(row["c_base"]),
                n_base=int(row["n_base"]),
                n_target=int(row["n_target"]),
                gold=golds.get(key),
                rejected=[Rejected(t, s, n, r) for (t, s, r), n in ranked[:top]],
                classes=len(counted),
            )
        )
    # the most repeated rejected answer first; ties by benchmark, then ids in natural order
    out.sort(
        key=lambda c: (
            -(c.rejected[0].samples if c.rejected else 0),
            c.benchmark,
            natural_key(c.question_id),
        )
    )
    return out


def no_answer_shares(counts: pa.Table) -> dict[str, float]:
    """Per model: samples with status no_answer over verified samples."""
    totals = _per_model_sums(counts, ("n_no_answer", "n_verified"))
    return {m: n / v for m, (n, v) in totals.items() if v}


def _no_answer_counts(counts: pa.Table) -> dict[str, int]:
    return {m: n for m, (n,) in _per_model_sums(counts, ("n_no_answer",)).items()}


def _per_model_sums(counts: pa.Table, columns: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """{model: the sums of ``columns`` over its rows}, in order of first appearance."""
    table = pa.table(
        {"model": counts.column("model").cast(pa.string())}
        | {c: counts.column(c).cast(pa.int64()) for c in columns}
    )
    sums = table.group_by("model", use_threads=False).aggregate([(c, "sum") for c in columns])
    models = sums.column("model").to_pylist()
    values = [sums.column(f"{c}_sum").to_pylist() for c in columns]
    return {m: tuple(int(v[i] or 0) for v in values) for i, m in enumerate(models)}


def _distance(a: Mapping[str, int], b: Mapping[str, int]) -> float:
    ta, tb = sum(a.values()), sum(b.values())
    if not ta or not tb:
        return 0.0
    keys = set(a) | set(b)
    return 0.5 * sum(abs(a.get(k, 0) / ta - b.get(k, 0) / tb) for k in keys)


def _top_rules(rules: Mapping[str, int]) -> str:
    total = sum(rules.values())
    ranked = sorted(rules.items(), key=lambda kv: -kv[1])[:3]
    return ", ".join(f"{name} {count / total:.0%}" for name, count in ranked)


def _no_answer_cause(model: str, missing: int, truncated: Mapping[str, int] | None) -> str:
    """What the no_answer samples of the model with more of them are: cut off at the
    token limit (finish reason ``length``) or complete texts no rule found an answer in."""
    if truncated is None:  # not counted (leash report): both are possible
        return "check the extraction and the finish reasons (`leash info` tells which)"
    cut = truncated.get(model, 0)
    share = cut / missing if missing else 0.0
    if share >= TRUNCATED_SHARE:
        return (
            f"{share:.0%} of {model}'s stopped at the token limit (finish reason length):"
            " truncation, not extraction; sample again with a larger max_tokens"
        )
    return (
        f"{share:.0%} of {model}'s stopped at the token limit: extraction, not truncation;"
        f" check it (`leash witnesses --losses --target {model}`)"
    )


def format_effect_notes(
    counts: pa.Table,
    rules: Mapping[str, Mapping[str, int]],
    base: str,
    targets: Sequence[str],
    truncated: Mapping[str, int] | None = None,
) -> list[str]:
    """Notes where base and a target differ a lot in their share of no_answer or in the
    rules that found their answers (``rules``: model -> rule -> samples). ``truncated``
    (model -> no_answer samples with finish reason ``length``), when counted, says whether
    the missing answers are truncation or extraction."""
    notes = []
    shares = no_answer_shares(counts)
    missing = _no_answer_counts(counts)
    for target in targets:
        if base in shares and target in shares:
            gap = shares[target] - shares[base]
            if (
                abs(gap) >= NO_ANSWER_GAP
                and missing.get(base, 0) + missing.get(target, 0) >= MIN_NO_ANSWER
            ):
                more = target if gap > 0 else base
                cause = _no_answer_cause(more, missing.get(more, 0), truncated)
                notes.append(
                    f"format effect? {target} has no answer in {shares[target]:.0%} of its"
                    f" verified samples, {base} in {shares[base]:.0%}: {cause}; before"
                    " reading shrinkage as lost support"
                )
        mine, theirs = rules.get(target, {}), rules.get(base, {})
        enough = min(sum(mine.values()), sum(theirs.values())) >= MIN_RULED
        if enough and _distance(mine, theirs) >= RULE_DISTANCE:
            notes.append(
                f"format effect? the rules that found the answers differ: {target}"
                f" {_top_rules(mine)}; {base} {_top_rules(theirs)}"
            )
    return notes
