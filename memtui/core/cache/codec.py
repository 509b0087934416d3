"""A root's snapshot to cache sections and back: file records, entries, index arrays.

Encoding yields many small pieces, so the writer thread never holds the interpreter for long;
decoding checks every structural promise (offsets in range, sorted vocabulary, postings inside
the slots), so a damaged or foreign file is refused rather than trusted.

Entries carry their root's label (`Entry.root`, and it keys their ids) only when several roots
are open: a cache written under another label is relabelled on load.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from itertools import islice
from operator import lt
from typing import Annotated, Any

import numpy as np
from msgspec import Meta, Struct

from memtui.core.cache.container import (
    CacheCorrupt,
    Container,
    Section,
    array_section,
    json_section,
)
from memtui.core.cache.entry_columns import (
    decode_entries,
    entry_sections,
    refuse_damaged,
)
from memtui.core.cache.entry_table import EntryTable, TableView, table_runs
from memtui.core.cache.records import (
    CachedFile,
    CachedIndex,
    FileSecrets,
    PairScores,
    RootSnapshot,
)
from memtui.core.model import Entry
from memtui.core.search.arrays import IntArray
from memtui.core.search.segment import Segment
from memtui.core.search.slots import SlotKeys, entry_ids, slot_keys


def encode(snapshot: RootSnapshot) -> Iterator[Section]:
    """The sections of one root's cache file, made one by one as they are written."""
    parts = [file.entries for file in snapshot.files]
    refuse_damaged(parts)
    yield json_section("files", [_file_row(file) for file in snapshot.files])
    yield from entry_sections(parts)
    if snapshot.index is not None:
        yield from _index_sections(snapshot.files, snapshot.index)
    if snapshot.pairs is not None:
        yield json_section("pair_scorer", snapshot.pairs.scorer)
        yield array_section("pair_left", snapshot.pairs.left)
        yield array_section("pair_right", snapshot.pairs.right)
        yield array_section("pair_score", snapshot.pairs.score)


def _file_row(file: CachedFile) -> list[Any]:
    mtime, size, inode, ctime = file.signature
    entries = None if file.entries is None else len(file.entries)
    return [file.path, mtime, size, inode, ctime, file.digest, entries, file.count, file.secrets]


def _index_sections(files: Sequence[CachedFile], index: CachedIndex) -> list[Section]:
    """The index arrays, and each slot as (file number, position in that file's entries)."""
    number = {file.path: at for at, file in enumerate(files)}
    keys = slot_keys(index.slots)
    slot_file = np.fromiter((number[path] for path in keys.paths), np.int64, len(keys.paths))
    _check_slots(files, keys, slot_file)
    segment = index.segment
    return [
        json_section("words", segment.words),
        array_section("ptr", segment.ptr),
        array_section("docs", segment.docs),
        array_section("heading", segment.heading),
        array_section("body", segment.body),
        array_section("lengths", index.lengths),
        array_section("slot_file", slot_file),
        array_section("slot_entry", keys.position),
    ]


def _check_slots(files: Sequence[CachedFile], keys: SlotKeys, slot_file: IntArray) -> None:
    """Raise ValueError unless each slot's place holds it (the entry there has its id)."""
    counts = np.asarray([len(file.entries or ()) for file in files], dtype=np.int64)
    position = keys.position
    inside = (position >= 0) & (position < counts[slot_file])
    ids = [id for run in table_runs(file.entries for file in files) for id in entry_ids(run)]
    at = np.where(inside, (np.cumsum(counts) - counts)[slot_file] + position, -1).tolist()
    for place, slot_id in zip(at, keys.ids, strict=True):
        if place < 0 or ids[place] != slot_id:
            raise ValueError(f"index slot {slot_id} is not among its file's entries")


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Decoding allocates ~20 objects per entry and frees none: with the cyclic collector
    running, its passes over the growing heap cost as much as the decoding itself."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def decode(container: Container, label: str) -> RootSnapshot:
    """The snapshot in `container`, its entries labelled `label`; raises CacheCorrupt."""
    with _collector_paused():
        files = _decode_files(container, label)
        index = _decode_index(container, files) if container.has("words") else None
    pairs = _decode_pairs(container) if container.has("pair_scorer") else None
    return RootSnapshot(files, index, pairs, _unread_before(container.header))


def _unread_before(header: dict[str, Any]) -> dt.date | None:
    """The window start the header names (caches written before it was kept name none);
    raises CacheCorrupt."""
    value = header.get("unread_before")
    if value is None:
        return None
    if isinstance(value, str):
        with suppress(ValueError):
            return dt.date.fromisoformat(value)
    raise CacheCorrupt(f"damaged window start {value!r:.40}")


def _decode_pairs(container: Container) -> PairScores:
    """The kept near-duplicate scores; raises CacheCorrupt."""
    scorer = container.json("pair_scorer")
    left = container.array("pair_left", lambda dtype: dtype == np.uint64)
    right = container.array("pair_right", lambda dtype: dtype == np.uint64)
    score = container.array("pair_score", lambda dtype: dtype == np.float64)
    if not (
        isinstance(scorer, str)
        and len(left) == len(right) == len(score)
        and bool(np.all((score >= 0) & (score <= 100)))
    ):
        raise CacheCorrupt("kept near-duplicate scores damaged")
    return PairScores(scorer, left, right, score)


