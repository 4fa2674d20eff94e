"""The main screen: benchmark summary pane on top, the question list below, a search line.

Tab moves between the two panes; Enter on a summary row filters the list to that
benchmark (or domain, or everything), Enter on a question opens it. Number keys
filter categories, ``/`` searches problem text and ids as you type, ``s`` cycles
the sort order, ``t`` the tag filter, ``d`` keeps the questions where leash's verdict
and an imported source verdict differ (found once, in a worker). On tall terminals a preview of the
highlighted question's problem shows under the list.
"""

from __future__ import annotations

import shlex
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Header, Input, Static

from leash_tui.analysis.support_names import CATEGORY_NAMES
from leash_tui.analysis.unverified import unverified_without_gold
from leash_tui.explorer.keys.commands import bindings
from leash_tui.explorer.keys.triage_actions import TriageActions
from leash_tui.explorer.model.explorer_model import ExplorerModel
from leash_tui.explorer.model.list_view import NUMBER_COLUMNS, save_view
from leash_tui.explorer.model.pair_view import QuestionRow
from leash_tui.explorer.styles import GAIN
from leash_tui.explorer.widgets.key_footer import KeyFooter
from leash_tui.explorer.widgets.question_list import QuestionList
from leash_tui.explorer.widgets.summary_pane import SummaryPane
from leash_tui.safe_text import one_line, visible
from sampler.errors import LeashError
from sampler.store import TAGS

PREVIEW_MIN_HEIGHT = 36


