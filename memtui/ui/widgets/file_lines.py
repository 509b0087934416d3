"""A whole memory file, read-only, with line numbers: the entry's lines marked, matches lit.

A Line API view like the results list: only the lines on screen are styled and rendered, so a
file of 100,000 lines opens as fast as one of ten. Lines are shown in visible form (controls
and escapes as `␛`…, never markup), tabs expanded, each cut at MAX_LINE_CHARS; long lines
scroll sideways while the line numbers stay put. The entry's lines carry a `▌` beside their
number (readable without colour) and a tinted background.
"""

from __future__ import annotations

import re
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from memtui.core.sanitize import visible
from memtui.ui.render import highlight
from memtui.ui.widgets.lines import set_virtual_size

MAX_LINE_CHARS = 2000
"""Characters of one line shown; the rest is summarised (one 4 MB line cannot stall a paint)."""
ENTRY_MARK = "▌"


def display_line(line: str) -> str:
    """One file line as shown: visible, tabs expanded, capped."""
    shown = visible(line[: MAX_LINE_CHARS + 1]).replace("\t", "    ")
    if len(line) > MAX_LINE_CHARS:
        return f"{shown[:MAX_LINE_CHARS]}… [{len(line) - MAX_LINE_CHARS:,} more chars]"
    return shown


class FileLines(ScrollView, can_focus=True):
    """Numbered lines of one file; `show` replaces them and scrolls to the entry."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "file-lines--number",
        "file-lines--entry",
        "file-lines--entry-number",
        "file-lines--match",
    }
    DEFAULT_CSS = """
    FileLines { background: $surface; }
    FileLines > .file-lines--number { color: $muted; }
    FileLines > .file-lines--entry { background: $boost; }
    FileLines > .file-lines--entry-number { color: $text-accent; text-style: bold; }
    FileLines > .file-lines--match {
        color: $match-foreground; background: $match-background; text-style: bold;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll_down", "Down", show=False, id="file.down"),
        Binding("k", "scroll_up", "Up", show=False, id="file.up"),
        Binding("g", "scroll_home", "Top", show=False, id="file.top"),
        Binding("G", "scroll_end", "Bottom", show=False, id="file.bottom"),
        Binding("h", "scroll_left", "Left", show=False, id="file.left"),
        Binding("l", "scroll_right", "Right", show=False, id="file.right"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []
        self.entry_lines = (0, -1)
        """1-based inclusive range of the entry's lines."""
        self._pattern: re.Pattern[str] | None = None
        self._number_width = 1
        self._strips: dict[tuple[int, int, int], Strip] = {}

    def show(
        self,
        lines: list[str],
        entry_lines: tuple[int, int],
        pattern: re.Pattern[str] | None,
        widest: int,
    ) -> None:
        """Show `lines` (`widest`: the longest shown line, in cells) and scroll to the entry."""
        self.lines = lines
        self.entry_lines = entry_lines
        self._pattern = pattern
        self._number_width = len(str(max(1, len(lines))))
        self._strips.clear()
        set_virtual_size(self, Size(self._gutter_cells() + widest, len(lines)))
        self.call_after_refresh(self.scroll_to_entry)

    def scroll_to_entry(self) -> None:
        """The entry's first line near the top, with a little of what comes before it."""
        self.scroll_to(x=0, y=max(0, self.entry_lines[0] - 4), animate=False, immediate=True)

    def _gutter_cells(self) -> int:
        return self._number_width + 3

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name, partial=True)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def render_line(self, y: int) -> Strip:
        index = int(self.scroll_y) + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if not 0 <= index < len(self.lines):
            return Strip.blank(width, base)
        key = (index, width, int(self.scroll_x))
        strip = self._strips.get(key)
        if strip is None:
            strip = self._line_strip(index, width).apply_style(base).simplify()
            if len(self._strips) > 2000:
                self._strips.clear()
            self._strips[key] = strip
        return strip

    def _line_strip(self, index: int, width: int) -> Strip:
        number = index + 1
        first, last = self.entry_lines
        in_entry = first <= number <= last
        gutter_style = self._style("file-lines--entry-number" if in_entry else "file-lines--number")
        gutter = [
            Segment(f"{number:>{self._number_width}} ", gutter_style),
            Segment(f"{ENTRY_MARK if in_entry else ' '} ", gutter_style),
        ]
        text = Text(display_line(self.lines[index]), no_wrap=True, end="")
        highlight(text, self._pattern, self._style("file-lines--match"))
        room = max(0, width - self._gutter_cells())
        body = Strip(list(text.render(self.app.console, end=""))).crop_extend(
            int(self.scroll_x), int(self.scroll_x) + room, None
        )
        if in_entry:
            body = body.apply_style(self._style("file-lines--entry"))
        return Strip([*gutter, *body])

    def plain_lines(self) -> list[str]:
        """The lines on screen as plain text (tests read what the user sees)."""
        height = self.scrollable_content_region.height
        return [
            self.render_line(y).text.rstrip()
            for y in range(height)
            if int(self.scroll_y) + y < len(self.lines)
        ]
