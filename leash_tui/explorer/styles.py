"""The explorer's colours, in one place, chosen to be read without colour too.

Every foreground here keeps a WCAG contrast of at least 4.5:1 on the explorer's
backgrounds (surface, panel, the list's cursor) in the default dark theme and after
NO_COLOR's monochrome conversion (Textual turns each colour into the grey of its
luminance, so a dark red such as ANSI red becomes a dark grey: 1.5:1). Colour is
never the only cue: categories are letters (S bold, E bold, O italic), verdicts
carry ✓/✗ marks, and plot series differ by marker as well as colour.
tests/explorer/test_explorer_contrast.py measures what is drawn.
"""

from __future__ import annotations

from rich.style import Style

from leash_tui.analysis.support_names import NDR, NSCR, SRR

#: Loss (shrunk, incorrect): a light red whose grey is still light.
LOSS = "#ff9e9e"
#: Gain (expanded, correct, gold).
GAIN = "#7ee787"
#: Neither: no answer, timeout.
WARN = "#ffd866"
#: Errors of the verifier.
ERROR = "#e8a6ff"

CATEGORY_STYLES = {
    "S": Style(color=LOSS, bold=True),
    "E": Style(color=GAIN, bold=True),
    "P": Style(),
    "O": Style(italic=True),
}
STATUS_STYLES = {
    "correct": GAIN,
    "incorrect": LOSS,
    "no_answer": WARN,
    "timeout": WARN,
    "error": ERROR,
}
#: Summary pane count columns.
COUNT_STYLES = {"S": f"bold {LOSS}", "E": f"bold {GAIN}"}


def rgb(color: str) -> tuple[int, int, int]:
    """``#rrggbb`` as the (r, g, b) tuple plotext takes."""
    return (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16))


#: Light blue and light grey: the other two series of the budget plot.
PLOT_BLUE = "#8ecbff"
PLOT_GREY = "#d0d0d0"
#: Budget plot series: (label, colour, marker); markers tell them apart without colour.
PLOT_CATEGORIES = (
    ("P", rgb(PLOT_BLUE), "o"),
    ("E", rgb(GAIN), "+"),
    ("S", rgb(LOSS), "x"),
    ("O", rgb(PLOT_GREY), "*"),
)
PLOT_MODELS = (("base", rgb(PLOT_BLUE), "o"), ("target", rgb(WARN), "x"))
#: The series plot's rates: each with its own marker as well as its colour.
PLOT_RATES = ((NSCR, rgb(WARN), "o"), (SRR, rgb(PLOT_BLUE), "x"), (NDR, rgb(GAIN), "+"))
