"""The explorer app (``leash explore``): opens a results folder and shows the main screen.

Opening reads verdict counts and the questions table in a worker thread, never
completion text (counts and entropies come from the store: footer summaries, or its
statistics cache when current); a short "opening" line shows meanwhile. Token and
answer entropies, which need a pass over the answers of every sample, are computed
after the first paint in another worker and fill in the summary when ready. The triage journal is
polled so tags written by another explorer appear.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.widgets import Static

from leash_tui.explorer.keys.commands import bindings
from leash_tui.explorer.keys.palette import ExplorerCommands
from leash_tui.explorer.model.explorer_model import (
    ExplorerModel,
    open_counts,
)
from leash_tui.explorer.model.list_view import load_view
from leash_tui.safe_text import visible
from sampler.errors import LeashError
from sampler.store import ResultsFolder

JOURNAL_POLL_S = 2.0


class ExplorerApp(App[None]):
    """Explore one results folder."""

    TITLE = "leash explore"
    BINDINGS: ClassVar[list[BindingType]] = bindings("app")
    COMMANDS: ClassVar[set] = {ExplorerCommands}
    ENABLE_COMMAND_PALETTE = True
    COMMAND_PALETTE_DISPLAY = "^p"
    CSS = """
    #opening { width: 1fr; height: 1fr; content-align: center middle; color: $text-muted; }
    /* notifications at the top right, one line high: the final answer of a completion sits
       at the bottom of its view, and a toast there would hide it after every tag */
    ToastRack { dock: top; align: right top; margin-top: 1; margin-bottom: 0; }
    Toast { padding: 0 1; }
    """

    def __init__(
        self,
        results: ResultsFolder,
        target: str | None = None,
        base: str | None = None,
        tau: float = 0.0,
    ) -> None:
        super().__init__()
        self.results = results
        self.tau = tau  # support threshold of every comparison (0: one success)
        self.model: ExplorerModel | None = None
        #: token/answer entropies: "missing", "computing" or "ready"
        self.entropy_state = "missing"
        self.requested_target = target
        self.requested_base = base
        name = visible(Path(results.root).resolve().name, keep_newlines=False)
        synthetic = " · SYNTHETIC DEMO" if results.manifest.synthetic else ""
        self.title = f"leash · {name}{synthetic}"

    def compose(self) -> ComposeResult:
        yield Static(Text("opening: counting verdicts…"), id="opening", markup=False)

    def on_mount(self) -> None:
        self._load_folder()

    @work(thread=True, exclusive=True, group="open")
    def _load_folder(self) -> None:
        try:
            counts, stats = open_counts(self.results)
            model = ExplorerModel(
                self.results,
                counts=counts,
                answer_stats=stats,
                base=self.requested_base,
                tau=self.tau,
            )
            self.entropy_state = "missing" if stats is None else "ready"
            model.restore_view(load_view(self.results.root))  # the folder's last sort, filters
            if self.requested_target is not None:
                model.set_target(self.requested_target)
        except LeashError as exc:
            self.call_from_thread(self.exit, None, 1, visible(str(exc)))
            return
        self.call_from_thread(self._show_model, model)
        if stats is None:
            self.call_from_thread(self.action_load_entropies)

    @work(thread=True, exclusive=True, group="answer-stats")
    def _load_answer_stats(self, model: ExplorerModel) -> None:
        """Token and answer entropies need a pass over the answers of every sample (streamed,
        bounded memory): done after the first paint; the store caches them (when a shard
        had to be scanned), so the next open has them at once."""
        from leash_tui.explorer.model.explorer_model import load_answer_stats

        try:
            stats = load_answer_stats(self.results)
        except LeashError as exc:
            self.call_from_thread(self._answer_stats_failed, visible(str(exc)))
            return
        self.call_from_thread(self._show_answer_stats, model, stats)

    def _answer_stats_failed(self, message: str) -> None:
        self.entropy_state = "missing"
        self.notify(message, severity="warning", markup=False)
        self._refresh_summaries()

    def _show_answer_stats(self, model: ExplorerModel, stats) -> None:
        model.answer_stats = stats
        self.entropy_state = "ready"
        self._refresh_summaries()

    def _refresh_summaries(self) -> None:
        from leash_tui.explorer.screens.main_screen import MainScreen

        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.refresh_summary()

    def action_load_entropies(self) -> None:
        if self.model is None or self.entropy_state != "missing":
            return
        self.entropy_state = "computing"
        self._refresh_summaries()
        self._load_answer_stats(self.model)

    def _show_model(self, model: ExplorerModel) -> None:
        from leash_tui.explorer.screens.main_screen import MainScreen

        self.model = model
        self.push_screen(MainScreen(model))
        self.set_interval(JOURNAL_POLL_S, self._poll_journal)

    def _poll_journal(self) -> None:
        if self.model is not None and self.model.reload_journal():
            self.model.refresh_view()
            for screen in self.screen_stack:
                refresh = getattr(screen, "after_triage", None)
                if refresh is not None:
                    refresh()

    # -- app-wide actions -------------------------------------------------------------------
    def action_help(self) -> None:
        from leash_tui.explorer.screens.help_screen import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_next_target(self) -> None:
        if self.model is None:
            return
        if len(self.model.targets) < 2:
            self.notify("this folder has one target model", markup=False, timeout=2)
            return
        self.switch_target(
            self.model.targets[
                (self.model.targets.index(self.model.target) + 1) % len(self.model.targets)
            ]
        )

    def action_switch_target(self, target: str) -> None:
        self.switch_target(target)

    def switch_target(self, target: str) -> None:
        from leash_tui.explorer.screens.main_screen import MainScreen
        from leash_tui.explorer.screens.question_screen import QuestionScreen

        assert self.model is not None
        self.model.set_target(target)
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.refresh_summary()
                screen.refresh_all()
            elif isinstance(screen, QuestionScreen) and screen.row is not None:
                # the same question, compared with the new target, even where the list's
                # filters no longer hold it (never silently the list's first question)
                key = (screen.row.benchmark, screen.row.question_id)
                position = self.model.position_of(*key)
                row = self.model.row_of(*key)
                if position is None and row is None:
                    position = min(screen.position, max(0, len(self.model) - 1))
                screen.load(screen.position if position is None else position, row)
        self.notify(f"target: {visible(target, keep_newlines=False)}", markup=False, timeout=2)
