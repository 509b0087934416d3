"""Which words each live entry holds, read off the index's postings (for the health checks).

The index maps word -> entries; the health checks need the other direction (an entry's rarest
words, how many entries hold each word). Inverting the postings costs a few numpy passes, where
tokenizing every entry again would cost seconds on a large corpus. The words are the index's own:
heading, body, parent headings and file-name words, casefolded.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from msgspec import Struct

from memtui.core.cache.records import PairMemo
from memtui.core.health.entries import LiveEntries
from memtui.core.model import Entry
from memtui.core.search.arrays import (
    BoolArray,
    IntArray,
    ScalarT,
    SmallArray,
    joined,
    run_starts,
)
from memtui.core.search.segment import Segment

if TYPE_CHECKING:
    from memtui.core.live.file_record import LoadedFiles


class EntryTerms(Struct, frozen=True):
    """Live entries (in slot order), one (entry, word) pair per distinct word an entry holds,
    and each word's document frequency over them.

    The pairs are in the index's order (by word, not by entry): every check either counts or
    sorts them its own way, so grouping them by entry here would be a sort nobody needs."""

    entries: LiveEntries
    words: list[str]
    """Word id -> word."""
    owners: SmallArray
    """Per pair, the index into `entries` of the entry that holds the word."""
    word_ids: SmallArray
    """Per pair, the word id."""
    document_frequency: IntArray
    """Per word id, how many live entries hold the word."""
    files: LoadedFiles
    """Every loaded file's record and entries, as of the moment the entries were taken (the
    secrets scan keeps its findings on the record: `core.health.check`)."""
    pairs: PairMemo
    """The near-duplicate scores kept from the last run (the check keeps this run's there)."""

    def distinct_words(self) -> IntArray:
        """Per entry, how many distinct words it holds."""
        return counted(self.owners, len(self.entries))


def collect_terms(
    entries: Sequence[Entry],
    alive: BoolArray,
    segments: Sequence[Segment],
    files: LoadedFiles | None = None,
    pairs: PairMemo | None = None,
) -> EntryTerms:
    """Invert the postings of `segments` (slots index `entries`, which is not changed later;
    dead slots are dropped); `files` are the files they come from, `pairs` the scores kept.

    The pairs are int32 and made one segment at a time: at 50,000 entries there are ~4 million,
    and int64 copies of them took the health view's memory 190 MB past the app's."""
    words: list[str] = []
    id_of: dict[str, int] = {}
    owner_parts: list[SmallArray] = []
    word_parts: list[SmallArray] = []
    compact = (np.cumsum(alive, dtype=np.int64) - 1).astype(np.int32)
    """Slot -> index among the live entries."""
    all_alive = bool(alive.all())
    for segment in segments:
        if not segment.words:
            continue
        if not words:
            words = list(segment.words)
            global_ids = np.arange(len(words), dtype=np.int32)
        else:
            if not id_of:
                id_of = {word: number for number, word in enumerate(words)}
            for word in segment.words:
                if word not in id_of:
                    id_of[word] = len(words)
                    words.append(word)
            global_ids = np.fromiter(
                (id_of[word] for word in segment.words), dtype=np.int32, count=len(segment.words)
            )
        pair_words = np.repeat(global_ids, np.diff(segment.ptr))
        if all_alive:  # each slot is its own index: no gathers over the ~4 million pairs
            owner_parts.append(segment.docs.astype(np.int32))
            word_parts.append(pair_words)
            continue
        live = gathered(alive, segment.docs)
        everyone = bool(live.all())
        owner_parts.append(gathered(compact, segment.docs if everyone else segment.docs[live]))
        word_parts.append(pair_words if everyone else pair_words[live])
        del pair_words, live
    live_entries = LiveEntries(entries, alive)
    if not word_parts:
        empty = np.zeros(0, dtype=np.int32)
        frequency = np.zeros(0, dtype=np.int64)
        return EntryTerms(
            live_entries, words, empty, empty, frequency, files or {}, pairs or PairMemo()
        )
    owners = joined(owner_parts)
    word_ids = joined(word_parts)
    frequency = counted(word_ids, len(words))
    return EntryTerms(
        live_entries, words, owners, word_ids, frequency, files or {}, pairs or PairMemo()
    )


PAIR_CHUNK = 1 << 20
"""Pairs handled at once where numpy would otherwise copy all of them to int64 first (it
widens an index array of small integers before using it): 4 million at 50,000 entries."""


def pair_chunks(count: int) -> Iterator[slice]:
    """Consecutive slices of PAIR_CHUNK over `count` pairs."""
    for start in range(0, count, PAIR_CHUNK):
        yield slice(start, start + PAIR_CHUNK)


def gathered(values: npt.NDArray[ScalarT], indexes: npt.NDArray[Any]) -> npt.NDArray[ScalarT]:
    """`values[indexes]`, a chunk of indexes at a time (see PAIR_CHUNK)."""
    out = np.empty(len(indexes), dtype=values.dtype)
    for part in pair_chunks(len(indexes)):
        out[part] = values[indexes[part]]
    return out


def by_word(values: npt.NDArray[ScalarT], word_ids: SmallArray) -> npt.NDArray[ScalarT]:
    """`values[word_ids]` for pairs in the index's order, where each word's pairs are a run:
    one value per run, repeated (4 million pairs: ~4 ms, against ~14 ms for the gather)."""
    if len(word_ids) == 0:
        return values[:0]
    starts = run_starts(word_ids)
    lengths = np.diff(np.append(starts, len(word_ids)))
    return np.repeat(values[word_ids[starts]], lengths)


def counted(indexes: SmallArray, length: int) -> IntArray:
    """`np.bincount(indexes, minlength=length)`, a chunk of indexes at a time."""
    counts = np.zeros(length, dtype=np.int64)
    for part in pair_chunks(len(indexes)):
        counts += np.bincount(indexes[part], minlength=length)
    return counts
