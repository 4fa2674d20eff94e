"""Make untrusted text (model outputs, file contents, names) safe to show on a terminal.

Control characters, ANSI escape sequences (CSI, OSC 52 clipboard writes, screen
clears) and NUL bytes are replaced by visible stand-ins, so nothing a model wrote
can drive the terminal. Rich and Textual receive such text only as ``rich.text.Text``
objects, never as markup strings.
"""

from __future__ import annotations

import re

from rich.text import Text

# C0 controls except \n and \t, DEL, C1 controls (0x80-0x9f, e.g. the 8-bit CSI), and the
# bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), which
# reorder what is shown around them (a reversed name, a hidden part of a line).
_CONTROL_RE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]"
)
_SPECIAL = {"\x1b": "␛", "\x00": "␀", "\r": "␍", "\x07": "␇", "\x08": "␈", "\x7f": "␡"}


def _visible(match: re.Match[str]) -> str:
    ch = match.group(0)
    code = ord(ch)
    return _SPECIAL.get(ch) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def visible(text: str, keep_newlines: bool = True) -> str:
    """``text`` with every control character replaced by a visible stand-in.

    With ``keep_newlines`` False, newlines and tabs become ``⏎`` and spaces too
    (for one-line cells).
    """
    out = _CONTROL_RE.sub(_visible, text)
    if not keep_newlines:
        out = out.replace("\n", "⏎").replace("\t", " ")
    return out


def stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (what ``for_stdout`` guards)."""
    import sys

    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def for_stdout(text: str) -> str:
    """Machine output (CSV, JSON Lines) as printed: controls made visible on a terminal,
    byte for byte when piped or redirected (a file keeps the data as it is)."""
    return visible(text) if stdout_is_terminal() else text


def one_line(text: str | None, limit: int = 80) -> str:
    """A visible single-line preview of ``text``, cut to ``limit`` characters."""
    if text is None:
        return "–"
    flat = visible(text, keep_newlines=False)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def safe(text: str | None, style: str = "") -> Text:
    """A rich Text holding ``text`` literally (no markup parsing), controls made visible."""
    return Text(visible(text or ""), style=style)


#: a cell starting with one of these is a formula to a spreadsheet (CSV injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """``value``, with a text that a spreadsheet would run as a formula quoted by ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
