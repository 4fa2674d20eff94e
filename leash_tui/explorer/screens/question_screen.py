"""The question screen: problem, gold, answer histograms, base and target completions side by side.

The problem and counts show at once; the samples load in a worker thread (one
question's row groups only), so keys never wait on disk. The base side opens on a
correct sample (what was lost), the target side on its most common answer. Each
side scrolls on its own; keys step through samples of the focused side, jump to
the next correct or incorrect one, or restrict both sides to correct samples.
A completion shows at once; where its final answer sits is found in a worker
thread (a model looping ``\\boxed{`` can make that slow) and highlighted when known.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Static

from leash_tui.analysis.support_names import CATEGORY_NAMES
from leash_tui.analysis.witness_claims import DEFAULT_MAX_SAMPLES, claim_line
from leash_tui.explorer.keys.commands import bindings
from leash_tui.explorer.keys.triage_actions import TriageActions
from leash_tui.explorer.model.explorer_model import ExplorerModel
from leash_tui.explorer.model.pair_view import QuestionRow
from leash_tui.explorer.model.question_detail import (
    OPEN_BASE_ON,
    OPEN_TARGET_ON,
    QuestionDetail,
    SideSamples,
    TraceScore,
    answer_span,
)
from leash_tui.explorer.styles import GAIN, LOSS, STATUS_STYLES
from leash_tui.explorer.widgets.border_text import BORDER_CELLS, fit_parts
from leash_tui.explorer.widgets.completion_view import CompletionView, display_text
from leash_tui.explorer.widgets.key_footer import KeyFooter
from leash_tui.explorer.widgets.question_list import format_p
from leash_tui.explorer.widgets.still_scroll import StillScroll
from leash_tui.safe_text import one_line, visible
from sampler.errors import LeashError
from sampler.store import STATUS_NO_ANSWER, TAGS
from sampler.verify.answers.extraction import DEFAULT_STRATEGIES, ExtractionConfig

SIDES = ("base", "target")
#: Problems longer than this are cut on screen (the rest is said, not shown).
PROBLEM_DISPLAY_LIMIT = 20_000
#: A sample's text read for longer than this is said to be reading (before: the last one).
READING_NOTICE_S = 0.15


def no_answer_note(model: ExplorerModel, row: QuestionRow, side: str, sample: dict) -> str:
    """Why a ``no_answer`` sample has no answer: the extraction rules that found nothing,
    and whether the completion was cut off (finish reason ``length``) before one."""
    name = model.base if side == "base" else model.target
    config = model.results.manifest.verification.get("extraction")
    try:
        rules = ExtractionConfig.from_json(config or {}).strategies_for(row.benchmark, name)
    except LeashError:
        rules = DEFAULT_STRATEGIES
    note = f"no answer: no extraction rule ({', '.join(rules)}) found a final answer"
    if sample.get("finish_reason") == "length":
        note += "; finish reason length: the completion was cut off (truncation)"
    return note


def _ppl(value: float | None) -> str:
    return "–" if value is None else f"{value:,.3g}" if value < 1000 else f"{value:,.0f}"


def is_fragile(correct: int) -> bool:
    """Whether a side's support rests on so few accepted samples that they are shown."""
    return 1 <= correct <= DEFAULT_MAX_SAMPLES


