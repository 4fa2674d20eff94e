"""Options several commands share, spelled one way everywhere.

``-o/--output`` names what a command writes (a file or a results folder) in every
command; ``--out``, the spelling some commands used before, still works as a hidden
alias so existing scripts keep running. For a file (``dir_okay=False``) ``-`` means
standard output and arrives as None; commands write it through ``output_file.open_output``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

#: The parameter name the hidden alias fills; merged into ``output`` before the command runs.
_ALIAS_DEST = "output_alias"


def output_option(
    help: str, *, required: bool = False, default: Path | None = None, dir_okay: bool = True
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a command with ``-o/--output PATH`` and the hidden alias ``--out PATH``.

    The command receives ``output`` (a Path, or ``default`` when neither spelling is given;
    for a file, ``-`` gives None: standard output). ``required`` is checked after merging, so
    either spelling satisfies it.
    """

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            output, alias = kwargs.get("output"), kwargs.pop(_ALIAS_DEST, None)
            if output is not None and alias is not None and output != alias:
                raise click.UsageError("give -o/--output once (--out is the same option)")
            output = output if output is not None else alias
            if not dir_okay and output is not None and str(output) == "-":
                output = None  # standard output
            if output is None and required:
                raise click.UsageError("Missing option '-o' / '--output'.")
            kwargs["output"] = output if output is not None else default
            return func(*args, **kwargs)

        # a file output that names a directory is refused by output_file in one line
        path_type = click.Path(path_type=Path, allow_dash=not dir_okay)
        shown_default = f" [default: {default}]" if default is not None else ""
        wrapper = click.option("--out", _ALIAS_DEST, type=path_type, hidden=True)(wrapper)
        return click.option("-o", "--output", "output", type=path_type, help=help + shown_default)(
            wrapper
        )

    return decorate


#: ``--support-threshold TAU`` of the commands that count support (report, explore).
support_threshold_option = click.option(
    "--support-threshold",
    "tau",
    type=click.FloatRange(min=0, max=1),
    default=0.0,
    show_default=True,
    metavar="TAU",
    help="A model supports a question when at least a share TAU of k samples is correct"
    " (c/n >= TAU at k = n); 0 is one success, the paper's rule.",
)
