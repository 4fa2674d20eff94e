"""WCAG contrast of what the explorer draws: every visible character against its background,
after the app's own filters (NO_COLOR's monochrome conversion included)."""

from __future__ import annotations

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.terminal_theme import DEFAULT_TERMINAL_THEME

#: WCAG 2 AA minimum for normal text.
MIN_CONTRAST = 4.5


def _rgb(color: RichColor | None, fallback: tuple[int, int, int]) -> tuple[int, int, int]:
    if color is None or color.is_default:
        return fallback
    triplet = color.get_truecolor(DEFAULT_TERMINAL_THEME)
    return (triplet.red, triplet.green, triplet.blue)


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: tuple[int, int, int], bg: tuple[int, int, int]) -> float:
    a, b = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def _graphic(text: str) -> bool:
    """Box-drawing lines and block elements (borders, scrollbars, bars): not text."""
    return all(
        0x2500 <= ord(ch) <= 0x259F or 0x2800 <= ord(ch) <= 0x28FF or ch == " " for ch in text
    )


def low_contrast(
    app, minimum: float = MIN_CONTRAST, graphics: float = 3.0
) -> list[tuple[str, float]]:
    """(text, ratio) of each run drawn under ``minimum`` on the active screen (``graphics``
    for the bars of a histogram; borders and scrollbars are not checked)."""
    background = app.screen.styles.background
    bad = []
    for strip in app.screen._compositor.render_strips():
        segments: list[Segment] = list(strip)
        for line_filter in app.get_line_filters():
            segments = line_filter.apply(segments, background)
        for text, style, control in segments:
            if control or style is None or not text.strip():
                continue
            fg = _rgb(style.color, (255, 255, 255))
            bg = _rgb(style.bgcolor, (0, 0, 0))
            if style.reverse:
                fg, bg = bg, fg
            if style.dim:  # terminals draw dim text halfway to the background
                fg = tuple((f + b) // 2 for f, b in zip(fg, bg, strict=True))  # type: ignore[assignment]
            ratio = contrast(fg, bg)
            if _graphic(text):
                if text.strip("─│╭╮╯╰┌┐└┘▁▏▕▔▉▄▀ ") and ratio < graphics:
                    bad.append((text.strip(), round(ratio, 2)))
            elif ratio < minimum:
                bad.append((text.strip(), round(ratio, 2)))
    return bad
