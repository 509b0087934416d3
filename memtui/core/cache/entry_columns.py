"""Entries as cache sections, column by column, and back.

Numbers and enums are `.npy` arrays (read back in C, already checked to be integers); bodies,
most of the bytes, are one UTF-8 section cut by an array of byte end offsets, with a CRC-32 per
piece of BODY_PIECE bodies; the remaining strings are JSON columns. Decoding checks every column
in bulk and returns a view of them (`core.cache.entry_table`): no entry is made and no body is
read until someone looks at one. Encoding such a view again reads its columns as they are, and
writes the very bytes its entries would.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, compress, islice, repeat
from operator import attrgetter, is_, is_not
from typing import Any

import numpy as np
import numpy.typing as npt

from memtui.core.cache.compact_columns import HeadingPaths, row_reader
from memtui.core.cache.container import (
    CacheCorrupt,
    Container,
    Section,
    array_section,
    json_section,
)
from memtui.core.cache.entry_table import (
    BODY_PIECE,
    ORIGINS,
    SOURCES,
    CachedBodies,
    EntryTable,
    TableView,
    table_runs,
)
from memtui.core.model import Entry
from memtui.core.search.entry_keys import text_hash, topic_hashes

CHUNK = 2000
"""Entries encoded per piece: small enough that no single step holds the GIL for long."""
_SOURCE_CODE = {source: code for code, source in enumerate(SOURCES)}
_ORIGIN_CODE = {origin: code for code, origin in enumerate(ORIGINS)}
_MICROSECONDS_PER_DAY = 86_400_000_000
_DAMAGED = "its entries came from a damaged cache: the next start reads again"


def _microseconds(entry: Entry) -> int:
    time = entry.time
    if time is None:
        return -1
    return ((time.hour * 60 + time.minute) * 60 + time.second) * 1_000_000 + time.microsecond


NUMBER_COLUMNS: dict[str, Callable[[Entry], int]] = {
    "line_start": attrgetter("line_start"),
    "line_end": attrgetter("line_end"),
    "date": lambda entry: -1 if entry.date is None else entry.date.toordinal(),
    "time": _microseconds,
    "position": attrgetter("position"),
    "count": attrgetter("count"),
    "source": lambda entry: _SOURCE_CODE[entry.source],
    "origin": lambda entry: _ORIGIN_CODE[entry.date_origin],
    "level": attrgetter("heading_level"),
    "body_chars": lambda entry: len(entry.body),
}
"""Integer columns; `date` is an ordinal and `time` microseconds since midnight, -1 when
absent; `source` and `origin` index SOURCES and ORIGINS; `level` is the heading's (0: none)."""
STRING_COLUMNS: dict[str, Callable[[Entry], Any]] = {
    "id": attrgetter("id"),
    "title": lambda entry: (
        None if entry.heading_path and entry.title == entry.heading_path[-1] else entry.title
    ),
    "role": attrgetter("role"),
    "tags": lambda entry: entry.tags or None,
    "metadata": lambda entry: entry.metadata or None,
    "warnings": lambda entry: entry.warnings or None,
}
"""JSON columns (heading paths are sections of their own: `HeadingPaths`); `title` is null
when it is the last heading (written once), and so are empty tags, metadata and warnings: most
entries have none, and decoding 150,000 empty lists at 50k entries left their memory scattered
among the entries' strings."""

KEY_COLUMNS = ("text_hash", "topic_hash")
"""Integer columns worked out when the cache is written, not when a file is read: what the
health checks look up instead of working out (`core.search.entry_keys`). A cold load's
tables (`core.cache.spool`) have none; entries without them are worked out when asked."""


# --- encoding ------------------------------------------------------------------------------


