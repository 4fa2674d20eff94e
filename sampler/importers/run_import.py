"""``import_samples``: the one entry point of every importer, and the table of formats.

``import_samples(fmt, sources, root, base)`` reads every source with the module
of its format (``FORMATS``; each module is a ``protocol.ImportFormat``, handed each
source as one ``protocol.SourceRead``) and streams the samples into one
``sampler.importers.core.ImportSession``, so that every format gets the same checks,
the same staging and the same all-or-nothing commit as interchange JSONL.

Imported samples (every format, interchange JSONL included) keep the source tool's
verdict in ``source_correct`` and leave ``correct``/``status`` empty: ``leash verify``
grades every sample that has a gold with leash's verifier, so that models imported
from different tools are graded alike. ``trust_verdicts`` keeps the source verdict as
the verdict of samples whose question has no gold, marked as the source's
(``verdict_source``), so that reports can say how many counts rest on them.
``gold_from`` (``--gold-from BENCH=SPEC``) joins the golds of a benchmark file to the
imported questions of BENCH by problem text (formats that carry no gold, such as TRL's);
questions left without one are named in a warning.

Pickled files (slime's ``.pt`` rollout dumps, ``.pkl``) are refused: unpickling runs
code the file chooses, and model outputs are untrusted.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sampler.benchmarks.presets import Benchmark
from sampler.errors import LeashError
from sampler.importers.core import ImportSession, ImportSummary
from sampler.importers.format_table import FORMATS
from sampler.importers.formats.jsonl import read_jsonl_file
from sampler.importers.protocol import ImportFormat, SourceRead
from sampler.importers.source_fields import checked_bench
from sampler.store import check_name

#: File endings of pickles, which leash never opens (unpickling runs the file's code).
PICKLED = (".pt", ".pth", ".pkl", ".pickle")


@dataclass(frozen=True)
class Source:
    """One input: a file or folder, and the model its samples belong to (None: in the file)."""

    model: str | None
    path: Path


def parse_source(text: str) -> Source:
    """``MODEL=PATH`` -> Source(MODEL, PATH); a plain existing path -> Source(None, PATH)."""
    name, sep, rest = text.partition("=")
    if sep and not Path(text).exists():
        try:
            return Source(check_name("model", name), Path(rest))
        except ValueError as exc:
            raise LeashError(f"{text}: {exc}") from None
    return Source(None, Path(text))


def import_samples(
    fmt: str,
    sources: Sequence[Source],
    root: Path | str,
    base: str | None = None,
    bench: str | None = None,
    source_metric: str | None = None,
    strict: bool = False,
    specs: Sequence[str] = (),
    trust_verdicts: bool = False,
    gold_from: Sequence[str] = (),
    skip_bad_records: bool = False,
) -> ImportSummary:
    """Import ``sources`` of format ``fmt`` into ``root``; all or nothing (see module doc).

    ``strict``: a field the interchange format does not define is an error, not a warning.
    ``specs`` are benchmark specs ``NAME=[VERIFIER:]SOURCE``: their questions (problem,
    gold, metadata), domain and verifier are taken from the spec, and every sample of
    NAME must name one of them. With an evaluation output, one spec also names the
    benchmark of all inputs (like ``bench``).
    ``trust_verdicts``: source verdicts of questions without a gold become their verdicts.
    ``gold_from``: specs ``BENCH=[VERIFIER:]SOURCE`` whose golds join BENCH's questions
    by problem text. A trainer's checkpoint series (verl) makes ``MODEL@0`` the base of a
    new folder when ``base`` is not given.
    ``skip_bad_records``: a record that cannot be read is skipped and counted by file and
    reason (``bad_records``), not an error.
    """
    if fmt not in FORMATS:
        raise LeashError(f"unknown import format {fmt!r} (formats: {', '.join(FORMATS)})")
    if bench is not None:
        bench = checked_bench(bench)
    if fmt == "jsonl" and (bench is not None or source_metric is not None):
        raise LeashError(
            "--bench NAME and --source-metric do not apply to --from jsonl"
            " (--bench NAME=SPEC does: it gives the questions)"
        )
    loaded = _load_specs(specs)
    golds = _load_specs(gold_from, "--gold-from")
    if fmt != "jsonl" and loaded:
        if len(loaded) > 1 or (bench is not None and bench != loaded[0].name):
            raise LeashError(f"--from {fmt}: give one --bench (NAME or NAME=SPEC)")
        bench = loaded[0].name
    if fmt != "jsonl":
        for source in sources:
            if source.model is None:
                raise LeashError(
                    f"{source.path}: --from {fmt} needs MODEL=PATH (the files do not name"
                    " the model)"
                )
    for source in sources:
        if not source.path.exists():
            raise LeashError(f"{source.path}: no such file or directory")
        refuse_pickles(source.path)
    module = importlib.import_module(FORMATS[fmt][0])
    with ImportSession(
        root,
        base,
        model_source=fmt,
        trust_verdicts=trust_verdicts,
        base_later=getattr(module, "SERIES", False),
        skip_bad_records=skip_bad_records,
    ) as session:
        for benchmark in loaded:
            session.use_benchmark(benchmark)
        for benchmark in golds:
            session.use_golds(benchmark)
        if fmt == "jsonl":
            for source in sources:
                read_jsonl_file(session, source.path, source.model, strict=strict)
            return session.commit()
        assert isinstance(module, ImportFormat), module
        series: list[str] = []
        for source in sources:
            model = source.model or ""
            read = SourceRead(session, model, source.path, bench, source_metric)
            series += [m for m in module.read_source(read) if m != model]
        if base is None and session.is_new:
            session.base = next((m for m in series if m.endswith("@0")), None)
        return session.commit()


def refuse_pickles(path: Path) -> None:
    """Refuse a pickled file (slime's ``.pt`` rollout dumps): see the module docstring."""
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    pickled = [p for p in files if p.suffix.lower() in PICKLED]
    if pickled and (path.is_file() or len(pickled) == len(files)):
        raise LeashError(
            f"{pickled[0]}: a pickled file (slime's .pt rollout dumps, torch.save, pickle);"
            " leash does not open pickles, because loading one runs code of the file's"
            " choosing: write the samples as interchange JSONL (one line a sample) and"
            " import that"
        )


def _load_specs(specs: Sequence[str], option: str = "--bench") -> list[Benchmark]:
    """The benchmarks of ``--bench NAME=SPEC`` options, each loaded with its verifier."""
    from sampler.benchmarks.loading import load_benchmark, parse_bench_spec
    from sampler.verify.verifiers import verifiers

    loaded: dict[str, Benchmark] = {}
    for spec in specs:
        name, source = parse_bench_spec(spec, verifiers())
        if name in loaded:
            raise LeashError(f"{option} {name!r} given twice")
        loaded[name] = load_benchmark(checked_bench(name), source, verifiers())
    return list(loaded.values())
