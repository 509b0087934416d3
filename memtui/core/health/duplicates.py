"""Near-duplicates: groups of entries that say the same thing in (nearly) the same words.

Comparing every pair is quadratic, so candidates come from the index: each entry's rarest
words (its *signature*, read off the postings by `core.terms`) are what a restatement would
repeat, so two entries are compared only when their signatures share several words. A
candidate pair is a duplicate when rapidfuzz's `token_set_ratio` over their normalised words
(casefolded, punctuation dropped) reaches `duplicate_similarity`, both hold at least
`duplicate_min_words` distinct words and the shorter holds at least `duplicate_length_ratio`
of the longer's (so a one-line note is not a "duplicate" of every long entry that happens to
contain its words). Pairs are joined into groups (connected components), newest first.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable

import numpy as np
from rapidfuzz import fuzz

from memtui.core.arrays import IntArray
from memtui.core.health.model import Check, Finding, citation, newest_first
from memtui.core.health.settings import HealthSettings
from memtui.core.model import Entry
from memtui.core.terms import EntryTerms
from memtui.core.tokenize import tokens

SIGNATURE_WORDS = 8
"""How many of an entry's rarest words make its signature."""
SIGNATURE_MAX_FREQUENCY = 100
"""Words held by more entries are never signature words (pairs grow with its square); an
entry stored up to this many times is still found."""
SHARED_SIGNATURE_WORDS = 3
"""Signature words two entries must share to be compared (fewer when a signature is shorter)."""


def normalised_text(entry: Entry) -> str:
    """The words of title and body, casefolded, one space apart: what similarity compares."""
    return " ".join(tokens(f"{entry.title}\n{entry.body}"))


def candidate_pairs(terms: EntryTerms, settings: HealthSettings) -> list[tuple[int, int]]:
    """(a, b) with a < b, entry indexes whose signatures share enough words and whose sizes
    are close enough to be duplicates; every duplicate pair is among them."""
    sizes = terms.distinct_words()
    owners = terms.owners
    frequency = terms.document_frequency[terms.word_ids]
    usable = ((frequency >= 2) & (frequency <= SIGNATURE_MAX_FREQUENCY)
              & (sizes[owners] >= settings.duplicate_min_words))
    owner, word, rarity = owners[usable], terms.word_ids[usable], frequency[usable]
    order = np.lexsort((word, rarity, owner))
    owner, word = owner[order], word[order]
    rank = np.arange(len(owner)) - np.searchsorted(owner, owner, side="left")
    chosen = rank < SIGNATURE_WORDS
    owner, word = owner[chosen], word[chosen]
    signature_size = np.bincount(owner, minlength=len(terms.entries))
    a, b, shared = _shared_signature_words(owner, word)
    needed = np.minimum(np.minimum(signature_size[a], signature_size[b]), SHARED_SIGNATURE_WORDS)
    small, large = np.minimum(sizes[a], sizes[b]), np.maximum(sizes[a], sizes[b])
    keep = (shared >= needed) & (small >= settings.duplicate_length_ratio * large)
    return list(zip(a[keep].tolist(), b[keep].tolist(), strict=True))


def _shared_signature_words(owner: IntArray, word: IntArray) -> tuple[IntArray, IntArray,
                                                                       IntArray]:
    """Every pair of entries (a < b) sharing a signature word, and how many they share.

    Vectorised: sorted by word, every holder of a word pairs with each holder after it in the
    same run, so the pairs of all words come out of one `repeat` without a Python loop."""
    order = np.lexsort((owner, word))
    owner, word = owner[order], word[order]
    position = np.arange(len(word))
    partners = np.searchsorted(word, word, side="right") - position - 1
    total = int(partners.sum())
    if total == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    left = np.repeat(position, partners)
    right = left + 1 + np.arange(total) - np.repeat(np.cumsum(partners) - partners, partners)
    entries = int(owner.max()) + 1
    keys, shared = np.unique(owner[left] * entries + owner[right], return_counts=True)
    return keys // entries, keys % entries, shared.astype(np.int64)


def duplicate_pairs(terms: EntryTerms, settings: HealthSettings,
                    text: Callable[[int], str]) -> dict[tuple[int, int], float]:
    """Verified pairs (a < b) -> similarity in percent; `text(i)` is entry i's normalised text."""
    found: dict[tuple[int, int], float] = {}
    for a, b in candidate_pairs(terms, settings):
        score = fuzz.token_set_ratio(text(a), text(b),
                                     score_cutoff=settings.duplicate_similarity)
        if score:
            found[(a, b)] = float(score)
    return found


def find_duplicates(terms: EntryTerms, settings: HealthSettings) -> list[Finding]:
    """Duplicate groups as findings: per group the newest first (`lead`), then the others,
    each with its similarity to the entry it matched best."""
    cache: dict[int, str] = {}

    def text(index: int) -> str:
        if index not in cache:
            cache[index] = normalised_text(terms.entries[index])
        return cache[index]

    pairs = duplicate_pairs(terms, settings, text)
    best: dict[int, tuple[float, int]] = {}
    for (a, b), score in pairs.items():
        for one, other in ((a, b), (b, a)):
            if score > best.get(one, (-1.0, 0))[0]:
                best[one] = (score, other)
    groups = _components(pairs)
    ordered = [newest_first(terms.entries[index] for index in group) for group in groups]
    ordered.sort(key=lambda members: _group_order(members[0]))
    position = {entry.id: index for index, entry in enumerate(terms.entries)}
    findings: list[Finding] = []
    threshold = f"{settings.duplicate_similarity:g}"
    for number, members in enumerate(ordered):
        lead = members[0]
        findings.append(Finding(
            Check.DUPLICATES, lead, f"newest of {len(members)} near-duplicates", number, True,
            details=(("group_size", len(members)),),
        ))
        for member in members[1:]:
            me = position[member.id]
            direct = fuzz.token_set_ratio(text(me), text(position[lead.id]))
            score, other = (direct, position[lead.id]) if direct >= settings.duplicate_similarity \
                else best[me]
            partner = terms.entries[other]
            findings.append(Finding(
                Check.DUPLICATES, member,
                f"{score:.0f}% alike with {citation(partner)} (threshold {threshold}%)",
                number, False, partner,
                (("similarity", round(float(score), 1)),
                 ("threshold", settings.duplicate_similarity)),
            ))
    return findings


def _group_order(lead: Entry) -> tuple[bool, float, str, int]:
    """Groups with the newest lead first, undated ones last, then by place."""
    stamp = -(lead.when - dt.datetime.min).total_seconds() if lead.when is not None else 0.0
    return (lead.when is None, stamp, lead.path, lead.line_start)


def _components(pairs: dict[tuple[int, int], float]) -> list[list[int]]:
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