def histogram_text(side: SideSamples, limit: int, width: int) -> Text:
    """The header and short answer histogram of one side, as rich Text (one item a line)."""
    n = len(side)
    correct = int(side.correct_flags().sum()) if n else 0
    text = Text()
    text.append(f"{one_line(side.model, 40)}", style="bold")
    text.append(f" · {correct:,}/{n:,} correct")
    k = side.distinct_answers
    noun = "answer" if k == 1 else "answers"
    if side.gold_share is None:
        summary = "no verified samples"
    elif side.gold_rank is None:
        summary = f"gold never given; {k:,} distinct {noun}"
    else:
        summary = f"gold share {side.gold_share:.0%}, rank #{side.gold_rank} of {k:,} {noun}"
    if is_fragile(correct):  # the evidence behind a fragile support claim, in full view
        accepted = side.samples.filter(pc.fill_null(side.samples.column("correct"), False))
        answers = dict.fromkeys(a or "" for a in accepted.column("answer").to_pylist())
        line = claim_line(correct, n, (one_line(a, 40) for a in answers))
        text.append("\n" + one_line(line, max(20, width)), style="bold")
    else:
        text.append("\n" + summary, style="italic")
    biggest = max((count for _, count, _ in side.histogram), default=1)
    answer_width = max(6, min(24, width // 3))
    for answer, count, ok in side.histogram[:limit]:
        bar = "█" * max(1, round(count / biggest * max(1, width - answer_width - 10)))
        text.append("\n")
        text.append("✓ " if ok else "✗ ", style=f"bold {GAIN}" if ok else f"bold {LOSS}")
        # as the models wrote it, the normal form (what was compared) beside
        written = side.written.get(answer)
        label = one_line(answer if written is None else f"{written} = {answer}", answer_width)
        text.append(label + " " * (answer_width - cell_len(label)), style="bold" if ok else "")
        text.append(f" {count:>5} ")
        text.append(bar, style=GAIN if ok else LOSS)
    return text


class ProblemBox(StillScroll, VerticalScroll):
    """The problem and gold answer; scrolls with the same keys as a completion."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("scroll")


class SidePanel(Vertical):
    """One model's histogram and completion."""

    DEFAULT_CSS = """
    SidePanel { width: 1fr; height: 1fr; }
    SidePanel > .histogram {
        height: auto; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    def __init__(self, side: str) -> None:
        super().__init__(id=f"side-{side}")
        self.side = side

    def compose(self) -> ComposeResult:
        yield Static(Text("loading…"), classes="histogram", id=f"hist-{self.side}", markup=False)
        yield CompletionView(id=f"view-{self.side}")


class QuestionScreen(TriageActions, Screen[tuple[str, str] | None]):
    """One question; dismisses with the (benchmark, question_id) shown last."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("question", "triage")
    DEFAULT_CSS = """
    QuestionScreen #problem-box {
        height: auto; max-height: 8;
        border: round $panel-lighten-2; border-title-color: $text;
        border-subtitle-color: $text-muted; padding: 0 1;
    }
    QuestionScreen #gold { dock: top; height: auto; max-height: 2; }
    QuestionScreen #sides { height: 1fr; }
    """

    class Loaded(Message):
        """The samples of the question on view were painted."""

        def __init__(self, row: QuestionRow) -> None:
            self.row = row
            super().__init__()

    def __init__(self, model: ExplorerModel, position: int) -> None:
        super().__init__()
        self.model = model
        self.position = position
        self.row: QuestionRow | None = None
        self.detail: QuestionDetail | None = None
        self.positions = {"base": 0, "target": 0}
        self.correct_only = False
        #: bumped at each paint of a side: a located answer for an older paint is dropped
        self._paint_serial = {"base": 0, "target": 0}
        #: answer spans found so far: (question index, side, position) -> span
        self._spans: dict[tuple[int, str, int], tuple[int, int] | None] = {}
        #: sides whose text is still being read, or its answer span located
        self._locating: set[str] = set()
        #: (paint serial, position) of the sample each side shows
        self._showing: dict[str, tuple[int, int]] = {}
        #: each side's border title and subtitle parts, fitted to its width at each paint
        self._border_parts: dict[str, tuple[list[Text], list[Text]]] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        with ProblemBox(id="problem-box"):
            yield Static(id="gold", markup=False)  # docked: in view while the problem scrolls
            yield Static(id="problem", markup=False)
        with Horizontal(id="sides"):
            for side in SIDES:
                yield SidePanel(side)
        single = ("app.next_target",) if len(self.model.targets) < 2 else ()
        yield KeyFooter("app", "question", "scroll", "triage", hidden=single)

    def on_mount(self) -> None:
        self.query_one("#view-base", CompletionView).focus()
        self.load(self.position)

    # -- loading -----------------------------------------------------------------------
    def current_row(self) -> QuestionRow | None:
        return self.row

    def load(self, position: int, row: QuestionRow | None = None) -> None:
        """Show the question at ``position`` of the list, or ``row`` (a question the list's
        filters no longer hold, e.g. after a target switch), ``position`` then being where
        ``[``/``]`` go on from."""
        self.position = position
        self.row = row = row if row is not None else self.model.row(position)
        self.detail = None
        for side in SIDES:  # a text still being read for the last question is dropped
            self._paint_serial[side] += 1
            self._locating.discard(side)
        self._show_problem(row)
        for side in SIDES:
            self.query_one(f"#hist-{side}", Static).update(Text("loading samples…"))
        self._fetch(row)

    @work(thread=True, exclusive=True, group="question-samples")
    def _fetch(self, row: QuestionRow) -> None:
        detail = self.model.load_question(row)
        self.app.call_from_thread(self._loaded, detail)

    def _loaded(self, detail: QuestionDetail) -> None:
        if self.row is None or detail.row.index != self.row.index or not self.is_attached:
            return  # the user moved on before this load finished
        self.detail = detail
        if detail.traces:
            self._show_problem(detail.row, detail.traces)
        self.positions = {
            "base": detail.base.default_position(OPEN_BASE_ON),
            "target": detail.target.default_position(OPEN_TARGET_ON),
        }
        if self.correct_only:
            self._snap_to_correct()
        for side in SIDES:
            self._paint_side(side)
        self.post_message(self.Loaded(detail.row))

    # -- painting ----------------------------------------------------------------------
    def _show_problem(self, row: QuestionRow, traces: Sequence[TraceScore] = ()) -> None:
        problem = row.problem
        text = Text()
        if problem is None:
            text.append("(no problem text in questions.parquet)", style="italic")
        else:
            shown = visible(problem[:PROBLEM_DISPLAY_LIMIT])
            text.append(shown)
            if len(problem) > PROBLEM_DISPLAY_LIMIT:
                text.append(
                    f" … ({len(problem) - PROBLEM_DISPLAY_LIMIT:,} more characters)", style="italic"
                )
        gold = Text("gold: ", style="bold")
        gold.append(visible(row.gold) if row.gold is not None else "–", style=GAIN)
        self.query_one("#gold", Static).update(gold)
        for trace in traces:
            text.append("\ntrace ", style="bold")
            text.append(one_line(trace.source, 30))
            if trace.n_tokens is not None:
                text.append(f" ({trace.n_tokens:,} tokens)")
            text.append(
                f": perplexity base {_ppl(trace.perplexity_base)}"
                f" → target {_ppl(trace.perplexity_target)}"
            )
        self.query_one("#problem", Static).update(text)
        box = self.query_one("#problem-box")
        title = [
            Text(f"{one_line(row.benchmark, 30)} / {one_line(row.question_id, 30)}"),
            Text(CATEGORY_NAMES.get(row.category, row.category)),
            Text(f"base {row.c_base:,}/{row.n_base:,} → target {row.c_target:,}/{row.n_target:,}"),
            Text(f"p={format_p(row.fisher_p)}"),
        ]
        box.border_title = fit_parts(title, (box.size.width or self.size.width) - BORDER_CELLS)
        entry = self.model.triage(row)
        subtitle = ""
        if entry is not None:
            subtitle = f"tag: {TAGS[entry.tag][0] if entry.tag in TAGS else '–'}"
            if entry.note:
                subtitle += f" · note: {one_line(entry.note, 60)}"
        box.border_subtitle = Text(subtitle)
        self.sub_title = self.model.pair_title

    def _paint_histogram(self, side: str) -> None:
        detail = self.detail
        if detail is None:
            return
        hist = self.query_one(f"#hist-{side}", Static)
        limit = self._histogram_rows()
        hist.styles.height = limit + 2
        width = max(20, hist.size.width - 2 if hist.size.width else self.size.width // 2 - 2)
        hist.update(Text(f"{side}: ") + histogram_text(detail.sides[side], limit, width))

    def on_resize(self) -> None:
        """Answer bars take the width they have now: redraw them after a resize."""
        self._fit_problem_box()
        for side in ("base", "target"):
            self.call_after_refresh(self._paint_histogram, side)
            self.call_after_refresh(self._fit_borders, side)

    def _paint_side(self, side: str) -> None:
        detail = self.detail
        if detail is None:
            return
        samples = detail.sides[side]
        self._paint_histogram(side)
        view = self.query_one(f"#view-{side}", CompletionView)
        if len(samples) == 0:
            self._paint_serial[side] += 1
            self._locating.discard(side)
            view.show(display_text("(no samples of this model for this question)"))
            self._border_parts[side] = ([Text(f"{side}: no samples")], [])
            self._fit_borders(side)
            return
        position = self.positions[side]
        self._paint_serial[side] += 1
        serial = self._paint_serial[side]
        sample = samples.cached(position)
        if sample is not None:
            self._show_sample(side, serial, position, sample)
            return
        # the text is read in a worker: keys stay responsive on a slow or busy disk
        self._locating.add(side)  # its answer cannot be located before the text is there
        self._read_sample(side, serial, samples, position)
        self.set_timer(READING_NOTICE_S, lambda: self._say_reading(side, serial, position))

    @work(thread=True, group="sample-text")
    def _read_sample(self, side: str, serial: int, samples: SideSamples, position: int) -> None:
        """Read sample ``position``'s text off the event loop, then paint it if still wanted."""
        if serial != self._paint_serial[side]:
            return  # another key moved this side on before the read began
        try:
            sample: dict | str = samples.sample(position)
        except (LeashError, OSError, pa.ArrowException) as exc:  # the shard changed meanwhile
            sample = f"(sample {position + 1:,} could not be read: {exc})"
        self.app.call_from_thread(self._sample_read, side, serial, position, sample)

    def _sample_read(self, side: str, serial: int, position: int, sample: dict | str) -> None:
        if serial != self._paint_serial[side] or not self.is_attached or self.detail is None:
            return
        if isinstance(sample, str):
            self._locating.discard(side)
            self._showing[side] = (serial, position)
            self.query_one(f"#view-{side}", CompletionView).show(display_text(sample))
            return
        self._show_sample(side, serial, position, sample)

    def _say_reading(self, side: str, serial: int, position: int) -> None:
        """A read that takes a while says so, rather than leaving the last text in view."""
        if serial == self._paint_serial[side] and self.is_attached and side in self._locating:
            view = self.query_one(f"#view-{side}", CompletionView)
            if self._showing.get(side) != (serial, position):
                view.show(display_text(f"(reading sample {position + 1:,}…)"))

    def _show_sample(self, side: str, serial: int, position: int, sample: dict) -> None:
        """Paint a sample's text, title and verdict on its side."""
        detail = self.detail
        assert detail is not None
        samples = detail.sides[side]
        view = self.query_one(f"#view-{side}", CompletionView)
        self._showing[side] = (serial, position)
        shown = display_text(sample["text"] or "")
        if sample["verdict_detail"]:  # the failing test of code, a verifier's reason
            shown += display_text(f"\n\n── verdict: {sample['verdict_detail']}")
        answer = sample["answer"]
        key = (detail.row.index, side, position)
        if sample["status"] == STATUS_NO_ANSWER:
            # where the answer should be: the completion's last lines, and what found nothing
            # (a false reject must not look like a real loss)
            note = display_text(f"\n\n── {no_answer_note(self.model, detail.row, side, sample)}")
            span = (len(shown) + 2, len(shown) + len(note))
            shown += note
            self._locating.discard(side)
            view.show(shown, span)
            view.scroll_to_highlight()
        elif key in self._spans:
            self._locating.discard(side)
            view.show(shown, self._spans[key])
            view.scroll_to_highlight()
        else:
            view.show(shown)
            self._locating.add(side)
            self._locate_answer(side, serial, key, shown, answer)
        only = ""
        if self.correct_only:  # never call an incorrect sample "correct"
            has_correct = bool(samples.correct_flags().any())
            only = " · correct only" if has_correct else " · no correct sample: showing all"
        # the position is 1-based for people; the stored sample index is an id, named so
        title = [Text(f"{side}: sample {position + 1:,} of {len(samples):,}")]
        title.append(Text(f"id {sample['sample']}"))
        if only:
            title.append(Text(only.removeprefix(" · ")))
        status = sample["status"] or "unverified"
        subtitle = [Text(status.replace("_", " "), style=STATUS_STYLES.get(status, "italic"))]
        # the answer as the model wrote it, its normal form (what was compared) beside
        written = sample.get("answer_written") or answer
        subtitle.append(Text(f"answer {one_line(written, 24) if written is not None else '–'}"))
        if answer is not None and written != answer:
            subtitle.append(Text(f"normal form {one_line(answer, 16)}"))
        if sample.get("answer_rule"):  # which extraction rule found it
            subtitle.append(Text(f"by {one_line(sample['answer_rule'], 20)}"))
        if sample["score"] is not None:  # a puzzle's partial score (Reasoning Gym)
            subtitle.append(Text(f"score {sample['score']:.3g}"))
        if sample["finish_reason"]:
            subtitle.append(Text(one_line(sample["finish_reason"], 12)))
        if sample["n_tokens"] is not None:
            subtitle.append(Text(f"{sample['n_tokens']:,} tok"))
        self._border_parts[side] = (title, subtitle)
        self._fit_borders(side)

    def _fit_borders(self, side: str) -> None:
        """The completion's border title and subtitle, whole parts that fit its width."""
        parts = self._border_parts.get(side)
        if parts is None:
            return
        view = self.query_one(f"#view-{side}", CompletionView)
        width = (view.size.width or self.size.width // 2) - BORDER_CELLS
        view.border_title = fit_parts(parts[0], width)
        view.border_subtitle = fit_parts(parts[1], width)

    @property
    def answers_pending(self) -> bool:
        """Whether a side's text is still being read or its answer span located (tests
        wait on it)."""
        return bool(self._locating)

    @work(thread=True, group="answer-span")
    def _locate_answer(
        self, side: str, serial: int, key: tuple[int, str, int], shown: str, answer: str | None
    ) -> None:
        """Find the answer span off the event loop, then highlight it if still on view."""
        span = answer_span(shown, visible(answer) if answer else None)
        self.app.call_from_thread(self._answer_located, side, serial, key, span)

    def _answer_located(
        self, side: str, serial: int, key: tuple[int, str, int], span: tuple[int, int] | None
    ) -> None:
        if len(self._spans) > 4096:
            self._spans.clear()
        self._spans[key] = span
        if serial != self._paint_serial[side] or not self.is_attached:
            return  # the side shows another sample by now
        self._locating.discard(side)
        view = self.query_one(f"#view-{side}", CompletionView)
        view.set_highlight(span)
        view.scroll_to_highlight()

    def _fit_problem_box(self) -> None:
        """A short terminal gives the completions the room: the problem box is smaller."""
        self.query_one("#problem-box").styles.max_height = 8 if self.size.height >= 40 else 6

    def _histogram_rows(self) -> int:
        return 5 if self.size.height >= 40 else 3

    def after_triage(self) -> None:
        if self.row is not None:
            self._show_problem(self.row)

    # -- sample navigation -------------------------------------------------------------------
    def _focused_side(self) -> str:
        focused = self.focused
        return "target" if focused is not None and focused.id == "view-target" else "base"

    def _candidates(self, side: str) -> np.ndarray:
        samples = self.detail.sides[side]  # type: ignore[union-attr]
        if self.correct_only:
            return np.flatnonzero(samples.correct_flags())
        return np.arange(len(samples))

    def _step(self, side: str, delta: int, want: np.ndarray) -> bool:
        """Move ``side`` to the next (``delta`` > 0) or previous position in ``want``."""
        if want.size == 0:
            return False
        current = self.positions[side]
        after = want[want > current] if delta > 0 else want[want < current][::-1]
        self.positions[side] = int(after[0] if after.size else (want[0] if delta > 0 else want[-1]))
        self._paint_side(side)
        return True

    def action_sample(self, delta: int) -> None:
        if self.detail is None:
            return
        side = self._focused_side()
        if not self._step(side, delta, self._candidates(side)):
            self.app.notify(f"no correct samples on the {side} side", markup=False, timeout=2)

    def action_jump(self, kind: str) -> None:
        if self.detail is None:
            return
        side = self._focused_side()
        flags = self.detail.sides[side].correct_flags()
        want = np.flatnonzero(flags if kind == "correct" else ~flags)
        if not self._step(side, 1, want):
            self.app.notify(f"no {kind} samples on the {side} side", markup=False, timeout=2)

    def _snap_to_correct(self) -> None:
        for side in SIDES:
            flags = self.detail.sides[side].correct_flags()  # type: ignore[union-attr]
            if flags.size and not flags[self.positions[side]] and flags.any():
                self.positions[side] = int(np.flatnonzero(flags)[0])

    def action_toggle_correct_only(self) -> None:
        self.correct_only = not self.correct_only
        if self.detail is not None:
            self._snap_to_correct()
            for side in SIDES:
                self._paint_side(side)
        self.app.notify(
            "correct samples only" if self.correct_only else "all samples", markup=False, timeout=2
        )

    def action_switch_side(self) -> None:
        """Tab: base, target, then the problem when it is longer than its box."""
        focused = self.focused
        box = self.query_one(ProblemBox)
        if focused is not None and focused.id == "view-base":
            self.query_one("#view-target", CompletionView).focus()
        elif focused is not None and focused.id == "view-target" and box.max_scroll_y > 0:
            box.focus()
        else:
            self.query_one("#view-base", CompletionView).focus()

    # -- questions -----------------------------------------------------------------------------
    def action_question(self, delta: int) -> None:
        # from where this question sits now: tags set meanwhile may have re-sorted the list
        row = self.row
        here = self.model.position_of(row.benchmark, row.question_id) if row else None
        target = (self.position if here is None else here) + delta
        if 0 <= target < len(self.model):
            self.load(target)

    def action_back(self) -> None:
        row = self.row
        self.dismiss((row.benchmark, row.question_id) if row is not None else None)

    def action_budget(self) -> None:
        from leash_tui.explorer.screens.budget_screen import BudgetScreen

        if self.row is not None:
            self.app.push_screen(
                BudgetScreen(self.model, frozenset({self.row.benchmark}), self.row.benchmark)
            )
