"""The entry in context (`o`): its whole file, read-only, scrolled to the entry, the entry's lines
marked and the query's matches lit. esc, q or o closes it.

The file is read again from disk (in a thread worker, capped like every read at
`walk.MAX_FILE_BYTES`) and decoded by the same rules as when it was loaded, so line numbers
agree with the entry's; secrets are masked unless they were revealed. Nothing is ever written.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from memtui.core import cite
from memtui.core.model import Entry
from memtui.core.reading.text import split_lines
from memtui.core.reading.walk import MAX_FILE_BYTES, read_text
from memtui.core.sanitize import one_line
from memtui.core.secrets import mask_secrets
from memtui.ui import messages, render, widths
from memtui.ui.widgets.file_lines import FileLines, display_line

WIDEST_SAMPLE = 20_000
"""Lines measured for the horizontal scroll range (a longer file scrolls as far as these)."""


class FileViewScreen(Screen[None]):
    """One file around one entry."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,o", "close", "Close", id="file.close"),
    ]
    DEFAULT_CSS = """
    FileViewScreen #file-header { height: 1; padding: 0 1; background: $panel; }
    FileViewScreen FileLines { height: 1fr; }
    """

    def __init__(
        self, root: Path, entry: Entry, where: str, pattern: re.Pattern[str] | None, *, mask: bool
    ) -> None:
        super().__init__()
        self.root = root
        self.entry = entry
        self.where = where
        self.pattern = pattern
        self.mask = mask
        """Mask secrets (the user has not revealed them, and the config masks)."""

    def compose(self) -> ComposeResult:
        yield Static(self._header("reading…"), id="file-header", markup=False)
        yield FileLines(id="file-lines")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(FileLines).focus()
        self.read_file()

    def _header(self, state: str, style: str = "$muted") -> Content:
        return Content.assemble(
            (one_line(mask_secrets(cite.citation(self.where, self.entry))[0], widths.LONG), "bold"),
            ("  ·  ", "$muted"),
            (one_line(render.masked_title(self.entry), widths.SHORT), ""),
            ("  ·  ", "$muted"),
            (state, style),
        )

    @work(thread=True, exclusive=True, group="file")
    def read_file(self) -> None:
        read = read_text(self.root, self.entry.path)
        if isinstance(read, str):
            self.post_message(messages.FileRead([], 0, (read,), 0))
            return
        decoded, size = read
        text, masked = mask_secrets(decoded.text) if self.mask else (decoded.text, 0)
        lines = split_lines(text)
        widest = max((cell_len(display_line(line)) for line in lines[:WIDEST_SAMPLE]), default=0)
        notes = list(decoded.warnings)
        if size > MAX_FILE_BYTES:
            notes.append(
                f"only the first {MAX_FILE_BYTES // (1024 * 1024)} MiB of {size:,} bytes shown"
            )
        self.post_message(messages.FileRead(lines, widest, tuple(notes), masked))

    @on(messages.FileRead)
    def _file_read(self, message: messages.FileRead) -> None:
        view = self.query_one(FileLines)
        view.show(
            message.lines,
            (self.entry.line_start, self.entry.line_end),
            self.pattern,
            message.widest,
        )
        count = len(message.lines)
        state = f"{count:,} line{'s' if count != 1 else ''}"
        if message.masked:
            state += f" · {message.masked} secret{'s' if message.masked != 1 else ''} masked"
        problems = " · ".join(one_line(note, widths.SHORT) for note in message.notes)
        header = self.query_one("#file-header", Static)
        if not message.lines and problems:
            header.update(self._header(f"cannot show the file: {problems}", "$text-error"))
        else:
            header.update(self._header(f"{state} · {problems}" if problems else state))

    def action_close(self) -> None:
        self.dismiss(None)
