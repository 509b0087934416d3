"""Segments rearranged without tokenizing again: postings renumbered, dropped and merged.

A warm start with several roots joins each root's cached segment into one; saving a cache cuts
the live index (main segment with dead slots, plus the delta) back into one clean segment per
root. Both are the same operation, `renumbered`, done with numpy over the postings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memtui.core.search.arrays import CountArray, IntArray
from memtui.core.search.segment import Segment, slot_dtype


def renumbered(parts: Sequence[tuple[Segment, IntArray]], slots: int) -> Segment:
    """One segment over `slots` slots holding the postings of `parts`, each part's slots
    renumbered through its map (`mapping[old slot]`, -1 drops the posting).

    The result is what `build_main_segment` makes of the same entries in the new slot order:
    the vocabulary is the words with a posting left, sorted, and each word's postings are in
    slot order (a slot may come from one part only).
    """
    vocabulary = sorted(set().union(*(segment.words for segment, _ in parts)))
    number = {word: at for at, word in enumerate(vocabulary)}
    keys: list[IntArray] = []
    headings: list[CountArray] = []
    bodies: list[CountArray] = []
    for segment, mapping in parts:
        word_ids = np.fromiter(
            (number[word] for word in segment.words), np.int64, len(segment.words)
        )
        new_slots = mapping[segment.docs]
        keep = new_slots >= 0
        posting_words = np.repeat(word_ids, np.diff(segment.ptr))
        keys.append(posting_words[keep] * slots + new_slots[keep])
        headings.append(segment.heading[keep])
        bodies.append(segment.body[keep])
    key = np.concatenate(keys) if keys else np.zeros(0, dtype=np.int64)
    order = np.argsort(key, kind="stable")
    key = key[order]
    word_of = key // max(slots, 1)
    per_word = np.bincount(word_of, minlength=len(vocabulary))
    used = np.flatnonzero(per_word)
    words = [vocabulary[at] for at in used.tolist()]
    ptr = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(per_word[used], out=ptr[1:])
    return Segment(
        words=words,
        word_lengths=np.fromiter((len(word) for word in words), np.float64, len(words)),
        ptr=ptr,
        docs=(key % max(slots, 1)).astype(slot_dtype(slots)),
        heading=np.concatenate(headings)[order] if headings else np.zeros(0, dtype=np.uint8),
        body=np.concatenate(bodies)[order] if bodies else np.zeros(0, dtype=np.uint8),
    )
