"""Warm start: what the engine takes from the cache at load, and what it gives back to it.

At load each root's cache seeds its Store (files whose stat still matches keep their cached
entries; the rest are read). When every root's cached index is there, the index starts from it:
the cached segments (joined when several roots are open) over the cached slots, then the files
whose entries differ from the cached ones go through the same per-file update a file change
takes during a session. A fresh load and a warm start therefore rank alike: scores depend on
each entry's own postings and on whole-number totals, never on how the segments were laid out.

Saving cuts the live index back into one clean segment per root (`segment_merge.renumbered`),
without tokenizing again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np
from msgspec import Struct

from memtui.core.cache.entry_table import TableView, table_runs
from memtui.core.cache.folder import CacheFolder
from memtui.core.cache.records import (
    CachedFile,
    CachedIndex,
    PairMemo,
    PairScores,
    RootSnapshot,
)
from memtui.core.live.build_ahead import BuildAhead, worth_building_ahead
from memtui.core.live.store import Store
from memtui.core.live.window import window_cutoff
from memtui.core.model import Entry, qualified_path
from memtui.core.reading.walk import Scan, scan_root
from memtui.core.search.arrays import FloatArray, IntArray
from memtui.core.search.index import COMPACT_MIN_DELTA, Index
from memtui.core.search.segment import Segment
from memtui.core.search.segment_merge import renumbered
from memtui.core.search.slots import (
    PickedSlots,
    SlotEntries,
    entry_paths,
    joined_rows,
    runs,
    slot_keys,
)


def _walk(store: Store, scans: list[Scan | None], at: int) -> None:
    """Scan the store's root into `scans[at]` (None leaves it to the store, e.g. a missing
    root)."""
    if store.root.is_dir():
        scans[at] = scan_root(store.root, store.only)


def entry_order(entry: Entry) -> tuple[str, int, str]:
    return entry.path, entry.line_start, entry.id


def slot_order(stores: Sequence[Store]) -> Sequence[Entry]:
    """Every loaded entry in slot order: root by root, then by path and line. Still columns
    when every file's entries are (a cold load's spool, a cache's table): a file's rows are
    in file order, which is line order."""
    parts: list[Sequence[Entry]] = []
    for store in stores:
        files = store.loaded_files()
        parts.extend(
            entries if isinstance(entries, TableView) else sorted(entries, key=entry_order)
            for entries in (files[path] for path in sorted(files))
        )
    return joined_rows(table_runs(parts))


def read_seeds(
    folder: CacheFolder, stores: Sequence[Store], warnings: list[str]
) -> list[RootSnapshot | None]:
    """Each root's cached snapshot (None: not cached, unusable, or caching refused); the
    leftovers of writes killed half way are removed first."""
    folder.remove_leftovers()
    seeds: list[RootSnapshot | None] = []
    for store in stores:
        refusal = folder.refusal(store.root)
        snapshot, problem = (
            (None, refusal)
            if refusal
            else folder.read(store.root, store.label, store.only, store.days)
        )
        if problem and problem not in warnings:
            warnings.append(problem)
        seeds.append(snapshot)
    return seeds


class WarmIndex(Struct, frozen=True):
    """The cached index of every root joined, and the files to update on top of it."""

    slots: Sequence[Entry]
    segment: Segment
    lengths: FloatArray
    changes: dict[str, Sequence[Entry]]
    """Qualified path -> its entries now, for every file whose entries differ from the cached."""


def warm_index(stores: Sequence[Store], seeds: Sequence[RootSnapshot | None]) -> WarmIndex | None:
    """The index to start from, or None when a root has no cached index or so much changed
    that building afresh is cheaper than updating."""
    usable = [
        (seed.index, seed.files) for seed in seeds if seed is not None and seed.index is not None
    ]
    if not stores or len(usable) < len(stores):
        return None
    changes: dict[str, Sequence[Entry]] = {}
    for store, (index, files) in zip(stores, usable, strict=True):
        changes.update(_changed_files(store, index, files))
    cached = [index for index, _ in usable]
    total = sum(len(index.slots) for index in cached)
    if sum(len(entries) for entries in changes.values()) > max(COMPACT_MIN_DELTA, total // 4):
        return None
    if len(cached) == 1:
        return WarmIndex(cached[0].slots, cached[0].segment, cached[0].lengths, changes)
    parts: list[tuple[Segment, IntArray]] = []
    base = 0
    for index in cached:
        count = len(index.slots)
        parts.append((index.segment, np.arange(base, base + count, dtype=np.int64)))
        base += count
    return WarmIndex(
        joined_rows([index.slots for index in cached]),
        renumbered(parts, base),
        np.concatenate([index.lengths for index in cached]),
        changes,
    )


def _changed_files(
    store: Store, index: CachedIndex, files: Sequence[CachedFile]
) -> dict[str, Sequence[Entry]]:
    """Files whose loaded entries are not exactly the cached index's (qualified paths). When
    the slots are the cached files' entries (`CachedIndex.whole_files`), a file the store kept
    from the cache holds the very same entries, and only the others are compared (~27 ms less
    of a 50k warm start). Otherwise: the slots of a file are consecutive (slot order is by
    path), so each file's cached entries are a slice of them, found from the paths alone."""
    cached: dict[str, Sequence[Entry]]
    if index.whole_files:
        cached = {file.path: file.entries for file in files if file.entries}
    else:
        paths = entry_paths(index.slots)
        cached = {paths[start]: index.slots[start:stop] for start, stop in runs(paths)}
    now = store.loaded_files()
    return {
        qualified_path(store.label, path): entries
        for path in cached.keys() | now.keys()
        if (entries := now.get(path, ())) is not (was := cached.get(path, ())) and entries != was
    }


