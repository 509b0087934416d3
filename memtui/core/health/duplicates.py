"""Near-duplicates: groups of entries that say the same thing in (nearly) the same words.

Comparing every pair is quadratic, so candidates come from the index: each entry's rarest
words (its *signature*, read off the postings by `core.search.terms`) are what a restatement would
repeat, so two entries are compared only when their signatures share several words. A
candidate pair is a duplicate when rapidfuzz's `token_set_ratio` over their normalised words
(casefolded, punctuation dropped) reaches `duplicate_similarity`, both hold at least
`duplicate_min_words` distinct words and the shorter holds at least `duplicate_length_ratio`
of the longer's (so a one-line note is not a "duplicate" of every long entry that happens to
contain its words). Pairs are joined into groups (connected components), newest first.

Each candidate's score is kept, by the hashes of its two texts, for the next run (in the
cache): a pair whose texts did not change is not scored again.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import pairwise

import numpy as np
from rapidfuzz import fuzz, process

from memtui.core.cache.records import PairScores
from memtui.core.health.entries import LiveEntries
from memtui.core.health.model import Check, Finding, citation, newest_first
from memtui.core.health.settings import HealthSettings
from memtui.core.model import Entry
from memtui.core.search.arrays import BoolArray, IntArray, run_starts
from memtui.core.search.entry_keys import text_hashes
from memtui.core.search.terms import EntryTerms, by_word, gathered
from memtui.core.search.tokenize import batch_spaced_tokens

SIGNATURE_WORDS = 8
"""How many of an entry's rarest words make its signature."""
SIGNATURE_MAX_FREQUENCY = 100
"""Words held by more entries are never signature words (pairs grow with its square); an
entry stored up to this many times is still found."""
SHARED_SIGNATURE_WORDS = 3
"""Signature words two entries must share to be compared (fewer when a signature is shorter)."""
KEY32_ENTRIES = 1 << 16
"""Up to this many entries, a pair's key (a × entries + b) fits 32 bits: sorted ~2× faster."""
PAIR_BLOCK = 200_000
"""Entry pairs made at once while counting shared signature words (~12 MB of arrays)."""


TEXT_BATCH = 1_000
"""Entries tokenized at once by `normalised_texts` (their tokens are one list meanwhile)."""


def normalised_texts(entries: LiveEntries, indexes: Iterable[int]) -> dict[int, str]:
    """Index -> the words of that entry's title and body, casefolded, whitespace between:
    what similarity compares (`token_set_ratio` splits on runs of whitespace). Tokenized a
    batch at a time (`batch_spaced_tokens`: ~3× faster than one text at a time)."""
    chosen = sorted(set(indexes))
    texts: dict[int, str] = {}
    for first in range(0, len(chosen), TEXT_BATCH):
        batch = chosen[first : first + TEXT_BATCH]
        spaced = batch_spaced_tokens(
            [f"{entries.titles[index]}\n{entries.body(index)}" for index in batch]
        )
        texts.update(zip(batch, spaced, strict=True))
    return texts


def candidate_pairs(terms: EntryTerms, settings: HealthSettings) -> list[tuple[int, int]]:
    """(a, b) with a < b, entry indexes whose signatures share enough words and whose sizes
    are close enough to be duplicates; every duplicate pair is among them."""
    sizes = terms.distinct_words()
    owner, word = _signatures(terms, sizes >= settings.duplicate_min_words)
    signature_size = np.bincount(owner, minlength=len(terms.entries))
    # Entries whose pairs may share fewer words: the rest of the ~3 million pairs sharing one
    # word at 50,000 entries are dropped before their sizes are looked up.
    short = signature_size < SHARED_SIGNATURE_WORDS
    pairs: list[tuple[int, int]] = []
    for a, b, shared in _shared_signature_words(owner, word):
        maybe = (shared >= SHARED_SIGNATURE_WORDS) | short[a] | short[b]
        a, b, shared = a[maybe], b[maybe], shared[maybe]
        needed = np.minimum(
            np.minimum(signature_size[a], signature_size[b]), SHARED_SIGNATURE_WORDS
        )
        small, large = np.minimum(sizes[a], sizes[b]), np.maximum(sizes[a], sizes[b])
        keep = (shared >= needed) & (small >= settings.duplicate_length_ratio * large)
        pairs.extend(zip(a[keep].tolist(), b[keep].tolist(), strict=True))
    return pairs


