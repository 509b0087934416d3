"""A cache's entries kept as the columns they were decoded from; an `Entry` is made on demand.

Decoding checks every column in bulk first (`entry_columns.decode_entries`), so making an entry
later cannot fail. What a warm start reads of every entry (ids, paths, dates, places, tags,
text length) comes from the columns; the entries themselves are made for the rows someone looks
at (the hits shown, a changed file's old entries) and kept, so a row is made once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import Any, cast, overload

import numpy as np

from memtui.core.model import DateOrigin, Entry, Source
from memtui.core.search.arrays import IntArray
from memtui.core.search.slots import SOURCE_CODES, PlaceColumns

SOURCES = tuple(Source)
ORIGINS = tuple(DateOrigin)
_CODE_OF_SOURCE = np.asarray([SOURCE_CODES[source] for source in SOURCES], dtype=np.int64)
"""The cache's source numbers (places in SOURCES) as `SOURCE_CODES`."""
Rows = range | IntArray
NUMBER_ORDER = ("line_start", "line_end", "date", "time", "position", "count", "source", "origin")
"""Rows of a table: a range for a file's entries or a clean index, else an array."""


class BodyChunks:
    """Bodies as the cache stored them, CHUNK rows per piece: an all-ASCII piece is kept whole
    and cut when a body is asked for; any other piece as its bodies, decoded (and so checked)
    when the cache was read."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pieces: list[str | list[str]] = []
        self.bounds: list[tuple[list[int], list[int]]] = []
        self.chars: list[int] = []
        """Characters of each row's body, in row order."""

    def add_ascii(self, text: str, starts: list[int], ends: list[int]) -> None:
        self.pieces.append(text)
        self.bounds.append((starts, ends))
        self.chars.extend(end - start for start, end in zip(starts, ends, strict=True))

    def add_decoded(self, bodies: list[str]) -> None:
        self.pieces.append(bodies)
        self.bounds.append(([], []))
        self.chars.extend(map(len, bodies))

    def body(self, row: int) -> str:
        piece_number, at = divmod(row, self.size)
        piece = self.pieces[piece_number]
        if isinstance(piece, list):
            return piece[at]
        starts, ends = self.bounds[piece_number]
        return piece[starts[at] : ends[at]]


class EntryTable:
    """Every cached entry of one root, as checked columns."""

    def __init__(
        self,
        paths: Sequence[str],
        strings: list[list[Any]],
        bodies: BodyChunks,
        numbers: dict[str, IntArray],
        label: str,
    ) -> None:
        self.paths = paths
        self.ids, self.titles, self.headings, self.roles, self.tags, self.metadata = strings[:6]
        self.warnings = strings[6]
        self.bodies = bodies
        self.numbers = numbers
        self.label = label
        self.made: list[Entry | None] = [None] * len(paths)
        self._dates: dict[int, dt.date | None] = {
            ordinal: dt.date.fromordinal(ordinal)
            for ordinal in set(numbers["date"].tolist())  # np.unique would import numpy.ma
            if ordinal >= 0
        }
        self._dates[-1] = None
        self._shared: dict[Any, Any] = {}
        """Equal heading paths, tags, metadata and warnings made once (a file's entries repeat
        them)."""
        self._number_rows: dict[int, list[tuple[int, ...]]] = {}
        self._chars: IntArray | None = None
        self._qualified: list[str] | None = None

    def __len__(self) -> int:
        return len(self.made)

    def entry(self, row: int) -> Entry:
        made = self.made[row]
        if made is None:
            made = self.made[row] = self._make(row)
        return made

    def _make(self, row: int) -> Entry:
        line_start, line_end, date, micro, position, count, source, origin = self._numbers_of(row)
        heading = self._share(tuple(self.headings[row]))
        title = self.titles[row]
        tags, metadata, warnings = self.tags[row], self.metadata[row], self.warnings[row]
        return Entry(
            self.ids[row],
            self.paths[row],
            SOURCES[source],
            heading[-1] if title is None else title,
            heading,
            self.bodies.body(row),
            line_start,
            line_end,
            self._dates[date],
            None if micro < 0 else _time(micro),
            ORIGINS[origin],
            position,
            count,
            self.roles[row],
            self._share(tuple(tags)) if tags else (),
            self._share(tuple(self._share(tuple(pair)) for pair in metadata)) if metadata else (),
            self._share(tuple(warnings)) if warnings else (),
            self.label,
        )

    def _numbers_of(self, row: int) -> tuple[int, ...]:
        """A row's numbers in NUMBER_ORDER, as Python ints: converted a chunk of rows at a
        time when one of them is first made (one numpy scalar at a time cost more than the
        rest of making the entry)."""
        chunk, at = divmod(row, self.bodies.size)
        rows = self._number_rows.get(chunk)
        if rows is None:
            window = slice(chunk * self.bodies.size, (chunk + 1) * self.bodies.size)
            columns = [self.numbers[name][window].tolist() for name in NUMBER_ORDER]
            rows = self._number_rows[chunk] = list(zip(*columns, strict=True))
        return rows[at]

    def _share(self, value: Any) -> Any:
        return self._shared.setdefault(value, value)

    def chars(self) -> IntArray:
        """Each row's `Entry.text_chars`."""
        if self._chars is None:
            title_chars = [
                len(heading[-1]) if title is None else len(title)
                for title, heading in zip(self.titles, self.headings, strict=True)
            ]
            self._chars = np.asarray(self.bodies.chars, dtype=np.int64) + np.asarray(
                title_chars, dtype=np.int64
            )
        return self._chars

    def qualified(self) -> list[str]:
        """Each row's `Entry.qualified_path`."""
        if self._qualified is None:
            if self.label:
                known: dict[str, str] = {}
                self._qualified = [
                    known.get(path) or known.setdefault(path, f"{self.label}/{path}")
                    for path in self.paths
                ]
            else:
                self._qualified = list(self.paths)
        return self._qualified


