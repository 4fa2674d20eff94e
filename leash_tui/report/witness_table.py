"""The witnesses of a folder's fragile support claims, read and rendered.

``load_claims`` reads the verdict counts (footer summaries), picks the (question,
model) pairs whose support rests on 1 to M accepted samples, then reads only the
key, sample and answer columns of the accepted samples (never completion text) and
builds the claims (``analysis.witnesses``). ``render_*`` turn them into a terminal
table, JSON (``leash-witnesses/1``) or CSV (both a walk of report.write_data); untrusted
answers are made visible.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from leash_tui.analysis.witness_claims import Claim, build_claims, fragile_claims
from leash_tui.report.columns import ReportColumn
from leash_tui.report.plain_columns import gold_answers, plain_strings
from leash_tui.report.sections import Chapter, Document, Row, Section, terminal_listing
from leash_tui.report.write_data import listing_document, write_csv, write_json
from leash_tui.report.write_people import print_document
from sampler.errors import LeashError
from sampler.store import COUNT_KEYS, STATUS_CORRECT, ResultsFolder, as_folder

FORMAT = "leash-witnesses/1"
CSV_COLUMNS = (
    "benchmark",
    "question_id",
    "model",
    "role",
    "n_verified",
    "n_correct",
    "gold",
    "answer",
    "normal_form",
    "rule",
    "samples",
    "sample_ids",
    "differs",
)


def chosen_models(
    results: ResultsFolder, models: Sequence[str], targets: Sequence[str]
) -> list[str]:
    """The models ``--model`` (those) and ``--target`` (those and the base) name; all when
    neither is given. A name the folder does not have is a LeashError."""
    names = [m.name for m in results.manifest.models]
    for name in [*models, *targets]:
        if name not in names:
            raise LeashError(
                f"{results.root}: no model {name!r} in this folder (models: {', '.join(names)})"
            )
    if not models and not targets:
        return names
    base = [m.name for m in results.manifest.models if m.role == "base"]
    wanted = set(models) | set(targets) | (set(base) if targets else set())
    return [n for n in names if n in wanted]


def load_claims(
    folder: ResultsFolder | Path | str,
    max_samples: int,
    models: Sequence[str] = (),
    targets: Sequence[str] = (),
) -> tuple[ResultsFolder, list[Claim]]:
    """The folder and its fragile claims (see the module docstring), of the chosen models."""
    results = as_folder(folder)
    keep = chosen_models(results, models, targets)
    counts = results.verdict_counts()
    counts = counts.filter(pc.is_in(counts.column("model").cast(pa.string()), pa.array(keep)))
    fragile = fragile_claims(counts, max_samples)
    roles = {m.name: m.role for m in results.manifest.models}
    if fragile.num_rows == 0:
        return results, []
    accepted = results.samples(
        columns=[*COUNT_KEYS, "sample", "answer", "answer_written", "answer_rule"],
        filter=pc.field("status") == STATUS_CORRECT,
    )
    keys = fragile.select(list(COUNT_KEYS))
    accepted = plain_strings(accepted, COUNT_KEYS).join(
        plain_strings(keys, COUNT_KEYS), list(COUNT_KEYS), join_type="inner"
    )
    return results, build_claims(fragile, accepted, gold_answers(results.questions), roles)


def claim_records(claims: list[Claim]) -> list[dict[str, Any]]:
    """Plain dicts, one per claim, with its witnesses (the JSON rows)."""
    return [
        {
            "benchmark": c.benchmark,
            "question_id": c.question_id,
            "model": c.model,
            "role": c.role,
            "n_verified": c.n_verified,
            "n_correct": c.n_correct,
            "gold": c.gold,
            "suspicious": c.suspicious,
            "witnesses": [
                {
                    "answer": w.answer,
                    "normal_form": w.normal,
                    "rule": w.rule,
                    "samples": w.samples,
                    "sample_ids": list(w.sample_ids),
                    "differs": w.differs,
                }
                for w in c.witnesses
            ],
        }
        for c in claims
    ]


def claims_document(claims: list[Claim], max_samples: int) -> Document:
    """JSON: the claims with their witnesses; CSV: one line per witness (a claim with several
    accepted answers takes several lines)."""
    records = claim_records(claims)
    lines = [
        {key: claim[key] for key in CSV_COLUMNS[:7]}
        | {**witness, "sample_ids": " ".join(map(str, witness["sample_ids"]))}
        for claim in records
        for witness in claim["witnesses"]
    ]
    head = {"format": FORMAT, "max_samples": max_samples}
    return listing_document(head, "claims", records, CSV_COLUMNS, lines)


def render_json(claims: list[Claim], max_samples: int) -> str:
    return write_json(claims_document(claims, max_samples), allow_nan=True)


def render_csv(claims: list[Claim]) -> str:
    return write_csv(claims_document(claims, 0))


#: Claims the table shows by default: the ones to check first (``--all`` shows every one).
SHOWN_CLAIMS = 40
#: Claims per table when every one is printed: pages stream, memory stays bounded.
PAGE_CLAIMS = 500


def print_claims(
    claims: list[Claim], max_samples: int, console: Any, limit: int | None = SHOWN_CLAIMS
) -> None:
    """Tables that fit the terminal: one line per witness, the claim's names on its first.

    ``limit`` claims are shown (the suspicious and the thinnest first, as ``claims`` is
    sorted), then a count of the rest; ``None`` prints every claim, a page at a time.
    """
    from rich.text import Text

    if not claims:
        console.print(Text(f"No support claim rests on {max_samples} accepted sample(s) or fewer."))
        return
    suspicious = sum(c.suspicious for c in claims)
    caption = (
        f"{len(claims):,} claim(s); {suspicious:,} with an accepted answer that differs from"
        " the gold beyond notation (check those first)"
    )
    shown = claims if limit is None else claims[:limit]
    pages = [shown[i : i + PAGE_CLAIMS] for i in range(0, len(shown), PAGE_CLAIMS)]
    for number, page in enumerate(pages):
        last = number + 1 == len(pages)
        _print_page(page, max_samples, console, caption if last else None, first=number == 0)
    rest = claims[len(shown) :]
    if rest:
        hidden = sum(c.suspicious for c in rest)
        console.print(
            Text(
                f"… and {len(rest):,} more claim(s) not shown ({hidden:,} of them with an answer"
                " that differs from the gold): --all lists every one, --format csv or json"
                " writes them for a spreadsheet or a script"
            )
        )


#: the columns of the terminal table, after the benchmark (its label)
TABLE_COLUMNS = (
    ReportColumn("id", "id", "text", justify="left", names=True),
    ReportColumn("model", "model", "text", justify="left", names=True),
    ReportColumn("c/n", "c/n", "text", 1),
    ReportColumn("gold", "gold", "text", 2, justify="left", wrap=True),
    ReportColumn("answer", "accepted answer", "text", 2, justify="left", wrap=True),
    ReportColumn("normal", "normal form", "text", 3, justify="left", wrap=True),
    ReportColumn("rule", "rule", "text", 3, justify="left"),
    ReportColumn("samples", "×", "text", 2),
    ReportColumn("differs", "differs", "text", 2, justify="left", style="bold"),
)


def page_section(
    claims: list[Claim], max_samples: int, first: bool, caption: str | None
) -> Section:
    """One page of the terminal table: a line per witness, the claim's names on its first;
    the title on the first page, ``caption`` under the last."""
    title = f"support claims resting on ≤ {max_samples} accepted samples" if first else ""
    section = terminal_listing("witnesses", title, TABLE_COLUMNS, "benchmark", caption)
    for n, c in enumerate(claims):
        for i, w in enumerate(c.witnesses):
            first_line = i == 0
            values = {
                "id": c.question_id if first_line else "",
                "model": f"{c.model} ({c.role})" if first_line else "",
                "c/n": f"{c.n_correct}/{c.n_verified:,}" if first_line else "",
                "gold": (c.gold or "–") if first_line else "",
                "answer": w.answer or "(empty)",
                "normal": w.normal if w.normal and w.normal != w.answer else "",
                "rule": w.rule or "",
                "samples": str(w.samples),
                "differs": w.differs or "",
            }
            section.rows.append(Row(values, c.benchmark if first_line else "", group=str(n)))
    return section


def _print_page(
    claims: list[Claim], max_samples: int, console: Any, caption: str | None, first: bool
) -> None:
    section = page_section(claims, max_samples, first, caption)
    print_document(Document([Chapter("", {})], [section]), console)
