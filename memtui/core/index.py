"""Inverted index over entries, updated per file, with prefix, word-variant and fuzzy expansion.

Layout (why it is fast): every entry gets an integer *slot*. A `Segment` holds its vocabulary
sorted, so term ids follow sorted order and all words starting with a prefix form one contiguous
id range found by bisect; its postings are numpy arrays in CSR form (`ptr[id]:ptr[id+1]` are the
postings of word `id`). Expanding a query term is a few bisects and array slices; the ranker then
scores all postings in one vectorised step. One- and two-letter prefixes match a large share of
all postings, so their summed tf over the main segment is kept (warmed at load, see
`Index.term_frequencies`): typing the first letter costs no more than typing the fifth.

Updates never rebuild the whole index: the *main* segment is built once at load; entries of files
that change afterwards go to a small *delta* segment (rebuilt from cached tokens of just those
entries) and their old slots are marked dead. Only when dead slots outnumber live ones, or the
delta grows past a quarter of the corpus (long sessions editing many different files), is
everything compacted into a fresh main segment: an amortised cost, never one per change.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import count
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from rapidfuzz.distance import OSA
from rapidfuzz.process import extract

from memtui.core.model import Entry, MatchKind
from memtui.core.tokenize import TEXT_SEPARATOR, batch_tokens, is_cjk, phrase_key, tokens

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
SmallArray = npt.NDArray[np.int32]
CountArray = npt.NDArray[np.integer[Any]]
"""Occurrence counts: uint16 unless some entry repeats a word more than 65,535 times."""
ScalarT = TypeVar("ScalarT", bound=np.generic)

HEADING_WEIGHT = 2.0
"""A heading occurrence counts as this many body occurrences."""
PREFIX_BASE_CREDIT = 0.6
"""Prefix credit = base + (1 - base) · len(term) / len(word): closer completions earn more."""
VARIANT_CREDIT = 0.7
"""Credit of a word variant (the term minus a common suffix, e.g. deployment -> deploy*)."""
FUZZY_CREDIT_SCALE = 0.8
"""Fuzzy credit = scale · OSA similarity, so a typo match stays below a real one."""
FUZZY_MIN_CHARS = 4
FUZZY_CUTOFF = 0.75
"""Minimum normalised OSA similarity (1 edit in 4 letters, 2 in 8)."""
FUZZY_LIMIT = 8
"""At most this many typo matches per term: the most similar, ties by word."""
MIN_VARIANT_STEM = 4
_SUFFIXES = (
    "ations", "ation", "ments", "ment", "ings", "ing", "ions", "ion",
    "ies", "ers", "er", "ed", "es", "s",
)
COMPACT_MIN_DEAD = 1000
"""Dead slots are compacted away once they exceed this and outnumber the live ones."""
COMPACT_MIN_DELTA = 2000
"""The delta segment is merged into main once it holds this many entries and a quarter of all
(it is rebuilt on every change, so it must stay small)."""
_TOP = "\U0010ffff"
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_METADATA_KEYS = ("name", "title", "description", "summary")
_CACHE_LIMIT = 1024
FREQUENCY_CACHE_MIN_POSTINGS = 20_000
"""Terms with at least this many main-segment postings keep their summed tf (see Index)."""
FREQUENCY_CACHE_SIZE = 40
"""At most this many cached tf arrays (one float per slot each: 16 MB at 50k entries)."""
FREQUENCY_PREWARM = 24
"""How many of the heaviest 1–2 letter prefixes `prepare_prefixes` sums at load (~100 ms at
50k entries); the rest of the cache fills as terms are typed."""
BUILD_BATCH = 512
"""Entries tokenized per pass at load: large enough to amortise the per-call cost, small
enough that one batch's token strings stay a few MB."""


def _echoes_body(text: str, entry: Entry) -> bool:
    """True for a title made from the entry's own first line (headless blocks, HISTORY.md
    paragraphs): counting it as a heading would triple-count the body's opening words."""
    core = text.rstrip("…").strip()
    return bool(core) and core in entry.body[: len(core) + 200]


