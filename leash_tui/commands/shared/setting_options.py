"""Click options built from settings dataclasses, and a help page grouped by section.

``setting_options(RunConfig, ModelSettings)`` adds one option per field made with
``sampler.sample.setting_fields.setting`` (as vLLM's ``EngineArgs.add_cli_args`` builds its
flags from its config dataclass): the flag's name is the field's (``--top-p`` for ``top_p``;
a bool that defaults to True is ``--no-verify``), its type the field's (a tuple is a repeatable
option), its help the field's help with the field's default. Every option defaults to None
("not given"), so that the ``--config`` file and a model's table keep their precedence.
``SectionedCommand`` prints the options under the sections the fields name.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any

import click

from sampler.sample.setting_fields import SECTIONS, Flag, field_default, flag_fields, flag_of

#: the heading of each section of a help page (options without one go under "Options")
SECTION_TITLES = {"sampling": "Sampling options", "engine": "Engine options", "run": "Run options"}


class SectionOption(click.Option):
    """A click option that knows its help section."""

    def __init__(self, *args: Any, section: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.section = section


class SectionedCommand(click.Command):
    """A command whose help lists options under their sections, in ``SECTIONS`` order."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        groups: dict[str | None, list[tuple[str, str]]] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                groups.setdefault(getattr(param, "section", None), []).append(record)
        width = _first_column(row for rows in groups.values() for row in rows)
        for section in (None, *SECTIONS):
            if groups.get(section):
                with formatter.section(SECTION_TITLES.get(section or "", "Options")):
                    # one column of help text across the sections
                    spacing = 2 + width - _first_column(groups[section])
                    formatter.write_dl(groups[section], col_max=_COL_MAX, col_spacing=spacing)


#: click's widest first column of a definition list
_COL_MAX = 30


def _first_column(rows: Any) -> int:
    return min(max((len(name) for name, _ in rows), default=0), _COL_MAX)


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _help(flag: Flag, default: Any) -> str:
    """The field's help with its default, ``[default: X]`` before the final full stop."""
    hidden = default is None or default is dataclasses.MISSING or default == ()
    if not flag.show_default or hidden or isinstance(default, bool):
        return flag.help
    return f"{flag.help.rstrip('.')} [default: {_shown(default)}]."


def _plain_type(hint: Any) -> Any:
    """``int | None`` -> int; other hints unchanged."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        kept = [a for a in typing.get_args(hint) if a is not type(None)]
        return kept[0] if len(kept) == 1 else str
    return hint


_CLICK_TYPES: dict[Any, Any] = {int: click.INT, float: click.FLOAT}


def option_for(field: dataclasses.Field, hint: Any) -> click.Option:
    """The click option of one settings field (see the module docstring)."""
    flag = flag_of(field)
    assert flag is not None
    default = field_default(field)
    dashed = field.name.replace("_", "-")
    kind = _plain_type(hint)
    attrs: dict[str, Any] = {"default": None, "help": _help(flag, default), "section": flag.section}
    if kind is bool:
        names = flag.names or ((f"--no-{dashed}",) if default is True else (f"--{dashed}",))
        attrs |= {"is_flag": True, "flag_value": default is not True}
    else:
        names = flag.names or (f"--{dashed}",)
        if typing.get_origin(kind) is tuple:
            kind, attrs["multiple"], attrs["default"] = typing.get_args(kind)[0], True, ()
        attrs["type"] = (
            click.Choice(flag.choices) if flag.choices else _CLICK_TYPES.get(kind, click.STRING)
        )
        if flag.metavar:
            attrs["metavar"] = flag.metavar
    return SectionOption([*names, field.name], **attrs)


def setting_options(*classes: type) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a command with the options of every flag field of ``classes``, in order."""
    options = [
        option_for(field, typing.get_type_hints(cls)[field.name])
        for cls in classes
        for field in flag_fields(cls)
    ]

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        params = func.__dict__.setdefault("__click_params__", [])
        params.extend(reversed(options))  # click reverses the decorators' list
        return func

    return decorate


def given_settings(cls: type, values: dict[str, Any]) -> dict[str, Any]:
    """The values of ``cls``'s flag fields that were given (None and an empty repeat: not)."""
    names = {field.name for field in flag_fields(cls)}
    return {
        name: list(value) if isinstance(value, tuple) else value
        for name, value in values.items()
        if name in names and value is not None and value != ()
    }