class TableView(Sequence[Entry]):
    """Some rows of a table, as entries (`core.search.slots.EntryRows`): a file's entries, or
    an index's slots."""

    __slots__ = ("rows", "table")

    def __init__(self, table: EntryTable, rows: Rows) -> None:
        self.table = table
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, at: int) -> Entry: ...

    @overload
    def __getitem__(self, at: slice) -> TableView: ...

    def __getitem__(self, at: int | slice) -> Entry | TableView:
        if isinstance(at, slice):
            return TableView(self.table, self.rows[at])
        return self.table.entry(int(self.rows[at]))

    def __iter__(self) -> Iterator[Entry]:
        entry = self.table.entry
        for row in self._row_list():
            yield entry(row)

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if isinstance(other, TableView) and other.table is self.table:
            return _same_rows(self.rows, other.rows)
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(
                mine == theirs for mine, theirs in zip(self, other, strict=True)
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TableView({len(self)} rows)"

    def _row_list(self) -> Sequence[int]:
        return self.rows if isinstance(self.rows, range) else cast(list[int], self.rows.tolist())

    def _column(self, column: Sequence[Any]) -> list[Any]:
        if isinstance(self.rows, range):
            return list(column[self.rows.start : self.rows.stop])
        return [column[row] for row in self.rows.tolist()]

    def _numbers(self, name: str) -> IntArray:
        column = self.table.numbers[name]
        if isinstance(self.rows, range):
            return column[self.rows.start : self.rows.stop]
        return column[self.rows]

    # --- columns (`EntryRows`) -------------------------------------------------------------

    def ids(self) -> list[str]:
        return self._column(self.table.ids)

    def paths(self) -> list[str]:
        return self._column(self.table.paths)

    def qualified_paths(self) -> list[str]:
        return self._column(self.table.qualified())

    def text_chars(self) -> int:
        chars = self.table.chars()
        if isinstance(self.rows, range):
            return int(chars[self.rows.start : self.rows.stop].sum())
        return int(chars[self.rows].sum())

    def places(self) -> PlaceColumns:
        times = self._numbers("time")
        return PlaceColumns(
            date_ordinal=self._numbers("date"),
            seconds=np.where(times < 0, 0, times // 1_000_000),
            source_code=_CODE_OF_SOURCE[self._numbers("source")],
            line_start=self._numbers("line_start"),
            position=self._numbers("position"),
            count=self._numbers("count"),
        )

    def tags(self) -> list[tuple[str, ...]]:
        share = self.table._share
        return [share(tuple(tags)) if tags else () for tags in self._column(self.table.tags)]


def _same_rows(mine: Rows, theirs: Rows) -> bool:
    if isinstance(mine, range) and isinstance(theirs, range):
        return mine == theirs
    return bool(np.array_equal(np.asarray(mine), np.asarray(theirs)))


def _time(microseconds: int) -> dt.time:
    seconds, micro = divmod(microseconds, 1_000_000)
    return dt.time(seconds // 3600, seconds // 60 % 60, seconds % 60, micro)
