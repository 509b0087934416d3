"""The full entry, rendered as conservative Markdown with the query's matches highlighted.

Why not Textual's `Markdown` widget: it opens links on click, builds one widget per block (slow
for multi-megabyte entries) and cannot highlight arbitrary tokens. This view styles headings,
lists, quotes, code fences, inline code, bold and italics line by line, shows links as plain
text (`label ‹url›`, nothing clickable), caps what it renders, and paints only visible lines.
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
from memtui.ui.render import highlight
from memtui.ui.widgets.lines import set_virtual_size

MAX_RENDERED_LINES = 800
MAX_LINE_CHARS = 2000
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_BULLET = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])\s+")
_QUOTE = re.compile(r"^\s{0,3}>\s?")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_INLINE = re.compile(
    r"(?P<code>`[^`\n]+`)"
    r"|(?P<bold>\*\*[^*\n]+\*\*|__[^_\n]+__)"
    r"|(?P<italic>(?<![\w*])\*[^*\n]+\*(?!\*)|(?<![\w_])_[^_\n]+_(?![\w_]))"
    r"|(?P<link>!?\[[^\]\n]*\]\((?:[^()\s]|\([^()\s]*\))*\))"
)
_LINK_PARTS = re.compile(r"!?\[([^\]\n]*)\]\(((?:[^()\s]|\([^()\s]*\))*)\)")


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
        self._logical: list[Text] = []
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

    def _build(self, text: str, pattern: re.Pattern[str] | None) -> list[Text]:
        lines = cap_lines(visible(text), MAX_LINE_CHARS).split("\n")
        self.truncated_lines = max(0, len(lines) - MAX_RENDERED_LINES)
        lines = lines[:MAX_RENDERED_LINES]
        out: list[Text] = []
        in_code = False
        self.match_count = 0
        match_style = self._style("detail--match")
        for raw in lines:
            line = raw.replace("\t", "    ")
            if _FENCE.match(line):
                in_code = not in_code
                out.append(Text(line, style=self._style("detail--muted")))
                continue
            if in_code:
                rendered = Text(line, style=self._style("detail--code"))
            else:
                rendered = self._markdown_line(line)
            self.match_count += highlight(rendered, pattern, match_style)
            out.append(rendered)
        if self.truncated_lines:
            out.append(
                Text(
                    f"… {self.truncated_lines:,} more lines not shown (press e to open the file)",
                    style=self._style("detail--muted"),
                )
            )
        return out

    def _markdown_line(self, line: str) -> Text:
        heading = _HEADING.match(line)
        if heading:
            return Text(line.rstrip(), style=self._style("detail--heading"))
        if _RULE.match(line):
            return Text("─" * 40, style=self._style("detail--muted"))
        prefix = Text()
        rest = line
        quote = _QUOTE.match(rest)
        if quote:
            prefix.append("▌ ", self._style("detail--muted"))
            rest = rest[quote.end():]
        bullet = _BULLET.match(rest)
        if bullet:
            marker = bullet.group(2)
            marker = "•" if marker in "-*+" else marker
            prefix.append(bullet.group(1) + marker + " ", self._style("detail--bullet"))
            rest = rest[bullet.end():]
        body = self._inline(rest)
        if quote:
            body.stylize(self._style("detail--quote"))
        return prefix + body

    def _inline(self, line: str) -> Text:
        """Inline code, bold, italics and links; link targets become inert text."""
        text = Text()
        position = 0
        for match in _INLINE.finditer(line):
            text.append(line[position:match.start()])
            kind = match.lastgroup
            token = match.group()
            if kind == "code":
                text.append(token[1:-1], self._style("detail--code"))
            elif kind == "bold":
                text.append(token[2:-2], Style(bold=True))
            elif kind == "italic":
                text.append(token[1:-1], Style(italic=True))
            else:
                parts = _LINK_PARTS.match(token)
                label, target = (parts.group(1), parts.group(2)) if parts else (token, "")
                if token.startswith("!"):
                    text.append("🖼 ", self._style("detail--muted"))
                text.append(label or target, self._style("detail--link"))
                if target and label:
                    text.append(f" ‹{target}›", self._style("detail--muted"))
            position = match.end()
        text.append(line[position:])
        return text

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
            plain = logical.plain
            if len(plain) <= width and cell_len(plain) <= width:
                pieces: Iterable[Text] = (logical,)  # the common case: no wrapping needed
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
        key = (self.rich_style, *(self._style(name) for name in sorted(self.COMPONENT_CLASSES)))
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
