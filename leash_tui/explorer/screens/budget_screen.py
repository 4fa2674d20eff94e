"""The budget view: pass@k of both models and the expected P/E/S/O against k (log scale).

Computed by ``analysis.budget_curves.budget_curve`` for the benchmark(s) in view and drawn
with textual-plotext: the top plot shows pass@k, the bottom one the expected
number of questions per category at each budget k = 1, 2, 4, ... up to the
comparison budget. The k axis is labelled at those budgets (powers of two, not
plotext's 1.0 2.4 5.7), and each series has its own marker, named in the legend, so
the series differ without colour. pass@k keeps its ticks 0.00, 0.50 and 1.00 at every size:
below 34 rows the two plots stand side by side rather than one above the other.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.screen import Screen
from textual.widgets import Footer, Header, Static
from textual_plotext import PlotextPlot

from leash_tui.explorer.model.explorer_model import ExplorerModel
from leash_tui.explorer.styles import PLOT_CATEGORIES, PLOT_MODELS
from leash_tui.safe_text import one_line


def power_of_two_ticks(plt, ks: list[float], most: int = 8) -> None:
    """Label the log-scale k axis at the budgets themselves (1, 2, 4, ... : powers of two),
    every other one when there are more than ``most``."""
    if not ks:
        return
    step = 1
    while len(ks[::step]) > most:
        step *= 2
    chosen = ks[::step]
    if chosen[-1] != ks[-1]:
        chosen.append(ks[-1])
    plt.xticks(chosen, [f"{int(k):,}" for k in chosen])


class PlotScreen(Screen[None]):
    """A screen of plots for the benchmark(s) in view: a note line, then ``PLOTS`` (ids)
    sharing the height; escape, backspace or the key that opened it goes back."""

    PLOTS: ClassVar[tuple[str, ...]] = ()
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,backspace", "app.pop_screen", "back")]
    DEFAULT_CSS = """
    PlotScreen PlotextPlot { height: 1fr; }
    PlotScreen #plot-note { height: auto; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, model: ExplorerModel, benchmarks: frozenset[str] | None, label: str):
        super().__init__()
        self.model = model
        self.benchmarks = benchmarks
        self.label = label

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="plot-note", markup=False)
        for plot_id in self.PLOTS:
            yield PlotextPlot(id=plot_id)
        yield Footer(compact=True)


#: Below this terminal height the two budget plots stand side by side: one above the
#: other, at 24 rows, pass@k had 3 rows and lost its 0.50 tick.
SIDE_BY_SIDE_BELOW = 34
#: pass@k's y ticks, kept at every size.
PASSK_TICKS = (0.0, 0.5, 1.0)


class BudgetScreen(PlotScreen):
    """Two plots against the sampling budget k: one above the other on a tall terminal,
    side by side on a short one (each keeps rows enough for its ticks)."""

    PLOTS = ("passk-plot", "categories-plot")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("p", "app.pop_screen", "back", show=False)]
    DEFAULT_CSS = """
    BudgetScreen #plots { height: 1fr; layout: vertical; }
    BudgetScreen.-side-by-side #plots { layout: horizontal; }
    """

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="plot-note", markup=False)
        with Container(id="plots"):
            for plot_id in self.PLOTS:
                yield PlotextPlot(id=plot_id)
        yield Footer(compact=True)

    def on_resize(self) -> None:
        self.set_class(self.size.height < SIDE_BY_SIDE_BELOW, "-side-by-side")

    def on_mount(self) -> None:
        self.on_resize()
        curve = self.model.budget(self.benchmarks)
        ks = [float(k) for k in curve.column("k").to_pylist()]
        label = one_line(self.label, 40)
        base, target = one_line(self.model.base, 30), one_line(self.model.target, 30)
        self.query_one("#plot-note", Static).update(
            Text(
                f"{label}: {len(ks)} budgets from k=1 to k={int(ks[-1]) if ks else 0}; "
                f"expected counts (support-dynamics.md) · esc back"
            )
        )
        top = self.query_one("#passk-plot", PlotextPlot).plt
        top.title(f"pass@k · {label}")
        top.xscale("log")
        for (side, color, marker), name in zip(PLOT_MODELS, (base, target), strict=True):
            values = curve.column(f"passk_{side}").to_pylist()
            top.plot(ks, values, label=name, color=color, marker=marker)
        top.ylim(0, 1)
        top.yticks(list(PASSK_TICKS), [f"{t:.2f}" for t in PASSK_TICKS])
        power_of_two_ticks(top, ks)
        bottom = self.query_one("#categories-plot", PlotextPlot).plt
        bottom.title("expected P / E / S / O")
        bottom.xscale("log")
        bottom.xlabel("k (samples per question)")
        for name, color, marker in PLOT_CATEGORIES:
            bottom.plot(
                ks,
                curve.column(name).to_pylist(),
                label=name,
                color=color,
                marker=marker,
            )
        power_of_two_ticks(bottom, ks)
        self.sub_title = self.model.pair_title
