"""The entry of each index slot, made only when someone looks at it.

A warm start hands the index entries that a cache decoded as columns (`EntryRows`): the index
and the static factors read the columns they need (ids, paths, dates, places), and an `Entry`
object is made only for the slots that are shown, explained or re-read. At 50,000 entries that
is most of a warm `rank`: building every entry cost ~0.3 s for the ten a command prints.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, compress
from operator import ne
from typing import Protocol, cast, overload, runtime_checkable

import numpy as np
from msgspec import Struct

from memtui.core.model import Entry, Source
from memtui.core.search.arrays import IntArray, joined

SOURCE_ORDER = (Source.LONG_TERM, Source.DAILY, Source.NOTE)
"""Sources as small integers (their place here), for per-slot arrays and source filters."""
SOURCE_CODES = {source: code for code, source in enumerate(SOURCE_ORDER)}


class PlaceColumns(Struct, frozen=True):
    """Per row, what the query-independent factors read of an entry."""

    date_ordinal: IntArray
    """-1 when undated."""
    seconds: IntArray
    """Seconds since midnight of the entry's time, 0 when it has none."""
    source_code: IntArray
    """The entry's source as its place in SOURCE_ORDER."""
    line_start: IntArray
    position: IntArray
    count: IntArray


@runtime_checkable
class EntryRows(Protocol):
    """Entries held as columns: read without making an `Entry` for every row."""

    def __len__(self) -> int: ...

    def __getitem__(self, row: int) -> Entry: ...

    def __iter__(self) -> Iterator[Entry]: ...

    def ids(self) -> list[str]: ...

    def paths(self) -> list[str]:
        """Each row's `Entry.path` (root-relative)."""
        ...

    def qualified_paths(self) -> list[str]:
        """Each row's `Entry.qualified_path`."""
        ...

    def chars(self) -> IntArray:
        """Each row's `Entry.text_chars`."""
        ...

    def places(self) -> PlaceColumns: ...

    def tags(self) -> list[tuple[str, ...]]: ...

    def roles(self) -> list[str | None]: ...

    def roots(self) -> list[str]:
        """Each row's `Entry.root`."""
        ...


def runs(values: Sequence[str]) -> list[tuple[int, int]]:
    """(start, stop) of each run of equal neighbours (a file's consecutive slots, by path),
    found by comparing neighbours in C: 50,000 paths, ~8,600 runs."""
    if not values:
        return []
    ends = [*compress(range(1, len(values)), map(ne, values[1:], values[:-1])), len(values)]
    return list(zip([0, *ends[:-1]], ends, strict=True))


def columns_and_rest(entries: Sequence[Entry]) -> tuple[EntryRows | None, Sequence[Entry]]:
    """(the columns `entries` start with, if any; the entries after them, or all of them):
    what reads a column of every slot takes the columns as they are and walks only the rest."""
    if isinstance(entries, EntryRows):
        return entries, ()
    if isinstance(entries, SlotEntries) and isinstance(entries.base, EntryRows):
        return entries.base, entries.extra
    return None, entries


COLUMNS_FROM = 64
"""Slots from which `ids_and_chars` reads whole columns (~1.5 ms at 50,000 rows) rather than
making each slot's entry (~40 µs): a file changed in a session has a few."""


def ids_and_chars(entries: Sequence[Entry], slots: list[int]) -> tuple[list[str], list[int]]:
    """Each slot's `Entry.id` and `Entry.text_chars`, read from the columns where it has them
    and the slots are many: a warm start whose cache held more daily notes than the date window
    made 40,000 entries (~1.7 s at 50k) only to read these of the slots it dropped."""
    rows, rest = columns_and_rest(entries)
    if rows is None or len(slots) < COLUMNS_FROM:
        picked = [entries[slot] for slot in slots]
        return [entry.id for entry in picked], [entry.text_chars for entry in picked]
    size, ids, chars = len(rows), rows.ids(), rows.chars().tolist()
    made = {slot: rest[slot - size] for slot in slots if slot >= size}
    return (
        [ids[slot] if slot < size else made[slot].id for slot in slots],
        [chars[slot] if slot < size else made[slot].text_chars for slot in slots],
    )


