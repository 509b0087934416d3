"""Entries as cache sections, column by column, and back.

Numbers and enums are `.npy` arrays (read back in C, already checked to be integers); bodies,
most of the bytes, are one UTF-8 section sliced by an array of end offsets; the remaining
strings are JSON columns. Decoding is one comprehension over the columns, with every string
checked in bulk: 50,000 entries cost about a sixth of parsing their files again.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, pairwise
from typing import Any, cast

import numpy as np
import numpy.typing as npt

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
        Section("entries", _column_pieces(entries)),
        Section("bodies", _body_pieces(entries)),
        array_section("body_ends", np.cumsum([len(entry.body) for entry in entries],
                                             dtype=np.int64)),
        *(array_section(name, column) for name, column in numbers.items()),
    ]


STRING_COLUMNS = ("id", "title", "heading_path", "role", "tags", "metadata", "warnings")
"""JSON columns; `title` is null when it is the last heading (written once)."""


def _strings_of(entry: Entry) -> tuple[Any, ...]:
    repeated = bool(entry.heading_path) and entry.title == entry.heading_path[-1]
    return (entry.id, None if repeated else entry.title, entry.heading_path, entry.role,
            entry.tags, entry.metadata, entry.warnings)


def _column_pieces(entries: Sequence[Entry]) -> Iterator[bytes]:
    """{"id": [...], "title": [...], ...}, one column at a time, CHUNK entries per piece."""
    rows = [_strings_of(entry) for entry in entries]
    for number, name in enumerate(STRING_COLUMNS):
        yield f'{"{" if number == 0 else ","}"{name}":['.encode("ascii")
        for start in range(0, len(rows), CHUNK):
            chunk = json.dumps([row[number] for row in rows[start:start + CHUNK]],
                               separators=(",", ":"))
            yield (b"," if start else b"") + chunk[1:-1].encode("ascii")
        yield b"]"
    yield b"}"


def _body_pieces(entries: Sequence[Entry]) -> Iterator[bytes]:
    for start in range(0, len(entries), CHUNK):
        yield "".join(entry.body for entry in entries[start:start + CHUNK]).encode(
            "utf-8", "surrogatepass")


# --- decoding ------------------------------------------------------------------------------


def decode_entries(container: Container, paths: Sequence[str], label: str) -> list[Entry]:
    """The cached entries in order, `paths[i]` being entry i's file; raises CacheCorrupt."""
    strings = container.json("entries")
    text = container.text("bodies")
    ends = container.array("body_ends", lambda dtype: dtype == np.int64).tolist()
    numbers = [container.array(name, lambda dtype: dtype == np.int64)
               for name in NUMBER_COLUMNS]
    if not isinstance(strings, dict) or strings.keys() != set(STRING_COLUMNS):
        raise CacheCorrupt("entry columns missing")
    columns = [strings[name] for name in STRING_COLUMNS]
    if not all(isinstance(column, list) for column in columns) or any(
            len(column) != len(paths) for column in (*columns, ends, *numbers)):
        raise CacheCorrupt("entry columns differ in length")
    if ends and (ends[-1] != len(text) or any(a > b for a, b in pairwise([0, *ends]))):
        raise CacheCorrupt("entry bodies do not match the entries")
    try:
        return _entries(paths, columns, text, ends, numbers, label)
    except (ValueError, TypeError, IndexError, KeyError, OverflowError) as exc:
        raise CacheCorrupt(f"damaged entries ({type(exc).__name__}: {exc})") from None


def _entries(paths: Sequence[str], columns: list[list[Any]], text: str, ends: list[int],
             numbers: list[npt.NDArray[Any]], label: str) -> list[Entry]:
    """Entries from checked columns: one comprehension over them, every string column checked
    in one `str.join` (C), equal dates and tuples shared (a file's entries repeat them)."""
    ids, titles, headings, roles, tags, metadata, warnings = columns
    line_start, line_end, ordinals, times, positions, counts, sources, origins = numbers
    if len(sources) and (sources.min() < 0 or sources.max() >= len(SOURCES)
                         or origins.min() < 0 or origins.max() >= len(ORIGINS)
                         or times.max() >= _MICROSECONDS_PER_DAY):
        raise ValueError("an enum code or a time of day out of range")
    if not all(type(path) is list for path in headings):
        raise TypeError("heading paths are not lists")
    _all_text(chain(ids, (t for t in titles if t is not None), (r for r in roles if r),
                    chain.from_iterable(headings)))
    heading_paths = [tuple(path) for path in headings]
    shared = _Shared()
    date_of: dict[int, dt.date | None] = {ordinal: dt.date.fromordinal(ordinal)
                                          for ordinal in set(ordinals.tolist()) if ordinal >= 0}
    date_of[-1] = None
    source_of, origin_of = [SOURCES[code] for code in sources.tolist()], [
        ORIGINS[code] for code in origins.tolist()]
    return [
        Entry(identifier, path, source, heading[-1] if title is None else title, heading,
              text[begin:end], start, finish, date_of[ordinal],
              None if micro < 0 else _time(micro), origin, position, count, role,
              shared.strings(tag) if tag else (), shared.pairs(meta) if meta else (),
              shared.strings(warning) if warning else (), label)
        for (identifier, path, title, heading, role, tag, meta, warning, begin, end, start,
             finish, ordinal, micro, position, count, source, origin)
        in zip(ids, paths, titles, heading_paths, roles, tags, metadata, warnings,
               [0, *ends][:len(ends)], ends, line_start.tolist(), line_end.tolist(),
               ordinals.tolist(), times.tolist(), positions.tolist(), counts.tolist(),
               source_of, origin_of, strict=True)
    ]


class _Shared:
    """Equal tag, frontmatter and warning tuples decoded once (a file's entries repeat them),
    their strings checked once."""

    def __init__(self) -> None:
        self.known: dict[Any, Any] = {}

    def strings(self, values: list[Any]) -> tuple[str, ...]:
        key = tuple(values)
        found = self.known.get(key)
        if found is None:
            _all_text(key)
            found = self.known[key] = key
        return cast(tuple[str, ...], found)

    def pairs(self, values: list[Any]) -> tuple[tuple[str, str], ...]:
        key = tuple(self.strings(pair) for pair in values)
        if any(len(pair) != 2 for pair in key):
            raise ValueError("metadata pairs damaged")
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = key
        return cast(tuple[tuple[str, str], ...], found)


def _time(microseconds: int) -> dt.time:
    seconds, micro = divmod(microseconds, 1_000_000)
    return dt.time(seconds // 3600, seconds // 60 % 60, seconds % 60, micro)


def _all_text(values: Iterable[Any]) -> None:
    """Raise TypeError unless every value is a string (`str.join` checks that in C)."""
    "".join(values)
