"""The full entry, rendered as Markdown with the query's matches highlighted.

Why not Textual's `Markdown` widget: it opens links on click, builds one widget per block (slow
for multi-megabyte entries) and cannot highlight arbitrary tokens. `memtui.ui.markdown` turns
the entry into blocks — headings, lists, quotes, tables, highlighted code, inline code and
emphasis, links as plain text (`label ‹url›`, nothing clickable) — which this view wraps for
its width; it caps what it renders and paints only visible lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from memtui.core.sanitize import cap_lines, visible
from memtui.ui import markdown
from memtui.ui.widgets.lines import set_virtual_size

MAX_RENDERED_LINES = 800
MAX_LINE_CHARS = 2000


class EntryView(ScrollView, can_focus=True):
    """Scrollable entry text; `show()` replaces it, `first_match_line` is where it scrolls."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "detail--heading",
        "detail--code",
        "detail--quote",
        "detail--bullet",
        "detail--link",
        "detail--match",
        "detail--muted",
    }
    DEFAULT_CSS = """
    EntryView { background: $surface; padding: 0 1; }
    EntryView > .detail--heading { color: $text-primary; text-style: bold; }
    EntryView > .detail--code { color: $text-secondary; background: $panel; }
    EntryView > .detail--quote { color: $muted; text-style: italic; }
    EntryView > .detail--bullet { color: $text-accent; }
    EntryView > .detail--link { color: $text-primary; text-style: underline; }
    EntryView > .detail--match {
        color: $match-foreground; background: $match-background; text-style: bold;
    }
    EntryView > .detail--muted { color: $muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "scroll_down", "Scroll down", show=False, id="detail.down"),
        Binding("up,k", "scroll_up", "Scroll up", show=False, id="detail.up"),
        Binding("n", "next_match", "Next match", show=False, id="detail.next_match"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._source = ""
        self._pattern: re.Pattern[str] | None = None
        self._logical: list[markdown.Block] = []
        self._lines: list[Text] = []
        self._match_lines: list[int] = []
        self._wrapped_width = -1
        self.match_count = 0
        self.truncated_lines = 0
        self._style_key: tuple[Style, ...] = ()
        self._strips: dict[tuple[int, int], Strip] = {}

    # --- content ------------------------------------------------------------------------------

    def show(self, text: str, pattern: re.Pattern[str] | None) -> None:
        """Render `text` (already secret-masked by the caller) and scroll to the first match."""
        self._source = text
        self._pattern = pattern
        self._logical = self._build(text, pattern)
        self._wrapped_width = -1
        self._rewrap()
        first = self._match_lines[0] if self._match_lines else 0
        self.scroll_to(y=max(0, first - 2), animate=False)
        self.refresh()

    def clear(self) -> None:
        self.show("", None)

    @property
    def first_match_line(self) -> int | None:
        return self._match_lines[0] if self._match_lines else None

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name, partial=True)

    def _build(self, text: str, pattern: re.Pattern[str] | None) -> list[markdown.Block]:
        lines = cap_lines(visible(text), MAX_LINE_CHARS).split("\n")
        self.truncated_lines = max(0, len(lines) - MAX_RENDERED_LINES)
        lines = lines[:MAX_RENDERED_LINES]
        styles = markdown.MarkdownStyles(
            heading=self._style("detail--heading"),
            code=self._style("detail--code"),
            quote=self._style("detail--quote"),
            bullet=self._style("detail--bullet"),
            link=self._style("detail--link"),
            muted=self._style("detail--muted"),
            match=self._style("detail--match"),
            syntax=markdown.syntax_styles(self.app.theme_variables),
        )
        out, self.match_count = markdown.blocks(lines, styles, pattern)
        if self.truncated_lines:
            out.append(
                Text(
                    f"… {self.truncated_lines:,} more lines not shown (press e to open the file)",
                    style=self._style("detail--muted"),
                )
            )
        return out

    # --- layout and painting ------------------------------------------------------------------

    def _rewrap(self) -> None:
        width = max(10, self.scrollable_content_region.width)
        if width == self._wrapped_width:
            return
        self._wrapped_width = width
        console = self.app.console
        wrapped: list[Text] = []
        self._match_lines = []
        match_style = self._style("detail--match")
        for logical in self._logical:
            pieces: Iterable[Text]
            if not isinstance(logical, Text):
                pieces = logical.lines(width, console)  # tables, list items, code: laid out
            elif len(logical.plain) <= width and cell_len(logical.plain) <= width:
                pieces = (logical,)  # the common case: no wrapping needed
            else:
                pieces = logical.wrap(console, width, overflow="fold")
            for piece in pieces:
                if self._pattern is not None and any(
                    span.style == match_style for span in piece.spans
                ):
                    self._match_lines.append(len(wrapped))
                wrapped.append(piece)
        self._lines = wrapped
        self._strips.clear()
        set_virtual_size(self, Size(width, len(wrapped)))

    def on_resize(self) -> None:
        if self._logical:
            self._rewrap()
            self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if self._source:
            self.call_later(self._restyle)

    def _restyle(self) -> None:
        """Rebuild with the new theme's colours (component styles are read at build time)."""
        key = (self.rich_style, *(self._style(name) for name in sorted(self.COMPONENT_CLASSES)),
               *markdown.syntax_styles(self.app.theme_variables).values())
        if key == self._style_key:
            return
        self._style_key = key
        self._logical = self._build(self._source, self._pattern)
        self._wrapped_width = -1
        self._rewrap()
        self.refresh()

    def render_line(self, y: int) -> Strip:
        index = int(self.scroll_y) + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if not 0 <= index < len(self._lines):
            return Strip.blank(width, base)
        strip = self._strips.get((index, width))
        if strip is None:
            segments = list(self._lines[index].render(self.app.console, end=""))
            strip = Strip(segments).apply_style(base).crop_extend(0, width, base).simplify()
            if len(self._strips) > 2000:
                self._strips.clear()
            self._strips[(index, width)] = strip
        return strip

    def action_next_match(self) -> None:
        top = int(self.scroll_y) + 2
        later = [line for line in self._match_lines if line > top]
        target = later[0] if later else (self._match_lines[0] if self._match_lines else 0)
        self.scroll_to(y=max(0, target - 2), animate=False)

    def plain_lines(self) -> list[str]:
        """Every wrapped line as plain text (tests read what the user sees)."""
        return [line.plain for line in self._lines]