def entry_sections(parts: Iterable[Sequence[Entry] | None]) -> Iterator[Section]:
    """The sections of the parts' entries one after the other (each file's), each section made
    just before it is written. Where a part is rows of a cache table its columns are read as
    they are, so no entry is made: at 50,000 entries making them all held ~90 MB."""
    runs = table_runs(parts)
    count = sum(map(len, runs))
    checksums: list[int] = []
    lengths = np.zeros(count, dtype=np.int64)  # each body's bytes, filled as it is written
    yield Section("entries", _column_pieces(runs))
    headings = HeadingPaths.of(_heading_paths(runs))
    yield json_section("headings", headings.strings)
    yield array_section("heading_ids", headings.ids)
    yield array_section("heading_ends", headings.ends)
    del headings
    keys = _KeyColumns(runs, count)
    yield Section("bodies", body_pieces(runs, checksums, lengths, keys.hashing(runs)))
    yield array_section("body_checksums", np.asarray(checksums, dtype=np.int64))  # once written
    yield array_section("body_ends", np.cumsum(lengths))  # once written too
    for name, value in NUMBER_COLUMNS.items():
        yield array_section(name, _number_column(runs, count, name, value))
    yield array_section("text_hash", keys.text)  # once the bodies are written
    yield array_section("topic_hash", keys.topic)


def refuse_damaged(parts: Iterable[Sequence[Entry] | None]) -> None:
    """Raise ValueError for rows of a cache table whose bodies failed their checksums: the
    next start must read their files again, not trust a cache written from them."""
    if any(isinstance(part, TableView) and part.table.bodies.damaged for part in parts):
        raise ValueError(_DAMAGED)


def _column_pieces(runs: Sequence[TableView | list[Entry]]) -> Iterator[bytes]:
    """{"id": [...], "title": [...], ...}, one column at a time, CHUNK entries per piece."""
    for number, (name, value) in enumerate(STRING_COLUMNS.items()):
        yield f'{"{" if number == 0 else ","}"{name}":['.encode("ascii")
        written = False
        for run in runs:
            for start in range(0, len(run), CHUNK):
                if isinstance(run, TableView):
                    values = run[start : start + CHUNK].column(run.table.strings()[number])
                else:
                    values = [value(entry) for entry in run[start : start + CHUNK]]
                chunk = json.dumps(values, separators=(",", ":"))
                yield (b"," if written else b"") + chunk[1:-1].encode("ascii")
                written = True
        yield b"]"
    yield b"}"


def body_pieces(
    runs: Sequence[TableView | list[Entry]],
    checksums: list[int],
    lengths: npt.NDArray[np.int64],
    bodies: Iterator[str] | None = None,
) -> Iterator[bytes]:
    """BODY_PIECE bodies per piece (the runs', or `bodies`), each piece's CRC-32 appended to
    `checksums` and each body's length in bytes written to `lengths`."""
    bodies = _bodies(runs) if bodies is None else bodies
    for start in range(0, len(lengths), BODY_PIECE):
        some = list(islice(bodies, BODY_PIECE))
        lengths[start : start + len(some)] = list(map(_utf8_length, some))
        piece = "".join(some).encode("utf-8", "surrogatepass")
        checksums.append(zlib.crc32(piece))
        yield piece


def _heading_paths(runs: Sequence[TableView | list[Entry]]) -> Iterator[tuple[str, ...]]:
    for run in runs:
        if isinstance(run, TableView):
            path = run.table.headings.path
            yield from map(path, run.row_list())
        else:
            yield from (entry.heading_path for entry in run)


def _bodies(runs: Sequence[TableView | list[Entry]]) -> Iterator[str]:
    """Every body in order: a table's rows walked in order read each piece of its bodies
    once (it keeps the last piece read); one that no longer reads back is refused."""
    for run in runs:
        if not isinstance(run, TableView):
            yield from (entry.body for entry in run)
            continue
        body = run.table.bodies.body
        for row in run.row_list():
            text = body(row)
            if text is None:
                raise ValueError(_DAMAGED)
            yield text