def _signatures(terms: EntryTerms, big_enough: BoolArray) -> tuple[IntArray, IntArray]:
    """(entry, word) for each entry's SIGNATURE_WORDS rarest usable words (rarest first, ties
    by word), entries ascending.

    Sorted as one int64 key per pair (entry, then rarity, then word) rather than by `lexsort`
    over separate columns: at 50,000 entries those columns and their permutations were
    ~150 MB on top of the app."""
    frequency = terms.document_frequency
    signature_word = (frequency >= 2) & (frequency <= SIGNATURE_MAX_FREQUENCY)
    usable = by_word(signature_word, terms.word_ids) & gathered(big_enough, terms.owners)
    words = len(terms.words)
    keys = terms.owners[usable].astype(np.int64) * ((SIGNATURE_MAX_FREQUENCY + 1) * words)
    word = terms.word_ids[usable]
    del usable
    keys += by_word(frequency, word) * words
    keys += word
    del word
    keys.sort()
    owner = keys // ((SIGNATURE_MAX_FREQUENCY + 1) * words)
    starts = run_starts(owner)
    ends = np.append(starts[1:], len(owner))
    chosen = np.zeros(len(owner), dtype=bool)
    for rank in range(SIGNATURE_WORDS):
        chosen[(starts + rank)[starts + rank < ends]] = True
    return owner[chosen], keys[chosen] % words


def _shared_signature_words(
    owner: IntArray, word: IntArray
) -> Iterator[tuple[IntArray, IntArray, IntArray]]:
    """Every pair of entries (a < b) sharing a signature word, and how many they share, a
    block of left entries at a time (a ascending).

    Vectorised: sorted by word, every holder of a word pairs with each holder after it in the
    same run, so the pairs of all words come out of one `repeat` without a Python loop. A pair's
    left entry is its earlier holder in every run it shares, so all of an entry's pairs come out
    in its block and their counts are whole. Blocks hold about PAIR_BLOCK pairs: at 50,000
    entries all pairs at once took the health view's memory 260 MB past the app's."""
    if len(word) == 0:
        return
    entries = int(owner.max()) + 1
    # Sorted by word, then entry, as one int64 key (not `lexsort` over two columns).
    key = word.astype(np.int64) * entries + owner
    key.sort()
    owner, word = key % entries, key // entries
    del key
    position = np.arange(len(word))
    # Each holder's partners: the holders after it in its word's run (runs found in one
    # pass over the sorted words, not a binary search per holder).
    word_starts = run_starts(word)
    word_ends = np.append(word_starts[1:], len(word))
    partners = np.repeat(word_ends, word_ends - word_starts) - position - 1
    if not partners.any():
        return
    per_entry = np.cumsum(np.bincount(owner, weights=partners, minlength=entries))
    holder = owner.astype(np.uint32 if entries <= KEY32_ENTRIES else np.int64)
    cuts = np.searchsorted(per_entry, np.arange(PAIR_BLOCK, per_entry[-1], PAIR_BLOCK))
    bounds = np.unique(np.concatenate([[0], cuts + 1, [entries]])).tolist()
    # The holders with partners grouped by block, in position order within each (a stable
    # sort by block): a block's are one slice, not a mask over every holder per block.
    pairing = np.flatnonzero(partners > 0)
    block = np.searchsorted(bounds, owner[pairing], side="right") - 1
    order = np.argsort(block, kind="stable")
    pairing = pairing[order]
    edges = np.searchsorted(block[order], np.arange(len(bounds))).tolist()
    for begin, end in pairwise(edges):
        starts = pairing[begin:end]
        counts = partners[starts]
        total = int(counts.sum())
        if total == 0:
            continue
        left = np.repeat(starts, counts)
        right = left + 1 + np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        keys, shared = np.unique(holder[left] * entries + holder[right], return_counts=True)
        del left, right
        yield keys // entries, keys % entries, shared.astype(np.int64)


