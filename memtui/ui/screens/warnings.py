"""Everything that did not load cleanly: skipped files with reasons, config, theme and entry
warnings (! on the main screen). Rows are (where, problem) pairs of plain strings, collected
from what the main screen has by `collect_warnings`."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from memtui.core.live.engine import Engine
from memtui.core.sanitize import one_line
from memtui.ui import widths
from memtui.ui.screens.modal import CloseableModal
from memtui.ui.watching import Watching

MAX_WARNING_ROWS = 2000


def collect_warnings(
    startup: Sequence[tuple[str, str]], watching: Watching | None, engine: Engine | None
) -> list[tuple[str, str]]:
    """(where, problem) rows: what was found before the screen opened (config, themes,
    keymap), the watcher's (its error, folders it cannot watch), the engine's warnings,
    skipped files, entries' warnings."""
    rows = list(startup)
    if watching is not None:
        rows += watching.warnings()
    if engine is not None:
        rows += [("engine", warning) for warning in engine.warnings]
        rows += [(item.path, item.reason) for item in engine.skipped]
        for entry in engine.loaded_entries():
            for warning in entry.warnings:
                rows.append((f"{entry.path}:{entry.line_start}", warning))
    return rows


class WarningsScreen(CloseableModal):
    """Skipped files with reasons, config and theme warnings, entries with warnings."""

    def __init__(self, rows: list[tuple[str, str]]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        count = len(self.rows)
        title = f"warnings ({count})" if count else "warnings"
        with Vertical(id="warnings-box", classes="modal-box"):
            yield Static(Content.styled(title, "bold $text-accent"))
            yield VerticalScroll(Static(self._body(), id="warnings-body", markup=False))
            yield Static(Content.styled("esc close", "$muted"))

    def _body(self) -> Content:
        if not self.rows:
            return Content.styled("Nothing to report: every file loaded cleanly.", "$text-success")
        lines = [
            Content.assemble(
                (one_line(where, widths.SHORT), "bold"),
                ("  ", ""),
                (one_line(problem, widths.LINE), "$text-warning"),
            )
            for where, problem in self.rows[:MAX_WARNING_ROWS]
        ]
        if len(self.rows) > MAX_WARNING_ROWS:
            lines.append(Content.styled(f"… {len(self.rows) - MAX_WARNING_ROWS:,} more", "$muted"))
        return Content("\n").join(lines)
