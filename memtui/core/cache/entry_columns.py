"""Entries as cache sections, column by column, and back.

Numbers and enums are `.npy` arrays (read back in C, already checked to be integers); bodies,
most of the bytes, are one UTF-8 section cut by an array of byte end offsets; the remaining
strings are JSON columns. Decoding is one comprehension over the columns, with every string
checked in bulk: 50,000 entries cost about a sixth of parsing their files again.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from operator import attrgetter
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
}
"""Integer columns; `date` is an ordinal and `time` microseconds since midnight, -1 when
absent; `source` and `origin` index SOURCES and ORIGINS."""
STRING_COLUMNS: dict[str, Callable[[Entry], Any]] = {
    "id": attrgetter("id"),
    "title": lambda entry: (
        None if entry.heading_path and entry.title == entry.heading_path[-1] else entry.title
    ),
    "heading_path": attrgetter("heading_path"),
    "role": attrgetter("role"),
    "tags": lambda entry: entry.tags or None,
    "metadata": lambda entry: entry.metadata or None,
    "warnings": lambda entry: entry.warnings or None,
}
"""JSON columns; `title` is null when it is the last heading (written once), and so are empty
tags, metadata and warnings: most entries have none, and decoding 150,000 empty lists at 50k
entries left their memory scattered among the entries' strings."""


# --- encoding ------------------------------------------------------------------------------


def entry_sections(entries: Sequence[Entry]) -> Iterator[Section]:
    """The entries' sections, each made just before it is written: the writer holds one
    column at a time, never a copy of every entry's fields (~9 MB at 50,000 entries)."""
    yield Section("entries", _column_pieces(entries))
    yield Section("bodies", _body_pieces(entries))
    yield array_section(
        "body_ends",
        np.cumsum(_integers(_utf8_length(entry.body) for entry in entries), dtype=np.int64),
    )
    for name, value in NUMBER_COLUMNS.items():
        yield array_section(name, _integers(map(value, entries)))


def _integers(values: Iterable[int]) -> npt.NDArray[np.int64]:
    return np.fromiter(values, dtype=np.int64)


def _column_pieces(entries: Sequence[Entry]) -> Iterator[bytes]:
    """{"id": [...], "title": [...], ...}, one column at a time, CHUNK entries per piece."""
    for number, (name, value) in enumerate(STRING_COLUMNS.items()):
        yield f'{"{" if number == 0 else ","}"{name}":['.encode("ascii")
        for start in range(0, len(entries), CHUNK):
            chunk = json.dumps(
                [value(entry) for entry in entries[start : start + CHUNK]], separators=(",", ":")
            )
            yield (b"," if start else b"") + chunk[1:-1].encode("ascii")
        yield b"]"
    yield b"}"


def _body_pieces(entries: Sequence[Entry]) -> Iterator[bytes]:
    for start in range(0, len(entries), CHUNK):
        yield "".join(entry.body for entry in entries[start : start + CHUNK]).encode(
            "utf-8", "surrogatepass"
        )


def _utf8_length(text: str) -> int:
    """Bytes `text` takes in the bodies section (`isascii` is a flag lookup: no encoding for
    the usual all-ASCII body)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


# --- decoding ------------------------------------------------------------------------------


def decode_entries(container: Container, paths: Sequence[str], label: str) -> list[Entry]:
    """The cached entries in order, `paths[i]` being entry i's file; raises CacheCorrupt."""
    strings = container.json("entries")
    ends = container.array("body_ends", lambda dtype: dtype == np.int64)
    numbers = [container.array(name, lambda dtype: dtype == np.int64) for name in NUMBER_COLUMNS]
    if not isinstance(strings, dict) or strings.keys() != set(STRING_COLUMNS):
        raise CacheCorrupt("entry columns missing")
    columns = [strings[name] for name in STRING_COLUMNS]
    if not all(isinstance(column, list) for column in columns) or any(
        len(column) != len(paths) for column in (*columns, ends, *numbers)
    ):
        raise CacheCorrupt("entry columns differ in length")
    if (int(ends[-1]) if len(ends) else 0) != container.size("bodies") or bool(
        np.any(np.diff(ends, prepend=0) < 0)
    ):
        raise CacheCorrupt("entry bodies do not match the entries")
    try:
        return _entries(paths, columns, _bodies(container, ends), numbers, label)
    except (ValueError, TypeError, IndexError, KeyError, OverflowError) as exc:
        raise CacheCorrupt(f"damaged entries ({type(exc).__name__}: {exc})") from None


