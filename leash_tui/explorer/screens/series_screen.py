"""The series plot: NSCR, SRR and NDR against the training step of the selected target's run.

For a target named ``NAME@STEP`` (a checkpoint of a training run; the base is step 0),
the rates of the benchmark(s) in view at every step, as ``leash report``'s series table
(the paper's Table 4), drawn with textual-plotext. Each rate has its own marker, named
in the legend, so they differ without colour.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static
from textual_plotext import PlotextPlot

from leash_tui.explorer.model.explorer_model import ExplorerModel
from leash_tui.explorer.screens.budget_screen import PlotScreen
from leash_tui.explorer.styles import PLOT_RATES
from leash_tui.safe_text import one_line


class SeriesScreen(PlotScreen):
    """One plot: the support rates against the training step."""

    PLOTS = ("series-plot",)
    BINDINGS: ClassVar[list[BindingType]] = [Binding("P", "app.pop_screen", "back", show=False)]

    def __init__(self, model: ExplorerModel, benchmarks: frozenset[str] | None, label: str):
        super().__init__(model, benchmarks, label)
        self.rows = model.series_rates(benchmarks)

    def on_mount(self) -> None:
        run = self.model.series()
        name = one_line(run.name if run else "", 30)
        label = one_line(self.label, 40)
        steps = [float(r["step"]) for r in self.rows]
        self.query_one("#plot-note", Static).update(
            Text(
                f"{label}: series {name}, {len(steps)} steps (the base is step 0); "
                "rates undefined at a step are left out · esc back"
            )
        )
        plt = self.query_one("#series-plot", PlotextPlot).plt
        plt.title(f"NSCR, SRR and NDR against the training step · {label}")
        plt.xlabel("training step")
        for rate, color, marker in PLOT_RATES:
            points = [
                (s, r[rate]) for s, r in zip(steps, self.rows, strict=True) if r[rate] is not None
            ]
            if points:
                xs, ys = zip(*points, strict=True)
                plt.plot(list(xs), list(ys), label=rate, color=color, marker=marker)
        plt.ylim(-1, 1)
        if steps:
            plt.xticks(steps, [f"{int(s):,}" for s in steps])
        self.sub_title = f"{one_line(self.model.base, 30)} → series {name}"
