"""The query box: an Input that forwards list movement keys so the user can type and move, and
walks earlier queries with ↑/↓ while it is empty (kept by `core.settings.history`)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import ClassVar

from textual import events, work
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Input

from memtui.core.sanitize import one_line
from memtui.core.search.facets import Facets
from memtui.core.settings.history import HistoryCursor, load_history, remembered, write_history
from memtui.ui import widths
from memtui.ui.filters import SEARCH_HINT, filter_hint
from memtui.ui.key_order import keys_of, run_own_binding
from memtui.ui.textual_private import PromptScreen, QuietInput
from memtui.ui.widgets.lines import set_virtual_size

PAINT_HOLD_S = 1 / 30
"""The longest a keystroke's echo waits for its results (two frames): a search that takes
longer (the index still building) shows the typed text first."""


class QueryInput(QuietInput):
    """Typing reranks; ↑/↓/PgUp/PgDn/Home/End move the results cursor (ctrl+a/e move the caret).

    Actions that have a letter in the panes have a ctrl key here, so they work while typing.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter,ctrl+j",  # ctrl+j: an enter typed ahead (see PICK_BINDINGS in ui.bindings)
            "screen.focus_results",
            "go to the results list",
            show=False,
            priority=True,  # keys typed right behind it go to the list (see ui.bindings)
            id="query.to_results",
        ),
        # Priority, as enter: Textual's own tab reaches the app only after the box has let the
        # key go, and `j` typed right behind it had already been handed to the box.
        Binding(
            "tab",
            "app.focus_next",
            "to the results list",
            show=False,
            priority=True,
            id="query.focus_next",
        ),
        Binding(
            "shift+tab",
            "app.focus_previous",
            "to the why pane",
            show=False,
            priority=True,
            id="query.focus_previous",
        ),
        Binding("down", "down", "next result / newer query", show=False, id="query.down"),
        Binding("up", "up", "previous result / earlier query", show=False, id="query.up"),
        Binding("pagedown", "screen.results('page_down')", show=False, id="query.page_down"),
        Binding("pageup", "screen.results('page_up')", show=False, id="query.page_up"),
        Binding("home", "screen.results('first')", show=False, id="query.first"),
        Binding("end", "screen.results('last')", show=False, id="query.last"),
        # Shown while typing, where `q` types a q: priority, or the app's hidden one would win.
        # First of the shown keys, then help, as in the panes: the footer cuts at its right
        # end, and the README promises that the footer always shows how to quit.
        Binding("ctrl+q", "app.quit", "Quit", priority=True, id="query.quit"),
        Binding("f1", "screen.help", "Help", id="query.help"),
        Binding("ctrl+o", "screen.edit", "Edit", id="query.edit"),
        Binding("ctrl+y", "screen.copy_entry", "Copy", show=False, id="query.copy_entry"),
        Binding("ctrl+b", "screen.toggle_breakdown", "Breakdown", show=False, id="query.breakdown"),
        Binding("ctrl+g", "screen.weights", "Weights", id="query.weights"),
        Binding("ctrl+f", "screen.filters", "Filters", id="query.filters"),
        Binding("ctrl+t", "screen.toggle_window", "Window", id="query.toggle_window"),
        Binding("ctrl+r", "screen.toggle_secrets", "Reveal", show=False, id="query.toggle_secrets"),
        Binding("ctrl+n", "screen.next_match", "Next match", show=False, id="query.next_match"),
        Binding("ctrl+l", "screen.warnings", "Warnings", show=False, id="query.warnings"),
        Binding(
            "ctrl+s", "app.switch_roots", "Memory folders", show=False, id="query.switch_roots"
        ),
    ]

    EDITING_KEYS: ClassVar[dict[str, str]] = {}
    """Input's own editing keys (backspace, ctrl+u, ←, …) and their actions, less the keys
    bound above; filled in below the class."""
    LIST_KEYS: ClassVar[dict[str, str]] = {}
    """The moves in the results bound above (↑/↓, page keys, home/end) and their actions, run
    in order with the editing keys; filled in below the class."""

    _paint_hold: ExitStack | None = None
    """Open while a repaint is held for results (see `hold_paint`)."""

    def __init__(
        self,
        value: str = "",
        *,
        id: str | None = None,
        history: Path | None = None,
        roots: Sequence[Path] = (),
    ) -> None:
        super().__init__(value=value, placeholder=SEARCH_HINT, id=id, select_on_focus=False)
        self.history_path = history
        """Where earlier queries are kept (None: no history, e.g. tests and screenshots)."""
        self._roots = tuple(roots)
        self._history = HistoryCursor([])
        self._recalled: str | None = None
        """The query ↑/↓ put in the box, while it is unedited."""

    def on_mount(self) -> None:
        self.cursor_position = len(self.value)  # `-q deplo`: typing goes on at the end
        if self.history_path is not None:
            self._load_history(self.history_path)

    def on_focus(self) -> None:
        """Focus coming back (tab, `/`, the list emptying under it) puts the caret at the
        end, where typing continues; a click places it after this, where it points."""
        self.cursor_position = len(self.value)

    async def on_key(self, event: events.Key) -> None:
        """Run an editing key, or a move in the results, here, in the order it was typed.

        Left to Textual, a binding runs only once its key has bubbled up to the app, after
        the box has already typed the keys queued behind it: `ab⌫c` typed in one burst gave
        `ab`, and ctrl+u followed by a paste-fast burst emptied the box. A move waits for the
        results of what the box holds (`ui.key_order`).
        """
        await run_own_binding(self, event, self.EDITING_KEYS | self.LIST_KEYS)

    def take_focus(self) -> None:
        """Focus the box now, the caret at the end: not `focus()`, which waits for its turn
        in the app's queue, so keys already queued behind the key that asked for it (`/`,
        esc, a paste) would go to the widget that had focus and be lost to the box."""
        self.cursor_position = len(self.value)
        self.screen.set_focus(self)

    @work(thread=True, group="history")
    def _load_history(self, path: Path) -> None:
        self.post_message(self.HistoryLoaded(*load_history(path)))

    class HistoryLoaded(Message):
        def __init__(self, queries: list[str], problem: str | None = None) -> None:
            super().__init__()
            self.queries = queries
            self.problem = problem
            """Why the history file was not read (a FIFO, a device, too large …), or None."""

    def on_query_input_history_loaded(self, message: HistoryLoaded) -> None:
        message.stop()
        self._history = HistoryCursor(message.queries)
        if message.problem:
            self.notify(one_line(message.problem, widths.NOTICE), severity="warning", markup=False)

    # --- the placeholder: filters this memory has ---------------------------------------------

    def offer_filters(self, facets: Facets) -> None:
        """Show, as the placeholder, filters with values from `facets` (the memory's); called
        from a worker (reading them takes a column of every entry)."""
        self.post_message(self.HintReady(filter_hint(facets)))

    class HintReady(Message):
        def __init__(self, hint: str) -> None:
            super().__init__()
            self.hint = hint

    def on_query_input_hint_ready(self, message: HintReady) -> None:
        message.stop()
        self.placeholder = message.hint

    # --- ↑/↓: earlier queries in an empty box, else the results ------------------------------

    def _walking(self) -> bool:
        return self._recalled is not None and self.value == self._recalled

    async def action_up(self) -> None:
        if not self.value or self._walking():
            recalled = self._history.older()
            if recalled is not None:
                self._recall(recalled)
                return
        await self.run_action("screen.results('up')")

    async def action_down(self) -> None:
        if self._walking():
            recalled = self._history.newer()
            if recalled is not None:
                self._recall(recalled)
                return
        await self.run_action("screen.results('down')")

    def _recall(self, query: str) -> None:
        self._recalled = query or None
        self.value = query
        self.cursor_position = len(query)

    def remember(self) -> None:
        """Keep the query in the history (the user acted on its results)."""
        if self.history_path is None or not self.value.strip():
            return
        self._history = HistoryCursor(remembered(self._history.history, self.value))
        self._recalled = None
        self._save_history(self.history_path, list(self._history.history))

    @work(thread=True, exclusive=True, group="history")
    def _save_history(self, path: Path, queries: list[str]) -> None:
        write_history(path, queries, roots=self._roots)

    def value_changed(self, value: str) -> None:
        """Only the scroll range follows the text: the box has a fixed size (see `QuietInput`)."""
        set_virtual_size(self, Size(self.content_width, 1))
        validation = self.validate(value) if "changed" in self.validate_on else None
        self.hold_paint()
        self.post_message(self.Changed(self, value, validation))

    # --- one frame per keystroke ---------------------------------------------------------------

    def hold_paint(self) -> None:
        """Hold the app's repaints until the screen shows the results of the new text
        (`release_paint`), for at most PAINT_HOLD_S.

        Textual paints on a 60 Hz grid: when the echo of a keystroke takes a frame on its own,
        the results it asked for wait for the next grid point, a frame (16.7 ms) later or, after
        an idle pause, two. Held, the echo and the results go out in one frame.
        """
        if self._paint_hold is None and self.is_mounted:
            self._paint_hold = ExitStack()
            self._paint_hold.enter_context(self.app.batch_update())
            self._paint_hold.callback(self.set_timer(PAINT_HOLD_S, self.release_paint).stop)

    def release_paint(self) -> None:
        """Let the held frame go out (the results are in place, or PAINT_HOLD_S passed)."""
        hold, self._paint_hold = self._paint_hold, None
        if hold is not None:
            hold.close()
            if isinstance(self.screen, PromptScreen):
                self.screen.paint_promptly()  # not at the update timer's next tick


def _editing_keys() -> dict[str, str]:
    taken = keys_of(QueryInput.BINDINGS)
    return {
        key: binding.action
        for key, binding in keys_of(Input.BINDINGS).items()
        if not binding.priority and key not in taken
    }


QueryInput.EDITING_KEYS = _editing_keys()
_MOVES = ("query.down", "query.up", "query.page_down", "query.page_up", "query.first", "query.last")
QueryInput.LIST_KEYS = {
    key: binding.action
    for key, binding in keys_of(QueryInput.BINDINGS).items()
    if binding.id in _MOVES
}