def _number_column(
    runs: Sequence[TableView | list[Entry]],
    count: int,
    name: str,
    value: Callable[[Entry], int],
) -> npt.NDArray[np.int64]:
    column = np.empty(count, dtype=np.int64)
    at = 0
    for run in runs:
        column[at : at + len(run)] = (
            run.numbers(name)
            if isinstance(run, TableView)
            else np.fromiter(map(value, run), np.int64, len(run))
        )
        at += len(run)
    return column


class _KeyColumns:
    """The key columns of the runs: a table's own where it has both, else worked out, the
    text hashes as the bodies go by to be written (each body is read once)."""

    def __init__(self, runs: Sequence[TableView | list[Entry]], count: int) -> None:
        self.text = np.empty(count, dtype=np.int64)
        self.topic = np.empty(count, dtype=np.int64)
        self._titles: list[list[str] | None] = []
        """Each run's titles where its text hashes are worked out, else None."""
        at = 0
        for run in runs:
            text, topic = (
                (view_keys(run, "text_hash"), view_keys(run, "topic_hash"))
                if isinstance(run, TableView)
                else (None, None)
            )
            rows = slice(at, at + len(run))
            if text is not None and topic is not None:
                self.text[rows], self.topic[rows] = text, topic
                self._titles.append(None)
            else:
                titles = view_titles(run) if isinstance(run, TableView) else [e.title for e in run]
                self.topic[rows] = topic_hashes(titles)
                self._titles.append(titles)
            at += len(run)

    def hashing(self, runs: Sequence[TableView | list[Entry]]) -> Iterator[str]:
        """Every body in order (`_bodies`), each hashed with its title where it has to be."""
        at = 0
        for run, titles in zip(runs, self._titles, strict=True):
            if titles is None:
                yield from _bodies([run])
            else:
                for offset, body in enumerate(_bodies([run])):
                    self.text[at + offset] = text_hash(titles[offset], body)
                    yield body
            at += len(run)


def view_keys(view: TableView, name: str) -> npt.NDArray[np.int64] | None:
    """The view's rows of its table's key column `name`; None when the table has none."""
    return view.numbers(name) if name in view.table.numbers else None


def view_titles(view: TableView) -> list[str]:
    """Each row's `Entry.title`: its own title, else its last heading (no entry made)."""
    table = view.table
    title_of, last_heading = row_reader(table.titles), table.headings.last_reader()
    return [
        last_heading(row) if (title := title_of(row)) is None else title for row in view.row_list()
    ]


