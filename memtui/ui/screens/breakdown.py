"""The expanded 'why' for one hit, in a window of its own (B on the main screen)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from memtui.core.model import Hit
from memtui.core.sanitize import one_line
from memtui.ui import render, widths
from memtui.ui.screens.modal import CloseableModal
from memtui.ui.titles import title_content


class BreakdownScreen(CloseableModal):
    """Every factor, term, token match, multiplier and note of one hit."""

    def __init__(self, hit: Hit, previous: Hit | None) -> None:
        super().__init__()
        self.hit = hit
        self.previous = previous

    def compose(self) -> ComposeResult:
        entry = self.hit.entry
        title = Content.assemble(
            (f"why #{self.hit.rank}  ", "bold $text-accent"),
            title_content(one_line(render.masked_title(entry), widths.SHORT), "bold"),
            ("  ", ""),
            (one_line(render.masked_line_range(entry), widths.SHORT), "$muted"),
        )
        with Vertical(id="why-box", classes="modal-box"):
            yield Static(title, id="why-title", markup=False)
            yield VerticalScroll(
                Static(
                    render.breakdown(self.hit, self.previous, expanded=True),
                    id="why-body",
                    markup=False,
                )
            )
            yield Static(Content.styled("esc close", "$muted"))
