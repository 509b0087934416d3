"""Immutable inverted-index segments and how they are built from entries.

A `Segment` holds its vocabulary sorted, so term ids follow sorted order and all words starting
with a prefix form one contiguous id range found by bisect; its postings are numpy arrays in
CSR form (`ptr[id]:ptr[id+1]` are the postings of word `id`), each posting a slot with its
heading and body occurrence counts. `build_main_segment` tokenizes entries in batches (the
texts are chosen by `core.search.fields`); `build_segment` builds a small segment from tokens
already at hand (the live index's delta).
"""

from __future__ import annotations

import bisect
import json
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from itertools import count
from typing import Any

import numpy as np
import numpy.typing as npt
from msgspec import Struct

from memtui.core.live.allocator import give_back_memory
from memtui.core.live.fork import can_fork, start_in_child
from memtui.core.model import Entry
from memtui.core.search.arrays import (
    CountArray,
    FloatArray,
    IntArray,
    ScalarT,
    SlotArray,
    SmallArray,
)
from memtui.core.search.fields import context_text, file_words, heading_text
from memtui.core.search.tokenize import TEXT_SEPARATOR, batch_tokens

BUILD_BATCH = 256
"""Entries tokenized per pass at load: large enough to amortise the per-call cost (256 built
50,000 entries as fast as 512), and small enough that a posting's slot, kept relative to its
batch's lowest, fits one byte."""
_TOP = "\U0010ffff"
_BUFFER_TYPES = {"i": np.int32, "H": np.uint16, "B": np.uint8}
_WIDER = {"B": "H", "H": "i"}
_LARGEST = {"B": 255, "H": 65_535}
"""Buffers start narrow and are widened (once per step) when a value does not fit."""
TWO_PROCESS_MIN_ENTRIES = 20_000
"""From this many entries the build is split with a forked child (below, forking costs more
than it saves: 10,000 entries build in ~0.25 s)."""
PARENT_SHARE = 0.5
"""The part of the batches this process keeps in a two-process build. Half measured best at
50,000 entries (0.42 was no faster): the child pays copy-on-write faults on the entries, this
process renumbers the child's part and serves the UI meanwhile."""
SMALL_SLOTS = 1 << 16
"""Segments over fewer slots keep their postings' slots as uint16 (50,000 entries fit)."""


