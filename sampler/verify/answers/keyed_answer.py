"""An answer written as a one-entry dictionary: ``{'1': ['A']}``, ``{"12": ["$\\frac{3}{2}$"]}``.

Harnesses that ask for several questions' answers at once have the model write a dictionary
from the question's number to the list of its answers (the 2024 Gaokao evaluation's
``` `{'1': ['A']}` ```, multi-select ``{'9': ['B', 'C']}``). Read as text, such a dictionary
matches no gold. ``keyed_answer`` gives the answer it holds: the value of its one entry, a
list's items joined by ", " (a multi-select answer), as a Python or JSON literal is read
(``ast.literal_eval``: a literal is parsed, never run; a backslash is LaTeX's, not an
escape). A dictionary with more than one
entry, a value that is not a string, a number or a short list of them, and any text
around the braces other than backticks give None.
"""

from __future__ import annotations

import ast

from sampler.verify.answers.quiet_ast import parse_quietly

_MAX_CHARS = 500
_MAX_ITEMS = 10


def keyed_answer(text: str) -> str | None:
    """The answer a one-entry dictionary holds (module docstring), or None."""
    bare = text.strip().strip("`").strip()
    if not (bare.startswith("{") and bare.endswith("}")) or len(bare) > _MAX_CHARS:
        return None
    try:
        # backslashes are LaTeX's, not escapes: "\\frac" is no form feed and "rac"; the
        # compiler's warnings on a model's text ("invalid decimal literal") are not printed
        value = ast.literal_eval(parse_quietly(bare.replace("\\", "\\\\"), mode="eval"))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(value, dict) or len(value) != 1:
        return None
    (held,) = value.values()
    items = list(held) if isinstance(held, list | tuple) else [held]
    if not 0 < len(items) <= _MAX_ITEMS or not all(
        isinstance(item, str | int | float) and not isinstance(item, bool) for item in items
    ):
        return None
    return ", ".join(str(item).strip().replace("\\\\", "\\") for item in items)
