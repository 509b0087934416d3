"""A cache's entries kept as the columns they were decoded from; an `Entry` is made on demand.

Decoding checks every column in bulk first (`entry_columns.decode_entries`), so making an entry
later cannot fail. What a warm start reads of every entry (ids, paths, dates, places, tags,
text length) comes from the columns; an entry is made for a row someone looks at (a hit shown,
a changed file's old entries) and kept by whoever holds it, never by the table: what the app no
longer shows is freed, even from a file removed since. The table only remembers, weakly, the
entries still held, so the next keystroke's hits reuse the ones the list shows (most of them).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import os
import weakref
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast, overload

import numpy as np

from memtui.core.cache.compact_columns import HeadingPaths, compact_column, given_rows, row_reader
from memtui.core.model import DateOrigin, Entry, EntryHead, Source, qualified_path
from memtui.core.search.arrays import IntArray
from memtui.core.search.slots import SOURCE_CODES, PlaceColumns

SOURCES = tuple(Source)
ORIGINS = tuple(DateOrigin)
_CODE_OF_SOURCE = np.asarray([SOURCE_CODES[source] for source in SOURCES], dtype=np.int64)
"""The cache's source numbers (places in SOURCES) as `SOURCE_CODES`."""
Rows = range | IntArray
"""Rows of a table: a range for a file's entries or a clean index, else an array."""
_WHERE = ("line_start", "line_end", "date", "time", "position", "count")
NUMBER_ORDER = (*_WHERE, "source", "origin", "level")
"""The number columns an entry is made of, in `EntryTable.entry`'s order."""
NUMBER_CHUNK = NUMBER_CHUNKS = 64
"""Rows whose numbers are converted together when rows are made in order (`_numbers_of`), and
chunks of them that stay converted, all tables together: ~1 MB at most."""
_converted: dict[tuple[int, int], list[tuple[int, ...]]] = {}
"""The chunks converted last, oldest first, by (table number, chunk). One bound for every table:
a cold load makes a table per SPOOL_ROWS entries, and NUMBER_CHUNKS each kept every row of
50,000 after the index build read them (~4 MB more than a warm start, which has one table)."""
_table_numbers = itertools.count()


BODY_PIECE = 16
"""Bodies per piece, each with its own checksum: what is read, checked and decoded to make one
entry (~13 KB at 50,000 entries; at 64, a keystroke's ~12 new hits took 0.8 ms of its 4.5)."""
CACHE_DAMAGED = (
    "this entry's text could not be read back from memtui's cache, which is damaged: the "
    "cache is removed, and the next start reads the folder again"
)


class CachedBodies:
    """The bodies, left in the cache file until an entry is made: at 50,000 entries they are
    ~40 MB a warm start no longer reads, checks and holds. A piece is read with `os.pread` on a
    descriptor kept open (a later write replaces the file by name, never this one), checked
    against its own checksum and decoded when a body in it is first asked for; the last piece
    read is kept for its neighbours (a file's entries, or `list` walking them all). No lock:
    two threads may read one piece twice, which costs less than a lock a forked child of the
    index build could inherit held (`core.live.fork`)."""

    def __init__(
        self, path: Path | None, kept: tuple[int, int, int], ends: IntArray, checksums: list[int]
    ) -> None:
        self._path = path
        """The cache file to remove when a piece is damaged (None: a spool, which has no name)."""
        self.damaged = False
        """A piece failed its checksum: the cache file is removed, and must not be written
        again from these rows (`codec.encode` refuses)."""
        self._descriptor, self._offset, _ = kept
        weakref.finalize(self, os.close, self._descriptor)
        self._ends = ends
        self._checksums = checksums
        self._last: tuple[int, _Piece | None] = (-1, None)

    def body(self, row: int) -> str | None:
        """Row `row`'s body; None when its piece no longer reads as it was written."""
        number, at = divmod(row, BODY_PIECE)
        last = self._last  # one read of the attribute: another thread may replace it
        if last[0] != number:
            last = self._last = (number, self._read(number))
        piece = last[1]
        body = None if piece is None else piece.body(at)
        if body is None and not self.damaged:
            self.damaged = True
            if self._path is not None:
                with contextlib.suppress(OSError):  # a read-only cache folder: kept, and
                    self._path.unlink(missing_ok=True)  # never written from these rows
        return body

    def _read(self, number: int) -> _Piece | None:
        """One piece, or None when it does not read back as it was written."""
        first = number * BODY_PIECE
        ends = self._ends[first : first + BODY_PIECE].tolist()
        begin = int(self._ends[first - 1]) if first else 0
        try:
            data = os.pread(self._descriptor, ends[-1] - begin, self._offset + begin)
        except OSError:
            return None
        if len(data) != ends[-1] - begin or zlib.crc32(data) != self._checksums[number]:
            return None
        return _Piece(data, begin, ends)


