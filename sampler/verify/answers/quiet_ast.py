"""Python source a model wrote, parsed (never run) without the compiler's warnings.

Several rules ask whether a completion's text is Python (a cell that ends a transcript, a
printed value, a dictionary of answers). ``ast.parse`` on such text may warn
(``SyntaxWarning: invalid decimal literal`` for ``1if``, an invalid escape sequence), and a
warning goes to the terminal of whoever runs ``leash verify``, where extraction runs.
``parse_quietly`` parses with every warning silenced; the caller handles ``SyntaxError``
(and ``ValueError``, ``MemoryError``, ``RecursionError``) as before.
"""

from __future__ import annotations

import ast
import warnings


def parse_quietly(source: str, mode: str = "exec") -> ast.AST:
    """``ast.parse(source, mode=mode)`` with the compiler's warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, mode=mode)