class Segment(Struct, frozen=True):
    """An immutable CSR inverted index over some slots (compact dtypes: 50k entries hold
    millions of postings, so slots are uint16 below SMALL_SLOTS and counts uint8 until one
    exceeds 255; every reader widens them on use, so the values and the scores are the same)."""

    words: list[str]
    word_lengths: FloatArray
    ptr: IntArray
    docs: SlotArray
    heading: CountArray
    body: CountArray

    def id_range(self, prefix: str) -> tuple[int, int]:
        """Ids of all words starting with `prefix` (contiguous because ids follow sorted order)."""
        lo = bisect.bisect_left(self.words, prefix)
        return lo, bisect.bisect_left(self.words, prefix + _TOP, lo)

    def word_id(self, word: str) -> int | None:
        at = bisect.bisect_left(self.words, word)
        return at if at < len(self.words) and self.words[at] == word else None


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
        self._postings: list[array[int]] = [array("H"), array("B"), array("B"), array("B")]
        """Provisional word ids, slots (from their batch's lowest), heading counts, body
        counts of flushed batches, in growable C buffers (reallocated in place, returned whole
        to the OS when freed), each as narrow as its values allow."""
        self._batch_sizes: list[int] = []
        self._batch_lowest: list[int] = []
        self._slots = 0
        """One past the highest slot seen."""

    def add(self, field: str, flat_tokens: list[str], first_slot: int) -> SmallArray:
        """Add `batch_tokens`-shaped tokens of consecutive slots from `first_slot` to the
        current batch; returns each slot's token count."""
        word_ids = np.array(list(map(self._ids.__getitem__, flat_tokens)), dtype=np.int32)
        is_separator = word_ids == self._separator
        ends = np.flatnonzero(is_separator)
        per_slot = np.diff(ends, prepend=-1).astype(np.int32)
        slots = np.repeat(np.arange(first_slot, first_slot + len(ends), dtype=np.int32), per_slot)
        keep = ~is_separator
        self._pending.append((word_ids[keep], slots[keep], 0 if field == "heading" else 1))
        return per_slot - 1

    def flush(self) -> None:
        """Count the current batch's postings (heading and body occurrences per word, slot)."""
        if not self._pending:
            return
        word_ids = np.concatenate([words for words, _, _ in self._pending]).astype(np.int64)
        slots = np.concatenate([slots for _, slots, _ in self._pending])
        fields = np.concatenate(
            [np.full(len(words), bit, dtype=np.int64) for words, _, bit in self._pending]
        )
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
        self._batch_lowest.append(lowest)
        self._slots = max(self._slots, lowest + span)
        self._append(0, (pair_keys // span).astype(np.int32))
        self._append(1, (pair_keys % span).astype(np.int32))
        self._append(2, heading)
        self._append(3, (totals - heading).astype(np.int32))

    def export(self, lengths: SmallArray) -> list[bytes | memoryview]:
        """Everything flushed so far, with the slots' token `lengths`, as pieces for `absorb`
        in another process: a JSON header, then each array's raw bytes (no pickle)."""
        self.flush()
        header = json.dumps(
            {
                "vocabulary": list(self._ids),
                "typecodes": [buffer.typecode for buffer in self._postings],
                "lengths_dtype": lengths.dtype.str,
                "batch_sizes": self._batch_sizes,
                "batch_lowest": self._batch_lowest,
                "slots": self._slots,
            }
        ).encode("utf-8")
        return [
            header,
            *(memoryview(buffer).cast("B") for buffer in self._postings),
            np.ascontiguousarray(lengths).data.cast("B"),
        ]

    def absorb(self, pieces: list[bytearray]) -> SmallArray:
        """Append the batches another builder `export`ed (which came after this one's, in
        slot order), its word ids renumbered into this builder's; returns their lengths.
        Consumes `pieces`: each array is dropped once appended, so the other builder's part
        is never held twice."""
        self.flush()
        header = json.loads(pieces.pop(0))
        vocabulary: list[str] = header["vocabulary"]
        renumber = np.fromiter(map(self._ids.__getitem__, vocabulary), np.int32, len(vocabulary))
        if len(self._ids) <= _LARGEST["H"]:
            renumber = renumber.astype(np.uint16)  # the renumbered ids at half the memory
        for which, typecode in enumerate(header["typecodes"]):
            values = np.frombuffer(pieces.pop(0), dtype=_BUFFER_TYPES[typecode])
            self._append(which, renumber[values] if which == 0 else values)
            del values
        self._batch_sizes.extend(header["batch_sizes"])
        self._batch_lowest.extend(header["batch_lowest"])
        self._slots = max(self._slots, header["slots"])
        return np.frombuffer(pieces.pop(0), dtype=np.dtype(header["lengths_dtype"]))

    def _append(self, which: int, values: SmallArray) -> None:
        """Append to a buffer, widening it first (uint8 -> uint16 -> int32) when a value does
        not fit."""
        buffer = self._postings[which]
        largest = int(values.max(initial=0))
        while buffer.typecode in _WIDER and largest > _LARGEST[buffer.typecode]:
            buffer = self._postings[which] = array(_WIDER[buffer.typecode], buffer)
        fitted = np.ascontiguousarray(values, dtype=_BUFFER_TYPES[buffer.typecode])
        buffer.frombytes(fitted.data.cast("B"))  # no bytes copy: 4 MB a part at 50k

    def build(self) -> Segment:
        self.flush()
        provisional = list(self._ids)
        del self._ids
        order = sorted(range(1, len(provisional)), key=provisional.__getitem__)
        vocabulary = [provisional[at] for at in order]
        del provisional
        sorted_id = np.zeros(len(order) + 1, dtype=np.int32)
        sorted_id[np.asarray(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int32)
        buffers, self._postings = self._postings, []
        words = _viewed(buffers[0])
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
        # Two passes, each freeing what it used: the buffers and the segment's arrays are
        # never all held at once (at 50,000 entries that saved ~12 MB of peak memory).
        headings, bodies = _viewed(buffers[2]), _viewed(buffers[3])
        heading: CountArray = np.empty(len(words), dtype=headings.dtype)
        body: CountArray = np.empty(len(words), dtype=bodies.dtype)
        for batch, destination in _placed(words, batches, ptr):
            heading[destination] = headings[batch]
            body[destination] = bodies[batch]
        del headings, bodies, buffers[2:]
        slots = _viewed(buffers[1])
        docs: SlotArray = np.empty(len(words), dtype=slot_dtype(self._slots))
        for (batch, destination), lowest in zip(
            _placed(words, batches, ptr), self._batch_lowest, strict=True
        ):
            docs[destination] = slots[batch].astype(np.int64) + lowest
        return Segment(
            words=vocabulary,
            word_lengths=np.fromiter((len(w) for w in vocabulary), np.float64, len(vocabulary)),
            ptr=ptr,
            docs=docs,
            heading=heading,
            body=body,
        )


def _viewed(buffer: array[int]) -> SmallArray:
    return np.frombuffer(buffer, dtype=_BUFFER_TYPES[buffer.typecode])


def _placed(
    words: SmallArray, batches: list[slice], ptr: IntArray
) -> Iterator[tuple[slice, IntArray]]:
    """Each batch with where its postings go in the word-ordered arrays."""
    next_free = ptr[:-1].copy()
    for batch in batches:
        yield batch, _scatter_positions(words[batch], next_free)


def slot_dtype(slots: int) -> np.dtype[Any]:
    """The narrowest dtype for postings over `slots` slots."""
    return np.dtype(np.uint16 if slots <= SMALL_SLOTS else np.int32)


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


def _add_batch(
    builder: SegmentBuilder,
    batch: list[Entry],
    first_slot: int,
    file_tokens: dict[str, list[str]],
) -> SmallArray:
    """Feed consecutive entries to the builder (the batched twin of `entry_tokens`); returns
    their token counts."""
    headings = batch_tokens([heading_text(entry) for entry in batch])
    bodies = batch_tokens([f"{entry.body}\n{context_text(entry)}" for entry in batch])
    files: list[str] = []
    for entry in batch:
        found = file_tokens.get(entry.qualified_path)
        if found is None:
            found = file_tokens[entry.qualified_path] = [*file_words(entry), TEXT_SEPARATOR]
        files.extend(found)
    lengths = (
        builder.add("heading", headings, first_slot)
        + builder.add("body", bodies, first_slot)
        + builder.add("body", files, first_slot)
    )
    builder.flush()
    return lengths


class HeadStart(Struct):
    """Slots 0..`slots`-1 tokenized already (`core.live.build_ahead`): the builder holding
    their postings, and their token counts."""

    builder: SegmentBuilder
    lengths: list[SmallArray]
    slots: int = 0


def build_main_segment(
    entries: Sequence[Entry],
    *,
    two_processes: bool | None = None,
    head_start: HeadStart | None = None,
) -> tuple[Segment, FloatArray]:
    """Postings and token counts of `entries` as slots 0..n-1, tokenized BUILD_BATCH at a time
    (from `head_start.slots` on when the first slots were tokenized already).

    From TWO_PROCESS_MIN_ENTRIES left to tokenize (or as `two_processes` says), a forked child
    tokenizes the later batches while this process does the first PARENT_SHARE
    (`core.live.fork`): the build is nearly all Python, one core's worth under the GIL, and at
    50,000 entries it is what a word typed after a cold start waits for. The child's batches
    are renumbered into this builder's word ids, so the segment is the same as a one-process
    build (tests compare them); if the child fails, its part is built here.
    """
    head = head_start if head_start is not None else HeadStart(SegmentBuilder(), [])
    builder, lengths = head.builder, head.lengths
    firsts = range(head.slots, len(entries), BUILD_BATCH)
    if two_processes is None:
        two_processes = len(entries) - head.slots >= TWO_PROCESS_MIN_ENTRIES and can_fork()
    split = round(len(firsts) * PARENT_SHARE) if two_processes and len(firsts) > 1 else len(firsts)
    later = firsts[split:]
    waiting = start_in_child(partial(_exported, entries, later)) if later else None
    file_tokens: dict[str, list[str]] = {}
    lengths += _add_batches(builder, entries, firsts[:split], file_tokens)
    # What tokenizing freed goes back to the system before the larger arrays are made: at
    # 50,000 entries that took ~5 MB off the app's peak memory (trimming costs < 1 ms).
    give_back_memory()
    exported = waiting() if waiting is not None else None
    if exported is not None:
        lengths.append(builder.absorb(exported))
    else:
        lengths += _add_batches(builder, entries, later, file_tokens)
    del file_tokens
    give_back_memory()
    segment = builder.build()
    give_back_memory()  # the builder's buffers, freed as the arrays were placed (3-8 MB at 50k)
    return segment, _concatenated(lengths).astype(np.float64)


def exported_rows(rows: Sequence[Entry], first_slot: int) -> list[bytes | memoryview]:
    """`rows` as the slots from `first_slot` on, built and exported (what a child of
    `core.live.build_ahead` hands back)."""
    return _exported(rows, range(0, len(rows), BUILD_BATCH), first_slot)


def _add_batches(
    builder: SegmentBuilder,
    entries: Sequence[Entry],
    firsts: range,
    file_tokens: dict[str, list[str]],
    first_slot: int = 0,
) -> list[SmallArray]:
    """Feed the batches of `entries` starting at `firsts`, entry 0 as slot `first_slot`; their
    token counts."""
    return [
        _add_batch(
            builder, list(entries[first : first + BUILD_BATCH]), first_slot + first, file_tokens
        )
        for first in firsts
    ]


def _exported(
    entries: Sequence[Entry], firsts: range, first_slot: int = 0
) -> list[bytes | memoryview]:
    """The batches at `firsts`, built and exported (what the child of a two-process build, or
    of a build ahead, hands back)."""
    builder = SegmentBuilder()
    lengths = _add_batches(builder, entries, firsts, {}, first_slot)
    return builder.export(_concatenated(lengths))


def _concatenated(lengths: list[SmallArray]) -> SmallArray:
    return np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int32)


EMPTY_SEGMENT = build_segment(())
