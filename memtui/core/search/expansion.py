"""Which vocabulary words a query term matches, with what credit, and their postings.

A term matches its exact word; with prefix expansion also every word it starts (prefix credit,
closer completions earn more) and every word sharing its variant stem (the term minus a common
English suffix: `deployment` matches `deploy`, `deployed`). When none of those has a live
posting, the live index falls back to typo matches (`Index.fuzzy_words`). Credits are the
`core.search.scoring` constants; an `Expansion` keeps the matched words and their postings side
by side so the ranker sums them per slot and the explanation reads the same arrays back.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from msgspec import Struct

from memtui.core.model import MatchKind
from memtui.core.search.arrays import CountArray, FloatArray, IntArray, SlotArray, joined
from memtui.core.search.scoring import (
    FUZZY_CREDIT_SCALE,
    HEADING_WEIGHT,
    PREFIX_BASE_CREDIT,
    VARIANT_CREDIT,
)
from memtui.core.search.segment import Segment
from memtui.core.search.tokenize import is_cjk

FUZZY_MIN_CHARS = 4
FUZZY_CUTOFF = 0.75
"""Minimum normalised OSA similarity (1 edit in 4 letters, 2 in 8)."""
FUZZY_LIMIT = 8
"""At most this many typo matches per term: the most similar, ties by word."""
MIN_VARIANT_STEM = 4
EXPANSION_CACHE_BYTES = 2_000_000
"""Recent expansions kept (the newest always): a 1-letter prefix at 50,000 entries and a few
words."""
EXPANSION_CACHE_SIZE = 1024
_SUFFIXES = (
    "ations",
    "ation",
    "ments",
    "ment",
    "ings",
    "ing",
    "ions",
    "ion",
    "ies",
    "ers",
    "er",
    "ed",
    "es",
    "s",
)

Piece = tuple[Segment, int, int, FloatArray]
"""(segment, first word id, end word id, credit per word): a run of matched words."""


class Expansion(Struct, frozen=True):
    """Everything a query term matched: words, their credits, and the postings to score.

    Postings are concatenated word by word; `word_ptr[i]:word_ptr[i+1]` are word i's postings.
    The ranker sums `posting_tf` per slot; the explanation reads the same arrays back.
    """

    term: str
    words: list[str]
    word_credits: FloatArray
    word_ptr: IntArray
    fuzzy: Mapping[str, float]
    """Words matched only fuzzily -> their OSA similarity."""
    stem: str | None
    docs: SlotArray
    heading: CountArray
    body: CountArray
    main_postings: int = 0
    """How many leading postings come from the main segment (the rest are the delta's), or
    -1 when main and delta postings interleave (fuzzy words)."""

    def posting_tf(self, begin: int = 0, end: int | None = None) -> FloatArray:
        """Credited tf of each posting in [begin, end): credit · (HEADING_WEIGHT · heading +
        body), computed on demand, elementwise, so any sub-range holds exactly the values of
        the whole."""
        stop = len(self.docs) if end is None else end
        first = int(np.searchsorted(self.word_ptr, begin, side="right")) - 1
        last = int(np.searchsorted(self.word_ptr, stop, side="left"))
        bounds = np.clip(self.word_ptr[first : last + 1], begin, stop)
        # In place, one array beside the credits: the same products and sums in the same order
        # as `credits * (HEADING_WEIGHT * heading + body)`, without three more temporaries (a
        # 1-letter prefix at 50,000 entries has ~370,000 postings, 3 MB an array).
        weighted = self.heading[begin:stop].astype(np.float64)
        weighted *= HEADING_WEIGHT
        weighted += self.body[begin:stop]
        weighted *= np.repeat(self.word_credits[first:last], np.diff(bounds))
        return weighted

    @property
    def nbytes(self) -> int:
        """What its arrays hold (a 1-letter prefix at 50,000 entries: ~1.5 MB)."""
        arrays = (self.word_credits, self.word_ptr, self.docs, self.heading, self.body)
        return sum(array.nbytes for array in arrays)

    def kind(self, word: str) -> MatchKind:
        """How `word` matched the term: the word itself, a completion of it, a variant sharing
        its stem, or a typo."""
        if word == self.term:
            return MatchKind.EXACT
        if word in self.fuzzy:
            return MatchKind.FUZZY
        if word.startswith(self.term):
            return MatchKind.PREFIX
        return MatchKind.VARIANT


class ExpansionCache:
    """The expansions of recent terms, so a keystroke expands only the word being typed. The
    newest is always kept; the oldest go once the arrays pass EXPANSION_CACHE_BYTES: typing
    kept every term's postings before (up to 1,024 of them), ~8 MB of the app's memory after
    twenty queries at 50,000 entries, and expanding a term again takes ~1 ms."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, bool], Expansion] = {}
        self._bytes = 0

    def get(self, key: tuple[str, bool]) -> Expansion | None:
        found = self._kept.pop(key, None)
        if found is not None:
            self._kept[key] = found  # the newest last
        return found

    def put(self, key: tuple[str, bool], expansion: Expansion) -> None:
        old = self._kept.pop(key, None)
        self._bytes += expansion.nbytes - (0 if old is None else old.nbytes)
        self._kept[key] = expansion
        while len(self._kept) > 1 and (
            self._bytes > EXPANSION_CACHE_BYTES or len(self._kept) > EXPANSION_CACHE_SIZE
        ):
            self._bytes -= self._kept.pop(next(iter(self._kept))).nbytes


def variant_stem(term: str) -> str | None:
    """The term without a common English suffix, if what is left is long enough to mean it."""
    for suffix in _SUFFIXES:
        if term.endswith(suffix) and len(term) - len(suffix) >= MIN_VARIANT_STEM:
            return term[: -len(suffix)]
    return None


def segment_pieces(segment: Segment, term: str, stem: str | None, *, prefix: bool) -> list[Piece]:
    """The words of one segment that `term` matches exactly, or (with `prefix`) as the word
    itself, a completion or a variant of its stem, with their credits."""
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
    credits[lo - start : hi - start] = (
        PREFIX_BASE_CREDIT + (1 - PREFIX_BASE_CREDIT) * len(term) / segment.word_lengths[lo:hi]
    )
    return [(segment, start, end, credits)]


def fuzzy_pieces(segments: tuple[Segment, ...], fuzzy: Mapping[str, float]) -> list[Piece]:
    """The typo matches `fuzzy` (word -> OSA similarity) as pieces of these segments."""
    pieces: list[Piece] = []
    for word, similarity in fuzzy.items():
        for segment in segments:
            word_id = segment.word_id(word)
            if word_id is not None:
                credit = np.array([FUZZY_CREDIT_SCALE * similarity])
                pieces.append((segment, word_id, word_id + 1, credit))
    return pieces


def fuzzy_buckets(words: list[str]) -> dict[tuple[str, int], list[str]]:
    """Words by (first letter, length), the candidate pools of fuzzy matching."""
    buckets: dict[tuple[str, int], list[str]] = {}
    for word in words:
        if len(word) >= FUZZY_MIN_CHARS - 1 and not is_cjk(word):
            buckets.setdefault((word[0], len(word)), []).append(word)
    return buckets


def assemble(
    term: str,
    stem: str | None,
    pieces: list[Piece],
    fuzzy: Mapping[str, float],
    main: Segment,
) -> Expansion:
    """One Expansion of `term` from its matched pieces, postings concatenated piece by piece
    (main-segment pieces first, except for fuzzy words, hence `main_postings`)."""
    words: list[str] = []
    credits: list[FloatArray] = []
    counts: list[IntArray] = []
    docs: list[SlotArray] = []
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
        return Expansion(
            term, [], np.zeros(0), np.zeros(1, dtype=np.int64), fuzzy, stem, empty, empty, empty
        )
    word_ptr = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(np.concatenate(counts), out=word_ptr[1:])
    return Expansion(
        term=term,
        words=words,
        word_credits=np.concatenate(credits),
        word_ptr=word_ptr,
        fuzzy=fuzzy,
        stem=stem,
        docs=joined(docs),
        heading=joined(heading),
        body=joined(body),
        main_postings=-1
        if fuzzy
        else sum(
            len(part)
            for part, (segment, _, _, _) in zip(docs, pieces, strict=True)
            if segment is main
        ),
    )
