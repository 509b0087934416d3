"""A one-line status that fits its room: the line is laid out for the width it gets, so its
pieces give way in their stated order (see `ui.status`) instead of being cut mid-word or
leaving a separator at the end.
"""

from __future__ import annotations

from typing import Protocol

from textual.content import Content
from textual.geometry import Size
from textual.timer import Timer
from textual.widget import Widget


class LineFor(Protocol):
    """A line laid out for `cells` (None: no limit): a `ui.status` function, partly applied."""

    def __call__(self, *, cells: int | None) -> Content: ...


def fixed(content: Content) -> LineFor:
    """A line that is the same at any width."""

    def line(*, cells: int | None) -> Content:
        return content

    return line


AUTO_SHARE = 2
"""A status line of `width: auto` takes at most 1/AUTO_SHARE of its container."""
HOLD_S = 0.8
"""How long a held line keeps its width after a narrower line came (`StatusLine(hold=True)`)."""


class StatusLine(Widget):
    """One line of status text, laid out again whenever its width changes."""

    DEFAULT_CSS = "StatusLine { height: 1; }"

    def __init__(self, *, id: str | None = None, hold: bool = False) -> None:
        super().__init__(id=id)
        self._line: LineFor = fixed(Content(""))
        self._auto_width = 0
        """The width asked for by the last layout (`width: auto`): a new line of another
        width needs a layout pass; one of the same width does not."""
        self._hold = hold
        """Keep the width while lines come quickly (a query's status as it is typed): a
        layout pass redraws the whole screen, ~3× a keystroke's paint, and the query box
        beside the line would change width under the typing."""
        self._settle: Timer | None = None
        """Set while a held width waits for the typing to pause (then the line narrows)."""

    def show(self, line: Content | LineFor) -> None:
        """Show `line`: fixed text, or a function that lays the line out for a width."""
        self._line = fixed(line) if isinstance(line, Content) else line
        if self.styles.width is None or not self.styles.width.is_auto:
            self.refresh()
            return
        natural = self._natural_width()
        if self._hold and natural < self._auto_width:  # keep the room until the typing pauses
            if self._settle is not None:
                self._settle.stop()
            self._settle = self.set_timer(HOLD_S, self._release)
            self.refresh()
            return
        self.refresh(layout=natural != self._auto_width)

    def _release(self) -> None:
        self._settle = None
        self.refresh(layout=True)

    def _room(self, container_width: int) -> int:
        return max(1, container_width // AUTO_SHARE - self.styles.gutter.width)

    def _natural_width(self) -> int:
        parent = self.parent
        width = parent.size.width if isinstance(parent, Widget) else self.size.width
        return self._line(cells=self._room(width)).cell_length

    def get_content_width(self, container: Size, viewport: Size) -> int:
        room = self._room(container.width)
        natural = self._line(cells=room).cell_length
        held = min(self._auto_width, room) if self._settle is not None else 0
        self._auto_width = max(natural, held)
        return self._auto_width

    def render(self) -> Content:
        return self._line(cells=self.content_size.width or None)

    @property
    def text(self) -> str:
        """The line as shown now (tests read what the user sees)."""
        return self.render().plain