def duplicate_pairs(
    candidates: Iterable[tuple[int, int]], texts: Mapping[int, str], settings: HealthSettings
) -> dict[tuple[int, int], float]:
    """Verified pairs (a < b) of `candidates` -> similarity in percent; `texts` holds every
    candidate's normalised text."""
    pairs = list(candidates)
    scores = pair_scores(pairs, texts, settings)
    return {pair: score for pair, score in zip(pairs, scores, strict=True) if score}


def pair_scores(
    pairs: Sequence[tuple[int, int]], texts: Mapping[int, str], settings: HealthSettings
) -> list[float]:
    """Each pair's similarity in percent, 0 below `duplicate_similarity`.

    Scored by rapidfuzz's `cpdist` (the same `token_set_ratio`, each pair's as one call
    gives): in C++ threads on every core, without a Python call per pair; 15,532 candidate
    pairs at 50,000 entries took ~200 ms one at a time."""
    if not pairs:
        return []
    scores = process.cpdist(
        [texts[a] for a, _ in pairs],
        [texts[b] for _, b in pairs],
        scorer=fuzz.token_set_ratio,
        processor=None,
        score_cutoff=settings.duplicate_similarity,
        dtype=np.float64,
        workers=-1,
    )
    return list(scores.tolist())


def pair_scorer(settings: HealthSettings) -> str:
    """What `pair_scores` is, as kept scores name it: scores made another way are not these."""
    from rapidfuzz import __version__

    return f"rapidfuzz {__version__} token_set_ratio, 0 below {settings.duplicate_similarity!r}"


Pairs = dict[tuple[int, int], float]
"""Duplicate pairs (a < b, indexes of entries) -> similarity in percent."""


def verified_pairs(terms: EntryTerms, settings: HealthSettings) -> tuple[Pairs, PairScores]:
    """Every duplicate pair of `terms`' entries, and every candidate pair's score by the
    hashes of its texts (what the next run starts from). Nearly all of the check's time, and
    plain data: what a forked child works out while this process runs the other checks.

    A candidate whose two texts were scored by the last run (`terms.pairs`, kept in the
    cache) keeps that score: at 50,000 entries scoring the 15,532 candidates cost ~0.1-0.15 s
    and finding their texts ~0.12 s. A text is named by the hash the cache keeps of it
    (`core.search.entry_keys`), so only the texts of pairs scored now are read."""
    candidates = candidate_pairs(terms, settings)
    hashes = _text_hashes(terms.entries, {index for pair in candidates for index in pair})
    scorer = pair_scorer(settings)
    kept = terms.pairs.scores
    known: dict[tuple[int, int], float] = {}
    if kept is not None and kept.scorer == scorer:
        known_keys = zip(kept.left.tolist(), kept.right.tolist(), strict=True)
        known = dict(zip(known_keys, kept.score.tolist(), strict=True))
    keys = [(hashes[a], hashes[b]) for a, b in candidates]
    scores = [known.get(key) for key in keys]
    missing = [at for at, score in enumerate(scores) if score is None]
    texts = normalised_texts(terms.entries, (index for at in missing for index in candidates[at]))
    new = pair_scores([candidates[at] for at in missing], texts, settings)
    for at, score in zip(missing, new, strict=True):
        scores[at] = score
    found = [0.0 if score is None else score for score in scores]
    pairs = {pair: score for pair, score in zip(candidates, found, strict=True) if score}
    left = np.fromiter((key[0] for key in keys), dtype=np.uint64, count=len(keys))
    right = np.fromiter((key[1] for key in keys), dtype=np.uint64, count=len(keys))
    return pairs, PairScores(scorer, left, right, np.asarray(found, dtype=np.float64))


def _text_hashes(entries: LiveEntries, indexes: set[int]) -> dict[int, int]:
    """Index -> the entry's text hash (`core.search.entry_keys`) for each of `indexes`, as
    kept scores name texts (unsigned)."""
    chosen = sorted(indexes)
    hashes = entries.keys(
        "text_hash",
        lambda rows: text_hashes((entries.titles[row], entries.body(row)) for row in rows),
        chosen,
    )
    return dict(zip(chosen, hashes.view(np.uint64).tolist(), strict=True))


