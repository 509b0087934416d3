"""Shown instead of the main screen when no folder was given and none was found.

It lists where memtui looked and offers the bundled demo; choosing it posts `DemoRequested`,
which bubbles to the app (the app knows how to open the demo, this screen does not).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from memtui.core.sanitize import one_line
from memtui.ui import widths
from memtui.ui.messages import DemoRequested


class NoMemoryScreen(Screen[None]):
    """Where we looked, and the demo."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "demo", "Open the demo", id="nomemory.demo"),
        Binding("q,escape", "app.quit", "Quit", id="nomemory.quit"),
    ]

    def __init__(self, searched: list[str]) -> None:
        super().__init__()
        self.searched = searched

    def compose(self) -> ComposeResult:
        lines: list[Content] = [
            Content.styled("No memory folder found", "bold $text-accent"),
            Content(""),
            Content("memtui looked in these places, in order:"),
        ]
        lines += [
            Content.assemble(("  • ", "$muted"), (one_line(place, widths.PLACE), ""))
            for place in self.searched
        ]
        lines += [
            Content(""),
            Content("Point it at a folder:  memtui ~/path/to/workspace"),
            Content("or set MEMTUI_DIR, or try the bundled demo memory:"),
        ]
        with Vertical(id="nomemory-box", classes="modal-box"):
            yield Static(Content("\n").join(lines), markup=False)
            with Horizontal(classes="nomemory-actions"):
                yield Button("Open the demo (d)", id="demo", variant="primary")
        yield Footer()

    @on(Button.Pressed, "#demo")
    def action_demo(self) -> None:
        self.post_message(DemoRequested())