class SlotEntries(Sequence[Entry]):
    """The index's entries: a base the load gave (a list, or `EntryRows` made on demand) and
    the entries later updates appended."""

    __slots__ = ("base", "extra")

    def __init__(self, base: Sequence[Entry] = ()) -> None:
        self.base = base
        self.extra: list[Entry] = []

    def append(self, entry: Entry) -> None:
        self.extra.append(entry)

    def copy(self) -> SlotEntries:
        """The slots as they are now, to read outside the engine's lock: the base is never
        changed, and the copy's own `extra` does not see later appends."""
        copied = SlotEntries(self.base)
        copied.extra = list(self.extra)
        return copied

    def __len__(self) -> int:
        return len(self.base) + len(self.extra)

    @overload
    def __getitem__(self, slot: int) -> Entry: ...

    @overload
    def __getitem__(self, slot: slice) -> list[Entry]: ...

    def __getitem__(self, slot: int | slice) -> Entry | list[Entry]:
        if isinstance(slot, slice):
            start, stop, step = slot.indices(len(self))
            if step != 1:
                return [self[at] for at in range(start, stop, step)]
            size = len(self.base)
            head = list(self.base[start:stop]) if start < size else []
            return head + self.extra[max(start - size, 0) : max(stop - size, 0)]
        size = len(self.base)
        if slot < 0:
            slot += len(self)
        if 0 <= slot < size:
            return self.base[slot]
        if slot < 0:
            raise IndexError(slot)
        return self.extra[slot - size]

    def __iter__(self) -> Iterator[Entry]:
        yield from self.base
        yield from self.extra

    def rows(self) -> EntryRows | None:
        """The base as columns, when it is and nothing was appended."""
        return self.base if not self.extra and isinstance(self.base, EntryRows) else None


def join_places(parts: Iterable[PlaceColumns]) -> PlaceColumns:
    """The rows of every part, in order."""
    parts = list(parts)
    return PlaceColumns(
        date_ordinal=np.concatenate([part.date_ordinal for part in parts]),
        seconds=np.concatenate([part.seconds for part in parts]),
        source_code=np.concatenate([part.source_code for part in parts]),
        line_start=np.concatenate([part.line_start for part in parts]),
        position=np.concatenate([part.position for part in parts]),
        count=np.concatenate([part.count for part in parts]),
    )


def entry_paths(entries: Sequence[Entry]) -> list[str]:
    """Each entry's `Entry.path`, from the columns when `entries` has them."""
    if isinstance(entries, EntryRows):
        return entries.paths()
    return [entry.path for entry in entries]


def entry_ids(entries: Sequence[Entry]) -> list[str]:
    """Each entry's `Entry.id`, from the columns when `entries` has them."""
    if isinstance(entries, EntryRows):
        return entries.ids()
    return [entry.id for entry in entries]


class SlotKeys(Struct, frozen=True):
    """Per slot, what a cache writer reads of its entry: its root, its file and its place there
    (where the cache finds it again), its line (slot order) and its id (which checks that the
    place holds it)."""

    ids: list[str]
    paths: list[str]
    roots: list[str]
    line_start: IntArray
    position: IntArray

    def picked(self, slots: IntArray) -> SlotKeys:
        """The keys of `slots`, in that order."""
        at = slots.tolist()
        return SlotKeys(
            [self.ids[slot] for slot in at],
            [self.paths[slot] for slot in at],
            [self.roots[slot] for slot in at],
            self.line_start[slots],
            self.position[slots],
        )