class SearchInput(Input):
    """The search line: Escape clears and leaves it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "clear search", show=False)]

    def action_leave(self) -> None:
        self.value = ""
        self.screen.close_search()  # type: ignore[attr-defined]


class MainScreen(TriageActions, Screen[None]):
    """Summary pane and question list."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("main", "triage")
    DEFAULT_CSS = """
    MainScreen #search { display: none; border: round $accent; height: 3; }
    MainScreen #search.-open { display: block; }
    MainScreen #preview {
        height: 7; border: round $panel-lighten-2; padding: 0 1; display: none;
        border-title-color: $text-muted;
    }
    MainScreen #preview.-show { display: block; }
    MainScreen #unverified { display: none; height: auto; padding: 0 1; color: $warning; }
    MainScreen #unverified.-show { display: block; }
    """

    def __init__(self, model: ExplorerModel) -> None:
        super().__init__()
        self.model = model
        self.summary_pending = True  # until the newest summary is shown (computed on mount)
        self._summary_generation = 0  # of the newest summary asked for; older ones are dropped
        self.disagreements_pending = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="unverified", markup=False)
        yield SummaryPane(id="summary")
        yield QuestionList(self.model, id="questions")
        yield Static(id="preview", markup=False)
        yield SearchInput(
            placeholder="search problem text and ids (Enter: to the list, Esc: clear)", id="search"
        )
        single = ("app.next_target",) if len(self.model.targets) < 2 else ()
        yield KeyFooter("app", "main", "list", "triage", hidden=single)

    @property
    def question_list(self) -> QuestionList:
        return self.query_one(QuestionList)

    def on_mount(self) -> None:
        if self.model.search:  # a remembered search or column filter: in its box
            search = self.query_one(SearchInput)
            search.value = self.model.search
            search.add_class("-open")
        self.question_list.focus()
        self.sub_title = self._pair_title()
        self.refresh_summary()

    def _pair_title(self) -> str:
        return self.model.pair_title

    def refresh_summary(self) -> None:
        """Recompute the summary pane off the UI thread (it is not needed for the list)."""
        self.summary_pending = True
        self._summary_generation += 1
        self._compute_summary(
            self._summary_generation,
            self.model.target,
            getattr(self.app, "entropy_state", "ready"),
        )

    @work(thread=True, exclusive=True, group="summary")
    def _compute_summary(self, generation: int, target: str, entropy_state: str) -> None:
        rows = self.model.summary(target)
        self.app.call_from_thread(self._show_summary, generation, target, rows, entropy_state)

    def _show_summary(
        self, generation: int, target: str, rows: list[dict], entropy_state: str
    ) -> None:
        model = self.model
        if generation != self._summary_generation or target != model.target:
            return  # a newer computation is on its way (a cancelled thread still finishes)
        if not self.is_attached:
            return
        title = Text(f"{one_line(model.base, 30)} → {one_line(target, 30)}")
        status = {
            "missing": "entropies unknown: e retries",
            "computing": "computing entropies…",
        }.get(entropy_state, "")
        self.query_one(SummaryPane).show(rows, model.domains, title, status)
        self._show_unverified_hint()
        self.summary_pending = False

    def _show_unverified_hint(self) -> None:
        """Unverified samples count as neither right nor wrong: say so, and how to verify,
        rather than show ``?`` and ``0/0`` with no explanation."""
        pending = self.model.unverified
        hint = self.query_one("#unverified", Static)
        hint.set_class(pending > 0, "-show")
        if pending:
            root = self.app.results.root  # type: ignore[attr-defined]
            goldless = unverified_without_gold(self.model.counts, self.model.questions)
            if goldless >= pending:  # verify cannot grade them: do not send people there
                message = (
                    f"{pending:,} samples are of questions without a gold, so they count as"
                    " neither right nor wrong (give golds, or import with --trust-verdicts)"
                )
            else:
                message = (
                    f"{pending:,} samples are not verified yet, so they count as neither right"
                    f" nor wrong: quit (q) and run  leash verify {shlex.quote(str(root))}"
                )
                if goldless:
                    message += f" ({goldless:,} of them have no gold to grade against)"
            hint.update(Text(message, style="bold"))

    def refresh_all(self, keep: tuple[str, str] | None = None) -> None:
        """The pair or the view changed: repaint the list with the cursor on ``keep``
        (default: the question highlighted before the change), wherever it moved."""
        self.question_list.reload(keep)
        self.sub_title = self._pair_title()
        save_view(self.app.results.root, self.model.view_state())  # type: ignore[attr-defined]

    # -- reacting to panes -----------------------------------------------------------------
    def on_question_list_opened(self, event: QuestionList.Opened) -> None:
        self.action_open_question()

    def on_question_list_highlighted(self, event: QuestionList.Highlighted) -> None:
        self._update_preview(event.row)

    def on_summary_pane_chosen(self, event: SummaryPane.Chosen) -> None:
        self.model.filter_benchmarks(event.label, event.benchmarks)
        self.refresh_all()
        self.question_list.focus()

    def on_resize(self) -> None:
        self.query_one("#preview").set_class(self.size.height >= PREVIEW_MIN_HEIGHT, "-show")

    def _update_preview(self, row: QuestionRow | None) -> None:
        preview = self.query_one("#preview", Static)
        if row is None:
            preview.update(Text("no question matches the filters"))
            return
        text = Text(visible((row.problem or "(no problem text)")[:2000]))
        text.append("\ngold: ", style="bold")
        text.append(visible(row.gold or "–"), style=GAIN)
        entry = self.model.triage(row)
        if entry is not None and entry.note:
            text.append("\nnote: ", style="bold")
            text.append(visible(entry.note, keep_newlines=False))
        preview.update(text)
        preview.border_title = Text(
            f"{one_line(row.benchmark, 30)}/{one_line(row.question_id, 30)} · "
            f"{CATEGORY_NAMES.get(row.category, row.category)}"
        )

    # -- triage -----------------------------------------------------------------------------
    def current_row(self) -> QuestionRow | None:
        return self.question_list.current

    def after_triage(self, keep: tuple[str, str] | None = None) -> None:
        """Tags changed (here, on the question screen, or in another explorer): re-sort and
        re-filter when the view depends on tags, the cursor staying on ``keep`` (default:
        the highlighted question, the one a tag key acted on)."""
        if self.model.tag_filter is not None or self.model.sort == "tag":
            self.model.refresh_view()
            self.refresh_all(keep)
        else:
            self.question_list.update_titles()  # a first note adds the "* note" key
            self.question_list.refresh()
        self._update_preview(self.question_list.current)

    # -- actions --------------------------------------------------------------------------
    def action_open_question(self) -> None:
        from leash_tui.explorer.screens.question_screen import QuestionScreen

        row_list = self.question_list
        if row_list.current is None:
            return

        def back(key: tuple[str, str] | None) -> None:
            # the question screen may have tagged questions and moved on: re-sort, and
            # highlight the question it showed last
            if self.model.tag_filter is not None or self.model.sort == "tag":
                self.model.refresh_view()
            self.refresh_all(key)

        self.app.push_screen(QuestionScreen(self.model, row_list.cursor), back)

    def action_toggle_category(self, category: str) -> None:
        self.model.toggle_category(category)
        self.refresh_all()

    def action_clear_filters(self) -> None:
        self.model.clear_filters()
        search = self.query_one(SearchInput)
        search.value = ""
        self.close_search()
        self.refresh_all()

    def action_clear_search(self) -> None:
        """Esc in the list: the search is cleared and its box closed (other filters stay)."""
        search = self.query_one(SearchInput)
        if not search.value and not self.model.search:
            return
        search.value = ""
        self.model.set_search("")
        self.close_search()
        self.refresh_all()

    def action_summary_page(self, delta: int) -> None:
        """←/→ from the list page the summary's columns (no Tab to the pane needed)."""
        self.query_one(SummaryPane).turn_page(delta)

    def action_cycle_sort(self) -> None:
        self.model.cycle_sort()
        self.refresh_all()

    def action_cycle_tag_filter(self) -> None:
        tag = self.model.cycle_tag_filter()
        self.refresh_all()
        label = "off" if tag is None else TAGS[tag][0] if tag in TAGS else tag
        self.app.notify(f"tag filter: {label}", markup=False, timeout=2)

    def action_toggle_flips(self) -> None:
        model = self.model
        if model.set_flip_filter(not model.flip_filter):
            self.app.notify("flip filter: on", markup=False, timeout=2)
        elif model.series() is None:
            self.app.notify(
                "the target is not a checkpoint of a training series (name NAME@STEP)",
                markup=False,
                timeout=3,
            )
        self.refresh_all()

    def action_toggle_fragile(self) -> None:
        on = self.model.toggle_fragile_filter()
        self.app.notify(f"fragile support claims: {'on' if on else 'off'}", markup=False, timeout=2)
        self.refresh_all()

    def action_toggle_disagreements(self) -> None:
        model = self.model
        if model.disagreement_filter:
            model.set_disagreement_filter(False)
            self.refresh_all()
        elif model.disagreements_known:
            self._apply_disagreements()
        elif not self.disagreements_pending:
            self.disagreements_pending = True
            self.app.notify("finding grading disagreements…", markup=False, timeout=2)
            self._find_disagreements()

    @work(thread=True, exclusive=True, group="disagreements")
    def _find_disagreements(self) -> None:
        try:
            table = self.model.find_disagreements()
        except LeashError as exc:
            self.app.call_from_thread(self._disagreements_failed, visible(str(exc)))
            return
        self.app.call_from_thread(self._show_disagreements, table)

    def _disagreements_failed(self, message: str) -> None:
        self.disagreements_pending = False
        self.app.notify(message, severity="warning", markup=False)

    def _show_disagreements(self, table) -> None:
        self.disagreements_pending = False
        self.model.set_disagreements(table)
        if self.is_attached:
            self._apply_disagreements()

    def _apply_disagreements(self) -> None:
        if self.model.disagreements is None:
            self.app.notify(
                "no sample carries an imported source verdict (see leash import)",
                markup=False,
                timeout=3,
            )
            return
        self.model.set_disagreement_filter(True)
        self.refresh_all()

    def action_search(self) -> None:
        search = self.query_one(SearchInput)
        search.add_class("-open")
        search.focus()

    def action_sort_by(self, key: str) -> None:
        """Sort by one column (the palette's "Sort by" commands)."""
        if self.model.set_sort(key):
            self.refresh_all()
            self.app.notify(f"sorted by {visible(self.model.sort_label)}", markup=False, timeout=2)

    def action_filter_columns(self, column: str = "") -> None:
        """The search box, for column filters (``cat:S base>=2 p<0.05``; list_view); with a
        column (the palette's "Filter by" commands), its term begun after what is there."""
        search = self.query_one(SearchInput)
        search.placeholder = (
            "filter by column: benchmark: id: cat: tag: problem: TEXT, base/target/p <,>,= N"
        )
        if column:
            start = f"{column}>=" if column in NUMBER_COLUMNS else f"{column}:"
            search.value = f"{search.value} {start}".lstrip()
            search.select_on_focus = False  # typing goes on after the term, until it closes
            search.cursor_position = len(search.value)
        self.action_search()

    def close_search(self) -> None:
        search = self.query_one(SearchInput)
        search.select_on_focus = True
        if not search.value:
            search.remove_class("-open")
        self.question_list.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "search":
            self.model.set_search(event.value)
            self.refresh_all()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "search":
            self.close_search()

    def action_series_plot(self) -> None:
        from leash_tui.explorer.screens.series_screen import SeriesScreen

        if self.model.series() is None:
            self.app.notify(
                "the target is not a checkpoint of a training series (name NAME@STEP)",
                markup=False,
                timeout=3,
            )
            return
        chosen = self.model.benchmark_filter
        names, label = (chosen[1], chosen[0]) if chosen else (None, "all benchmarks")
        self.app.push_screen(SeriesScreen(self.model, names, label))

    def action_budget(self) -> None:
        from leash_tui.explorer.screens.budget_screen import BudgetScreen

        chosen = self.model.benchmark_filter
        names, label = (chosen[1], chosen[0]) if chosen else (None, "all benchmarks")
        self.app.push_screen(BudgetScreen(self.model, names, label))
