"""The live entries the health checks read: what every check reads of all of them as columns,
and an `Entry` made only for those a check looks closer at or reports.

A warm start's entries are rows of the cache's table (`core.cache.entry_table`). Making all
50,000 of them cost ~0.35 s and held their 40 MB of bodies at once, where the checks read the
title, file, line and date of every entry and each body once (the secrets scan): those come
straight from the table's columns, a body from the cache file when it is read.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import TypeVar, overload

import numpy as np

from memtui.core.cache.entry_columns import view_keys, view_titles
from memtui.core.cache.entry_table import TableView
from memtui.core.model import Entry
from memtui.core.search.arrays import BoolArray, IntArray
from memtui.core.search.slots import JoinedRows, columns_and_rest

T = TypeVar("T")


class LiveEntries(Sequence[Entry]):
    """The live entries in slot order (dead slots left out): `[i]` makes entry i from the
    columns when it is a table's row; `titles`, `roots`, `paths`, `qualified_paths`,
    `line_start` and `date_ordinal` hold that field of every entry, `body(i)` reads a body."""

    __slots__ = (
        "_live",
        "_rest",
        "_rows",
        "_slots",
        "_starts",
        "_tags",
        "_titles",
        "_views",
        "date_ordinal",
        "line_start",
        "paths",
        "qualified_paths",
        "roots",
    )

    def __init__(self, slots: Sequence[Entry], alive: BoolArray) -> None:
        rows, rest = columns_and_rest(slots)
        views = _table_views(rows)
        if views is None:
            views, rest = [], slots
        self._slots = slots
        self._views = views
        self._rest = rest
        self._starts = list(accumulate((len(view) for view in views), initial=0))
        """Where each table view's rows start among the slots; the slots after them are `rest`."""
        self._rows = [(view.table, view.row_list()) for view in views]
        """Each view's table and rows as Python ints (a body is read by row)."""
        self._live: list[int] | None = None if bool(alive.all()) else np.flatnonzero(alive).tolist()
        """Slot of each live entry (None: every slot is live)."""
        self._titles: list[str] | None = None
        self._tags: list[tuple[str, ...]] | None = None
        self.paths = self._picked(
            [*(path for view in views for path in view.paths()), *(e.path for e in rest)]
        )
        self.roots = self._picked(
            [*(root for view in views for root in view.roots()), *(e.root for e in rest)]
        )
        self.qualified_paths = self._picked(
            [
                *(path for view in views for path in view.qualified_paths()),
                *(entry.qualified_path for entry in rest),
            ]
        )
        self.line_start = self._picked(
            [
                *(line for view in views for line in view.numbers("line_start").tolist()),
                *(entry.line_start for entry in rest),
            ]
        )
        ordinals = [
            *(day for view in views for day in view.numbers("date").tolist()),
            *(-1 if entry.date is None else entry.date.toordinal() for entry in rest),
        ]
        self.date_ordinal: IntArray = np.asarray(self._picked(ordinals), dtype=np.int64)
        """Each entry's date as an ordinal, -1 when it has none."""

    def _picked(self, values: list[T]) -> list[T]:
        """The live slots' values of a per-slot column."""
        return values if self._live is None else [values[slot] for slot in self._live]

    @property
    def titles(self) -> list[str]:
        """Each entry's title, gathered when first asked: a warm `health` looks up the keys
        kept of them instead (`keys`), and gathering 50,000 took ~30 ms."""
        if self._titles is None:
            self._titles = self._picked(
                [
                    *(title for view in self._views for title in view_titles(view)),
                    *(entry.title for entry in self._rest),
                ]
            )
        return self._titles

    @property
    def tags(self) -> list[tuple[str, ...]]:
        """Each entry's frontmatter tags, gathered when first asked (only the secrets scan of
        entries not scanned before reads them)."""
        if self._tags is None:
            self._tags = self._picked(
                [
                    *(tags for view in self._views for tags in view.tags()),
                    *(entry.tags for entry in self._rest),
                ]
            )
        return self._tags

    def __len__(self) -> int:
        return len(self.paths)

    @overload
    def __getitem__(self, at: int) -> Entry: ...

    @overload
    def __getitem__(self, at: slice) -> list[Entry]: ...

    def __getitem__(self, at: int | slice) -> Entry | list[Entry]:
        if isinstance(at, slice):
            return [self[index] for index in range(*at.indices(len(self)))]
        return self._slots[self._slot(at)]

    def body(self, at: int) -> str:
        """Entry `at`'s body (`Entry.body`), without making the entry."""
        slot = self._slot(at)
        starts = self._starts
        if slot >= starts[-1]:
            return self._slots[slot].body
        part = 0 if len(starts) == 2 else bisect_right(starts, slot) - 1
        table, rows = self._rows[part]
        return table.bodies.body(rows[slot - starts[part]]) or ""

    def keys(
        self, name: str, work_out: Callable[[list[int]], IntArray], among: Sequence[int] | IntArray
    ) -> IntArray:
        """Key column `name` (`core.cache.entry_columns.KEY_COLUMNS`) of the entries `among`:
        a table's own where it has it, `work_out(indexes)` for the others (entries read or
        changed since the cache was written, and a cold load's)."""
        column = np.zeros(len(self._slots), dtype=np.int64)
        known = np.zeros(len(self._slots), dtype=bool)
        for view, start in zip(self._views, self._starts, strict=False):
            kept = view_keys(view, name)
            if kept is not None:
                column[start : start + len(view)] = kept
                known[start : start + len(view)] = True
        if self._live is not None:
            column, known = column[self._live], known[self._live]
        wanted = np.asarray(among, dtype=np.int64)
        keys = column[wanted]
        missing = np.flatnonzero(~known[wanted])
        if len(missing):
            keys[missing] = work_out(wanted[missing].tolist())
        return keys

    def _slot(self, at: int) -> int:
        size = len(self.paths)
        if not -size <= at < size:
            raise IndexError(at)
        at %= size
        return at if self._live is None else self._live[at]


def _table_views(rows: object) -> list[TableView] | None:
    """The table views `rows` is made of; None when it is not made of tables' rows."""
    if isinstance(rows, TableView):
        return [rows]
    if isinstance(rows, JoinedRows) and all(isinstance(part, TableView) for part in rows.parts):
        return [part for part in rows.parts if isinstance(part, TableView)]
    return None
