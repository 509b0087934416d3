"""Everything that did not load cleanly: skipped files with reasons, config, theme and entry
warnings (! on the main screen). Rows come in as (where, problem) pairs of plain strings."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from memtui.core.sanitize import one_line
from memtui.ui import widths
from memtui.ui.screens.modal import CloseableModal

MAX_WARNING_ROWS = 2000


class WarningsScreen(CloseableModal):
    """Skipped files with reasons, config and theme warnings, entries with warnings."""

    def __init__(self, rows: list[tuple[str, str]]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        count = len(self.rows)
        title = f"warnings ({count})" if count else "warnings"
        with Vertical(id="warnings-box", classes="modal-box"):
            yield Static(Content.styled(title, "bold $accent"))
            yield VerticalScroll(Static(self._body(), id="warnings-body", markup=False))
            yield Static(Content.styled("esc close", "$muted"))

    def _body(self) -> Content:
        if not self.rows:
            return Content.styled("Nothing to report: every file loaded cleanly.", "$success")
        lines = [
            Content.assemble(
                (one_line(where, widths.SHORT), "bold"),
                ("  ", ""),
                (one_line(problem, widths.LINE), "$warning"),
            )
            for where, problem in self.rows[:MAX_WARNING_ROWS]
        ]
        if len(self.rows) > MAX_WARNING_ROWS:
            lines.append(Content.styled(f"… {len(self.rows) - MAX_WARNING_ROWS:,} more", "$muted"))
        return Content("\n").join(lines)
