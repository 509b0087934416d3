"""The right-hand column: the selected entry's header, its text, and why it ranked there.

While the user types, the column follows the list's top hit a moment late (`DETAIL_DELAY_S`
after the list painted), so a fast typist's keystrokes repaint only the list; the main screen
tells the pane when a selection may wait (`defer_next`), when the list painted and when the
query changed again, and the pane keeps the timer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from memtui.core.health.model import LoadCut
from memtui.core.live.roots import MemoryRoot
from memtui.core.model import Entry, Hit
from memtui.ui import render
from memtui.ui.bindings import PANE_BINDINGS
from memtui.ui.gone import gone_rule
from memtui.ui.load_line import load_line_rule
from memtui.ui.masker import SecretMasker
from memtui.ui.widgets.detail import EntryView

DETAIL_DELAY_S = 0.05
"""While typing, the entry and breakdown panes follow the top hit this long after the list has
painted, so a fast typist's keystrokes repaint only the list; the panes catch up once typing
pauses (the next keystroke cancels the pending update)."""


BREAKDOWN_ID = "pane.breakdown"
"""The binding that toggles the why pane (compact ↔ expanded; below 80 columns: entry ↔ why)."""


class WhyPane(VerticalScroll):
    """The breakdown of one hit (`#breakdown`): it scrolls when it is longer than its room and
    its border says how many lines are below, so nothing is cut off silently."""

    SCALE_NOTE = " · bars = contribution"
    """Said in the border when it fits: the bars are each factor's part of the score, on the
    list's scale (a full bar is 1.0), not the factor's value."""

    class Resized(Message):
        """The pane's width changed: its rows were fitted to the old one."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines = 0
        self.fitted_width = 0
        """The `text_width` the shown rows were fitted to (0 before the first layout)."""

    def compose(self) -> ComposeResult:
        yield Static(id="breakdown", markup=False)

    @property
    def text_width(self) -> int:
        """Cells a breakdown line may use (the vertical scrollbar's column is kept free)."""
        return max(0, self.content_region.width - 1)

    def show(self, content: Content, title: str, *, bars: bool = True) -> None:
        """`bars`: the content draws factor bars, which the border explains when it fits."""
        lines = len(content.plain.split("\n")) if content.plain else 0
        # A new line count needs a layout pass; the same count (most keystrokes) does not.
        self.query_one("#breakdown", Static).update(content, layout=lines != self.lines)
        self.lines = lines
        self.fitted_width = self.text_width
        room = self.content_region.width - len(title) - 4
        self.border_title = Content(
            title + (self.SCALE_NOTE if bars and room >= len(self.SCALE_NOTE) else "")
        )
        self._note_more()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._note_more()

    def on_resize(self) -> None:
        self._note_more()
        if self.lines and self.text_width != self.fitted_width:
            self.post_message(self.Resized())

    def _note_more(self) -> None:
        below = self.lines - int(self.scroll_y) - self.scrollable_content_region.height
        self.border_subtitle = Content(f"+{below} more ↓" if below > 0 else "")


