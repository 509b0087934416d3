"""A cold load's entries as the columns a warm start decodes, their bodies in a spool file.

Reading a root for the first time made every entry with its body and kept them all until the
process ended: at 50,000 entries ~90 MB, under the index build's own ~35 MB, which put the
app's peak at ~190 MB. The store hands each file's entries to an `EntrySpool` as it reads
them; every SPOOL_ROWS entries become an `EntryTable` like the one a cache decodes to (the same
column functions, `core.cache.entry_columns`), and their bodies go to an unlinked file in the
cache folder, a piece of BODY_PIECE with its own checksum, read back when an entry is made
(`CachedBodies`). The index build, the cache write and the app then read columns and pieces,
as after a warm start. The spool file has no name: the kernel frees it when the last table
that reads it is gone, or the process ends however it ends.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memtui.core.cache.compact_columns import HeadingPaths
from memtui.core.cache.entry_columns import NUMBER_COLUMNS, STRING_COLUMNS, body_pieces
from memtui.core.cache.entry_table import (
    CachedBodies,
    EntryTable,
    TableView,
)
from memtui.core.model import Entry

SPOOL_ROWS = 4096
"""Entries gathered before they become a table: ~4 MB of text held at most, and few enough
tables (a dozen at 50,000 entries) that reading a column of every slot stays a few calls."""
SPOOL_PREFIX = ".spool-"


class EntrySpool:
    """Files' entries turned into tables SPOOL_ROWS at a time; not thread-safe (one load)."""

    def __init__(self, descriptor: int, label: str) -> None:
        self._descriptor = descriptor
        self._label = label
        self._written = 0
        """Bytes of bodies in the spool file so far."""
        self._pending: list[Sequence[Entry]] = []
        self.pending_rows = 0

    @classmethod
    def open(cls, folder: Path, label: str) -> EntrySpool | None:
        """A spool in `folder` (made if needed), or None when nothing can be written there:
        the entries then stay in memory, as before."""
        name = folder / f"{SPOOL_PREFIX}{os.getpid()}-{os.urandom(6).hex()}"
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            descriptor = os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        except OSError:
            return None
        try:
            os.unlink(name)
        except OSError:
            os.close(descriptor)
            return None
        return cls(descriptor, label)

    def close(self) -> None:
        """Done adding: tables already made keep their own descriptors."""
        os.close(self._descriptor)

    def add(self, entries: Sequence[Entry]) -> None:
        """One file's entries, in file order (the slot order within a file)."""
        self._pending.append(entries)
        self.pending_rows += len(entries)

    def flush(self) -> list[TableView]:
        """The files added since the last flush, each as a view of one new table, in the order
        they were added; raises OSError when the bodies could not be written (the entries
        stay pending)."""
        files = self._pending
        rows = [entry for entries in files for entry in entries]
        bodies = self._spooled(rows)
        self._pending, self.pending_rows = [], 0
        table = EntryTable(
            [entry.path for entry in rows],
            [[value(entry) for entry in rows] for value in STRING_COLUMNS.values()],
            HeadingPaths.of(entry.heading_path for entry in rows),
            bodies,
            {
                name: np.fromiter(map(value, rows), np.int64, len(rows))
                for name, value in NUMBER_COLUMNS.items()
            },
            self._label,
        )
        views = []
        start = 0
        for entries in files:
            views.append(TableView(table, range(start, start + len(entries))))
            start += len(entries)
        return views

    def _spooled(self, rows: list[Entry]) -> CachedBodies:
        """Write the rows' bodies to the spool file, pieced and checked as a cache's are
        (`entry_columns.body_pieces`); they are read back a piece at a time."""
        checksums: list[int] = []
        lengths = np.zeros(len(rows), dtype=np.int64)
        offset = position = self._written
        for piece in body_pieces([rows], checksums, lengths):
            data = memoryview(piece)
            while data:
                done = os.pwrite(self._descriptor, data, position)
                data, position = data[done:], position + done
        self._written = position
        return CachedBodies(
            None,
            (os.dup(self._descriptor), offset, position - offset),
            np.cumsum(lengths),
            checksums,
        )