class _Piece:
    """One checked piece's bytes; a body is cut and decoded when asked for: a search's hits
    are scattered, so most pieces give one body, and splitting all 64 cost more than reading."""

    __slots__ = ("_begin", "_data", "_ends", "_text")

    def __init__(self, data: bytes, begin: int, ends: list[int]) -> None:
        self._data = data
        self._begin = begin
        self._ends = ends
        """Where each body ends, counted from the bodies section (as `begin`)."""
        self._text = data.decode("ascii") if data.isascii() else None
        """The usual case: decoded whole once (ASCII offsets are character offsets)."""

    def body(self, at: int) -> str | None:
        """Body `at` of the piece; None when its bytes are not UTF-8 (damaged)."""
        begin = self._begin
        start = self._ends[at - 1] - begin if at else 0
        stop = self._ends[at] - begin
        if self._text is not None:
            return self._text[start:stop]
        try:
            return self._data[start:stop].decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return None


class EntryTable:
    """Every cached entry of one root, as checked columns."""

    def __init__(
        self,
        paths: Sequence[str],
        strings: list[list[Any]],
        headings: HeadingPaths,
        bodies: CachedBodies,
        numbers: dict[str, IntArray],
        label: str,
    ) -> None:
        self.paths = paths
        self.ids = strings[0]
        self.titles, self.roles, self.tags, self.metadata, self.warnings = map(
            compact_column, strings[1:]
        )
        self.headings = headings
        self._readers = tuple(
            map(row_reader, (self.titles, self.roles, self.tags, self.metadata, self.warnings))
        )
        self.bodies = bodies
        self.numbers = numbers
        self.label = label
        self._dates: dict[int, dt.date | None] = {
            ordinal: dt.date.fromordinal(ordinal)
            for ordinal in set(numbers["date"].tolist())  # np.unique would import numpy.ma
            if ordinal >= 0
        }
        self._dates[-1] = None
        self._shared: dict[Any, Any] = {}
        """Equal tags, metadata and warnings made once (a file's entries repeat them). Not
        heading paths: nearly every entry has its own, and kept here every one made stayed."""
        self._number = next(_table_numbers)
        """This table's key in `_converted` (never reused, unlike `id`)."""
        self._last_made = -2
        """The row whose numbers were asked for last, unconverted (`_numbers_of`)."""
        self._chars: IntArray | None = None
        self._qualified: list[str] | None = None
        self._held: weakref.WeakValueDictionary[int, Entry] = weakref.WeakValueDictionary()
        """Entries made and still held by someone (the hits on screen), by row."""

    def __len__(self) -> int:
        return len(self.paths)

    def strings(self) -> list[Sequence[Any]]:
        """The JSON columns in `entry_columns.STRING_COLUMNS`' order, as decoded: what encoding
        the rows' entries would write again."""
        return [
            self.ids,
            self.titles,
            self.roles,
            self.tags,
            self.metadata,
            self.warnings,
        ]

    def entry(self, row: int) -> Entry:
        """Row `row`: the entry someone still holds, else made now (the caller keeps it as
        long as it needs it)."""
        entry = self._held.get(row)
        if entry is None:
            entry = self._held[row] = self._make(row)
        return entry

    def _make(self, row: int) -> Entry:
        start, end, date, micro, position, count, source, origin, level = self._numbers_of(row)
        heading = self.headings.path(row)
        title, role, tags, metadata, warnings = (read(row) for read in self._readers)
        body = self.bodies.body(row)
        if body is None:
            warnings = [*(warnings or ()), CACHE_DAMAGED]
        return Entry(
            self.ids[row],
            self.paths[row],
            SOURCES[source],
            heading[-1] if title is None else title,
            heading,
            body or "",
            start,
            end,
            self._dates[date],
            None if micro < 0 else _time(micro),
            ORIGINS[origin],
            position,
            count,
            role,
            self._share(tuple(tags)) if tags else (),
            self._share(tuple(self._share(tuple(pair)) for pair in metadata)) if metadata else (),
            self._share(tuple(warnings)) if warnings else (),
            self.label,
            level,
        )

    def heads(self, rows: range) -> list[EntryHead]:
        """Rows `rows` without their text (a file's entries, for `list`): the numbers converted
        for the whole range at once, no body read, no entry made."""
        numbers = zip(
            *(self.numbers[name][rows.start : rows.stop].tolist() for name in NUMBER_ORDER),
            strict=True,
        )
        title_of, role_of, tags_of, _, warnings_of = self._readers
        heads = []
        for row, heading, (line_start, line_end, date, micro, _, _, source, origin, _) in zip(
            rows, self.headings.paths(rows), numbers, strict=True
        ):
            title, tags, warnings = title_of(row), tags_of(row), warnings_of(row)
            heads.append(
                EntryHead(
                    self.ids[row],
                    self.paths[row],
                    SOURCES[source],
                    heading[-1] if title is None else title,
                    heading,
                    line_start,
                    line_end,
                    self._dates[date],
                    None if micro < 0 else _time(micro),
                    ORIGINS[origin],
                    role_of(row),
                    self._share(tuple(tags)) if tags else (),
                    self._share(tuple(warnings)) if warnings else (),
                    self.label,
                )
            )
        return heads

    def _numbers_of(self, row: int) -> tuple[int, ...]:
        """A row's numbers in NUMBER_ORDER, as Python ints. Rows made in order (a file's
        entries, a walk of them all) convert a chunk at a time, one numpy scalar at a time
        costing more than the rest of making the entry; a lone row (a search's hits are
        scattered) converts only itself, ~6x less than its chunk."""
        chunk, at = divmod(row, NUMBER_CHUNK)
        key = (self._number, chunk)
        rows = _converted.get(key)
        if rows is None:
            follows, self._last_made = self._last_made == row - 1, row
            if not follows:
                return tuple(int(self.numbers[name][row]) for name in NUMBER_ORDER)
            window = slice(chunk * NUMBER_CHUNK, (chunk + 1) * NUMBER_CHUNK)
            columns = [self.numbers[name][window].tolist() for name in NUMBER_ORDER]
            rows = _converted[key] = list(zip(*columns, strict=True))
            if len(_converted) > NUMBER_CHUNKS:
                with contextlib.suppress(RuntimeError, StopIteration):  # another thread's turn
                    _converted.pop(next(iter(_converted)), None)  # the oldest
        row_numbers: tuple[int, ...] = rows[at]
        return row_numbers

    def _share(self, value: Any) -> Any:
        return self._shared.setdefault(value, value)

    def chars(self) -> IntArray:
        """Each row's `Entry.text_chars`."""
        if self._chars is None:
            title_chars = self.headings.last_lengths()  # a title is the last heading but where
            for row, title in given_rows(self.titles):  # the entry has one of its own
                title_chars[row] = len(title)
            self._chars = self.numbers["body_chars"] + title_chars
        return self._chars

    def qualified(self) -> list[str]:
        """Each row's `Entry.qualified_path`."""
        if self._qualified is None:
            if self.label:
                known: dict[str, str] = {}  # a file's entries share one string
                self._qualified = [
                    known.get(path) or known.setdefault(path, qualified_path(self.label, path))
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
        for row in self.row_list():
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

    def row_list(self) -> Sequence[int]:
        """This view's rows as Python ints, in order."""
        return self.rows if isinstance(self.rows, range) else cast(list[int], self.rows.tolist())

    def column(self, column: Sequence[Any]) -> list[Any]:
        """This view's rows of a per-row column of its table."""
        if isinstance(self.rows, range):
            return list(column[self.rows.start : self.rows.stop])
        return [column[row] for row in self.rows.tolist()]

    def numbers(self, name: str) -> IntArray:
        """This view's rows of the table's number column `name`."""
        return self._rows_of(self.table.numbers[name])

    def _rows_of(self, column: IntArray) -> IntArray:
        """This view's rows of a per-row array (a slice when they are a range, no copy)."""
        if isinstance(self.rows, range):
            return column[self.rows.start : self.rows.stop]
        return column[self.rows]

    # --- columns (`EntryRows`) -------------------------------------------------------------

    def ids(self) -> list[str]:
        return self.column(self.table.ids)

    def paths(self) -> list[str]:
        return self.column(self.table.paths)

    def qualified_paths(self) -> list[str]:
        return self.column(self.table.qualified())

    def chars(self) -> IntArray:
        return self._rows_of(self.table.chars())

    def places(self) -> PlaceColumns:
        times = self.numbers("time")
        return PlaceColumns(
            date_ordinal=self.numbers("date"),
            seconds=np.where(times < 0, 0, times // 1_000_000),
            source_code=_CODE_OF_SOURCE[self.numbers("source")],
            line_start=self.numbers("line_start"),
            position=self.numbers("position"),
            count=self.numbers("count"),
        )

    def roles(self) -> list[str | None]:
        return self.column(self.table.roles)

    def roots(self) -> list[str]:
        return [self.table.label] * len(self.rows)

    def tags(self) -> list[tuple[str, ...]]:
        share = self.table._share
        return [share(tuple(tags)) if tags else () for tags in self.column(self.table.tags)]


def table_runs(parts: Iterable[Sequence[Entry] | None]) -> list[TableView | list[Entry]]:
    """The parts' entries in as few runs as they go in: a table's views over contiguous rows
    (its files, ~8,600 in a root) become one view, and neighbouring plain parts one list."""
    runs: list[TableView | list[Entry]] = []
    for part in parts:
        if not part:
            continue
        last = runs[-1] if runs else None
        if not isinstance(part, TableView):
            if isinstance(last, list):
                last.extend(part)
            else:
                runs.append(list(part))
        elif (
            isinstance(last, TableView)
            and last.table is part.table
            and isinstance(last.rows, range)
            and isinstance(part.rows, range)
            and last.rows.step == part.rows.step == 1
            and last.rows.stop == part.rows.start
        ):
            runs[-1] = TableView(part.table, range(last.rows.start, part.rows.stop))
        else:
            runs.append(part)
    return runs


def _same_rows(mine: Rows, theirs: Rows) -> bool:
    if isinstance(mine, range) and isinstance(theirs, range):
        return mine == theirs
    return bool(np.array_equal(np.asarray(mine), np.asarray(theirs)))


def _time(microseconds: int) -> dt.time:
    seconds, micro = divmod(microseconds, 1_000_000)
    return dt.time(seconds // 3600, seconds // 60 % 60, seconds % 60, micro)
