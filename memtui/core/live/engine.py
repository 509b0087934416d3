"""The facade the CLI, the TUI and the bench use: a Store per root, one Index and a Ranker
behind one lock.

Several roots (`core.live.roots`) are searched as one corpus: each keeps its own Store (loading is
per root, so a root can later be loaded from its own cache), and the Index and Ranker work
over the union, keyed by `Entry.qualified_path`. With one root every key is the plain relative
path, exactly as before roots existed.

Thread-safe: one lock serialises mutations (load, apply_changes, set_window, weights, boosts)
against searches. Hits explain themselves lazily from an immutable snapshot of the arrays they
were scored with, so reading an explanation never needs the lock.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memtui.core.cache.folder import CacheFolder
from memtui.core.live.allocator import give_back_memory
from memtui.core.live.file_record import loaded_files
from memtui.core.live.roots import MemoryRoot, engine_roots, match_targets
from memtui.core.live.store import Store
from memtui.core.live.tuning import Tuning
from memtui.core.live.warm import RootCaches, entry_order
from memtui.core.model import (
    ChangeSet,
    Entry,
    EntryHead,
    Explanation,
    RankResult,
    Skipped,
    qualified_changes,
    qualified_path,
)
from memtui.core.reading.walk import relative_path
from memtui.core.search.facets import Facets, live_facets
from memtui.core.search.hits import RankContext
from memtui.core.search.index import Index
from memtui.core.search.query import Query, parse_query
from memtui.core.search.rank import Ranker, elapsed_since
from memtui.core.search.ranked_hits import build_result
from memtui.core.search.segment import build_main_segment
from memtui.core.settings.config import Config

if TYPE_CHECKING:  # the health checks' type: a search never loads it
    from memtui.core.search.terms import EntryTerms

CONTEXT_CACHE_SIZE = 8
"""Recent queries kept scored, so `explain` after `search` (the UI's pattern) and a backspace
cost nothing."""
CONTEXT_CACHE_BYTES = 1_000_000
"""Fewer are kept once their arrays pass this (the newest always is): a query matching most of
50,000 entries holds ~2.4 MB (eight were a tenth of the app), and is scored again in < 1 ms."""


def _merge(parts: Sequence[ChangeSet]) -> ChangeSet:
    if len(parts) == 1:
        return parts[0]
    return ChangeSet(
        added=frozenset().union(*(part.added for part in parts)),
        removed=frozenset().union(*(part.removed for part in parts)),
        updated=frozenset().union(*(part.updated for part in parts)),
        paths=tuple(path for part in parts for path in part.paths),
        per_path=tuple(row for part in parts for row in part.per_path),
    )


class Engine:
    def __init__(
        self,
        root: Path | Sequence[MemoryRoot],
        config: Config,
        *,
        today: dt.date,
        days: int | None = None,
        cache: CacheFolder | None = None,
        prepare: bool = True,
    ) -> None:
        self.config = config
        self._prepare = prepare
        """Build typo buckets and prefix sums with the index, for a session's first keystrokes;
        a one-shot command leaves them to the query that needs them (~0.1 s at 50k)."""
        self.today = today
        self.roots = engine_roots(root)
        window = config.days if days is None else days
        self.days = window
        """The window (0 = all); a root that was gone catches up with it when it is back."""
        several = len(self.roots) > 1
        self.stores = tuple(
            Store(
                item.path,
                days=window,
                today=today,
                label=item.label if several else "",
                only=item.only,
                spool=None if cache is None or cache.refusal(item.path) else cache.folder,
            )
            for item in self.roots
        )
        """One Store per root, in the order of `roots`."""
        self._store_of = {store.label: store for store in self.stores}
        self.warnings: list[str] = []
        self._lock = threading.RLock()
        self._build_lock = threading.Lock()
        """Held for a whole index build: a second caller waits for it, not builds again."""
        self._index = Index()
        self._tuning = Tuning(config, today)
        self._ranker = Ranker(
            self._index,
            self._tuning.settings(),
            {
                store.label: match_targets(root)
                for store, root in zip(self.stores, self.roots, strict=True)
            },
        )
        self._contexts: dict[str, RankContext] = {}
        self._caches = RootCaches(cache, self.stores)
        """Where roots are cached (`core.live.warm`); with no folder nothing is read or saved."""
        self._missing: frozenset[str] = frozenset()
        """Store labels of the roots whose folder is gone (see `set_missing`)."""

    # --- loading and changes ---------------------------------------------------------------

    def load(self) -> None:
        """Read the whole root and build the index."""
        self.load_store(index_next=True)
        self.build_index()

    def load_store(self, *, index_next: bool = False) -> None:
        """Phase 1 of `load`: read the root and give entries slots. Browse searches (an empty
        query, filters without excluded words) work right away; a query with words builds the
        index first if `build_index` has not run. With `index_next` (the caller builds the
        index next), a large cold load is tokenized as it is read (`core.live.build_ahead`)."""
        with self._lock:
            self._caches.load(self._index, self.warnings, build_ahead=index_next)
            self._ranker.sync()
            self._contexts = {}
        give_back_memory()  # what reading files or decoding the cache freed

    def build_index(self) -> None:
        """Phase 2 of `load`: build the postings (the slow part). The build runs outside the
        engine lock, so browse searches and file changes proceed meanwhile; a no-op when the
        index is already built."""
        with self._build_lock:
            with self._lock:
                pending = not self._index.built
                generation = self._index.generation
                entries = self._index.entries.base if pending else ()  # columns stay columns
                ahead = self._caches.take_ahead()
            head = None if ahead is None else ahead.head_start(entries)  # stops it if not pending
            if pending:
                segment, lengths = build_main_segment(entries, head_start=head)
                with self._lock:
                    if self._index.generation == generation and not self._index.built:
                        self._index.install_main(segment, lengths)
                        self._ranker.sync()
                        self._contexts = {}
            if self._prepare:
                self.prepare_expansions()

    @property
    def cache_stale(self) -> bool:
        """True when a root's cache no longer holds what is loaded (`save_cache` rewrites it)."""
        with self._lock:
            return self._caches.stale

    def save_cache(self) -> int:
        """Write every root's cache file: the bytes written (problems go to `warnings`). Slow
        on a large corpus: call it from a worker thread (only taking the snapshot locks)."""
        with self._lock:
            snapshot = self._caches.snapshot(self._index)
        saved, written, problems = self._caches.write(snapshot)
        give_back_memory()  # what encoding freed
        with self._lock:
            self._caches.remember_written(saved)
            self.warnings.extend(problem for problem in problems if problem not in self.warnings)
        return written

    @property
    def index_ready(self) -> bool:
        """True once queries with words can be answered without building the index first."""
        return self._index.built

    def load_entries(self, entries: Iterable[Entry]) -> None:
        """Index entries made elsewhere (benchmarks, tests) instead of reading the root."""
        with self._lock:
            self._index.rebuild(sorted(entries, key=entry_order))
            self._ranker.sync()
            self._contexts = {}
            self.prepare_expansions()

    def prepare_expansions(self) -> None:
        """Typo buckets and heavy-prefix sums, ahead of the first keystrokes (the app: idle)."""
        self._index.prepare_fuzzy()
        self._index.prepare_prefixes()

    def _loaded(self) -> Iterable[Entry]:
        for store in self.stores:
            yield from store.entries.values()

    def apply_changes(self, paths: Iterable[str | Path]) -> ChangeSet:
        """Re-read the changed paths and update the index per file.

        Each absolute hint goes to the roots it lies in (a root's own path is "reload it"); a
        relative hint is relative to every root. Paths in the result are qualified paths.
        """
        hints = list(paths)
        with self._lock:
            parts: list[ChangeSet] = []
            for store in self.stores:
                if store.label in self._missing:
                    continue  # kept as last read until the folder is back
                if store.days != self.days:  # back after the window changed while it was gone
                    parts.append(qualified_changes(store.label, store.set_window(self.days)))
                mine = [hint for hint in hints if relative_path(store.root, hint) is not None]
                if mine or len(self.stores) == 1:
                    parts.append(qualified_changes(store.label, store.apply_changes(mine)))
            changes = _merge(parts) if parts else ChangeSet()
            self._reindex(changes)
            return changes

    def set_missing(self, folders: Iterable[Path]) -> bool:
        """The roots at `folders` are gone (moved, deleted, unmounted); every other root is
        there. A gone root's entries stay as they were last read, still ranked (the UI dims
        them), and `apply_changes` leaves the root alone until it is back: a vanished folder
        is often a moment's `git checkout` or an unplugged disk, and its entries are what the
        user was reading. Call it before applying the changes that bring the root back (the
        watcher's rescan). True when the set of gone roots changed."""
        gone = set(folders)
        missing = frozenset(
            store.label
            for store, root in zip(self.stores, self.roots, strict=True)
            if root.path in gone
        )
        with self._lock:
            changed, self._missing = missing != self._missing, missing
        return changed

    @property
    def gone_roots(self) -> dict[str, MemoryRoot]:
        """`Entry.root` -> root, for the open roots whose folder is gone (their entries are
        shown as last read)."""
        return {
            store.label: root
            for store, root in zip(self.stores, self.roots, strict=True)
            if store.label in self._missing
        }

    def set_window(self, days: int) -> ChangeSet:
        """Load daily notes of the last `days` days (0 = all)."""
        with self._lock:
            self.days = days
            changes = _merge(
                [
                    qualified_changes(store.label, store.set_window(days))
                    for store in self.stores
                    if store.label not in self._missing
                ]
            )
            self._caches.dirty = self._caches.dirty or not changes.empty
            self._reindex(changes)
            return changes

    def _entries_at(self, qualified: str) -> Sequence[Entry]:
        if len(self.stores) == 1:
            return self.stores[0].entries_in(qualified)
        label, _, path = qualified.partition("/")
        return self._store_of[label].entries_in(path)

    def _reindex(self, changes: ChangeSet) -> None:
        if not changes.paths:
            return
        self._index.replace_paths({path: self._entries_at(path) for path in changes.paths})
        self._ranker.sync()
        self._contexts = {}
        # What the cache held no longer matches (stale until saved again); kept, it held the
        # changed files' old entries and the load's whole segment after a compaction.
        self._caches.forget()

    # --- settings --------------------------------------------------------------------------

    def set_weights(
        self, weights: Mapping[str, float] | None = None, half_life_days: float | None = None
    ) -> None:
        """Change factor weights (normalised to sum 1) and/or the recency half-life."""
        with self._lock:
            recency_changed = self._tuning.change(weights, half_life_days)
            self._ranker.update_settings(self._tuning.settings(), statics=recency_changed)
            self._contexts = {}

    def set_session_boost(self, path: str, factor: float | None) -> None:
        """Multiply every entry of `path` by `factor` for this session (None clears it)."""
        with self._lock:
            self._tuning.boost(path, factor)
            self._ranker.update_settings(self._tuning.settings(), statics=False)
            self._ranker.refresh_paths([path])
            self._contexts = {}

    @property
    def session_boosts(self) -> Mapping[str, float]:
        return self._tuning.session_boosts

    @property
    def weights(self) -> Mapping[str, float]:
        """The normalised weights in use."""
        return dict(self._ranker.settings.weights)

    @property
    def half_life_days(self) -> float:
        """The recency half-life in use."""
        return self._tuning.half_life_days

    @property
    def weights_custom(self) -> bool:
        """True when the weights or half-life in use differ from the config's."""
        return self._tuning.custom(self.weights)

    # --- searching -------------------------------------------------------------------------

    def search(self, query: str, *, limit: int | None = None) -> RankResult:
        """Rank entries for `query` (empty = browse, newest first); raises QueryError."""
        start = time.perf_counter()
        parsed = parse_query(query)
        self._ensure_index(parsed)
        with self._lock:
            context = self._context(parsed)
            unmatched = tuple(term.term for term in context.terms if term.matches == 0)
            suggestions = self._ranker.suggestions(unmatched) if unmatched else ()
            hidden = sum(store.hidden_by_window for store in self.stores)
        return build_result(
            context,
            limit,
            elapsed_since(start),
            unmatched=unmatched,
            suggestions=suggestions,
            hidden_by_window=hidden,
        )

    def explain(self, entry_id: str, query: str) -> Explanation | None:
        """The explanation of one entry for `query`, ranked or not (None if no such entry)."""
        parsed = parse_query(query)
        self._ensure_index(parsed)
        with self._lock:
            slot = self._index.slot_of.get(entry_id)
            if slot is None:
                return None
            context = self._context(parsed)
        rank = context.rank_of(slot)
        previous = None
        if rank is not None and rank > 1:
            previous = context.slot_at_rank(rank - 1)
        return context.explain(slot, previous)

    def _ensure_index(self, query: Query) -> None:
        """Words (searched or excluded) need postings: build them now if phase 2 is pending."""
        needs_postings = query.has_terms or query.excluded_terms or query.excluded_phrases
        if needs_postings and not self._index.built:
            self.build_index()

    def _context(self, query: Query) -> RankContext:
        contexts = self._contexts
        context = contexts.pop(query.text, None)
        if context is None:
            context = self._ranker.rank(query)
        contexts[query.text] = context  # the newest last; the oldest go first
        while len(contexts) > 1 and (
            len(contexts) > CONTEXT_CACHE_SIZE
            or sum(kept.nbytes for kept in contexts.values()) > CONTEXT_CACHE_BYTES
        ):
            del contexts[next(iter(contexts))]
        return context

    # --- reading ---------------------------------------------------------------------------

    @property
    def several_roots(self) -> bool:
        """True when entries carry root labels (more than one root is open)."""
        return len(self.stores) > 1

    def root_of(self, entry: Entry | EntryHead) -> MemoryRoot:
        """The root `entry` came from."""
        return (
            self.roots[0]
            if not entry.root
            else next(root for root in self.roots if root.label == entry.root)
        )

    def file_of(self, entry: Entry) -> Path:
        """The file `entry` lives in, as the root was given plus its relative path."""
        return self.root_of(entry).path / entry.path

    @property
    def skipped(self) -> tuple[Skipped, ...]:
        """Paths no root loaded, and why (qualified paths when several roots are open)."""
        with self._lock:
            return tuple(
                Skipped(qualified_path(store.label, item.path), item.reason)
                for store in self.stores
                for item in store.skipped
            )

    @property
    def hidden_by_window(self) -> int:
        """Daily entries outside the date window, over every root."""
        with self._lock:
            return sum(store.hidden_by_window for store in self.stores)

    def loaded_entries(self) -> list[Entry]:
        """Every loaded entry of every root (a copy, safe to keep)."""
        with self._lock:
            return list(self._loaded())

    def facets(self) -> Facets:
        """The sources, tags, roles and newest date of the live entries, from the columns."""
        with self._lock:
            index, statics = self._index, self._ranker.statics
            return live_facets(
                index.entries, index.alive, statics.source_code, statics.date_ordinal
            )

    def entry(self, entry_id: str) -> Entry | None:
        with self._lock:
            slot = self._index.slot_of.get(entry_id)
            return None if slot is None else self._index.entries[slot]

    def entry_terms(self) -> EntryTerms:
        """Every live entry with the words it holds, and the files they are of (for the health
        checks); builds the index if needed. Taken under the lock, inverted outside it."""
        self.build_index()
        with self._lock:
            index = self._index
            entries, alive = index.entries.copy(), index.alive.copy()
            segments = (index.main, index.delta)
            files = loaded_files((store.label, store.records()) for store in self.stores)
            pairs = self._caches.pairs
        from memtui.core.search.terms import collect_terms  # here: only the health checks ask

        return collect_terms(entries, alive, segments, files, pairs)

    def __len__(self) -> int:
        return self._index.live_count

    @property
    def vocabulary_size(self) -> int:
        return self._index.vocabulary_size
