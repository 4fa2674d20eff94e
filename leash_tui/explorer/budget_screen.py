"""The budget view: pass@k of both models and the expected P/E/S/O against k (log scale).

Computed by ``analysis.budget_curves.budget_curve`` for the benchmark(s) in view and drawn
with textual-plotext: the top plot shows pass@k, the bottom one the expected
number of questions per category at each budget k = 1, 2, 4, ... up to the
comparison budget.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Header, Static
from textual_plotext import PlotextPlot

from leash_tui.explorer.explorer_model import ExplorerModel
from leash_tui.safe_text import one_line


class BudgetScreen(Screen[None]):
    """Two plots against the sampling budget k."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace,p", "app.pop_screen", "back")
    ]
    DEFAULT_CSS = """
    BudgetScreen PlotextPlot { height: 1fr; }
    BudgetScreen #budget-note { height: auto; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, model: ExplorerModel, benchmarks: frozenset[str] | None, label: str):
        super().__init__()
        self.model = model
        self.benchmarks = benchmarks
        self.label = label

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="budget-note", markup=False)
        yield PlotextPlot(id="passk-plot")
        yield PlotextPlot(id="categories-plot")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        curve = self.model.budget(self.benchmarks)
        ks = [float(k) for k in curve.column("k").to_pylist()]
        label = one_line(self.label, 40)
        base, target = one_line(self.model.base, 30), one_line(self.model.target, 30)
        self.query_one("#budget-note", Static).update(
            Text(
                f"{label}: {len(ks)} budgets from k=1 to k={int(ks[-1]) if ks else 0}; "
                f"expected counts (support-dynamics.md) · esc back"
            )
        )
        top = self.query_one("#passk-plot", PlotextPlot).plt
        top.title(f"pass@k · {label}")
        top.xscale("log")
        top.plot(ks, curve.column("passk_base").to_pylist(), label=base, marker="braille")
        top.plot(ks, curve.column("passk_target").to_pylist(), label=target, marker="braille")
        top.ylim(0, 1)
        bottom = self.query_one("#categories-plot", PlotextPlot).plt
        bottom.title("expected P / E / S / O")
        bottom.xscale("log")
        bottom.xlabel("k (samples per question)")
        for name, color in (("P", "blue"), ("E", "green"), ("S", "red"), ("O", "gray")):
            bottom.plot(
                ks, curve.column(name).to_pylist(), label=name, color=color, marker="braille"
            )
        self.sub_title = f"{base} vs {target}"
