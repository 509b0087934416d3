"""A cold load's index, tokenized in forked children while the load reads on.

At 50,000 entries the build after a cold load took ~2 s, and a word typed after the first paint
waited for it. The load's spool hands over each table the moment it is written, its entries
still in memory (`core.live.file_spool`); a child forked then tokenizes them on the second core
while this process reads the next files, and the parts of children that finished are absorbed
as the load goes on. The build then only collects the last parts and places the postings
(0.2–0.4 s at 50k).

The segment is the one a build after the load makes (tests compare them). It is used only when
the index's slots begin with exactly the tables handed over, in order, and every child
succeeded; otherwise the children are stopped and the build starts from slot 0 as before.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import partial

from memtui.core.cache.entry_table import TableView
from memtui.core.live.fork import Child, can_fork, start_in_child
from memtui.core.model import Entry
from memtui.core.reading.walk import Scan
from memtui.core.search.segment import HeadStart, SegmentBuilder, exported_rows
from memtui.core.search.slots import JoinedRows

MIN_BYTES = 16_000_000
"""Less Markdown than this (~20,000 entries, from which the build after a load is split in two
processes too) is built after the load in a few hundred ms; built ahead, its children slowed
the load more than that on a 2-core machine (10,000 entries: first results 0.38 s later)."""


def worth_building_ahead(scans: Sequence[Scan | None]) -> bool:
    """The roots' scans find enough Markdown, and a child can be forked."""
    found = sum(info.st_size for scan in scans if scan for info in scan.found.values())
    return found >= MIN_BYTES and can_fork()


class BuildAhead:
    """Tables handed over by a load, tokenized by children, one child per table. Not
    thread-safe: the load and then the build use it, one after the other."""

    def __init__(self) -> None:
        self._handed: list[TableView] = []
        """Each table handed over, as a view of all its rows, in slot order."""
        self._slots = 0
        self._running: deque[Child] = deque()
        """Children not absorbed yet, oldest first (their slots come in this order)."""
        self._head: HeadStart | None = HeadStart(SegmentBuilder(), [])
        """The absorbed parts; None once the build ahead is given up."""

    def add(self, rows: Sequence[Entry], table: TableView) -> None:
        """A table just written: `rows` are its entries, still in memory."""
        if self._head is None:
            return
        child = start_in_child(partial(exported_rows, rows, self._slots))
        if child is None:
            self.stop()
            return
        self._running.append(child)
        self._handed.append(table)
        self._slots += len(rows)
        self._absorb(wait=False)

    def head_start(self, slots: Sequence[Entry]) -> HeadStart | None:
        """The slots the children built, once all are absorbed, when the index's `slots`
        begin with the tables handed over; else None, and the children are stopped."""
        if self._head is None or not self._handed or not self._begins(slots):
            self.stop()
            return None
        if not self._absorb(wait=True):
            return None
        head, self._head = self._head, None
        assert head is not None
        head.slots = self._slots
        return head

    def stop(self) -> None:
        """Give up: stop every child still running and drop what was absorbed."""
        self._head = None
        while self._running:
            self._running.popleft().stop()

    def _absorb(self, *, wait: bool) -> bool:
        """Absorb the parts of the oldest children, while they are done (or all of them,
        waiting for each); False, having given up, when one failed."""
        while self._running and (wait or self._running[0].done()):
            pieces = self._running.popleft()()
            if pieces is None or self._head is None:
                self.stop()
                return False
            self._head.lengths.append(self._head.builder.absorb(pieces))
        return True

    def _begins(self, slots: Sequence[Entry]) -> bool:
        parts = slots.parts if isinstance(slots, JoinedRows) else [slots]
        return len(parts) >= len(self._handed) and all(
            isinstance(part, TableView)
            and part.table is handed.table
            and isinstance(part.rows, range)
            and part.rows == handed.rows
            for part, handed in zip(parts, self._handed, strict=False)
        )
