"""``leash explore RESULTS``: open the explorer on a results folder."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from leash_tui.commands.shared.options import support_threshold_option
from sampler.errors import LeashError


def run_explorer(
    root: Path, target: str | None = None, base: str | None = None, tau: float = 0.0
) -> None:
    """Open the explorer on ``root`` in this terminal; errors become LeashError."""
    from leash_tui.commands.shared.pandas_probe import skip_pandas_probe

    skip_pandas_probe()
    from sampler.store import ResultsFolder

    results = ResultsFolder.open(root)  # a bad folder is reported before the screen changes
    models = [m.name for m in results.manifest.models]
    if base is not None and base not in models:
        raise LeashError(f"--base {base}: no such model in {root} ({', '.join(models)})")
    if base is None and results.manifest.base is None:
        raise LeashError(f"{root}/manifest.json: no model has role 'base'; nothing to compare")
    targets = (
        [m for m in models if m != base]
        if base is not None
        else [t.name for t in results.manifest.targets]
    )
    if target is not None and target not in targets:
        names = ", ".join(targets) or "none"
        raise LeashError(f"{root}: no target model named {target!r} (targets: {names})")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise LeashError("the explorer needs an interactive terminal (stdin and stdout)")

    from leash_tui.explorer.app import ExplorerApp

    app = ExplorerApp(results, target=target, base=base, tau=tau)
    app.run()
    if app.return_code:
        sys.exit(app.return_code)


@click.command("explore")
@click.argument("results", type=click.Path(path_type=Path))
@click.option("--target", help="Target model to compare with the base first (default: the first).")
@click.option(
    "--base",
    metavar="NAME",
    help="Compare with this model instead of the folder's base (two checkpoints head to head).",
)
@support_threshold_option
def explore(results: Path, target: str | None, base: str | None, tau: float) -> None:
    """Explore a results folder: summaries, questions by support change, completions, triage.

    Keys: arrows or j/k move, Enter opens, Tab switches pane, / searches, 1-4 filter
    categories, s sorts, m switches target, r/b/v/f/u tag, n notes, ? lists all keys,
    q quits. Tags and notes are saved to RESULTS/triage.jsonl as you go.
    """
    run_explorer(results, target, base, tau)
