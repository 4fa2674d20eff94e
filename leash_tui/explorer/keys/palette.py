"""The command palette (ctrl+p): the command table's commands for the active screen, plus
one "switch target" command per target model and, on the question list, one "Sort by"
command per sort order and one "Filter by" command per column (``list_view``).

Titles and help are shown as text, never as markup (model names come from files).
"""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from leash_tui.explorer.keys.commands import COMMANDS, Command
from leash_tui.explorer.model.list_view import NUMBER_COLUMNS, TEXT_COLUMNS


class ExplorerCommands(Provider):
    """Offers the commands that apply on the screen the palette was opened from."""

    def _available(self) -> list[tuple[str, str, str]]:
        """(title, help, action) of each command on offer."""
        from leash_tui.explorer.screens.main_screen import MainScreen
        from leash_tui.explorer.screens.question_screen import QuestionScreen

        screen = self.screen
        scopes = {"app"}
        if isinstance(screen, MainScreen):
            scopes |= {"main", "triage"}
        elif isinstance(screen, QuestionScreen):
            scopes |= {"question", "triage"}
        chosen: list[Command] = [c for c in COMMANDS if c.palette and c.scope in scopes]
        out = [(c.description, f"key: {c.display_keys}", c.action) for c in chosen]
        model = getattr(self.app, "model", None)
        if model is not None and isinstance(screen, MainScreen):
            for key, label in model.sorts():
                out.append((f"Sort by {label}", "key: s cycles the sorts", f"sort_by({key!r})"))
            for column in TEXT_COLUMNS + NUMBER_COLUMNS:
                how = "COLUMN>=N (or <, <=, >, =)" if column in NUMBER_COLUMNS else "COLUMN:TEXT"
                out.append(
                    (f"Filter by {column}", f"key: F, then {how}", f"filter_columns({column!r})")
                )
        if model is not None:
            for target in model.targets:
                if target != model.target:
                    out.append(
                        (
                            f"Switch target to {target}",
                            "compare the base with this model",
                            f"app.switch_target({target!r})",
                        )
                    )
        return out

    async def _run(self, action: str) -> None:
        await self.screen.run_action(action)

    async def discover(self) -> Hits:
        for title, help_text, action in self._available():
            yield DiscoveryHit(
                Text(title), partial(self._run, action), text=title, help=escape(help_text)
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action in self._available():
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(title), partial(self._run, action), help=help_text
                )