def slot_keys(entries: Sequence[Entry]) -> SlotKeys:
    """Every slot's keys: read from the columns where `entries` has them, from the entries
    (made already) for the rest; no entry is made."""
    if isinstance(entries, PickedSlots):
        return entries.keys
    rows, rest = columns_and_rest(entries)
    ids: list[str] = []
    paths: list[str] = []
    roots: list[str] = []
    line_start = position = np.zeros(0, dtype=np.int64)
    if rows is not None:
        ids, paths, roots, places = rows.ids(), rows.paths(), rows.roots(), rows.places()
        line_start, position = places.line_start, places.position
    return SlotKeys(
        ids + [entry.id for entry in rest],
        paths + [entry.path for entry in rest],
        roots + [entry.root for entry in rest],
        np.concatenate([line_start, _integers(entry.line_start for entry in rest)]),
        np.concatenate([position, _integers(entry.position for entry in rest)]),
    )


def _integers(values: Iterable[int]) -> IntArray:
    return np.fromiter(values, dtype=np.int64)


class PickedSlots(Sequence[Entry]):
    """Some of an index's slots in the order a cache holds them, their keys read already: a
    cache writer reads only the keys, so no entry is made."""

    __slots__ = ("entries", "keys", "slots")

    def __init__(self, entries: Sequence[Entry], slots: IntArray, keys: SlotKeys) -> None:
        self.entries = entries
        self.slots = slots
        self.keys = keys

    def __len__(self) -> int:
        return len(self.slots)

    @overload
    def __getitem__(self, at: int) -> Entry: ...

    @overload
    def __getitem__(self, at: slice) -> list[Entry]: ...

    def __getitem__(self, at: int | slice) -> Entry | list[Entry]:
        if isinstance(at, slice):
            return [self.entries[slot] for slot in self.slots[at].tolist()]
        return self.entries[int(self.slots[at])]


def joined_rows(parts: Sequence[Sequence[Entry]]) -> Sequence[Entry]:
    """The parts' entries one after the other (several roots' cached slots): still columns
    when every part is."""
    if parts and all(isinstance(part, EntryRows) for part in parts):
        if len(parts) == 1:
            return parts[0]
        return JoinedRows([cast(EntryRows, part) for part in parts])
    return [entry for part in parts for entry in part]


class JoinedRows(Sequence[Entry]):
    """`EntryRows` one after the other, read as one."""

    __slots__ = ("_parts", "_starts")

    def __init__(self, parts: list[EntryRows]) -> None:
        self._parts = parts
        self._starts = list(accumulate((len(part) for part in parts), initial=0))

    @property
    def parts(self) -> list[EntryRows]:
        return self._parts

    def __len__(self) -> int:
        return self._starts[-1]

    @overload
    def __getitem__(self, at: int) -> Entry: ...

    @overload
    def __getitem__(self, at: slice) -> list[Entry]: ...

    def __getitem__(self, at: int | slice) -> Entry | list[Entry]:
        if isinstance(at, slice):
            return [self[row] for row in range(*at.indices(len(self)))]
        if at < 0:
            at += len(self)
        if not 0 <= at < len(self):
            raise IndexError(at)
        part = bisect_right(self._starts, at) - 1
        return self._parts[part][at - self._starts[part]]

    def __iter__(self) -> Iterator[Entry]:
        for part in self._parts:
            yield from part

    def ids(self) -> list[str]:
        return [value for part in self._parts for value in part.ids()]

    def paths(self) -> list[str]:
        return [value for part in self._parts for value in part.paths()]

    def qualified_paths(self) -> list[str]:
        return [value for part in self._parts for value in part.qualified_paths()]

    def chars(self) -> IntArray:
        return joined([part.chars() for part in self._parts])

    def places(self) -> PlaceColumns:
        return join_places(part.places() for part in self._parts)

    def tags(self) -> list[tuple[str, ...]]:
        return [value for part in self._parts for value in part.tags()]

    def roles(self) -> list[str | None]:
        return [value for part in self._parts for value in part.roles()]

    def roots(self) -> list[str]:
        return [value for part in self._parts for value in part.roots()]
