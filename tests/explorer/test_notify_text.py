"""Folder text in a notification goes through the visible-text helper, with markup off.

A question id, a model name or an error message read from a folder may hold Rich markup
(``[red]``) or control characters; ``App.notify`` renders markup by default. Every
``notify`` call in leash_tui must pass ``markup=False``, and whatever it interpolates from
an object (an attribute, an item, a call) must pass through ``safe_text.visible`` or
``safe_text.one_line`` first. Plain local names and string constants are words of the
explorer's own (a side, a kind, a tag label).
"""

from __future__ import annotations

import ast

from tests.support.paths import REPO_ROOT

#: the helpers that make folder text visible (leash_tui/safe_text.py)
HELPERS = {"visible", "one_line"}


def _unsafe_parts(message: ast.expr) -> list[ast.expr]:
    """The parts of a message expression that may carry folder text unescaped."""
    if isinstance(message, ast.Constant | ast.Name):
        return []
    if isinstance(message, ast.Call):
        name = message.func.id if isinstance(message.func, ast.Name) else None
        return [] if name in HELPERS else [message]
    if isinstance(message, ast.IfExp):
        return _unsafe_parts(message.body) + _unsafe_parts(message.orelse)
    if isinstance(message, ast.JoinedStr):
        found = []
        for part in message.values:
            if isinstance(part, ast.FormattedValue):
                found += _unsafe_parts(part.value)
        return found
    if isinstance(message, ast.BinOp):
        return _unsafe_parts(message.left) + _unsafe_parts(message.right)
    return [message]  # an attribute, an item, anything else read from an object


def notify_breaches(source: str, name: str) -> list[str]:
    """``name:line why`` for every ``notify`` call of ``source`` that breaks the rule."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "notify":
            continue
        keywords = {k.arg: k.value for k in node.keywords}
        markup = keywords.get("markup")
        if not (isinstance(markup, ast.Constant) and markup.value is False):
            found.append(f"{name}:{node.lineno} notify without markup=False")
        message = node.args[0] if node.args else keywords.get("message")
        for part in _unsafe_parts(message) if message is not None else []:
            found.append(f"{name}:{node.lineno} {ast.unparse(part)} not through visible()")
    return found


def test_every_notification_shows_folder_text_as_text():
    found = []
    for path in sorted((REPO_ROOT / "leash_tui").rglob("*.py")):
        found += notify_breaches(path.read_text(encoding="utf-8"), str(path.relative_to(REPO_ROOT)))
    assert found == []


def test_the_check_catches_a_miss():
    missing_markup = "self.app.notify(f'saved {visible(row.model)}')"
    raw_text = "self.app.notify(f'saved on {row.question_id}', markup=False)"
    raw_error = "self.app.notify(str(exc), severity='error', markup=False)"
    fine = "self.app.notify(f'{kind}: {one_line(row.benchmark, 30)}', markup=False)"
    assert notify_breaches(missing_markup, "a") == ["a:1 notify without markup=False"]
    assert notify_breaches(raw_text, "b") == ["b:1 row.question_id not through visible()"]
    assert notify_breaches(raw_error, "c") == ["c:1 str(exc) not through visible()"]
    assert notify_breaches(fine, "d") == []