class _FileRow(Struct, array_like=True, frozen=True):
    """One file record as the "files" section holds it (`_file_row`)."""

    path: str
    mtime: int
    size: int
    inode: int
    ctime: int
    digest: str | None
    count: Annotated[int, Meta(ge=0)] | None
    unread_count: int | None
    secrets: FileSecrets | None


def _decode_files(container: Container, label: str) -> tuple[CachedFile, ...]:
    rows = container.typed("files", list[_FileRow])
    # Counts are checked against the entries the cache holds before a list is made of them.
    room = container.size("body_ends") // np.dtype(np.int64).itemsize
    if sum(row.count or 0 for row in rows) > room:
        raise CacheCorrupt("file records claim more entries than the cache holds")
    paths = [row.path for row in rows if row.count for _ in range(row.count)]
    table = decode_entries(container, paths, label)
    if container.header.get("label", "") != label:
        _relabel(table)
    files: list[CachedFile] = []
    at = 0
    for row in rows:
        own: Sequence[Entry] | None = None
        if row.count is not None:
            own = TableView(table, range(at, at + row.count))
            at += row.count
        files.append(
            CachedFile(
                row.path,
                (row.mtime, row.size, row.inode, row.ctime),
                row.digest,
                own,
                row.unread_count,
                None if own is None else row.secrets,
            )
        )
    return tuple(files)


def _relabel(table: EntryTable) -> None:
    """Give the table's rows, written under another root label, the ids its label keys, in
    its id column: no entry is made. Making every entry again took a warm `rank` at 50,000
    entries from 0.35 s to 1 s, on every call after `--all` had written the cache (a
    relabelled cache is not rewritten, or two ways of opening a root would rewrite it in
    turn)."""
    from memtui.core.reading.parse import entry_id  # here: only a relabelled cache needs ids

    occurrences: dict[tuple[str, tuple[str, ...]], int] = {}
    headings = table.headings.paths(range(len(table)))
    for row, place in enumerate(zip(table.qualified(), headings, strict=True)):
        occurrence = occurrences.get(place, 0)  # of the heading path in its file
        occurrences[place] = occurrence + 1
        table.ids[row] = entry_id(*place, occurrence)


def _decode_index(container: Container, files: Sequence[CachedFile]) -> CachedIndex:
    words = container.json("words")
    counts = np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.int32)
    ptr = container.array("ptr", lambda dtype: dtype == np.int64)
    docs = container.array("docs", lambda dtype: dtype in counts[1:])
    heading = container.array("heading", lambda dtype: dtype in counts)
    body = container.array("body", lambda dtype: dtype in counts)
    lengths = container.array("lengths", lambda dtype: dtype == np.float64)
    slot_file = container.array("slot_file", lambda dtype: dtype == np.int64)
    slot_entry = container.array("slot_entry", lambda dtype: dtype == np.int64)
    slots = len(lengths)
    if not (
        isinstance(words, list)
        and set(map(type, words)) <= {str}
        and all(map(lt, words, islice(words, 1, None)))
    ):
        raise CacheCorrupt("index vocabulary damaged")
    if (
        len(ptr) != len(words) + 1
        or ptr[0] != 0
        or ptr[-1] != len(docs)
        or np.any(np.diff(ptr) < 0)
        or len(heading) != len(docs)
        or len(body) != len(docs)
        or (len(docs) and (docs.min() < 0 or docs.max() >= slots))
        or len(slot_file) != slots
        or len(slot_entry) != slots
    ):
        raise CacheCorrupt("index arrays damaged")
    entries = _slot_entries(files, slot_file, slot_entry)
    # Every row of the table, in order: the table is the files' entries, file after file.
    whole_files = (
        isinstance(entries, TableView)
        and isinstance(entries.rows, range)
        and entries.rows == range(len(entries.table))
    )
    segment = Segment(
        words=words,
        word_lengths=np.fromiter(map(len, words), np.float64, len(words)),
        ptr=ptr,
        docs=docs,
        heading=heading,
        body=body,
    )
    return CachedIndex(entries, segment, lengths, whole_files)


def _slot_entries(
    files: Sequence[CachedFile], slot_file: IntArray, slot_entry: IntArray
) -> Sequence[Entry]:
    """Each slot's entry, slot `i` being entry `slot_entry[i]` of file `slot_file[i]`: a view
    over the decoded table, so no entry is made."""
    counts = np.asarray(
        [-1 if file.entries is None else len(file.entries) for file in files], dtype=np.int64
    )
    if len(slot_file) and (
        slot_file.min() < 0
        or slot_file.max() >= len(files)
        or np.any(slot_entry < 0)
        or np.any(slot_entry >= counts[slot_file])
    ):
        raise CacheCorrupt("index slots point past the entries")
    table: EntryTable | None = None
    first_row: list[int] = []
    for file in files:  # each file's entries are a run of one table's rows (`_decode_files`)
        view = file.entries
        if isinstance(view, TableView) and isinstance(view.rows, range):
            table = view.table
            first_row.append(view.rows.start)
        else:  # none kept: no slot points here (checked above)
            first_row.append(0)
    if table is None:
        return ()
    rows = np.asarray(first_row, dtype=np.int64)[slot_file] + slot_entry
    if np.array_equal(rows, np.arange(len(rows))):
        return TableView(table, range(len(rows)))
    return TableView(table, rows)