def _utf8_length(text: str) -> int:
    """Bytes `text` takes in the bodies section (`isascii` is a flag lookup: no encoding for
    the usual all-ASCII body)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


# --- decoding ------------------------------------------------------------------------------


def decode_entries(container: Container, paths: Sequence[str], label: str) -> EntryTable:
    """The cached entries in order, `paths[i]` being entry i's file, as a table of their
    checked columns (entries are made when looked at); raises CacheCorrupt."""
    strings = container.json("entries")
    ends = container.array("body_ends", lambda dtype: dtype == np.int64)
    numbers = [
        container.array(name, lambda dtype: dtype == np.int64)
        for name in (*NUMBER_COLUMNS, *KEY_COLUMNS)
    ]
    headings = HeadingPaths(
        container.json("headings"),
        container.array("heading_ids", lambda dtype: dtype == np.int64),
        container.array("heading_ends", lambda dtype: dtype == np.int64),
    )
    if not isinstance(strings, dict) or strings.keys() != set(STRING_COLUMNS):
        raise CacheCorrupt("entry columns missing")
    columns = [strings[name] for name in STRING_COLUMNS]
    if not all(isinstance(column, list) for column in columns) or any(
        len(column) != len(paths) for column in (*columns, ends, *numbers, headings.ends)
    ):
        raise CacheCorrupt("entry columns differ in length")
    if not _cut_into_rows(ends, container.size("bodies")):
        raise CacheCorrupt("entry bodies do not match the entries")
    checksums = container.array("body_checksums", lambda dtype: dtype == np.int64)
    if len(checksums) != -(-len(paths) // BODY_PIECE) or (
        len(checksums) and (checksums.min() < 0 or checksums.max() >= 1 << 32)
    ):
        raise CacheCorrupt("body checksums do not match the bodies")
    number = dict(zip((*NUMBER_COLUMNS, *KEY_COLUMNS), numbers, strict=True))
    try:
        _check(columns, headings, number)
        bodies = CachedBodies(
            container.path, container.kept_section("bodies"), ends, checksums.tolist()
        )
        table = EntryTable(paths, columns, headings, bodies, number, label)
    except (ValueError, TypeError, IndexError, KeyError, OverflowError) as exc:
        raise CacheCorrupt(f"damaged entries ({type(exc).__name__}: {exc})") from None
    return table


def _check(
    columns: list[list[Any]], headings: HeadingPaths, number: dict[str, npt.NDArray[Any]]
) -> None:
    """Raise ValueError or TypeError unless every entry can be made from the columns: every
    string a string (checked by `str.join`), enum codes and times in range, heading ids in
    range and their ends in order, a heading wherever the title is the last heading, tags,
    metadata pairs and warnings lists of strings. Each check runs in C over a whole column
    (`map`, `compress`, `set`): at 50,000 entries a loop in Python was a tenth of a warm
    start."""
    ids, titles, roles, tags, metadata, warnings = columns
    sources, origins, times = number["source"], number["origin"], number["time"]
    if len(sources) and (
        sources.min() < 0
        or sources.max() >= len(SOURCES)
        or origins.min() < 0
        or origins.max() >= len(ORIGINS)
        or times.max() >= _MICROSECONDS_PER_DAY
    ):
        raise ValueError("an enum code or a time of day out of range")
    _check_headings(headings, titles)
    if not set(map(type, chain(tags, metadata, warnings))) <= {list, type(None)}:
        raise TypeError("tags, metadata or warnings are not lists")
    pairs = list(chain.from_iterable(filter(None, metadata)))
    if not all(type(pair) is list and len(pair) == 2 for pair in pairs):
        raise ValueError("metadata pairs damaged")
    _all_text(
        chain(
            ids,
            compress(titles, _given(titles)),
            compress(roles, _given(roles)),
            headings.strings,
            chain.from_iterable(filter(None, tags)),
            chain.from_iterable(filter(None, warnings)),
            chain.from_iterable(pairs),
        )
    )


def _check_headings(headings: HeadingPaths, titles: list[Any]) -> None:
    strings, ids, ends = headings.strings, headings.ids, headings.ends
    if not isinstance(strings, list):
        raise TypeError("the headings are not a list")
    if not _cut_into_rows(ends, len(ids)) or (
        len(ids) and (ids.min() < 0 or ids.max() >= len(strings))
    ):
        raise ValueError("heading ids damaged")
    untitled = np.fromiter(_none(titles), bool, len(titles))
    if bool(np.any(untitled & (np.diff(ends, prepend=0) == 0))):
        raise ValueError("an entry has neither a title nor a heading")


def _cut_into_rows(ends: npt.NDArray[np.int64], total: int) -> bool:
    """Whether `ends` cut `total` items (bytes, ids) into rows one after the other: from 0,
    never back, and the last ending at the total."""
    return (int(ends[-1]) if len(ends) else 0) == total and not bool(
        np.any(np.diff(ends, prepend=0) < 0)
    )


def _none(values: list[Any]) -> Iterator[bool]:
    return map(is_, values, repeat(None))


def _given(values: list[Any]) -> Iterator[bool]:
    return map(is_not, values, repeat(None))


def _all_text(values: Iterable[Any]) -> None:
    """Raise TypeError unless every value is a string (`str.join` checks that in C)."""
    "".join(values)
