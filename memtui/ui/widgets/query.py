"""The query box: an Input that forwards list movement keys so the user can type and move."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.widgets import Input

from memtui.ui.widgets.lines import set_virtual_size

FILTER_HINT = "search memory…  source:daily  tag:x  role:x  after:2026-11-01"


class QueryInput(Input):
    """Typing reranks; ↑/↓/PgUp/PgDn/Home/End move the results cursor (ctrl+a/e move the caret).

    Actions that have a letter in the panes have a ctrl key here, so they work while typing.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "screen.results('down')", "next result", show=False, id="query.down"),
        Binding("up", "screen.results('up')", "previous result", show=False, id="query.up"),
        Binding("pagedown", "screen.results('page_down')", show=False, id="query.page_down"),
        Binding("pageup", "screen.results('page_up')", show=False, id="query.page_up"),
        Binding("home", "screen.results('first')", show=False, id="query.first"),
        Binding("end", "screen.results('last')", show=False, id="query.last"),
        Binding("ctrl+o", "screen.edit", "Edit", id="query.edit"),
        Binding("ctrl+y", "screen.copy_entry", "Copy", show=False, id="query.copy_entry"),
        Binding("ctrl+b", "screen.toggle_breakdown", "Breakdown", show=False,
                id="query.breakdown"),
        Binding("ctrl+g", "screen.weights", "Weights", id="query.weights"),
        Binding("ctrl+f", "screen.filters", "Filters", id="query.filters"),
        Binding("ctrl+t", "screen.toggle_window", "Window", id="query.toggle_window"),
        Binding("ctrl+r", "screen.toggle_secrets", "Reveal", show=False,
                id="query.toggle_secrets"),
        Binding("ctrl+n", "screen.next_match", "Next match", show=False, id="query.next_match"),
        Binding("ctrl+l", "screen.warnings", "Warnings", show=False, id="query.warnings"),
        Binding("f1", "screen.help", "Help", id="query.help"),
    ]

    def __init__(self, value: str = "", *, id: str | None = None) -> None:
        super().__init__(value=value, placeholder=FILTER_HINT, id=id, select_on_focus=False)

    def _watch_value(self, value: str) -> None:
        """Input's own watcher, minus the screen-wide layout pass it costs on every keystroke.

        Textual's Input grows its virtual width with the text, and assigning `virtual_size`
        re-lays out (and so repaints) the whole screen; this box has a fixed size, so only its
        scroll range needs updating. No suggester is used, so none is run.
        """
        set_virtual_size(self, Size(self.content_width, 1))
        self._suggestion = ""
        validation = self.validate(value) if "changed" in self.validate_on else None
        self.post_message(self.Changed(self, value, validation))
