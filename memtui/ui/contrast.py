"""WCAG contrast: the ratio of two colours, and reading it off rendered segments.

The ratio is WCAG 2's `(L1 + 0.05) / (L2 + 0.05)` over relative luminance; AA asks 4.5:1 for
text. `widget_cells` reads what the compositor actually drew (the final foreground and
background of each visible character), so the contrast test and `scripts/measure_contrast.py`
measure the screen, not a table of intended colours.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from rich.cells import get_character_cell_size
from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import TerminalTheme
from textual.color import Color
from textual.widget import Widget

from memtui.ui.textual_private import painted_strips

AA_TEXT = 4.5
"""WCAG AA's minimum contrast for text."""


def _channel(value: int) -> float:
    scaled = value / 255
    return scaled / 12.92 if scaled <= 0.04045 else ((scaled + 0.055) / 1.055) ** 2.4


def luminance(color: Color) -> float:
    """WCAG relative luminance, 0 (black) to 1 (white)."""
    return 0.2126 * _channel(color.r) + 0.7152 * _channel(color.g) + 0.0722 * _channel(color.b)


def contrast_ratio(first: Color, second: Color) -> float:
    """WCAG contrast ratio, 1 (same luminance) to 21 (black on white)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable(foreground: Color, background: Color, minimum: float = AA_TEXT) -> Color:
    """`foreground`, moved towards white or black just enough to reach `minimum` on `background`.

    Keeps the hue where it can (a theme's blue stays bluish); falls back to whichever of black
    and white contrasts more when no blend reaches the minimum.
    """
    if foreground.a < 1:
        foreground = background.blend(foreground.with_alpha(1.0), foreground.a)
    if contrast_ratio(foreground, background) >= minimum:
        return foreground
    white, black = Color(255, 255, 255), Color(0, 0, 0)
    lighter = contrast_ratio(white, background) >= contrast_ratio(black, background)
    target = white if lighter else black
    low, high = 0.0, 1.0
    for _ in range(24):  # bisect the smallest blend that is readable
        middle = (low + high) / 2
        if contrast_ratio(foreground.blend(target, middle), background) >= minimum:
            high = middle
        else:
            low = middle
    return foreground.blend(target, high)


@dataclass(frozen=True)
class Cell:
    """One drawn character with the colours a reader sees (reverse already applied)."""

    x: int
    y: int
    char: str
    foreground: Color
    background: Color
    style: Style

    @property
    def ratio(self) -> float:
        return contrast_ratio(self.foreground, self.background)


def _resolve(color: RichColor | None, default: Color, theme: TerminalTheme) -> Color:
    if color is None or color.is_default:
        return default
    red, green, blue = color.get_truecolor(theme)
    return Color(red, green, blue)


def cells(
    lines: Sequence[Iterable[Segment]],
    *,
    default_foreground: Color,
    default_background: Color,
    theme: TerminalTheme,
) -> Iterator[Cell]:
    """Every character of rendered lines with its effective colours.

    `reverse` swaps the colours and `dim` halves the foreground towards the background, as a
    terminal draws them; default and ANSI colours resolve through `theme`.
    """
    for y, line in enumerate(lines):
        x = 0
        for segment in line:
            if segment.control:
                continue
            style = segment.style or Style()
            foreground = _resolve(style.color, default_foreground, theme)
            background = _resolve(style.bgcolor, default_background, theme)
            if style.reverse:
                foreground, background = background, foreground
            if style.dim:
                foreground = foreground.blend(background, 0.5)
            for char in segment.text:
                yield Cell(x, y, char, foreground, background, style)
                x += get_character_cell_size(char)


def is_text(char: str) -> bool:
    """Letters, digits and punctuation a person reads (bars, boxes and blanks are not text)."""
    if char.isspace():
        return False
    code = ord(char)
    return not (0x2500 <= code <= 0x259F or 0x25A0 <= code <= 0x25FF)


def weakest(found: Iterable[Cell]) -> Cell | None:
    """The text cell with the lowest contrast (None when there is no text)."""
    lowest: Cell | None = None
    for cell in found:
        if is_text(cell.char) and (lowest is None or cell.ratio < lowest.ratio):
            lowest = cell
    return lowest


def widget_cells(widget: Widget) -> list[Cell]:
    """The cells of `widget`'s region as its screen's compositor draws them now."""
    screen = widget.screen
    region = widget.region
    strips = painted_strips(screen)
    lines = [list(strip.crop(region.x, region.right)) for strip in strips[region.y : region.bottom]]
    theme = widget.app.ansi_theme
    return [
        Cell(
            cell.x + region.x,
            cell.y + region.y,
            cell.char,
            cell.foreground,
            cell.background,
            cell.style,
        )
        for cell in cells(
            lines,
            default_foreground=Color(*theme.foreground_color),
            default_background=Color(*theme.background_color),
            theme=theme,
        )
    ]


def line_cells(found: Iterable[Cell], y: int) -> list[Cell]:
    """The cells on screen line `y`."""
    return [cell for cell in found if cell.y == y]


def matching_cells(found: Sequence[Cell], pattern: re.Pattern[str]) -> list[Cell]:
    """The cells of every match of `pattern` in the text of each screen line."""
    picked: list[Cell] = []
    for y in sorted({cell.y for cell in found}):
        row = line_cells(found, y)
        text = "".join(cell.char for cell in row)
        for match in pattern.finditer(text):
            picked += row[match.start() : match.end()]
    return picked
