"""The files a load reads, their entries handed to an `EntrySpool` (`core.cache.spool`) and
given back to their records as table views, so a cold load holds columns, not entries."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from memtui.core.cache.entry_table import TableView
from memtui.core.cache.spool import SPOOL_ROWS, EntrySpool
from memtui.core.live.file_record import FileRecord
from memtui.core.model import Entry

TableWritten = Callable[[Sequence[Entry], TableView], None]
"""Told of each table as it is written: its entries (still in memory) and a view of all its rows
(`core.live.build_ahead`)."""


class FileSpool:
    """One load's read files, spooled SPOOL_ROWS entries at a time. When the spool cannot be
    written (no room, a read-only cache folder) the records keep their entries in memory:
    slower to hold, never wrong."""

    def __init__(self, folder: Path, label: str, written: TableWritten | None = None) -> None:
        self._folder = folder
        self._label = label
        self._written = written
        self._spool: EntrySpool | None = None
        self._failed = False
        self._records: list[FileRecord] = []

    def add(self, record: FileRecord) -> None:
        """A record whose entries were just read."""
        if self._failed or not record.entries:
            return
        if self._spool is None:
            self._spool = EntrySpool.open(self._folder, self._label)
            if self._spool is None:
                self._failed = True
                return
        self._records.append(record)
        self._spool.add(record.entries)
        if self._spool.pending_rows >= SPOOL_ROWS:
            self._flush()

    def finish(self) -> None:
        """Spool what is pending and close the spool (its tables keep reading it)."""
        if self._spool is not None:
            if self._records:
                self._flush()
            self._spool.close()
            self._spool = None

    def _flush(self) -> None:
        assert self._spool is not None
        rows: list[Entry] = []
        if self._written is not None:  # the entries, before they become views
            rows = [entry for record in self._records for entry in record.entries or ()]
        try:
            views = self._spool.flush()
        except OSError:
            self._failed = True
        else:
            for record, view in zip(self._records, views, strict=True):
                record.entries = view
            if self._written is not None:
                self._written(rows, TableView(views[0].table, range(len(rows))))
        self._records = []
