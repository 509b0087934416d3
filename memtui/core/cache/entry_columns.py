"""Entries as cache sections, column by column, and back.

Numbers and enums are `.npy` arrays (read back in C, already checked to be integers); bodies,
most of the bytes, are one UTF-8 section sliced by an array of end offsets; the remaining
strings are one short JSON row per entry. Decoding 50,000 entries this way is several times
cheaper than parsing their files again.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import Any, cast

import numpy as np

from memtui.core.cache.container import CacheCorrupt, Container, Section, array_section
from memtui.core.model import DateOrigin, Entry, Source

CHUNK = 2000
"""Entries encoded per piece: small enough that no single step holds the GIL for long."""
SOURCES = tuple(Source)
ORIGINS = tuple(DateOrigin)
_SOURCE_CODE = {source: code for code, source in enumerate(SOURCES)}
_ORIGIN_CODE = {origin: code for code, origin in enumerate(ORIGINS)}
_MICROSECONDS_PER_DAY = 86_400_000_000
NUMBER_COLUMNS = ("line_start", "line_end", "date", "time", "position", "count", "source",
                  "origin")
"""Integer columns; `date` is an ordinal and `time` microseconds since midnight, -1 when
absent; `source` and `origin` index SOURCES and ORIGINS."""


# --- encoding ------------------------------------------------------------------------------


def entry_sections(entries: Sequence[Entry]) -> list[Section]:
    numbers = {name: np.zeros(len(entries), dtype=np.int64) for name in NUMBER_COLUMNS}
    for at, entry in enumerate(entries):
        time = entry.time
        numbers["line_start"][at] = entry.line_start
        numbers["line_end"][at] = entry.line_end
        numbers["date"][at] = -1 if entry.date is None else entry.date.toordinal()
        numbers["time"][at] = -1 if time is None else (
            ((time.hour * 60 + time.minute) * 60 + time.second) * 1_000_000 + time.microsecond)
        numbers["position"][at] = entry.position
        numbers["count"][at] = entry.count
        numbers["source"][at] = _SOURCE_CODE[entry.source]
        numbers["origin"][at] = _ORIGIN_CODE[entry.date_origin]
    return [
        Section("entries", _row_pieces(entries)),
        Section("bodies", _body_pieces(entries)),
        array_section("body_ends", np.cumsum([len(entry.body) for entry in entries],
                                             dtype=np.int64)),
        *(array_section(name, column) for name, column in numbers.items()),
    ]


def _row(entry: Entry) -> list[Any]:
    """The strings of an entry; the title is left out when it is the last heading."""
    repeated = bool(entry.heading_path) and entry.title == entry.heading_path[-1]
    return [entry.id, None if repeated else entry.title, list(entry.heading_path), entry.role,
            list(entry.tags), [list(pair) for pair in entry.metadata], list(entry.warnings)]


def _row_pieces(entries: Sequence[Entry]) -> Iterator[bytes]:
    yield b"["
    for start in range(0, len(entries), CHUNK):
        chunk = json.dumps([_row(entry) for entry in entries[start:start + CHUNK]],
                           separators=(",", ":"))
        yield (b"," if start else b"") + chunk[1:-1].encode("ascii")
    yield b"]"


def _body_pieces(entries: Sequence[Entry]) -> Iterator[bytes]:
    for start in range(0, len(entries), CHUNK):
        yield "".join(entry.body for entry in entries[start:start + CHUNK]).encode(
            "utf-8", "surrogatepass")


# --- decoding ------------------------------------------------------------------------------


def decode_entries(container: Container, paths: Sequence[str], label: str) -> list[Entry]:
    """The cached entries in order, `paths[i]` being entry i's file; raises CacheCorrupt."""
    rows = container.json("entries")
    text = container.text("bodies")
    ends = container.array("body_ends", lambda dtype: dtype == np.int64).tolist()
    columns = [container.array(name, lambda dtype: dtype == np.int64).tolist()
               for name in NUMBER_COLUMNS]
    count = len(paths)
    if not isinstance(rows, list) or any(len(column) != count for column in (rows, ends,
                                                                           *columns)):
        raise CacheCorrupt("entry columns differ in length")
    if ends and (ends[-1] != len(text) or any(a > b for a, b in pairwise([0, *ends]))):
        raise CacheCorrupt("entry bodies do not match the entries")
    decoder = _Decoder(label, text)
    try:
        return [decoder.entry(*values) for values in zip(
            paths, rows, [0, *ends][:len(ends)], ends, *columns, strict=True)]
    except (ValueError, TypeError, IndexError, KeyError, OverflowError) as exc:
        raise CacheCorrupt(f"damaged entries ({type(exc).__name__}: {exc})") from None


class _Decoder:
    """Builds entries from column values, sharing equal dates and tuples (a file's entries
    repeat their tags, frontmatter and warnings) and checking that strings are strings."""

    def __init__(self, label: str, text: str) -> None:
        self.label = label
        self.text = text
        self.dates: dict[int, dt.date] = {}
        self.shared: dict[Any, Any] = {}

    def entry(self, path: str, row: list[Any], begin: int, end: int, line_start: int,
              line_end: int, ordinal: int, microseconds: int, position: int, count: int,
              source: int, origin: int) -> Entry:
        identifier, title, heading_path, role, tags, metadata, warnings = row
        heading = tuple(heading_path)
        if title is None:  # written once, as the last heading
            title = heading[-1]
        _all_text((identifier, title, role or "", *heading))
        if source < 0 or origin < 0:
            raise IndexError("enum code out of range")
        date = None
        if ordinal >= 0:
            date = self.dates.get(ordinal)
            if date is None:
                date = self.dates[ordinal] = dt.date.fromordinal(ordinal)
        return Entry(
            identifier, path, SOURCES[source], title, heading, self.text[begin:end], line_start,
            line_end, date, None if microseconds < 0 else _time(microseconds), ORIGINS[origin],
            position, count, role, self._strings(tags) if tags else (),
            self._pairs(metadata) if metadata else (),
            self._strings(warnings) if warnings else (), self.label,
        )

    def _strings(self, values: list[Any]) -> tuple[str, ...]:
        key = tuple(values)
        found = self.shared.get(key)
        if found is None:
            _all_text(key)
            found = self.shared[key] = key
        return cast(tuple[str, ...], found)

    def _pairs(self, values: list[Any]) -> tuple[tuple[str, str], ...]:
        key = tuple(self._strings(pair) for pair in values)
        if any(len(pair) != 2 for pair in key):
            raise ValueError("metadata pairs damaged")
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = key
        return cast(tuple[tuple[str, str], ...], found)


def _time(microseconds: int) -> dt.time:
    if microseconds >= _MICROSECONDS_PER_DAY:
        raise ValueError("time of day out of range")
    seconds, micro = divmod(microseconds, 1_000_000)
    return dt.time(seconds // 3600, seconds // 60 % 60, seconds % 60, micro)


def _all_text(values: tuple[Any, ...]) -> None:
    """Raise TypeError unless every value is a string (`str.join` checks that in C)."""
    "".join(values)