def _bodies(container: Container, ends: npt.NDArray[np.int64]) -> list[str]:
    """Each entry's body, `ends` being their byte ends in the bodies section (checked to rise
    to its length). Read CHUNK entries at a time: the section is never held whole, decoded
    beside the bodies cut from it (at 50k entries that doubled ~40 MB at the peak)."""
    starts = np.concatenate([np.zeros(1, dtype=np.int64), ends[:-1]]) if len(ends) else ends
    chunks = range(0, len(ends), CHUNK)
    pieces = container.pieces(
        "bodies", (int(ends[min(at + CHUNK, len(ends)) - 1] - starts[at]) for at in chunks)
    )
    bodies: list[str] = []
    try:
        for at, piece in zip(chunks, pieces, strict=False):  # the drain below ends `pieces`
            base = int(starts[at])
            bounds = zip(
                (starts[at : at + CHUNK] - base).tolist(),
                (ends[at : at + CHUNK] - base).tolist(),
                strict=True,
            )
            if piece.isascii():
                text = piece.decode("ascii")
                bodies.extend(text[begin:end] for begin, end in bounds)
            else:
                bodies.extend(
                    piece[begin:end].decode("utf-8", "surrogatepass") for begin, end in bounds
                )
    except UnicodeDecodeError:
        raise CacheCorrupt("section bodies is not UTF-8") from None
    for _ in pieces:  # runs the reader past its last piece, where it checks the checksum
        pass
    return bodies


def _entries(
    paths: Sequence[str],
    columns: list[list[Any]],
    bodies: list[str],
    numbers: list[npt.NDArray[Any]],
    label: str,
) -> list[Entry]:
    """Entries from checked columns, every string column checked in one `str.join` (C),
    equal headings, dates and tuples shared (a file's entries repeat them; at 50k entries
    sharing headings saves ~2.5 MB).

    Built CHUNK entries at a time, and what decoding made and drops is dropped as the
    entries' own values are made: a whole column's numbers as Python ints, or every heading
    list, alive until the end left ~10 MB of holes among the entries at 50k."""
    ids, titles, headings, roles, tags, metadata, warnings = columns
    number = dict(zip(NUMBER_COLUMNS, numbers, strict=True))
    ordinals, times, sources, origins = (
        number[name] for name in ("date", "time", "source", "origin")
    )
    if len(sources) and (
        sources.min() < 0
        or sources.max() >= len(SOURCES)
        or origins.min() < 0
        or origins.max() >= len(ORIGINS)
        or times.max() >= _MICROSECONDS_PER_DAY
    ):
        raise ValueError("an enum code or a time of day out of range")
    if not all(type(path) is list for path in headings):
        raise TypeError("heading paths are not lists")
    _all_text(
        chain(
            ids,
            (t for t in titles if t is not None),
            (r for r in roles if r),
            chain.from_iterable(headings),
        )
    )
    known_headings: dict[str, str] = {}  # a file's entries share its outer headings, as parsed
    shared_heading = known_headings.setdefault
    for at, path in enumerate(headings):  # in place, so each tuple reuses the list it replaces
        headings[at] = tuple([shared_heading(part, part) for part in path])
    shared = _Shared()
    date_of: dict[int, dt.date | None] = {
        ordinal: dt.date.fromordinal(ordinal)
        for ordinal in set(ordinals.tolist())  # np.unique would load numpy.ma (~10 ms)
        if ordinal >= 0
    }
    date_of[-1] = None
    entries: list[Entry] = []
    for at in range(0, len(ids), CHUNK):
        window = slice(at, at + CHUNK)
        entries.extend(
            Entry(
                identifier,
                path,
                SOURCES[source],
                heading[-1] if title is None else title,
                heading,
                body,
                start,
                finish,
                date_of[ordinal],
                None if micro < 0 else _time(micro),
                ORIGINS[origin],
                position,
                count,
                role,
                shared.strings(tag) if tag else (),
                shared.pairs(meta) if meta else (),
                shared.strings(warning) if warning else (),
                label,
            )
            for (
                identifier,
                path,
                title,
                heading,
                role,
                tag,
                meta,
                warning,
                body,
                start,
                finish,
                ordinal,
                micro,
                position,
                count,
                source,
                origin,
            ) in zip(
                ids[window],
                paths[window],
                titles[window],
                headings[window],
                roles[window],
                tags[window],
                metadata[window],
                warnings[window],
                bodies[window],
                *(column[window].tolist() for column in numbers),
                strict=True,
            )  # the numbers in NUMBER_COLUMNS' order
        )
    return entries


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
