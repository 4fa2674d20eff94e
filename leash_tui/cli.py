"""The ``leash`` command: a click group whose subcommands are imported only when run.

``leash --help`` must answer fast and must not import vllm, torch or transformers,
so each subcommand lives in its own module and is named here with a one-line
summary. LeashError (bad input) and file-system errors a user can fix (permissions,
a read-only folder, a full disk) are printed as one-line errors, never a traceback.
"""

from __future__ import annotations

import errno
import importlib
import sys
from typing import Any

import click

from leash_tui import __version__

#: name -> (module:attribute, one-line summary shown by ``leash --help``)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "info": (
        "leash_tui.commands.info:info",
        "Describe a results folder: models, benchmarks, samples.",
    ),
    "import": (
        "leash_tui.commands.import_samples:import_",
        "Build or extend a results folder from sample JSONL or evaluation outputs.",
    ),
    "export": ("leash_tui.commands.export:export", "Write a results folder's samples as JSONL."),
    "verify": (
        "leash_tui.commands.verify:verify",
        "Verify answers: fill verdicts for samples that have none (resumable).",
    ),
    "explore": ("leash_tui.commands.explore:explore", "Explore a results folder in the terminal."),
    "demo": ("leash_tui.commands.demo:demo", "Write a synthetic demo folder and explore it."),
    "triage": ("leash_tui.commands.triage:triage", "Export triage tags and notes (CSV, JSONL)."),
    "sample": (
        "leash_tui.commands.sample:sample",
        "Sample k completions per question from base and RLVR models (vLLM, server, HF).",
    ),
    "report": (
        "leash_tui.commands.report:report",
        "Support dynamics of each target vs the base: P/E/S/O, rates, tests, curves.",
    ),
    "entropy": (
        "leash_tui.commands.entropy:entropy",
        "Exact token entropy of stored samples by teacher forcing (resumable).",
    ),
    "perplexity": (
        "leash_tui.commands.perplexity:perplexity",
        "Perplexity of reference traces under each model by teacher forcing.",
    ),
    "witnesses": (
        "leash_tui.commands.witnesses:witnesses",
        "Show the accepted samples behind fragile support claims, beside the gold.",
    ),
    "benchmarks": (
        "leash_tui.commands.benchmarks:benchmarks",
        "List benchmark presets, or check benchmark files load.",
    ),
    "compact": (
        "leash_tui.commands.compact:compact",
        "Rewrite a folder of many small shards as few large ones.",
    ),
}


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = SUBCOMMANDS.get(cmd_name)
        if entry is None:
            return None
        return self._load(entry)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """A mistyped command gets the closest names: ``leash reprot`` -> did you mean report?"""
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in SUBCOMMANDS:
            import difflib

            close = difflib.get_close_matches(name, list(SUBCOMMANDS), n=3, cutoff=0.6)
            if close:
                from leash_tui.safe_text import one_line

                hint = " or ".join(close)
                ctx.fail(f"No such command {one_line(name, 40)!r}. Did you mean {hint}?")
        return super().resolve_command(ctx, args)

    @staticmethod
    def _load(entry: tuple[str, str]) -> click.Command:
        module_name, attr = entry[0].split(":")
        return getattr(importlib.import_module(module_name), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        from sampler.errors import LeashError

        try:
            return super().invoke(ctx)
        except LeashError as exc:
            from leash_tui.safe_text import visible

            raise click.ClickException(visible(str(exc))) from None
        except OSError as exc:
            message = filesystem_error(exc)
            if message is None:
                raise
            from leash_tui.safe_text import visible

            raise click.ClickException(visible(message)) from None


#: errors of the file system a user fixes (permissions, a read-only mount, a full disk)
USER_ERRNOS = {
    errno.EACCES: "permission denied (a read-only folder?)",
    errno.EPERM: "operation not permitted",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
}


def filesystem_error(exc: OSError) -> str | None:
    """One line for a file-system error the user can fix, naming the file; else None."""
    reason = USER_ERRNOS.get(exc.errno) if exc.errno is not None else None
    if reason is None and "No space left on device" in str(exc):  # pyarrow's IOError
        reason = USER_ERRNOS[errno.ENOSPC]
    if reason is None:
        return None
    where = exc.filename or "a file of this command"
    return f"{where}: {reason}"


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="leash")
def cli() -> None:
    """leash: what did RLVR keep, gain and lose? Empirical support dynamics, question by question.

    Typical flow: sample (or import) -> verify -> report -> explore.
    """


def main() -> None:
    """Console-script entry point."""
    try:
        cli(prog_name="leash")
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
