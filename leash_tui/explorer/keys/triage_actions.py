"""Triage keys shared by the list and question screens: tag the current question, write a note.

A tag or note is written to the folder's triage journal (flushed and fsync'd)
before the screen says "saved"; a failed write is reported and nothing is shown
as saved.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from leash_tui.explorer.model.explorer_model import ExplorerModel
from leash_tui.explorer.model.pair_view import QuestionRow
from leash_tui.safe_text import one_line, visible
from sampler.errors import LeashError
from sampler.store import TAGS


class NoteScreen(ModalScreen[str | None]):
    """A one-line note editor; Enter saves, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    NoteScreen { align: center middle; }
    NoteScreen > Vertical {
        width: 90%; max-width: 100; height: auto;
        border: round $accent; background: $surface; padding: 0 1;
    }
    NoteScreen Label { width: 1fr; color: $text-muted; }
    """

    def __init__(self, title: str, note: str | None) -> None:
        super().__init__()
        self._title = title
        self._note = note or ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self._title))
            yield Input(
                value=visible(self._note, keep_newlines=False),
                id="note-input",
                placeholder="note (Enter saves, Escape cancels, empty clears)",
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class TriageActions:
    """Mixin for screens: ``current_row()`` says which question, ``after_triage()`` repaints."""

    model: ExplorerModel

    def current_row(self) -> QuestionRow | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def after_triage(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def action_tag(self, tag: str) -> None:
        row = self.current_row()
        if row is None:
            return
        try:
            self.model.set_tag(row, tag or None)
        except LeashError as exc:
            self.app.notify(visible(str(exc)), severity="error", markup=False)  # type: ignore[attr-defined]
            return
        label = f"tag {TAGS[tag][0]}" if tag else "tag cleared"
        self.after_triage()
        self.app.notify(  # type: ignore[attr-defined]
            f"saved: {label} on {one_line(row.benchmark, 30)}/{one_line(row.question_id, 30)}",
            markup=False,
            timeout=2,
        )

    def action_note(self) -> None:
        row = self.current_row()
        if row is None:
            return
        entry = self.model.triage(row)
        title = f"Note on {one_line(row.benchmark, 30)}/{one_line(row.question_id, 30)}"

        def save(note: str | None) -> None:
            if note is None:
                return
            try:
                self.model.set_note(row, note)
            except LeashError as exc:
                self.app.notify(visible(str(exc)), severity="error", markup=False)  # type: ignore[attr-defined]
                return
            self.after_triage()
            self.app.notify(
                "saved: note" if note else "saved: note cleared",  # type: ignore[attr-defined]
                markup=False,
                timeout=2,
            )

        self.app.push_screen(NoteScreen(title, entry.note if entry else None), save)  # type: ignore[attr-defined]
