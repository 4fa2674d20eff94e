"""The series plot: NSCR, SRR and NDR against the training step of the selected target's run.

For a target named ``NAME@STEP`` (a checkpoint of a training run; the base is step 0),
the rates of the benchmark(s) in view at every step, as ``leash report``'s series table
(the paper's Table 4), drawn with textual-plotext. Each rate has its own marker, named
in the legend, so they differ without colour; the y-range is fitted to the values
(SRR 0.929 -> 0.964 is not a flat line at 1.00) and the values are printed above the
plot, one line per rate, so rates drawn over each other are still read.
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


def y_range(rows: list[dict]) -> tuple[float, float]:
    """The plot's y-range: the values' span with a tenth of it (at least 0.02) either side,
    within the rates' own range of -1 to 1; the whole range when no rate is defined."""
    values = [r[rate] for r in rows for rate, _, _ in PLOT_RATES if r[rate] is not None]
    if not values:
        return -1.0, 1.0
    low, high = min(values), max(values)
    pad = max(0.02, (high - low) * 0.1)
    return max(-1.0, low - pad), min(1.0, high + pad)


def value_lines(rows: list[dict]) -> str:
    """``step  0  500  1000`` then one line per rate, the values under their steps."""
    steps = [str(int(r["step"])) for r in rows]
    cells = {
        rate: ["–" if r[rate] is None else f"{r[rate]:.3f}" for r in rows]
        for rate, _, _ in PLOT_RATES
    }
    width = max([len(s) for s in steps] + [len(v) for vs in cells.values() for v in vs] + [1])
    lines = ["step ".ljust(6) + " ".join(s.rjust(width) for s in steps)]
    lines += [f"{rate:<6}" + " ".join(v.rjust(width) for v in vs) for rate, vs in cells.items()]
    return "\n".join(lines)


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
        note = Text(
            f"{label}: series {name}, {len(steps)} steps (the base is step 0); "
            "rates undefined at a step are left out · esc back"
        )
        note.append("\n" + value_lines(self.rows))
        self.query_one("#plot-note", Static).update(note)
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
        plt.ylim(*y_range(self.rows))
        if steps:
            plt.xticks(steps, [str(int(s)) for s in steps])  # steps are ids: no separators
        self.sub_title = f"{one_line(self.model.base, 30)} → series {name}"
