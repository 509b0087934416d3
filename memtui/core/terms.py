"""Which words each live entry holds, read off the index's postings (for the health checks).

The index maps word -> entries; the health checks need the other direction (an entry's rarest
words, how many entries hold each word). Inverting the postings costs a few numpy passes, where
tokenizing every entry again would cost seconds on a large corpus. The words are the index's own:
heading, body, parent headings and file-name words, casefolded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from memtui.core.arrays import BoolArray, IntArray
from memtui.core.model import Entry
from memtui.core.segment import Segment


@dataclass(frozen=True, slots=True)
class EntryTerms:
    """Live entries (in slot order), one (entry, word) pair per distinct word an entry holds,
    and each word's document frequency over them.

    The pairs are in the index's order (by word, not by entry): every check either counts or
    sorts them its own way, so grouping them by entry here would be a sort nobody needs."""

    entries: list[Entry]
    words: list[str]
    """Word id -> word."""
    owners: IntArray
    """Per pair, the index into `entries` of the entry that holds the word."""
    word_ids: IntArray
    """Per pair, the word id."""
    document_frequency: IntArray
    """Per word id, how many live entries hold the word."""

    def distinct_words(self) -> IntArray:
        """Per entry, how many distinct words it holds."""
        return np.bincount(self.owners, minlength=len(self.entries)).astype(np.int64)


def collect_terms(entries: Sequence[Entry], alive: BoolArray,
                  segments: Sequence[Segment]) -> EntryTerms:
    """Invert the postings of `segments` (slots index `entries`; dead slots are dropped)."""
    words: list[str] = []
    id_of: dict[str, int] = {}
    word_parts: list[IntArray] = []
    slot_parts: list[IntArray] = []
    for segment in segments:
        if not segment.words:
            continue
        if not words:
            words = list(segment.words)
            global_ids = np.arange(len(words), dtype=np.int64)
        else:
            if not id_of:
                id_of = {word: number for number, word in enumerate(words)}
            for word in segment.words:
                if word not in id_of:
                    id_of[word] = len(words)
                    words.append(word)
            global_ids = np.fromiter((id_of[word] for word in segment.words), dtype=np.int64,
                                     count=len(segment.words))
        per_word = np.diff(segment.ptr)
        word_parts.append(np.repeat(global_ids, per_word))
        slot_parts.append(segment.docs.astype(np.int64))
    live_slots = np.flatnonzero(alive)
    live_entries = [entries[slot] for slot in live_slots.tolist()]
    if not word_parts:
        empty = np.zeros(0, dtype=np.int64)
        return EntryTerms(live_entries, words, empty, empty, empty)
    word_ids = np.concatenate(word_parts)
    slots = np.concatenate(slot_parts)
    keep = alive[slots]
    word_ids, slots = word_ids[keep], slots[keep]
    compact = np.cumsum(alive, dtype=np.int64) - 1
    frequency = np.bincount(word_ids, minlength=len(words)).astype(np.int64)
    return EntryTerms(live_entries, words, compact[slots], word_ids, frequency)
