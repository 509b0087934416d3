"""The live inverted index over entries: slots, live flags and two segments, updated per file.

Every entry gets an integer *slot*. Expanding a query term (`core.search.expansion`) is a few
bisects and array slices over the sorted vocabulary of each segment (`core.search.segment`); the
ranker then scores all postings in one vectorised step. One- and two-letter prefixes match a
large share of all postings, so their summed tf over the main segment is kept (warmed at load, see
`Index.term_frequencies`): typing the first letter costs no more than typing the fifth.

Updates never rebuild the whole index: the *main* segment is built once at load; entries of files
that change afterwards go to a small *delta* segment (rebuilt from cached tokens of just those
entries) and their old slots are marked dead. Only when dead slots outnumber live ones, dead
entries hold more text than live ones (one removed 10 MB log), or the delta grows past a quarter
of the corpus, is everything compacted into a fresh main segment: amortised, never per change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import cast

import numpy as np

from memtui.core.model import Entry
from memtui.core.search.arrays import BoolArray, FloatArray, IntArray, SlotArray
from memtui.core.search.expansion import (
    FUZZY_CUTOFF,
    FUZZY_LIMIT,
    FUZZY_MIN_CHARS,
    Expansion,
    ExpansionCache,
    Piece,
    assemble,
    fuzzy_buckets,
    fuzzy_pieces,
    segment_pieces,
    variant_stem,
)
from memtui.core.search.fields import entry_tokens
from memtui.core.search.segment import EMPTY_SEGMENT, Segment, build_main_segment, build_segment
from memtui.core.search.slots import EntryRows, SlotEntries, ids_and_chars, runs
from memtui.core.search.tokenize import is_cjk

COMPACT_MIN_DEAD = 1000
"""Dead slots are compacted away once they exceed this and outnumber the live ones."""
COMPACT_MIN_DEAD_CHARS = 1_000_000
"""... or once dead entries hold more text than this and than the live ones: one huge replaced
or removed entry must not stay in memory until a thousand others die."""
COMPACT_MIN_DELTA = 2000
"""The delta segment is merged into main once it holds this many entries and a quarter of all
(it is rebuilt on every change, so it must stay small)."""
FREQUENCY_CACHE_MIN_POSTINGS = 20_000
"""Terms with at least this many main-segment postings keep their summed tf (see Index)."""
FREQUENCY_CACHE_SIZE = 12
"""At most this many cached tf arrays (one float per slot each: 4.8 MB at 50k entries). On the
bench's 362 keystrokes at 50k (warm engine, three rounds) 24 gave rerank p95 0.58-0.59 ms and 12
gave 0.65-0.67 ms, for 8-11 MB against 3-4 MB of growth as one types: 0.1 ms is not felt."""
FREQUENCY_PREWARM = 8
"""How many of the heaviest 1–2 letter prefixes `prepare_prefixes` sums at load (~10 ms at
50k entries); the rest of the cache fills as terms are typed."""


class Index:
    """Slots, live flags, token lengths and the two segments; not thread-safe (Engine locks)."""

    def __init__(self) -> None:
        self.entries = SlotEntries()
        self.alive: BoolArray = np.zeros(0, dtype=bool)
        self.lengths: FloatArray = np.zeros(0)
        self.slot_of: dict[str, int] = {}
        self.path_id: IntArray = np.zeros(0, dtype=np.int64)
        """Per slot, an id into `paths` (a file's `Entry.qualified_path`, as every path key
        here): `slots_of` finds a file's slots in it."""
        self.path_rank: IntArray = np.zeros(0, dtype=np.int64)
        """Per path id, its rank in sorted path order (for the path tie-break)."""
        self.paths: list[str] = []
        self._path_ids: dict[str, int] = {}
        self.main: Segment = EMPTY_SEGMENT
        self.delta: Segment = EMPTY_SEGMENT
        self._delta_tokens: dict[int, tuple[list[str], list[str]]] = {}
        self._delta_words: dict[str, str] = {}
        """One string per word in `_delta_tokens` (see `_shared_tokens`)."""
        self._main_buckets: tuple[Segment, dict[tuple[str, int], list[str]]] | None = None
        """Fuzzy candidate pools of a main segment: built by `prepare_fuzzy` (the engine calls
        it after a load, outside its lock) or on the first fuzzy lookup after a compaction."""
        self._delta_buckets: dict[tuple[str, int], list[str]] = {}
        self._main_frequencies: tuple[Segment, dict[tuple[str, bool], FloatArray]] | None = None
        """Per main segment, the credited tf over main slots of terms with many postings
        (1–2 letter prefixes): summing those is the slowest part of a keystroke, and it
        survives per-file updates, which only touch the delta. Warmed by `prepare_prefixes`."""
        self._prewarmed: Segment | None = None
        """The main segment `prepare_prefixes` last warmed (it runs once per segment)."""
        self._cache = ExpansionCache()
        self.version = 0
        self.generation = 0
        """Bumped when slots are renumbered (rebuild/compaction): per-slot arrays must be redone."""
        self._vocabulary_size = 0
        self.built = True
        """False between `set_entries` and `install_main`: term queries must wait."""
        self.main_size = 0
        """Slots `set_entries` handed out: the main segment covers exactly these (later slots
        come from per-file updates and live in the delta)."""
        self.live_count = 0
        self.total_length = 0.0
        self.live_chars: int | Callable[[], int] = 0
        """`Entry.text_chars` summed over live slots (for a warm start, when a file first
        changes); `dead_chars` over dead ones."""
        self.dead_chars = 0

    # --- building and updating --------------------------------------------------------------

    def rebuild(self, entries: Iterable[Entry]) -> None:
        """Index `entries` from scratch (load, or compaction)."""
        self.set_entries(entries)
        self.install_main(*build_main_segment(self.entries.base))  # columns stay columns

    def set_entries(self, entries: Iterable[Entry]) -> None:
        """Give `entries` slots but no postings yet: browse mode works at once, term queries
        need `install_main` (the two-phase load that lets the UI paint before indexing)."""
        self.slot_of = {}
        self.paths = []
        self._path_ids = {}
        self.path_id = np.zeros(0, dtype=np.int64)
        self.path_rank = np.zeros(0, dtype=np.int64)
        rows = entries if isinstance(entries, EntryRows) else None
        base = cast(Sequence[Entry], rows) if rows is not None else list(entries)
        self.entries = SlotEntries(base)
        if rows is not None:  # a warm start: read from the columns, not entries
            ids, paths = rows.ids(), rows.qualified_paths()
            self.live_chars = lambda: int(rows.chars().sum())
        else:
            ids = [entry.id for entry in base]
            paths = [entry.qualified_path for entry in base]
            self.live_chars = sum(entry.text_chars for entry in base)
        self.slot_of = dict(zip(ids, range(len(ids)), strict=True))  # `_claim_slot`, for all
        spans = runs(paths)
        run_paths = [paths[start] for start, _ in spans]
        self.paths = list(dict.fromkeys(run_paths))  # each path once, first seen first
        self._path_ids = dict(zip(self.paths, range(len(self.paths)), strict=True))
        run_ids = np.fromiter(map(self._path_ids.__getitem__, run_paths), np.int64, len(spans))
        self.path_id = np.repeat(run_ids, [stop - start for start, stop in spans])
        self.main = EMPTY_SEGMENT
        self.delta = EMPTY_SEGMENT
        self._delta_tokens = {}
        self._delta_words = {}
        self._main_buckets = None  # they hold the old main segment (all of its postings)
        self._main_frequencies = None
        self._prewarmed = None
        self.alive = np.ones(len(self.entries), dtype=bool)
        self.lengths = np.zeros(len(self.entries))
        self.live_count = len(self.entries)
        self.total_length = 0.0
        self.dead_chars = 0
        self.built = False
        self.main_size = len(self.entries)
        self.generation += 1
        self._refresh_vocabulary(main_changed=True)

    def install_main(self, segment: Segment, lengths: FloatArray) -> None:
        """Install postings built by `build_main_segment` from the entries of `set_entries`
        (same generation). Slots changed meanwhile are dead or in the delta, so the build may
        run outside the engine's lock."""
        self.main = segment
        self.lengths = self.lengths.copy()
        self.lengths[: len(lengths)] = lengths
        live = self.lengths if self.live_count == len(self.entries) else self.lengths[self.alive]
        self.total_length = float(live.sum())
        self.built = True
        self._refresh_vocabulary(main_changed=True)

    def replace_paths(self, entries_by_path: Mapping[str, Sequence[Entry]]) -> list[int]:
        """Replace every entry of the given paths (an empty sequence removes the file).

        Returns the new slots. Old slots are marked dead; new entries go to the delta segment.
        """
        live_chars = self.live_chars() if callable(self.live_chars) else self.live_chars
        alive = self.alive.copy()
        known = [self._path_ids[path] for path in entries_by_path if path in self._path_ids]
        gone = np.flatnonzero(alive & np.isin(self.path_id, known))
        alive[gone] = False
        self.live_count -= len(gone)
        self.total_length -= float(self.lengths[gone].sum())  # whole numbers: exact
        ids, chars = ids_and_chars(self.entries, gone.tolist())
        live_chars, self.dead_chars = live_chars - sum(chars), self.dead_chars + sum(chars)
        for slot, entry_id in zip(gone.tolist(), ids, strict=True):
            self._delta_tokens.pop(slot, None)
            if self.slot_of.get(entry_id) == slot:
                del self.slot_of[entry_id]
        new_slots: list[int] = []
        new_lengths: list[float] = []
        for entries in entries_by_path.values():
            for entry in entries:
                slot = self._claim_slot(entry)
                found = self._shared_tokens(entry_tokens(entry))
                self._delta_tokens[slot] = found
                live_chars += entry.text_chars
                new_slots.append(slot)
                new_lengths.append(float(len(found[0]) + len(found[1])))
        self.alive = np.concatenate([alive, np.ones(len(new_slots), dtype=bool)])
        self.lengths = np.concatenate([self.lengths, np.asarray(new_lengths, dtype=np.float64)])
        self.live_count, self.live_chars = self.live_count + len(new_slots), live_chars
        self.total_length += sum(new_lengths)
        dead = len(self.entries) - self.live_count
        too_many_dead = dead > max(COMPACT_MIN_DEAD, self.live_count)
        too_much_dead_text = self.dead_chars > max(COMPACT_MIN_DEAD_CHARS, live_chars)
        delta_too_big = len(self._delta_tokens) > max(COMPACT_MIN_DELTA, self.live_count // 4)
        if too_many_dead or too_much_dead_text or delta_too_big:
            self.rebuild([self.entries[slot] for slot in np.flatnonzero(self.alive).tolist()])
            return [
                self.slot_of[entry.id] for entries in entries_by_path.values() for entry in entries
            ]
        self.delta = build_segment(
            [(slot, heading, body) for slot, (heading, body) in sorted(self._delta_tokens.items())]
        )
        if len(self._delta_words) > 2 * len(self.delta.words) + 1000:  # words of dead slots
            self._delta_words = {word: word for word in self.delta.words}
        self._refresh_vocabulary(main_changed=False)
        return new_slots

    def _shared_tokens(self, found: tuple[list[str], list[str]]) -> tuple[list[str], list[str]]:
        """The tokens with every word as one shared string. The delta keeps each changed
        entry's tokens; as separate strings, a 4 MB file's half million tokens were scattered
        over Python's small-object arenas, which then stayed mapped after the file was gone."""
        shared = self._delta_words.setdefault
        heading, body = found
        return [shared(token, token) for token in heading], [shared(token, token) for token in body]

    def _claim_slot(self, entry: Entry) -> int:
        slot = len(self.entries)
        self.entries.append(entry)
        self.slot_of[entry.id] = slot
        path = entry.qualified_path
        if path not in self._path_ids:
            self._path_ids[path] = len(self.paths)
            self.paths.append(path)
        return slot

    def _refresh_paths(self) -> None:
        """Extend per-slot path ids; re-rank paths only when a new path appeared."""
        known = len(self.path_id)
        path_ids = self._path_ids
        fresh = np.fromiter(
            (path_ids[entry.qualified_path] for entry in self.entries[known:]),
            np.int64,
            len(self.entries) - known,
        )
        self.path_id = np.concatenate([self.path_id[:known], fresh])
        if len(self.path_rank) != len(self.paths):
            order = np.argsort(np.asarray(self.paths, dtype=object), kind="stable")
            rank = np.zeros(len(self.paths), dtype=np.int64)
            rank[order] = np.arange(len(self.paths))
            self.path_rank = rank

    def _refresh_vocabulary(self, *, main_changed: bool) -> None:
        """Fuzzy buckets for main (rebuilt only with main) and delta; bump the version."""
        self._refresh_paths()
        self._delta_buckets = fuzzy_buckets(self.delta.words)
        main = self.main
        self._vocabulary_size = len(main.words) + sum(
            1 for word in self.delta.words if main.word_id(word) is None
        )
        self._cache = ExpansionCache()
        self.version += 1

    # --- reading ----------------------------------------------------------------------------

    def slots_of(self, path: str) -> IntArray:
        """Every slot of a file, dead ones too. Found in `path_id` (~30 µs at 50k slots) rather
        than kept per file: a list of slots per file held 2.6 MB at 50k entries."""
        path_id = self._path_ids.get(path)
        if path_id is None:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(self.path_id == path_id)

    @property
    def slot_count(self) -> int:
        """Slots handed out since the last rebuild, dead ones included: the length of every
        per-slot array (`live_count` counts the live ones)."""
        return len(self.entries)

    @property
    def average_length(self) -> float:
        return self.total_length / self.live_count if self.total_length > 0 else 1.0

    @property
    def vocabulary_size(self) -> int:
        return self._vocabulary_size

    def expand(self, term: str, *, prefix: bool) -> Expansion:
        """The words `term` matches (exact, prefix, variant, fuzzy) and their postings; cached."""
        key = (term, prefix)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        expansion = self._expand(term, prefix=prefix and not is_cjk(term))
        self._cache.put(key, expansion)
        return expansion

    def _expand(self, term: str, *, prefix: bool) -> Expansion:
        stem = variant_stem(term) if prefix else None
        pieces: list[Piece] = []
        for segment in (self.main, self.delta):
            pieces.extend(segment_pieces(segment, term, stem, prefix=prefix))
        fuzzy: dict[str, float] = {}
        if len(term) >= FUZZY_MIN_CHARS and not is_cjk(term) and not self._any_live(pieces):
            fuzzy = self.fuzzy_words(term)
            pieces = fuzzy_pieces((self.main, self.delta), fuzzy)
        return assemble(term, stem, pieces, fuzzy, self.main)

    def prepare_fuzzy(self) -> dict[tuple[str, int], list[str]]:
        """The main segment's fuzzy buckets, built if missing. Safe to call without the
        engine lock: the result is keyed by the (immutable) segment it was built from."""
        main = self.main
        prepared = self._main_buckets
        if prepared is None or prepared[0] is not main:
            prepared = (main, fuzzy_buckets(main.words))
            if self.main is main:  # not a segment compacted away meanwhile (it would stay)
                self._main_buckets = prepared
        return prepared[1]

    def term_frequencies(self, expansion: Expansion, key: tuple[str, bool]) -> FloatArray:
        """Credited tf per slot: the `posting_tf` of the expansion's postings, summed per slot.

        Main and delta postings cover disjoint slots, so the main part (cached when large)
        plus the delta part equals one sum over all postings bit for bit. A cached array is
        returned as is (read-only) when there is no delta part."""
        split = expansion.main_postings
        if split < FREQUENCY_CACHE_MIN_POSTINGS:
            return _summed(expansion.docs, expansion.posting_tf(), self.slot_count)
        frequencies = self._main_cache().get(key)
        if frequencies is None:
            frequencies = self._main_part(expansion)
            cache = self._main_cache()
            if len(cache) < FREQUENCY_CACHE_SIZE:
                frequencies.flags.writeable = False
                cache[key] = frequencies
        if split == len(expansion.docs) and len(frequencies) == self.slot_count:
            return frequencies
        total = np.zeros(self.slot_count)
        total[: len(frequencies)] = frequencies
        if split < len(expansion.docs):
            total += _summed(expansion.docs[split:], expansion.posting_tf(split), self.slot_count)
        return total

    def _main_part(self, expansion: Expansion) -> FloatArray:
        split = expansion.main_postings
        return _summed(expansion.docs[:split], expansion.posting_tf(0, split), self.main_size)

    def _main_cache(self) -> dict[tuple[str, bool], FloatArray]:
        main = self.main
        cached = self._main_frequencies
        if cached is None or cached[0] is not main:
            cached = self._main_frequencies = (main, {})
        return cached[1]

    def prepare_prefixes(self) -> None:
        """Sum the main segment's heaviest 1–2 letter prefixes ahead of the first keystroke.
        Safe without the engine lock, like `prepare_fuzzy`: results are keyed by the
        (immutable) segment they were computed from."""
        main = self.main
        if self._prewarmed is main:
            return
        ptr = main.ptr
        heavy: list[tuple[int, str]] = []
        for length in (1, 2):
            for prefix in sorted(
                {
                    word[:length]
                    for word in main.words
                    if len(word) >= length and not is_cjk(word[:length])
                }
            ):
                lo, hi = main.id_range(prefix)
                postings = int(ptr[hi] - ptr[lo])
                if postings >= FREQUENCY_CACHE_MIN_POSTINGS:
                    heavy.append((postings, prefix))
        # Into the cache typing fills: a second dict beside a full one held up to 20 arrays.
        cached = self._main_frequencies
        warmed = cached[1] if cached is not None and cached[0] is main else {}
        for _, prefix in sorted(heavy, reverse=True)[:FREQUENCY_PREWARM]:
            if len(warmed) >= FREQUENCY_CACHE_SIZE:
                break
            if (prefix, True) not in warmed:
                pieces = segment_pieces(main, prefix, None, prefix=True)
                frequencies = self._main_part(assemble(prefix, None, pieces, {}, main))
                frequencies.flags.writeable = False
                warmed.setdefault((prefix, True), frequencies)
        if self.main is main:  # as in `prepare_fuzzy`
            self._main_frequencies = (main, warmed)
            self._prewarmed = main

    def _any_live(self, pieces: list[Piece]) -> bool:
        """Whether the matched words have a live posting: words left only by replaced
        entries must not block the typo fallback (a fresh index would not have them)."""
        if self.live_count == self.slot_count:
            return bool(pieces)
        for segment, start, end, _ in pieces:
            if self.alive[segment.docs[segment.ptr[start] : segment.ptr[end]]].any():
                return True
        return False

    def fuzzy_words(self, term: str, cutoff: float = FUZZY_CUTOFF) -> dict[str, float]:
        """Vocabulary words within OSA similarity `cutoff` of `term`.

        Only words of similar length (±1, ±2 from 6 letters) that start with the term's first
        or second letter are compared: typos rarely hit the first letter, and the second-letter
        bucket still catches a swapped first pair (`ubild` -> `build`). That keeps a keystroke
        to a few hundred comparisons on a large vocabulary.
        """
        spread = 1 if len(term) <= 5 else 2
        main_buckets = self.prepare_fuzzy()
        candidates: list[str] = []
        from_delta = False
        for first in dict.fromkeys(term[:2]):
            for length in range(len(term) - spread, len(term) + spread + 1):
                candidates.extend(main_buckets.get((first, length), ()))
                in_delta = self._delta_buckets.get((first, length))
                if in_delta:
                    candidates.extend(in_delta)
                    from_delta = True
        if from_delta:  # buckets are disjoint; only a word in both segments can repeat
            candidates = list(dict.fromkeys(candidates))
        from rapidfuzz.distance import OSA  # here: only a query with a typo loads it
        from rapidfuzz.process import extract

        found = extract(
            term, candidates, scorer=OSA.normalized_similarity, score_cutoff=cutoff, limit=None
        )
        ranked = sorted((-score, word) for word, score, _ in found if word != term)
        if self.live_count != self.slot_count:
            ranked = [item for item in ranked if self.document_frequency(item[1]) > 0]
        return {word: -negative for negative, word in ranked[:FUZZY_LIMIT]}

    def document_frequency(self, word: str) -> int:
        """Live entries containing `word` exactly."""
        return sum(int(np.count_nonzero(self.alive[docs])) for docs in self._postings(word))

    def live_slots_with(self, word: str) -> list[int]:
        """Slots of the live entries containing `word` exactly."""
        return [slot for docs in self._postings(word) for slot in docs[self.alive[docs]].tolist()]

    def _postings(self, word: str) -> Iterator[SlotArray]:
        """The slots holding `word` in each segment that has it, dead ones included."""
        for segment in (self.main, self.delta):
            if (word_id := segment.word_id(word)) is not None:
                yield segment.docs[segment.ptr[word_id] : segment.ptr[word_id + 1]]


def _summed(docs: SlotArray, weights: FloatArray, slots: int) -> FloatArray:
    """Σ weights per slot, in posting order (so equal inputs give equal bits)."""
    return np.asarray(np.bincount(docs, weights=weights, minlength=slots), dtype=np.float64)
