"""What a settings field says about its command-line flag, kept in the field's metadata.

A field of ``RunConfig`` or ``ModelSettings`` made with ``setting(default, help, ...)`` is a
flag of ``leash sample`` (``leash_tui.commands.shared.setting_options`` builds the click options
from these, as vLLM's ``EngineArgs.add_cli_args`` does from its config dataclasses): the field's
default is the flag's default, its help the flag's help, and adding a field adds the flag. A
field made without ``setting`` is a ``--config`` key only. Nothing here imports click.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import MISSING, dataclass
from typing import Any

#: the metadata key under which a field keeps its Flag
FLAG_KEY = "leash_flag"

#: the sections of ``leash sample --help``, in their order (inputs are the command's own)
SECTIONS = ("sampling", "engine", "run")


@dataclass(frozen=True)
class Flag:
    """A field's flag: its help, names (default ``--field-name``; a bool defaulting to True is
    ``--no-field-name``), metavar, choices, whether it repeats, and its help section."""

    help: str
    names: tuple[str, ...] = ()
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    section: str = "sampling"
    show_default: bool = True

    def __post_init__(self) -> None:
        if self.section not in SECTIONS:
            raise ValueError(f"flag section {self.section!r}: use one of {', '.join(SECTIONS)}")


def setting(
    default: Any = MISSING,
    help: str = "",
    *,
    default_factory: Callable[[], Any] | Any = MISSING,
    **flag: Any,
) -> Any:
    """A dataclass field that is also a ``leash sample`` flag (see ``Flag`` for ``flag``)."""
    return dataclasses.field(
        default=default, default_factory=default_factory, metadata={FLAG_KEY: Flag(help, **flag)}
    )


def flag_of(field: dataclasses.Field) -> Flag | None:
    """The Flag of a field, or None for a field that is a ``--config`` key only."""
    return field.metadata.get(FLAG_KEY)


def field_default(field: dataclasses.Field) -> Any:
    """A field's default value (calling its default factory), or MISSING."""
    if field.default is not MISSING:
        return field.default
    if field.default_factory is not MISSING:
        return field.default_factory()
    return MISSING


def flag_fields(cls: type) -> list[dataclasses.Field]:
    """The fields of dataclass ``cls`` that are flags, in definition order."""
    return [f for f in dataclasses.fields(cls) if flag_of(f) is not None]