def heading_text(entry: Entry) -> str:
    """Heading-weight text: the entry's own title (unless it echoes the body), its tags and
    frontmatter name/title/description/summary."""
    if not entry.tags and not entry.metadata:
        return "" if _echoes_body(entry.title, entry) else entry.title
    parts = [] if _echoes_body(entry.title, entry) else [entry.title]
    parts.extend(entry.tags)
    parts.extend(value for key in _METADATA_KEYS if (value := entry.meta(key)))
    return "\n".join(dict.fromkeys(part for part in parts if part))


def context_text(entry: Entry) -> str:
    """Parent headings (a file's H1, enclosing sections), counted once at body weight: context
    for the entry, but a document title shared by every section is not the entry's topic."""
    parents = [part for part in entry.heading_path
               if part != entry.title and not _echoes_body(part, entry)]
    return "\n".join(dict.fromkeys(parents))


def heading_and_body_keys(entry: Entry) -> tuple[str, str]:
    """Heading and body as phrase keys, for verifying "exact phrase" matches."""
    return phrase_key(heading_text(entry)), phrase_key(entry.body)


def file_words(entry: Entry) -> list[str]:
    """Words of the file name, camelCase split too (`activeContext.md` -> active, context,
    activecontext): a search for `progress` should find the sections of `progress.md`."""
    stem = entry.file_name.rsplit(".", 1)[0]
    whole = tokens(stem)
    split = tokens(_CAMEL_BOUNDARY.sub(" ", stem))
    return list(dict.fromkeys(split + whole))


def entry_tokens(entry: Entry) -> tuple[list[str], list[str]]:
    """Tokens of an entry's heading text, and of its body plus context and file-name words."""
    body = tokens(entry.body) + tokens(context_text(entry)) + file_words(entry)
    return tokens(heading_text(entry)), body


def _add_batch(
    builder: SegmentBuilder, batch: list[Entry], first_slot: int,
    file_tokens: dict[str, list[str]],
) -> SmallArray:
    """Feed consecutive entries to the builder (the batched twin of `entry_tokens`); returns
    their token counts."""
    headings = batch_tokens([heading_text(entry) for entry in batch])
    bodies = batch_tokens([f"{entry.body}\n{context_text(entry)}" for entry in batch])
    files: list[str] = []
    for entry in batch:
        found = file_tokens.get(entry.path)
        if found is None:
            found = file_tokens[entry.path] = [*file_words(entry), TEXT_SEPARATOR]
        files.extend(found)
    lengths = (builder.add("heading", headings, first_slot)
               + builder.add("body", bodies, first_slot)
               + builder.add("body", files, first_slot))
    builder.flush()
    return lengths


def build_main_segment(entries: Sequence[Entry]) -> tuple[Segment, FloatArray]:
    """Postings and token counts of `entries` as slots 0..n-1, tokenized BUILD_BATCH at a time."""
    builder = SegmentBuilder()
    lengths: list[SmallArray] = []
    file_tokens: dict[str, list[str]] = {}
    for first in range(0, len(entries), BUILD_BATCH):
        batch = list(entries[first : first + BUILD_BATCH])
        lengths.append(_add_batch(builder, batch, first, file_tokens))
    del file_tokens
    segment = builder.build()
    return segment, (np.concatenate(lengths) if lengths else np.zeros(0)).astype(np.float64)


def variant_stem(term: str) -> str | None:
    """The term without a common English suffix, if what is left is long enough to mean it."""
    for suffix in _SUFFIXES:
        if term.endswith(suffix) and len(term) - len(suffix) >= MIN_VARIANT_STEM:
            return term[: -len(suffix)]
    return None