def pairs_as_bytes(pairs: Pairs, scores: PairScores) -> list[bytes]:
    """`verified_pairs`' result as arrays' bytes, in its order: the scores come back bit for
    bit, and the order (which decides ties in `find_duplicates`) kept."""
    left = np.fromiter((a for a, _ in pairs), dtype=np.int64, count=len(pairs))
    right = np.fromiter((b for _, b in pairs), dtype=np.int64, count=len(pairs))
    found = np.fromiter(pairs.values(), dtype=np.float64, count=len(pairs))
    kept = (scores.left, scores.right, scores.score)
    return [array.tobytes() for array in (left, right, found, *kept)]


def pairs_from_bytes(pieces: Sequence[bytes | bytearray], scorer: str) -> tuple[Pairs, PairScores]:
    """What `pairs_as_bytes` made, as it was (`scorer`: whose scores they are)."""
    left, right = (np.frombuffer(piece, dtype=np.int64).tolist() for piece in pieces[:2])
    found = np.frombuffer(pieces[2], dtype=np.float64).tolist()
    pairs = dict(zip(zip(left, right, strict=True), found, strict=True))
    left_hash, right_hash = (np.frombuffer(piece, dtype=np.uint64) for piece in pieces[3:5])
    scores = np.frombuffer(pieces[5], dtype=np.float64)
    return pairs, PairScores(scorer, left_hash, right_hash, scores)


def find_duplicates(
    terms: EntryTerms, settings: HealthSettings, verified: tuple[Pairs, PairScores] | None = None
) -> list[Finding]:
    """Duplicate groups as findings: per group the newest first (`lead`), then the others,
    each with its similarity to the entry it matched best. `verified` is what
    `verified_pairs` gave elsewhere (None: it runs now); its scores are kept for the next run."""
    entries = terms.entries
    pairs, scores = verified_pairs(terms, settings) if verified is None else verified
    terms.pairs.keep(scores)
    texts = normalised_texts(entries, (index for pair in pairs for index in pair))
    best: dict[int, tuple[float, int]] = {}
    for (a, b), score in pairs.items():
        for one, other in ((a, b), (b, a)):
            if score > best.get(one, (-1.0, 0))[0]:
                best[one] = (score, other)
    groups = _components(pairs)
    made = [[entries[index] for index in group] for group in groups]
    position = {
        entry.id: index
        for group, members in zip(groups, made, strict=True)
        for index, entry in zip(group, members, strict=True)
    }
    ordered = [newest_first(members) for members in made]
    ordered.sort(key=lambda members: _group_order(members[0]))
    findings: list[Finding] = []
    threshold = f"{settings.duplicate_similarity:g}"
    for number, members in enumerate(ordered):
        lead = members[0]
        findings.append(
            Finding(
                Check.DUPLICATES,
                lead,
                f"newest of {len(members)} near-duplicates",
                number,
                True,
                details=(("group_size", len(members)),),
            )
        )
        for member in members[1:]:
            me = position[member.id]
            direct = fuzz.token_set_ratio(texts[me], texts[position[lead.id]])
            score, other = (
                (direct, position[lead.id]) if direct >= settings.duplicate_similarity else best[me]
            )
            partner = entries[other]
            findings.append(
                Finding(
                    Check.DUPLICATES,
                    member,
                    f"{score:.0f}% alike with {citation(partner)} (threshold {threshold}%)",
                    number,
                    False,
                    partner,
                    (
                        ("similarity", round(float(score), 1)),
                        ("threshold", settings.duplicate_similarity),
                    ),
                )
            )
    return findings


def _group_order(lead: Entry) -> tuple[bool, float, str, int]:
    """Groups with the newest lead first, undated ones last, then by place."""
    stamp = -(lead.when - dt.datetime.min).total_seconds() if lead.when is not None else 0.0
    return (lead.when is None, stamp, lead.path, lead.line_start)


def _components(pairs: Mapping[tuple[int, int], float]) -> list[list[int]]:
    """Connected components of the pair graph (union-find), each sorted."""
    parent: dict[int, int] = {}

    def root(node: int) -> int:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for a, b in pairs:
        first, second = root(a), root(b)
        if first != second:
            parent[max(first, second)] = min(first, second)
    members: defaultdict[int, list[int]] = defaultdict(list)
    for node in list(parent):
        members[root(node)].append(node)
    return [sorted(group) for group in members.values()]
