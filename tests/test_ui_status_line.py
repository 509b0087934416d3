"""A query's status line keeps its width while the query is typed: a narrower line waits for
a pause before the line (and the query box beside it) changes width, because a layout pass
redraws the whole screen."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Input

from memtui.ui.widgets import status_line
from memtui.ui.widgets.status_line import StatusLine


class Row(App[None]):
    CSS = "StatusLine { width: auto; } Input { width: 1fr; }"

    def __init__(self, *, hold: bool) -> None:
        super().__init__()
        self.hold = hold

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Input()
            yield StatusLine(id="status", hold=self.hold)


@pytest.mark.parametrize("hold", [True, False])
async def test_a_held_line_narrows_only_after_a_pause(
    monkeypatch: pytest.MonkeyPatch, hold: bool
) -> None:
    monkeypatch.setattr(status_line, "HOLD_S", 0.2)
    app = Row(hold=hold)
    async with app.run_test(size=(80, 5)) as pilot:
        line = app.query_one(StatusLine)
        line.show(Content("1,234 matches · 12 ms"))
        await pilot.pause()
        wide = line.size.width
        line.show(Content("3 matches · 1 ms"))
        await pilot.pause()
        assert line.text == "3 matches · 1 ms"  # the words change at once
        assert (line.size.width == wide) == hold
        await pilot.pause(0.3)
        assert line.size.width < wide  # settled once the typing paused
        line.show(Content("12,345 matches · 123 ms, and more"))
        await pilot.pause()
        assert line.size.width > wide  # a wider line never waits
        assert line.text == "12,345 matches · 123 ms, and more"