class EntryPane(Vertical):
    """Header line, the load line when the entry is past it, `EntryView` and the compact or
    expanded breakdown of one hit."""

    ALLOW_MAXIMIZE = True
    """z on the entry zooms the whole pane: header, text and why together."""

    def __init__(
        self, masker: SecretMasker, keymap: Mapping[str, str], *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.masker = masker
        self.keymap = keymap
        """The `[keymap]` remaps in force (the hint names the key that works)."""
        self.hit: Hit | None = None
        """The selected hit (what the entry actions act on), shown or about to be."""
        self.previous: Hit | None = None
        """The hit ranked just above it (the breakdown compares the two)."""
        self.compact = True
        self.revealed = False
        self.shown: tuple[Entry, str | None, bool] | None = None
        """Entry, match pattern and reveal state the entry view last rendered."""
        self._defer = False
        self._coming = False
        """New hits are listed and the list's selection is on its way (`select`)."""
        self._owed = False
        """A selection was skipped while typing and still has to be shown."""
        self._timer: Timer | None = None
        self._header_for: Callable[[Content], Content] = lambda match: Content("")
        """The shown entry's header, given its match position (which `n`/`N` change)."""
        self._match_note = Content("")
        """`· match 3/7` after the header while the entry shows matches."""
        self.load_cuts: Mapping[str, tuple[LoadCut, ...]] = {}
        """Entry id -> the load lines it starts or runs past (drawn above its text)."""
        self.gone: Mapping[str, MemoryRoot] = {}
        """`Entry.root` -> its root, for the folders that are gone (said above their text)."""

    def compose(self) -> ComposeResult:
        yield Static(id="detail-header", markup=False)
        yield Static(id="detail-rule", markup=False)
        yield EntryView(id="detail")
        yield WhyPane(id="why")

    @property
    def pending(self) -> bool:
        """True while the pane still shows an earlier selection (also between new hits being
        listed and the list's selection of them arriving: the list may paint in between)."""
        return self._timer is not None or self._owed or self._coming

    # --- following the list -------------------------------------------------------------------

    def defer_next(self, new_query: bool) -> None:
        """New hits are being listed; a new query's top hit waits for the list to paint first
        (once something is shown)."""
        self._defer = new_query and self.shown is not None
        self._coming = True

    def select(self, hit: Hit | None, previous: Hit | None, *, painted: bool) -> None:
        """The list's cursor moved; `painted`: the list already shows the newest search."""
        self.hit, self.previous = hit, previous
        self._coming = False
        deferred, self._defer = self._defer, False
        if deferred and hit is not None:
            self._owed = True  # shown once the list has painted and typing pauses
            self._stop_timer()
            if painted:  # the paint came first
                self._timer = self.set_timer(DETAIL_DELAY_S, self.show)
        else:
            self.show()

    def typing(self) -> None:
        """The query changed again: a pending update waits for this keystroke's top hit."""
        if self._timer is not None:
            self._stop_timer()
            self._owed = True

    def list_painted(self) -> None:
        """The list painted the newest search: start the delay if the pane owes an update."""
        if self._owed and self._timer is None:
            self._timer = self.set_timer(DETAIL_DELAY_S, self.show)

    def catch_up(self) -> None:
        """Show the owed selection now (no search is coming to trigger it)."""
        if self._owed:
            self.show()

    def refit(self) -> None:
        """The terminal resized: the breakdown's raw-input column is sized to the panel."""
        if self.hit is not None and not self.pending:
            self.show()

    def on_why_pane_resized(self) -> None:
        """The why pane was shown, hidden or resized (b below 80 columns, a new size class)."""
        self.refit()

    def set_load_cuts(self, cuts: Mapping[str, tuple[LoadCut, ...]]) -> None:
        """New load-line findings (after a load or a change): redraw the shown entry's line."""
        self.load_cuts = cuts
        if self.hit is not None and not self.pending:
            self._draw_rule(self.hit.entry)

    def set_gone(self, gone: Mapping[str, MemoryRoot]) -> None:
        """Folders went or came back: redraw the shown entry's rule."""
        self.gone = gone
        if self.hit is not None and not self.pending:
            self._draw_rule(self.hit.entry)

    def _draw_rule(self, entry: Entry | None) -> None:
        """The lines above the entry text: its folder is gone, an agent stops reading inside or
        above it; hidden when neither."""
        rule = self.query_one("#detail-rule", Static)
        lines = []
        if entry is not None:
            if entry.root in self.gone:
                lines.append(gone_rule(self.gone[entry.root]))
            cuts = self.load_cuts.get(entry.id, ())
            if cuts:
                lines.append(load_line_rule(entry, cuts))
        if lines or rule.has_class("-shown"):
            text = Content("\n").join(lines)
            # A rule as tall as the one shown needs no layout pass (each is a frame of the whole
            # screen): between entries an agent stops reading in, ~a fifth of a cursor move.
            shown = rule.content_size  # 0 wide while its first layout is pending
            same_height = (
                bool(lines)
                and rule.has_class("-shown")
                and shown.width > 0
                and text.get_height(rule.styles.get_rules(), shown.width) == shown.height
            )
            rule.update(text, layout=not same_height)
            rule.set_class(bool(lines), "-shown")

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = None

    def on_entry_view_match_moved(self, message: EntryView.MatchMoved) -> None:
        self._match_note = render.match_position(message.current, message.total, message.beyond)
        self.query_one("#detail-header", Static).update(
            self._header_for(self._match_note), layout=False
        )

    def shown_hit(self, hit: Hit) -> Hit:
        """`hit` as the why pane shows it (and `B`): a matched word only a secret holds reads
        masked, unless the pane reveals secrets."""
        return self.masker.hit(hit, revealed=self.revealed)

    # --- painting -----------------------------------------------------------------------------

    def show(self) -> None:
        """Paint the selected hit now (or clear the pane when there is none)."""
        self._owed = False
        self._stop_timer()
        hit = self.hit
        header = self.query_one("#detail-header", Static)
        detail = self.query_one(EntryView)
        why = self.query_one(WhyPane)
        if hit is None:
            self.shown = None
            self._header_for = lambda match: Content("")  # nor may a match note bring it back
            header.update(Content(""), layout=False)
            self._draw_rule(None)
            detail.clear()
            why.show(Content(""), "why")
            return
        entry = hit.entry
        text, masked = self.masker.mask(render.entry_text(entry), revealed=self.revealed)
        revealed = self.revealed

        def mask(text: str) -> str:
            return self.masker.mask(text, revealed=revealed)[0]

        self._header_for = lambda match: render.detail_header(
            entry, masked=masked, revealed=revealed, match=match, mask=mask
        )
        header.update(self._header_for(self._match_note), layout=False)
        self._draw_rule(entry)
        pattern = render.match_pattern(hit.explanation.terms)
        shown = (entry, pattern.pattern if pattern else None, self.revealed)
        if shown != self.shown:
            # Typing often keeps the same top entry: re-render it only when something changed.
            self.shown = shown
            detail.show(text, pattern)
        why.show(
            render.breakdown(
                self.shown_hit(hit), self.previous, expanded=not self.compact, width=why.text_width
            ),
            "why" if hit.explanation.browse else f"why #{hit.rank}",
            bars=not hit.explanation.browse,
        )
        self._hint_hidden_pane(detail, why)

    def _hint_hidden_pane(self, detail: EntryView, why: WhyPane) -> None:
        """Below 80 columns the entry text and the why take turns: the shown one's border says
        which key brings the other (the key in force, after any `[keymap]` remap)."""
        narrow = self.screen.has_class("-w-small")
        key = self.keymap.get(BREAKDOWN_ID) or next(
            binding.key
            for binding in PANE_BINDINGS
            if isinstance(binding, Binding) and binding.id == BREAKDOWN_ID
        )
        key = key.split(",")[0].strip()
        detail.border_subtitle = Content(f"{key}: why" if narrow and self.compact else "")
        if narrow and not self.compact:
            why.border_title = Content.assemble(why.border_title or "", f" · {key}: entry")
