"""The ranked list: a Line API ScrollView that renders only the rows on screen.

Rendering cost does not grow with the number of hits: `render_line` formats one visible row at
a time from the hit tuple, so 50,000 hits cost the same to paint as 50.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.style import Style
from textual import events, work
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from memtui.core.model import Entry, Hit, Source
from memtui.core.search.ranked_hits import position_of
from memtui.core.settings.config import FACTOR_NAMES
from memtui.ui.key_order import after_results, keys_of, run_own_binding
from memtui.ui.marks import Marks
from memtui.ui.widgets.lines import line_runs, set_virtual_size
from memtui.ui.widgets.result_row import RowCache, RowKey, row_key

STRIP_CACHE_ROWS = 400
"""Rendered rows kept (the oldest go first): a few screens' worth, what a rerank or a scroll
back finds again (at 2,000 rows of ~4 KB, typing grew the app's memory by 8 MB)."""

_UNPAINTED = object()
"""Marks a screen line the list has not painted since its last full repaint."""

_NOTHING_ANNOUNCED = "\0"
"""Forces the next `_announce` to post, even when the list is (still) empty."""


class ResultsList(ScrollView, can_focus=True):
    """Ranked hits, one row each, with a keyboard/mouse cursor kept by entry id."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        f"results--{name}"
        for name in (
            *("cursor", "mark", "rank", "score", "title", "code", "date", "path", "bar-empty"),
            *FACTOR_NAMES,  # the bar's pieces
            *(source.value for source in Source),  # the source badges
            *("load-line", "gone"),
        )
    }

    DEFAULT_CSS = """
    ResultsList { background: $surface; }
    ResultsList > .results--cursor {
        background: $block-cursor-blurred-background; color: $block-cursor-blurred-foreground;
    }
    ResultsList:focus > .results--cursor {
        background: $block-cursor-background; color: $block-cursor-foreground;
    }
    ResultsList:nocolor > .results--cursor {
        background: $surface; color: $foreground; text-style: bold reverse;
    }
    ResultsList > .results--mark { text-style: bold; }
    ResultsList > .results--rank { color: $muted; }
    ResultsList > .results--score { color: $text-accent; text-style: bold; }
    ResultsList > .results--title { color: $foreground; }
    ResultsList > .results--code { color: $text-secondary; }
    ResultsList > .results--date { color: $muted; }
    ResultsList > .results--path { color: $muted; text-style: italic; }
    ResultsList > .results--bar-empty { color: $panel; }
    ResultsList > .results--relevance { color: $factor-relevance; }
    ResultsList > .results--source { color: $factor-source; }
    ResultsList > .results--recency { color: $factor-recency; }
    ResultsList > .results--position { color: $factor-position; }
    ResultsList > .results--long_term { color: $badge-long-term; }
    ResultsList > .results--daily { color: $badge-daily; }
    ResultsList > .results--note { color: $badge-note; }
    ResultsList > .results--load-line { color: $text-warning; text-style: bold; }
    ResultsList > .results--gone { color: $muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Down", show=False, id="results.down"),
        Binding("up,k", "cursor_up", "Up", show=False, id="results.up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="results.page_down"),
        Binding("pageup", "page_up", "Page up", show=False, id="results.page_up"),
        Binding("home,g", "first", "First", show=False, id="results.first"),
        Binding("end,G", "last", "Last", show=False, id="results.last"),
        # The screen's action, run as the key is handled: a posted message focused the entry
        # only after `z` typed right behind enter had zoomed the list.
        Binding("enter", "screen.open_entry", "Open entry", show=False, id="results.choose"),
        Binding("space", "toggle_mark", "Mark", id="results.toggle_mark"),
        Binding("ctrl+a", "mark_all", "Mark all", show=False, id="results.mark_all"),
        Binding("ctrl+u", "clear_marks", "Clear marks", show=False, id="results.clear_marks"),
    ]

    async def on_key(self, event: events.Key) -> None:
        """Run this list's keys in the order they were typed (`ui.key_order`)."""
        await run_own_binding(self, event, _OWN_KEYS)

    class Highlighted(Message):
        """The cursor moved to another hit (or the list became empty: hit is None)."""

        def __init__(self, hit: Hit | None, previous: Hit | None) -> None:
            super().__init__()
            self.hit = hit
            self.previous = previous

    class MarksChanged(Message):
        """Entries were marked or unmarked (`space`, `ctrl+a`, `ctrl+u`)."""

    class AllCollected(Message):
        """`ctrl+a`'s worker has the entry of every one of `hits`, to mark."""

        def __init__(self, hits: Sequence[Hit], entries: list[Entry]) -> None:
            super().__init__()
            self.hits = hits
            self.entries = entries

    class Chosen(Message):
        """A double-click on a row (enter is the screen's `open_entry`)."""

        def __init__(self, hit: Hit) -> None:
            super().__init__()
            self.hit = hit

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hits: Sequence[Hit] = ()
        self.cursor = 0
        self._announced: str | None = _NOTHING_ANNOUNCED
        self.moved_by_user = False
        """True once the user moved the cursor since the last query edit."""
        self.marks = Marks()
        self._collecting: Sequence[Hit] | None = None
        """The hits `ctrl+a` is collecting the entries of, until they are marked."""
        self.always_gutter = False
        """Show the mark gutter even with nothing marked (`memtui pick`, where marking is the
        point); otherwise it appears with the first mark, so the usual rows keep their room."""
        self._rows = RowCache(STRIP_CACHE_ROWS)
        self._styles: dict[str, Style] = {}
        self._painted_rows: dict[int, RowKey | None] = {}
        """What each screen line (y) showed when last painted."""
        self.past_load_line: frozenset[str] = frozenset()
        """Ids of entries that start or run past their agent's load line (badged rows)."""
        self.browse = False
        """The hits are listed newest first (no query terms): rows show dates, not scores."""
        self.gone: frozenset[str] = frozenset()
        """The `Entry.root` of entries whose folder is gone (`set_gone`)."""
        self._hits_forgotten = False
        """`forget_rows` was called and no hits came since: their rows are drawn, not kept."""
        self._hits_set = self._drawn_set = 0
        """How many times hits were set, and which of those the rows last drawn show (a count,
        not the hits: those would keep a removed file's entries alive)."""
        self._on_drawn: Callable[[], object] | None = None
        self._rows_shown = 1  # kept from on_resize: read per row, the region is not cheap
        self._frame = (0, 2)
        """The width and rank column of the rows the frame being rendered draws."""

    # --- data ---------------------------------------------------------------------------------

    @property
    def selected(self) -> Hit | None:
        if 0 <= self.cursor < len(self.hits):
            return self.hits[self.cursor]
        return None

    def set_hits(self, hits: Sequence[Hit], *, keep_id: str | None, browse: bool = False) -> None:
        """Show new hits; the cursor stays on `keep_id` if it is near the top, else rank 1.
        `browse`: they are listed newest first (no query terms), so rows show dates.

        `hits` may be lazy (built only when indexed): this never walks all of it, so showing
        50,000 matches costs what the visible rows cost.
        """
        self.hits = hits
        self._hits_set += 1
        self._hits_forgotten = False
        self.browse = browse
        index = 0
        if keep_id is not None:
            found = position_of(hits, keep_id)
            index = found if found is not None else min(self.cursor, max(0, len(hits) - 1))
        set_virtual_size(self, Size(self.size.width, len(hits)), repaint=False)
        self.cursor = index
        self._announced = _NOTHING_ANNOUNCED
        self._scroll_cursor_into_view(center=keep_id is not None)
        # The new virtual size applies at the next layout; scroll again once it has.
        self.call_after_refresh(self._scroll_cursor_into_view, center=keep_id is not None)
        self._refresh_changed_rows()
        self._announce()

    def _refresh_changed_rows(self) -> None:
        """Repaint only the rows whose content differs from what is on screen, a run of them
        with one refresh (a refresh per row cost ~30 µs, and a keystroke changes ~30 rows).

        The next letter of a word often leaves most visible rows as they were; repainting all
        of them made every keystroke pay for the whole pane in Textual's render pipeline.
        """
        top, rank_width = int(self.scroll_y), self._rank_width()
        width = self.scrollable_content_region.width
        changed = [
            y
            for y in range(self.scrollable_content_region.height)
            if self._painted_rows.get(y, _UNPAINTED) != self._row_key(top + y, width, rank_width)
        ]
        if not changed:
            self._drawn_set = self._hits_set  # the rows on screen already show these hits
        for first, count in line_runs(changed):
            self.refresh_lines(top + first, count)  # Textual's lines of the list, not the screen

    def _announce(self) -> None:
        hit = self.selected
        key = hit.entry.id + f"@{hit.rank}:{hit.score}" if hit else None
        if key == self._announced:
            return
        self._announced = key
        previous = self.hits[self.cursor - 1] if hit and self.cursor > 0 else None
        self.post_message(self.Highlighted(hit, previous))

    # --- movement -----------------------------------------------------------------------------

    def move_to(self, index: int) -> None:
        if not self.hits:
            return
        index = max(0, min(len(self.hits) - 1, index))
        if index == self.cursor:
            return
        old = self.cursor
        self.cursor = index
        self.moved_by_user = True
        self.refresh_line(old)
        self.refresh_line(index)
        self._scroll_cursor_into_view()
        self._announce()

    def _scroll_cursor_into_view(self, *, center: bool = False) -> None:
        height = max(1, self.scrollable_content_region.height)
        top = int(self.scroll_y)
        if center and not top <= self.cursor < top + height:
            self.scroll_to(y=max(0, self.cursor - height // 2), animate=False, immediate=True)
        elif self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    @after_results
    def action_cursor_down(self) -> None:
        self.move_to(self.cursor + 1)

    @after_results
    def action_cursor_up(self) -> None:
        self.move_to(self.cursor - 1)

    @after_results
    def action_page_down(self) -> None:
        self.move_to(self.cursor + self._page())

    @after_results
    def action_page_up(self) -> None:
        self.move_to(self.cursor - self._page())

    @after_results
    def action_first(self) -> None:
        self.move_to(0)

    @after_results
    def action_last(self) -> None:
        self.move_to(len(self.hits) - 1)

    # --- marks --------------------------------------------------------------------------------

    @after_results
    def action_toggle_mark(self) -> None:
        hit = self.selected
        if hit is None:
            return
        self.marks.toggle(hit.entry)
        self.marks_changed()

    @after_results
    def action_mark_all(self) -> None:
        """Mark every result of the query, not only the rows on screen."""
        self._collecting = self.hits
        self.collect_entries(self.hits)

    @property
    def collecting(self) -> bool:
        """`ctrl+a` is still collecting the results to mark (a hand-off waits for it)."""
        return self._collecting is not None

    @work(thread=True, exclusive=True, group="mark-all")
    def collect_entries(self, hits: Sequence[Hit]) -> None:
        """Every hit's entry, off the event loop: walking 50,000 lazy hits takes ~0.2 s."""
        self.post_message(self.AllCollected(hits, [hit.entry for hit in hits]))

    def on_results_list_all_collected(self, message: AllCollected) -> None:
        if message.hits is not self._collecting:
            return  # cleared meanwhile, or a newer ctrl+a is collecting
        self._collecting = None
        self.marks.mark_all(message.entries)
        self.marks_changed()  # even when nothing was new: a waiting hand-off goes on

    def action_clear_marks(self) -> None:
        collecting, self._collecting = self.collecting, None
        if self.marks.clear() or collecting:
            self.marks_changed()

    def marks_changed(self) -> None:
        """Repaint the gutter and tell the screen (the header counts the marks)."""
        self._refresh_changed_rows()
        self.post_message(self.MarksChanged())

    def set_gone(self, roots: frozenset[str]) -> None:
        """The `Entry.root` of entries whose folder is gone: their rows are dimmed."""
        if roots != self.gone:
            self.gone = roots
            self._refresh_changed_rows()

    def set_past_load_line(self, entry_ids: frozenset[str]) -> None:
        """New load-line findings (after a load or a change): badge those rows."""
        self.past_load_line = entry_ids
        self._refresh_changed_rows()

    def _gutter(self) -> bool:
        return self.always_gutter or bool(self.marks)

    def on_click(self, event: events.Click) -> None:
        index = int(self.scroll_y) + event.y
        if 0 <= index < len(self.hits):
            if index == self.cursor and event.chain >= 2:
                self.post_message(self.Chosen(self.hits[index]))
            self.move_to(index)

    def on_resize(self) -> None:
        self._rows_shown = max(1, self.scrollable_content_region.height)
        self.virtual_size = Size(self.size.width, len(self.hits))
        self._scroll_cursor_into_view()  # a shrunk window must not hide the selected row

    def on_focus(self) -> None:
        self._restyle()

    def on_blur(self) -> None:
        self._restyle()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._restyle()

    def forget_rows(self) -> None:
        """Drop the rendered rows and what each line showed (the next hits repaint them all):
        their keys hold entries, and after files changed the old entries (a 4 MB one,
        rewritten as it grows) must not be kept alive by a cache."""
        self._rows.clear()
        self._painted_rows.clear()
        self._hits_forgotten = True  # until new hits come, a repaint of these keeps nothing

    def _restyle(self) -> None:
        self._styles.clear()
        self._rows.clear()
        self.refresh()

    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name, partial=True)
        return style

    # --- rendering ----------------------------------------------------------------------------

    def when_drawn(self, callback: Callable[[], object]) -> None:
        """Call `callback` after the frame that shows the current hits, or after the next refresh
        if none is to be drawn (no room, no hits, drawn already, a screen on top): the screen's
        own could run before this list's update reached it. A newer search's replaces it."""
        drawing = self.display and self.hits and self.region.height and self.screen.is_current
        self._on_drawn = callback if drawing and self._drawn_set != self._hits_set else None
        if self._on_drawn is None:
            self.call_after_refresh(callback)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows' width and rank column, read once a frame: per row they were ~10 µs each."""
        self._frame = (self.scrollable_content_region.width, self._rank_width())
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        if self._drawn_set != self._hits_set:
            self._drawn_set, drawn, self._on_drawn = self._hits_set, self._on_drawn, None
            if drawn is not None:
                self.call_later(drawn)  # runs once this frame is out
        return self._row(y, *self._frame)

    def _row(self, y: int, width: int, rank_width: int) -> Strip:
        index = int(self.scroll_y) + y
        base = self._base_style()
        if not 0 <= index < len(self.hits):
            self._painted_rows[y] = None
            return Strip.blank(width, base)
        key = self._row_key(index, width, rank_width)
        assert key is not None
        self._painted_rows[y] = None if self._hits_forgotten else key
        cursor = self._cursor_style() if index == self.cursor else None
        keep = not self._hits_forgotten
        return self._rows.strip(key, base, style=self._style, cursor_style=cursor, keep=keep)

    def _row_key(self, index: int, width: int, rank_width: int) -> RowKey | None:
        """Everything row `index` shows (None: past the end, a blank line)."""
        if not 0 <= index < len(self.hits):
            return None
        hit = self.hits[index]
        return row_key(
            hit,
            width,
            rank_width=rank_width,
            cursor=index == self.cursor,
            marked=hit.entry.id in self.marks if self._gutter() else None,
            past_load_line=hit.entry.id in self.past_load_line,
            gone=hit.entry.root in self.gone,
            browse=self.browse,
        )

    def _rank_width(self) -> int:
        """Cells for the ranks on screen, not every hit's: titles stay put while typing changes
        the number of hits, and rows of entries still shown keep their laid-out part."""
        return max(2, len(str(min(len(self.hits), int(self.scroll_y) + self._rows_shown))))

    def _base_style(self) -> Style:
        """The widget's own style (reading `rich_style` per line is surprisingly costly)."""
        if "__base__" not in self._styles:
            self._styles["__base__"] = self.rich_style
        return self._styles["__base__"]

    def _cursor_style(self) -> Style:
        if "cursor" not in self._styles:
            self._styles["cursor"] = self.get_component_rich_style("results--cursor")
        return self._styles["cursor"]

    def rendered_rows(self) -> list[str]:
        """The plain text of every visible row (tests read what the user sees)."""
        region, rank_width = self.scrollable_content_region, self._rank_width()
        return [
            self._row(y, region.width, rank_width).text.rstrip()
            for y in range(region.height)
            if int(self.scroll_y) + y < len(self.hits)
        ]


_OWN_KEYS = {key: binding.action for key, binding in keys_of(ResultsList.BINDINGS).items()}