def install_warm(index: Index, warm: WarmIndex) -> None:
    """Start `index` from the cached arrays, then update the files that changed."""
    index.set_entries(warm.slots)
    index.install_main(warm.segment, warm.lengths)
    if warm.changes:
        index.replace_paths(warm.changes)


# --- saving --------------------------------------------------------------------------------


class IndexState(Struct, frozen=True):
    """What the index held at one moment (taken under the engine lock, used outside it)."""

    entries: SlotEntries
    """The index's slots, a copy that later updates leave alone (`SlotEntries.copy`): its
    columns are read as they are, never turned into entries."""
    alive: IntArray
    lengths: FloatArray
    main: Segment
    delta: Segment
    clean: bool
    """One root, no dead slots, no delta: the main segment is the root's segment as is."""


def index_state(index: Index, roots: int) -> IndexState | None:
    """The index's arrays for saving, or None while it is not built."""
    if not index.built:
        return None
    clean = (
        roots == 1
        and index.main_size == index.slot_count == index.live_count
        and not index.delta.words
    )
    return IndexState(
        index.entries.copy(),
        np.flatnonzero(index.alive),
        index.lengths,
        index.main,
        index.delta,
        clean,
    )


def root_index(state: IndexState, label: str) -> CachedIndex:
    """One root's part of the index as a clean segment over its entries in slot order: read
    from the slots' columns (`slot_keys`), so no entry is made."""
    if state.clean:
        return CachedIndex(state.entries, state.main, state.lengths)
    keys = slot_keys(state.entries)
    lines = keys.line_start.tolist()
    live = [slot for slot in state.alive.tolist() if keys.roots[slot] == label]
    live.sort(key=lambda slot: (keys.paths[slot], lines[slot], keys.ids[slot]))  # entry_order
    picked = np.asarray(live, dtype=np.int64)
    mapping = np.full(len(state.entries), -1, dtype=np.int64)
    mapping[picked] = np.arange(len(live), dtype=np.int64)
    segment = renumbered([(state.main, mapping), (state.delta, mapping)], len(live))
    return CachedIndex(
        PickedSlots(state.entries, picked, keys.picked(picked)),
        segment,
        state.lengths[picked],
    )


def save_roots(
    folder: CacheFolder,
    stores: Sequence[Store],
    records: Sequence[tuple[int, tuple[CachedFile, ...]]],
    state: IndexState | None,
    pairs: PairScores | None = None,
) -> tuple[list[tuple[CachedFile, ...] | None], int, list[str]]:
    """Write each root's snapshot, `records` its (date window, file records) when the snapshot
    was taken: (each root's records when its cache now holds them with an index, bytes
    written, problems). A root's index arrays are freed before the next root's are cut (two
    50k roots held both at once)."""
    saved: list[tuple[CachedFile, ...] | None] = []
    written = 0
    problems: list[str] = []
    for store, (days, files) in zip(stores, records, strict=True):
        refusal = folder.refusal(store.root)
        if refusal:
            problems.append(refusal)
            saved.append(None)
            continue
        try:
            written += _write_root(folder, store, days, files, state, pairs)
        except (OSError, ValueError) as exc:
            problems.append(f"could not write the cache of {store.root}: {exc}")
            saved.append(None)
            continue
        saved.append(None if state is None else files)
    return saved, written, problems


def _write_root(
    folder: CacheFolder,
    store: Store,
    days: int,
    files: tuple[CachedFile, ...],
    state: IndexState | None,
    pairs: PairScores | None,
) -> int:
    """Write one root's cache for its window of `days`, its index cut out of `state`: the
    bytes written."""
    index = root_index(state, store.label) if state is not None else None
    snapshot = RootSnapshot(files, index, pairs, window_cutoff(days, store.today))
    return folder.write(store.root, store.label, snapshot, store.only, days)


def merged_pairs(kept: Iterable[PairScores | None]) -> PairScores | None:
    """The pair scores of every root's cache that were scored like the first's, as one."""
    scores = [pairs for pairs in kept if pairs is not None]
    scores = [pairs for pairs in scores if pairs.scorer == scores[0].scorer] if scores else []
    if len(scores) < 2:
        return scores[0] if scores else None
    return PairScores(
        scores[0].scorer,
        np.concatenate([pairs.left for pairs in scores]),
        np.concatenate([pairs.right for pairs in scores]),
        np.concatenate([pairs.score for pairs in scores]),
    )


