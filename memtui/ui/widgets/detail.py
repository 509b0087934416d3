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
from textual.message import Message
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
        "detail--current-match",
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
    EntryView > .detail--current-match {
        color: $match-background; background: $match-foreground; text-style: bold underline;
    }
    EntryView > .detail--muted { color: $muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "scroll_down", "Scroll down", show=False, id="detail.down"),
        Binding("up,k", "scroll_up", "Scroll up", show=False, id="detail.up"),
        Binding("n", "next_match", "Next match", show=False, id="detail.next_match"),
        Binding("N", "previous_match", "Previous match", show=False, id="detail.previous_match"),
    ]

    class MatchMoved(Message):
        """The current match changed: `current` (1-based, 0 = none) of `total` shown, and how
        many more matches lie past the rendering cap (`beyond`; `e` opens the file there)."""

        def __init__(self, current: int, total: int, beyond: int) -> None:
            super().__init__()
            self.current = current
            self.total = total
            self.beyond = beyond

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._source = ""
        self._pattern: re.Pattern[str] | None = None
        self._logical: list[markdown.Block] = []
        self._lines: list[Text] = []
        self._matches: list[tuple[int, int, int]] = []
        """Every match as (wrapped line, start, end), in reading order."""
        self.current_match: int | None = None
        """Index into `_matches` of the match `n`/`N` moved to (None: no match)."""
        self._wrapped_width = -1
        self.match_count = 0
        self.matches_beyond = 0
        """Matches in the part of the text past the rendering cap."""
        self.truncated_lines = 0
        self._style_key: tuple[Style, ...] = ()
        self._strips: dict[tuple[int, int, tuple[int, int] | None], Strip] = {}

    # --- content ------------------------------------------------------------------------------

    def show(self, text: str, pattern: re.Pattern[str] | None) -> None:
        """Render `text` (already secret-masked by the caller) and scroll to the first match."""
        self._source = text
        self._pattern = pattern
        self._logical = self._build(text, pattern)
        self._wrapped_width = -1
        self._rewrap()
        self._go_to_match(0 if self._matches else None)

    def clear(self) -> None:
        self.show("", None)

    @property
    def first_match_line(self) -> int | None:
        return self._matches[0][0] if self._matches else None

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
        self.matches_beyond = 0
        if self.truncated_lines and pattern is not None:
            shown = sum(1 for match in pattern.finditer(text) if match.end() > match.start())
            self.matches_beyond = max(0, shown - self.match_count)
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
        self._matches = []
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
                if self._pattern is not None:
                    self._matches += [
                        (len(wrapped), span.start, span.end)
                        for span in piece.spans
                        if span.style == match_style
                    ]
                wrapped.append(piece)
        self._lines = wrapped
        self._strips.clear()
        set_virtual_size(self, Size(width, len(wrapped)))
        if self.current_match is not None and self._matches:
            self.current_match = min(self.current_match, len(self._matches) - 1)

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
        key = (
            self.rich_style,
            *(self._style(name) for name in sorted(self.COMPONENT_CLASSES)),
            *markdown.syntax_styles(self.app.theme_variables).values(),
        )
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
        current = self._current_span(index)
        strip = self._strips.get((index, width, current))
        if strip is None:
            line = self._lines[index]
            if current is not None:
                line = line.copy()
                line.stylize(self._style("detail--current-match"), *current)
            segments = list(line.render(self.app.console, end=""))
            strip = Strip(segments).apply_style(base).crop_extend(0, width, base).simplify()
            if len(self._strips) > 2000:
                self._strips.clear()
            self._strips[(index, width, current)] = strip
        return strip

    def _current_span(self, line: int) -> tuple[int, int] | None:
        if self.current_match is None:
            return None
        at, start, end = self._matches[self.current_match]
        return (start, end) if at == line else None

    def action_next_match(self) -> None:
        """`n`: the next match, wrapping to the first after the last (like less)."""
        self._step_match(1)

    def action_previous_match(self) -> None:
        """`N`: the previous match, wrapping to the last before the first."""
        self._step_match(-1)

    def _step_match(self, step: int) -> None:
        if not self._matches:
            self.app.bell()
            return
        current = -1 if self.current_match is None and step > 0 else self.current_match or 0
        self._go_to_match((current + step) % len(self._matches))

    def _go_to_match(self, index: int | None) -> None:
        """Make match `index` current, scroll it into view (two lines of context above) and
        say `k/N`. The index, not the scroll position, is the state, so a press always moves,
        even at the end of the text where the view cannot scroll any further."""
        self.current_match = index
        line = self._matches[index][0] if index is not None else 0
        self.scroll_to(y=max(0, line - 2), animate=False)
        self.refresh()
        self.post_message(
            self.MatchMoved(
                0 if index is None else index + 1, len(self._matches), self.matches_beyond
            )
        )

    def plain_lines(self) -> list[str]:
        """Every wrapped line as plain text (tests read what the user sees)."""
        return [line.plain for line in self._lines]