@dataclass(frozen=True, slots=True)
class Segment:
    """An immutable CSR inverted index over some slots (compact dtypes: 50k entries hold
    millions of postings)."""

    words: list[str]
    word_lengths: FloatArray
    ptr: IntArray
    docs: SmallArray
    heading: CountArray
    body: CountArray

    def id_range(self, prefix: str) -> tuple[int, int]:
        """Ids of all words starting with `prefix` (contiguous because ids follow sorted order)."""
        lo = bisect.bisect_left(self.words, prefix)
        return lo, bisect.bisect_left(self.words, prefix + _TOP, lo)

    def word_id(self, word: str) -> int | None:
        at = bisect.bisect_left(self.words, word)
        return at if at < len(self.words) and self.words[at] == word else None


_BUFFER_TYPES = {"i": np.int32, "H": np.uint16}


class SegmentBuilder:
    """Collects (word, slot) postings as int32 arrays, then builds a Segment.

    Token strings live only for one batch: each is mapped to a provisional id (order of first
    appearance, assigned by a C-level defaultdict counter) and dropped. `flush` counts a
    batch's (word, slot, field) triples with one small sort, so only distinct postings are
    kept (about 60% of the tokens); `build` renumbers ids into sorted word order and places
    each batch's postings with a counting sort (no global sort, no int64 copies). Batches must
    be flushed in increasing slot order; order within a batch does not matter, so a field may
    be fed in several passes (text, file words).
    """

    def __init__(self) -> None:
        self._ids: defaultdict[str, int] = defaultdict(count().__next__)
        self._separator = self._ids[TEXT_SEPARATOR]
        self._pending: list[tuple[SmallArray, SmallArray, int]] = []
        self._postings: list[array[int]] = [array("i"), array("i"), array("H"), array("H")]
        """Provisional word ids, slots, heading counts, body counts of flushed batches, in
        growable C buffers (reallocated in place, returned whole to the OS when freed)."""
        self._batch_sizes: list[int] = []

    def add(self, field: str, flat_tokens: list[str], first_slot: int) -> SmallArray:
        """Add `batch_tokens`-shaped tokens of consecutive slots from `first_slot` to the
        current batch; returns each slot's token count."""
        word_ids = np.array(list(map(self._ids.__getitem__, flat_tokens)), dtype=np.int32)
        is_separator = word_ids == self._separator
        ends = np.flatnonzero(is_separator)
        per_slot = np.diff(ends, prepend=-1).astype(np.int32)
        slots = np.repeat(np.arange(first_slot, first_slot + len(ends), dtype=np.int32),
                          per_slot)
        keep = ~is_separator
        self._pending.append((word_ids[keep], slots[keep], 0 if field == "heading" else 1))
        return per_slot - 1

    def flush(self) -> None:
        """Count the current batch's postings (heading and body occurrences per word, slot)."""
        if not self._pending:
            return
        word_ids = np.concatenate([words for words, _, _ in self._pending]).astype(np.int64)
        slots = np.concatenate([slots for _, slots, _ in self._pending])
        fields = np.concatenate([np.full(len(words), bit, dtype=np.int64)
                                 for words, _, bit in self._pending])
        self._pending = []
        if len(word_ids) == 0:
            return
        lowest = int(slots.min())
        span = int(slots.max()) - lowest + 1
        keys = ((word_ids * span + (slots - lowest)) << 1) | fields
        keys.sort()
        field_keys, field_counts = _count_sorted(keys)
        pair_keys, starts = _runs(field_keys >> 1)
        totals = np.add.reduceat(field_counts, starts)
        heading = np.where(field_keys[starts] & 1, 0, field_counts[starts]).astype(np.int32)
        self._batch_sizes.append(len(pair_keys))
        self._append(0, (pair_keys // span).astype(np.int32))
        self._append(1, (pair_keys % span + lowest).astype(np.int32))
        self._append(2, heading)
        self._append(3, (totals - heading).astype(np.int32))

    def _append(self, which: int, values: SmallArray) -> None:
        """Append to a buffer; count buffers hold uint16 until a count exceeds 65,535 (then
        they are widened once to int32)."""
        buffer = self._postings[which]
        if buffer.typecode == "H" and int(values.max(initial=0)) > np.iinfo(np.uint16).max:
            buffer = self._postings[which] = array("i", buffer)
        buffer.frombytes(values.astype(_BUFFER_TYPES[buffer.typecode]).tobytes())

    def build(self) -> Segment:
        self.flush()
        provisional = list(self._ids)
        del self._ids
        order = sorted(range(1, len(provisional)), key=provisional.__getitem__)
        vocabulary = [provisional[at] for at in order]
        del provisional
        sorted_id = np.zeros(len(order) + 1, dtype=np.int32)
        sorted_id[np.asarray(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int32)
        words, slots, headings, bodies = (
            np.frombuffer(buffer, dtype=_BUFFER_TYPES[buffer.typecode])
            for buffer in self._postings
        )
        self._postings = []
        batches = []
        offset = 0
        for size in self._batch_sizes:
            batches.append(slice(offset, offset + size))
            offset += size
        per_word = np.zeros(len(vocabulary), dtype=np.int64)
        for batch in batches:  # batch by batch: no posting-sized temporary index array
            words[batch] = sorted_id[words[batch]]
            per_word += np.bincount(words[batch], minlength=len(vocabulary))
        ptr = np.zeros(len(vocabulary) + 1, dtype=np.int64)
        np.cumsum(per_word, out=ptr[1:])
        docs = np.empty(len(words), dtype=np.int32)
        heading: CountArray = np.empty(len(words), dtype=headings.dtype)
        body: CountArray = np.empty(len(words), dtype=bodies.dtype)
        next_free = ptr[:-1].copy()
        for batch in batches:
            destination = _scatter_positions(words[batch], next_free)
            docs[destination] = slots[batch]
            heading[destination] = headings[batch]
            body[destination] = bodies[batch]
        return Segment(
            words=vocabulary,
            word_lengths=np.fromiter((len(w) for w in vocabulary), np.float64, len(vocabulary)),
            ptr=ptr,
            docs=docs,
            heading=heading,
            body=body,
        )


def _scatter_positions(words: SmallArray, next_free: IntArray) -> IntArray:
    """Where a batch's postings go in the word-ordered arrays (a counting sort): the batch
    holds each word's postings contiguously, slots ascending, after those of earlier batches."""
    runs, starts = _runs(words)
    lengths = np.diff(starts, append=len(words))
    within = np.arange(len(words)) - np.repeat(starts, lengths)
    destination = next_free[words] + within
    next_free[runs] += lengths
    return destination


def build_segment(documents: Iterable[tuple[int, list[str], list[str]]]) -> Segment:
    """Build a segment from (slot, heading tokens, body tokens); postings sorted by word, slot."""
    builder = SegmentBuilder()
    for slot, heading_tokens, body_tokens in documents:
        builder.add("heading", [*heading_tokens, TEXT_SEPARATOR], slot)
        builder.add("body", [*body_tokens, TEXT_SEPARATOR], slot)
    return builder.build()


def _runs(ordered: npt.NDArray[ScalarT]) -> tuple[npt.NDArray[ScalarT], IntArray]:
    """The value of each run of equal values and where the run starts (for a sorted array:
    its distinct values)."""
    if len(ordered) == 0:
        return ordered.copy(), np.zeros(0, dtype=np.int64)
    boundary = np.empty(len(ordered), dtype=bool)
    boundary[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=boundary[1:])
    starts = np.flatnonzero(boundary)
    return ordered[starts], starts


def _count_sorted(ordered: IntArray) -> tuple[IntArray, SmallArray]:
    """Distinct values of a sorted array and how often each occurs."""
    distinct, starts = _runs(ordered)
    counts = np.diff(starts, append=len(ordered)).astype(np.int32)
    return distinct, counts


EMPTY_SEGMENT = build_segment(())


@dataclass(frozen=True, slots=True)
class Expansion:
    """Everything a query term matched: words, their credits, and the postings to score.

    Postings are concatenated word by word; `word_ptr[i]:word_ptr[i+1]` are word i's postings.
    The ranker sums `contributions` per slot; the explanation reads the same arrays back.
    """

    term: str
    words: list[str]
    word_credits: FloatArray
    word_ptr: IntArray
    fuzzy: Mapping[str, float]
    """Words matched only fuzzily -> their OSA similarity."""
    stem: str | None
    docs: SmallArray
    heading: CountArray
    body: CountArray
    main_postings: int = 0
    """How many leading postings come from the main segment (the rest are the delta's), or
    -1 when main and delta postings interleave (fuzzy words)."""

    def contributions(self, begin: int = 0, end: int | None = None) -> FloatArray:
        """credit · (HEADING_WEIGHT · heading + body) per posting in [begin, end): computed on
        demand, elementwise, so any sub-range holds exactly the values of the whole."""
        stop = len(self.docs) if end is None else end
        first = int(np.searchsorted(self.word_ptr, begin, side="right")) - 1
        last = int(np.searchsorted(self.word_ptr, stop, side="left"))
        bounds = np.clip(self.word_ptr[first : last + 1], begin, stop)
        credits = np.repeat(self.word_credits[first:last], np.diff(bounds))
        weighted = HEADING_WEIGHT * self.heading[begin:stop] + self.body[begin:stop].astype(
            np.float64)
        return credits * weighted

    def kind(self, word: str) -> MatchKind:
        if word == self.term:
            return MatchKind.EXACT
        if word in self.fuzzy:
            return MatchKind.FUZZY
        return MatchKind.PREFIX

    @property
    def empty(self) -> bool:
        return len(self.docs) == 0


def _buckets(words: list[str]) -> dict[tuple[str, int], list[str]]:
    """Words by (first letter, length), the candidate pools of fuzzy matching."""
    buckets: dict[tuple[str, int], list[str]] = {}
    for word in words:
        if len(word) >= FUZZY_MIN_CHARS - 1 and not is_cjk(word):
            buckets.setdefault((word[0], len(word)), []).append(word)
    return buckets


class Index:
    """Slots, live flags, token lengths and the two segments; not thread-safe (Engine locks)."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.alive: npt.NDArray[np.bool_] = np.zeros(0, dtype=bool)
        self.lengths: FloatArray = np.zeros(0)
        self.slot_of: dict[str, int] = {}
        self.slots_of_path: dict[str, list[int]] = {}
        self.path_id: IntArray = np.zeros(0, dtype=np.int64)
        """Per slot, an id into `paths`."""
        self.path_rank: IntArray = np.zeros(0, dtype=np.int64)
        """Per path id, its rank in sorted path order (for the path tie-break)."""
        self.paths: list[str] = []
        self._path_ids: dict[str, int] = {}
        self.main: Segment = EMPTY_SEGMENT
        self.delta: Segment = EMPTY_SEGMENT
        self._delta_tokens: dict[int, tuple[list[str], list[str]]] = {}
        self._main_buckets: tuple[Segment, dict[tuple[str, int], list[str]]] | None = None
        """Fuzzy candidate pools of a main segment: built by `prepare_fuzzy` (the engine calls
        it after a load, outside its lock) or on the first fuzzy lookup after a compaction."""
        self._delta_buckets: dict[tuple[str, int], list[str]] = {}
        self._main_frequencies: tuple[Segment, dict[tuple[str, bool], FloatArray]] | None = None
        """Per main segment, the credited tf over main slots of terms with many postings
        (1–2 letter prefixes): summing those is the slowest part of a keystroke, and it
        survives per-file updates, which only touch the delta. Warmed by `prepare_prefixes`."""
        self._cache: dict[tuple[str, bool], Expansion] = {}
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

    # --- building and updating --------------------------------------------------------------

    def rebuild(self, entries: Iterable[Entry]) -> None:
        """Index `entries` from scratch (load, or compaction)."""
        self.set_entries(entries)
        self.install_main(*build_main_segment(self.entries[: self.main_size]))

    def set_entries(self, entries: Iterable[Entry]) -> None:
        """Give `entries` slots but no postings yet: browse mode works at once, term queries
        need `install_main` (the two-phase load that lets the UI paint before indexing)."""
        self.entries = []
        self.slot_of = {}
        self.slots_of_path = {}
        self.paths = []
        self._path_ids = {}
        self.path_id = np.zeros(0, dtype=np.int64)
        self.path_rank = np.zeros(0, dtype=np.int64)
        for entry in entries:
            self._claim_slot(entry)
        self.main = EMPTY_SEGMENT
        self.delta = EMPTY_SEGMENT
        self._delta_tokens = {}
        self.alive = np.ones(len(self.entries), dtype=bool)
        self.lengths = np.zeros(len(self.entries))
        self.live_count = len(self.entries)
        self.total_length = 0.0
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
        alive = self.alive.copy()
        for path in entries_by_path:
            for slot in self.slots_of_path.pop(path, []):
                if alive[slot]:
                    alive[slot] = False
                    self.live_count -= 1
                    self.total_length -= float(self.lengths[slot])
                    self._delta_tokens.pop(slot, None)
                    entry = self.entries[slot]
                    if self.slot_of.get(entry.id) == slot:
                        del self.slot_of[entry.id]
        new_slots: list[int] = []
        new_lengths: list[float] = []
        for entries in entries_by_path.values():
            for entry in entries:
                slot = self._claim_slot(entry)
                found = entry_tokens(entry)
                self._delta_tokens[slot] = found
                new_slots.append(slot)
                new_lengths.append(float(len(found[0]) + len(found[1])))
        self.alive = np.concatenate([alive, np.ones(len(new_slots), dtype=bool)])
        self.lengths = np.concatenate([self.lengths, np.asarray(new_lengths, dtype=np.float64)])
        self.live_count += len(new_slots)
        self.total_length += sum(new_lengths)
        dead = len(self.entries) - self.live_count
        delta_too_big = len(self._delta_tokens) > max(COMPACT_MIN_DELTA, self.live_count // 4)
        if dead > max(COMPACT_MIN_DEAD, self.live_count) or delta_too_big:
            self.rebuild([self.entries[slot] for slot in np.flatnonzero(self.alive)])
            return [self.slot_of[entry.id] for entries in entries_by_path.values()
                    for entry in entries]
        self.delta = build_segment(
            [(slot, heading, body) for slot, (heading, body) in sorted(self._delta_tokens.items())]
        )
        self._refresh_vocabulary(main_changed=False)
        return new_slots

    def _claim_slot(self, entry: Entry) -> int:
        slot = len(self.entries)
        self.entries.append(entry)
        self.slot_of[entry.id] = slot
        self.slots_of_path.setdefault(entry.path, []).append(slot)
        if entry.path not in self._path_ids:
            self._path_ids[entry.path] = len(self.paths)
            self.paths.append(entry.path)
        return slot

    def _refresh_paths(self) -> None:
        """Extend per-slot path ids; re-rank paths only when a new path appeared."""
        known = len(self.path_id)
        fresh = np.fromiter((self._path_ids[entry.path] for entry in self.entries[known:]),
                            np.int64, len(self.entries) - known)
        self.path_id = np.concatenate([self.path_id[:known], fresh])
        if len(self.path_rank) != len(self.paths):
            order = np.argsort(np.asarray(self.paths, dtype=object), kind="stable")
            rank = np.zeros(len(self.paths), dtype=np.int64)
            rank[order] = np.arange(len(self.paths))
            self.path_rank = rank

    def _refresh_vocabulary(self, *, main_changed: bool) -> None:
        """Fuzzy buckets for main (rebuilt only with main) and delta; bump the version."""
        self._refresh_paths()
        self._delta_buckets = _buckets(self.delta.words)
        main = self.main
        self._vocabulary_size = len(main.words) + sum(
            1 for word in self.delta.words if main.word_id(word) is None
        )
        self._cache = {}
        self.version += 1

    # --- reading ----------------------------------------------------------------------------

    @property
    def capacity(self) -> int:
        """Number of slots ever handed out since the last rebuild (arrays are this long)."""
        return len(self.entries)

    @property
    def average_length(self) -> float:
        return self.total_length / self.live_count if self.total_length > 0 else 1.0

    @property
    def vocabulary_size(self) -> int:
        return self._vocabulary_size

    def live_entries(self) -> list[Entry]:
        return [self.entries[slot] for slot in np.flatnonzero(self.alive)]

    def expand(self, term: str, *, prefix: bool) -> Expansion:
        """The words `term` matches (exact, prefix, variant, fuzzy) and their postings; cached."""
        key = (term, prefix)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        expansion = self._expand(term, prefix=prefix and not is_cjk(term))
        self._cache[key] = expansion
        return expansion

    def _expand(self, term: str, *, prefix: bool) -> Expansion:
        stem = variant_stem(term) if prefix else None
        pieces: list[tuple[Segment, int, int, FloatArray]] = []
        for segment in (self.main, self.delta):
            pieces.extend(self._segment_pieces(segment, term, stem, prefix=prefix))
        fuzzy: dict[str, float] = {}
        if len(term) >= FUZZY_MIN_CHARS and not is_cjk(term) and not self._any_live(pieces):
            pieces = []
            fuzzy = self.fuzzy_words(term)
            for word, similarity in fuzzy.items():
                for segment in (self.main, self.delta):
                    word_id = segment.word_id(word)
                    if word_id is not None:
                        credit = np.array([FUZZY_CREDIT_SCALE * similarity])
                        pieces.append((segment, word_id, word_id + 1, credit))
        return _assemble(term, stem, pieces, fuzzy, self.main)

    @staticmethod
    def _segment_pieces(
        segment: Segment, term: str, stem: str | None, *, prefix: bool
    ) -> list[tuple[Segment, int, int, FloatArray]]:
        if not prefix:
            word_id = segment.word_id(term)
            if word_id is None:
                return []
            return [(segment, word_id, word_id + 1, np.ones(1))]
        lo, hi = segment.id_range(term)
        start, end = segment.id_range(stem) if stem else (lo, hi)
        if start == end:
            return []
        credits = np.full(end - start, VARIANT_CREDIT)
        credits[lo - start : hi - start] = PREFIX_BASE_CREDIT + (1 - PREFIX_BASE_CREDIT) * len(
            term
        ) / segment.word_lengths[lo:hi]
        return [(segment, start, end, credits)]

    def prepare_fuzzy(self) -> dict[tuple[str, int], list[str]]:
        """The main segment's fuzzy buckets, built if missing. Safe to call without the
        engine lock: the result is keyed by the (immutable) segment it was built from."""
        main = self.main
        prepared = self._main_buckets
        if prepared is None or prepared[0] is not main:
            prepared = (main, _buckets(main.words))
            self._main_buckets = prepared
        return prepared[1]

    def term_frequencies(self, expansion: Expansion, key: tuple[str, bool]) -> FloatArray:
        """Credited tf per slot: Σ contributions of the expansion's postings, per slot.

        Main and delta postings cover disjoint slots, so the main part (cached when large)
        plus the delta part equals one sum over all postings bit for bit. A cached array is
        returned as is (read-only) when there is no delta part."""
        split = expansion.main_postings
        if split < FREQUENCY_CACHE_MIN_POSTINGS:
            return _summed(expansion.docs, expansion.contributions(), self.capacity)
        frequencies = self._main_cache().get(key)
        if frequencies is None:
            frequencies = self._main_part(expansion)
            cache = self._main_cache()
            if len(cache) < FREQUENCY_CACHE_SIZE:
                frequencies.flags.writeable = False
                cache[key] = frequencies
        if split == len(expansion.docs) and len(frequencies) == self.capacity:
            return frequencies
        total = np.zeros(self.capacity)
        total[: len(frequencies)] = frequencies
        if split < len(expansion.docs):
            total += _summed(expansion.docs[split:], expansion.contributions(split),
                             self.capacity)
        return total

    def _main_part(self, expansion: Expansion) -> FloatArray:
        split = expansion.main_postings
        return _summed(expansion.docs[:split], expansion.contributions(0, split),
                       self.main_size)

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
        ptr = main.ptr
        heavy: list[tuple[int, str]] = []
        for length in (1, 2):
            for prefix in sorted({word[:length] for word in main.words
                                  if len(word) >= length and not is_cjk(word[:length])}):
                lo, hi = main.id_range(prefix)
                postings = int(ptr[hi] - ptr[lo])
                if postings >= FREQUENCY_CACHE_MIN_POSTINGS:
                    heavy.append((postings, prefix))
        warmed: dict[tuple[str, bool], FloatArray] = {}
        for _, prefix in sorted(heavy, reverse=True)[:FREQUENCY_PREWARM]:
            pieces = self._segment_pieces(main, prefix, None, prefix=True)
            expansion = _assemble(prefix, None, pieces, {}, main)
            frequencies = warmed[(prefix, True)] = self._main_part(expansion)
            frequencies.flags.writeable = False
        self._main_frequencies = (main, warmed)

    def _any_live(self, pieces: list[tuple[Segment, int, int, FloatArray]]) -> bool:
        """Whether the matched words have a live posting: words left only by replaced
        entries must not block the typo fallback (a fresh index would not have them)."""
        if self.live_count == self.capacity:
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
        found = extract(term, candidates, scorer=OSA.normalized_similarity, score_cutoff=cutoff,
                        limit=None)
        ranked = sorted((-score, word) for word, score, _ in found if word != term)
        if self.live_count != self.capacity:
            ranked = [item for item in ranked if self.document_frequency(item[1]) > 0]
        return {word: -negative for negative, word in ranked[:FUZZY_LIMIT]}

    def document_frequency(self, word: str) -> int:
        """Live entries containing `word` exactly."""
        total = 0
        for segment in (self.main, self.delta):
            word_id = segment.word_id(word)
            if word_id is not None:
                docs = segment.docs[segment.ptr[word_id] : segment.ptr[word_id + 1]]
                total += int(np.count_nonzero(self.alive[docs]))
        return total


def _assemble(
    term: str,
    stem: str | None,
    pieces: list[tuple[Segment, int, int, FloatArray]],
    fuzzy: Mapping[str, float],
    main: Segment,
) -> Expansion:
    words: list[str] = []
    credits: list[FloatArray] = []
    counts: list[IntArray] = []
    docs: list[SmallArray] = []
    heading: list[CountArray] = []
    body: list[CountArray] = []
    for segment, start, end, credit in pieces:
        words.extend(segment.words[start:end])
        credits.append(credit)
        counts.append(np.diff(segment.ptr[start : end + 1]))
        begin, finish = segment.ptr[start], segment.ptr[end]
        docs.append(segment.docs[begin:finish])
        heading.append(segment.heading[begin:finish])
        body.append(segment.body[begin:finish])
    if not pieces:
        empty = np.zeros(0, dtype=np.int32)
        return Expansion(term, [], np.zeros(0), np.zeros(1, dtype=np.int64), fuzzy, stem,
                         empty, empty, empty)
    word_ptr = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(np.concatenate(counts), out=word_ptr[1:])
    return Expansion(
        term=term,
        words=words,
        word_credits=np.concatenate(credits),
        word_ptr=word_ptr,
        fuzzy=fuzzy,
        stem=stem,
        docs=_joined(docs),
        heading=_joined(heading),
        body=_joined(body),
        main_postings=-1 if fuzzy else sum(
            len(part) for part, (segment, _, _, _) in zip(docs, pieces, strict=True)
            if segment is main
        ),
    )


def _summed(docs: SmallArray, weights: FloatArray, slots: int) -> FloatArray:
    """Σ weights per slot, in posting order (so equal inputs give equal bits)."""
    return np.asarray(np.bincount(docs, weights=weights, minlength=slots), dtype=np.float64)


def _joined(parts: list[npt.NDArray[ScalarT]]) -> npt.NDArray[ScalarT]:
    return parts[0] if len(parts) == 1 else np.concatenate(parts)