class RootCaches:
    """The engine's side of the cache: what each root's cache held at load (seeds), whether
    what is loaded still matches it, and writing it again. Called under the engine's lock,
    except `write` (encoding and writing take a while; the engine stays usable)."""

    def __init__(self, folder: CacheFolder | None, stores: Sequence[Store]) -> None:
        self.folder = folder
        """None: nothing is read or written."""
        self.stores = stores
        self.cached: list[tuple[CachedFile, ...] | None] = [None] * len(stores)
        """Each root's file records as its cache file holds them with an index (None: no usable
        cache). Only the records: with several roots the live index is a join of the cached
        segments, which kept as well held every posting twice (~35 MB at two 50k roots)."""
        self.dirty = False
        """The index moved away from the cached one (a warm start's changes, a new window)."""
        self.forgotten = 0
        """How many times files changed (`forget`): a write that began before the last change
        must not be remembered, or the changed files' old entries would be kept with it."""
        self._written_from = 0
        self._ahead: BuildAhead | None = None
        self.pairs = PairMemo()
        """The near-duplicate scores the caches kept, and the last `health`'s."""

    def load(self, index: Index, warnings: list[str], *, build_ahead: bool = False) -> None:
        """Load every store (from its cache where the disk agrees) and give `index` its slots,
        with postings already when the cached index could be used. With `build_ahead`, no root
        cached (else the slots would not begin with the spool's tables) and enough to read, the
        tables are tokenized as they are written, for `take_ahead`."""
        scans: list[Scan | None] = [None] * len(self.stores)
        seeds: list[RootSnapshot | None] = [None] * len(self.stores)
        if self.folder is not None:
            # Stat every file while the cache is read: the walk waits on the file system, the
            # decoding on the CPU (~30 ms of a 50k warm start).
            walkers = [
                threading.Thread(target=_walk, args=(store, scans, at), daemon=True)
                for at, store in enumerate(self.stores)
            ]
            for walker in walkers:
                walker.start()
            seeds = read_seeds(self.folder, self.stores, warnings)
            for walker in walkers:
                walker.join()
        if self._ahead is not None:
            self._ahead.stop()
        self._ahead = None
        if build_ahead and all(seed is None for seed in seeds) and worth_building_ahead(scans):
            self._ahead = BuildAhead()
        written = None if self._ahead is None else self._ahead.add
        for store, seed, scan in zip(self.stores, seeds, scans, strict=True):
            if seed is None:
                store.load((), scan, written)
            else:
                store.load(seed.files, scan, written, unread_before=seed.unread_before)
        warm = warm_index(self.stores, seeds)
        if warm is None:
            index.set_entries(slot_order(self.stores))
        else:
            install_warm(index, warm)
        self.dirty = warm is None or bool(warm.changes)
        self.pairs = PairMemo(merged_pairs(seed.pairs for seed in seeds if seed is not None))
        self.remember(
            [None if seed is None or seed.index is None else seed.files for seed in seeds]
        )

    def take_ahead(self) -> BuildAhead | None:
        """The last load's build ahead, once (a later load stops one not taken)."""
        ahead, self._ahead = self._ahead, None
        return ahead

    def remember(self, cached: Sequence[tuple[CachedFile, ...] | None]) -> None:
        """What each root's cache file now holds (read at load, or just written)."""
        self.cached = list(cached)

    def forget(self) -> None:
        """Files changed: the seeds no longer match (and must not keep their old entries and
        segments alive)."""
        self.cached = [None] * len(self.stores)
        self.forgotten += 1

    def remember_written(self, cached: Sequence[tuple[CachedFile, ...] | None]) -> None:
        """What `write` wrote, unless files changed since its `snapshot` (then the cache is
        stale already, and what it holds must not be kept)."""
        if self._written_from == self.forgotten:
            self.remember(cached)

    @property
    def stale(self) -> bool:
        return self.folder is not None and (
            self.dirty
            or self.pairs.changed
            or any(
                files is None or not store.remembered_as(files)
                for store, files in zip(self.stores, self.cached, strict=True)
            )
        )

    def snapshot(self, index: Index) -> CacheWrite:
        """What to write: every store's records, the index's arrays and the pair scores."""
        self.dirty = self.pairs.changed = False
        self._written_from = self.forgotten
        return (
            [(store.days, store.cache_records()) for store in self.stores],
            index_state(index, len(self.stores)),
            self.pairs.scores,
        )

    def write(
        self, snapshot: CacheWrite
    ) -> tuple[list[tuple[CachedFile, ...] | None], int, list[str]]:
        """Write a snapshot: (what each root's cache now holds, bytes written, problems)."""
        if self.folder is None:
            return [None] * len(self.stores), 0, []
        return save_roots(self.folder, self.stores, *snapshot)


CacheWrite = tuple[list[tuple[int, tuple[CachedFile, ...]]], IndexState | None, PairScores | None]
"""What `RootCaches.snapshot` takes for a write: (date window, records) per root, index arrays,
pair scores. The window is taken with the records: the app may change it before the write."""
