"""Segments rearranged without tokenizing again: postings renumbered, dropped and merged.

A warm start with several roots joins each root's cached segment into one; saving a cache cuts
the live index (main segment with dead slots, plus the delta) back into one clean segment per
root. Both are the same operation, `renumbered`, done with numpy over the postings a slice of
the vocabulary at a time: the whole postings at once took ten int64 copies of millions of
postings (two 50k roots peaked at ~700 MB for a warm start, ~550 MB for a cold one's save).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from msgspec import Struct

from memtui.core.search.arrays import CountArray, IntArray
from memtui.core.search.segment import Segment, slot_dtype

CHUNK_POSTINGS = 1 << 18
"""Postings (of every part) renumbered per step: a few MB of temporaries, whatever the size."""


class _Part(Struct, frozen=True):
    """One input segment, its words as ids of the joined vocabulary, and its slot map."""

    segment: Segment
    mapping: IntArray
    word_ids: IntArray


def renumbered(parts: Sequence[tuple[Segment, IntArray]], slots: int) -> Segment:
    """One segment over `slots` slots holding the postings of `parts`, each part's slots
    renumbered through its map (`mapping[old slot]`, -1 drops the posting).

    The result is what `build_main_segment` makes of the same entries in the new slot order:
    the vocabulary is the words with a posting left, sorted, and each word's postings are in
    slot order (a slot may come from one part only).
    """
    vocabulary = sorted(set().union(*(segment.words for segment, _ in parts)))
    number = {word: at for at, word in enumerate(vocabulary)}
    inputs = [
        _Part(
            segment,
            mapping,
            np.fromiter((number[word] for word in segment.words), np.int64, len(segment.words)),
        )
        for segment, mapping in parts
    ]
    kept = sum(_kept(part) for part in inputs)
    docs = np.empty(kept, dtype=slot_dtype(slots))
    heading = np.empty(kept, dtype=_count_dtype([part.segment.heading for part in inputs]))
    body = np.empty(kept, dtype=_count_dtype([part.segment.body for part in inputs]))
    per_word = np.zeros(len(vocabulary), dtype=np.int64)
    filled = 0
    for first, last in _word_ranges(inputs, len(vocabulary)):
        keys: list[IntArray] = []
        headings: list[CountArray] = []
        bodies: list[CountArray] = []
        for part in inputs:
            at, stop = np.searchsorted(part.word_ids, (first, last)).tolist()
            ptr = part.segment.ptr
            begin, end = int(ptr[at]), int(ptr[stop])
            new_slots = part.mapping[part.segment.docs[begin:end]]
            keep = new_slots >= 0
            word_of = np.repeat(part.word_ids[at:stop] - first, np.diff(ptr[at : stop + 1]))
            keys.append(word_of[keep] * max(slots, 1) + new_slots[keep])
            headings.append(part.segment.heading[begin:end][keep])
            bodies.append(part.segment.body[begin:end][keep])
        key = np.concatenate(keys)
        order = np.argsort(key, kind="stable")
        key = key[order]
        done = filled + len(key)
        per_word[first:last] = np.bincount(key // max(slots, 1), minlength=last - first)
        docs[filled:done] = key % max(slots, 1)
        heading[filled:done] = np.concatenate(headings)[order]
        body[filled:done] = np.concatenate(bodies)[order]
        filled = done
    used = np.flatnonzero(per_word)
    words = [vocabulary[at] for at in used.tolist()]
    ptr_out = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(per_word[used], out=ptr_out[1:])
    return Segment(
        words=words,
        word_lengths=np.fromiter((len(word) for word in words), np.float64, len(words)),
        ptr=ptr_out,
        docs=docs,
        heading=heading,
        body=body,
    )


def _kept(part: _Part) -> int:
    """How many of the part's postings its map keeps (counted a slice at a time)."""
    docs = part.segment.docs
    return sum(
        int(np.count_nonzero(part.mapping[docs[at : at + CHUNK_POSTINGS]] >= 0))
        for at in range(0, len(docs), CHUNK_POSTINGS)
    )


def _count_dtype(arrays: list[CountArray]) -> np.dtype[Any]:
    """The counts' joined dtype, as `np.concatenate` would make it (uint8 with no parts)."""
    return np.result_type(*arrays) if arrays else np.dtype(np.uint8)


def _word_ranges(parts: Sequence[_Part], words: int) -> Iterator[tuple[int, int]]:
    """Consecutive ranges of joined word ids, each holding about CHUNK_POSTINGS postings (a
    word with more holds a range of its own)."""
    totals = np.zeros(words, dtype=np.int64)
    for part in parts:
        totals[part.word_ids] += np.diff(part.segment.ptr)
    ends = np.cumsum(totals)
    first = 0
    while first < words:
        reach = (int(ends[first - 1]) if first else 0) + CHUNK_POSTINGS
        last = max(first + 1, int(np.searchsorted(ends, reach, side="right")))
        yield first, min(last, words)
        first = last
