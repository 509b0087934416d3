"""The Ranker: scores a query over the live Index into a RankContext, every candidate at once.

It keeps the per-slot static arrays (`core.search.statics`) in step with the index and caches what a
keystroke would otherwise redo: per-term credited tf, phrase counts, filter masks, the length
normalisation and the static part of the score. Scoring applies the `core.search.scoring` formulas
to numpy arrays over all candidates; the returned `RankContext` (`core.search.hits`) turns them into
hits and explanations.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase
from typing import Any

import numpy as np
from msgspec.structs import replace

from memtui.core.model import Entry, multiplier_product
from memtui.core.search.arrays import BoolArray, FloatArray, IntArray, gather
from memtui.core.search.fields import heading_and_body_keys
from memtui.core.search.hits import RankContext, TermScores
from memtui.core.search.index import Index
from memtui.core.search.masked_words import masked_words, searchable_text
from memtui.core.search.query import Query
from memtui.core.search.scoring import (
    BM25_K1,
    HEADING_WEIGHT,
    apply_multiplier,
    clamp01,
    idf,
    k1_length_norm,
    static_part,
)
from memtui.core.search.slots import SOURCE_CODES
from memtui.core.search.statics import (
    Settings,
    compute_statics,
    concat_statics,
    entry_multipliers,
)
from memtui.core.search.tokenize import count_phrase, tokens

SUGGESTION_CUTOFF = 0.6
TERM_CACHE_SIZE = 8
"""Scored terms kept: the earlier words of the query being typed, re-scored at every keystroke
of the next word, and a few recent queries. Each holds a float per slot (400 KB at 50k)."""


class Ranker:
    """Scores queries over an Index with the current settings; the Engine serialises access."""

    def __init__(
        self,
        index: Index,
        settings: Settings,
        root_targets: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.index = index
        self.settings = settings
        self.root_targets: Mapping[str, tuple[str, ...]] = root_targets or {"": ()}
        """`Entry.root` -> what a `root:` glob matches (`core.live.roots.match_targets`)."""
        self.statics = compute_statics(index.entries, settings)
        self._revision = 0
        """Bumped whenever statics or settings change; keys the derived caches below."""
        self._generation = index.generation
        self._filter_cache: dict[tuple[Any, ...], BoolArray] = {}
        self._phrase_cache: dict[str, dict[int, tuple[int, int]]] = {}
        self._term_cache: dict[tuple[str, bool], tuple[TermScores, BoolArray]] = {}
        self._cache_version = index.version
        self._k1_norm_cache: FloatArray | None = None
        self._k1_norm_version = -1
        self._static_cache: FloatArray | None = None
        self._static_key = -1
        self._multiplier_key = -1
        self._any_multiplier = False
        self._scratch_buffers: dict[str, FloatArray] = {}

    # --- keeping per-slot arrays in step with the index ------------------------------------

    def sync(self) -> None:
        """Extend static arrays for new slots (or redo them after a compaction)."""
        index = self.index
        if index.generation != self._generation:
            self.statics = compute_statics(index.entries, self.settings)
            self._generation = index.generation
            self._revision += 1
        elif len(self.statics.line) < index.slot_count:
            fresh = compute_statics(index.entries[len(self.statics.line) :], self.settings)
            self.statics = concat_statics(self.statics, fresh)
            self._revision += 1
        if index.version != self._cache_version:
            self._filter_cache = {}
            self._phrase_cache = {}
            self._term_cache = {}
            self._cache_version = index.version

    def update_settings(self, settings: Settings, *, statics: bool) -> None:
        self.settings = settings
        self._revision += 1
        if statics:
            self.statics = compute_statics(self.index.entries, settings)

    def refresh_paths(self, paths: list[str]) -> None:
        """Recompute multipliers for the slots of these paths (session boost changed)."""
        multiplier = self.statics.multiplier.copy()
        for path in paths:
            for slot in self.index.slots_of(path).tolist():
                multiplier[slot] = multiplier_product(
                    entry_multipliers(self.index.entries[slot], self.settings)
                )
        self.statics = replace(self.statics, multiplier=multiplier)
        self._revision += 1

    # --- scoring ---------------------------------------------------------------------------

    def rank(self, query: Query) -> RankContext:
        """Score every candidate of `query`; hits are built from the returned context."""
        self.sync()
        index = self.index
        slot_count = index.slot_count
        filters = self._filter_mask(query)
        terms: list[TermScores] = []
        if not query.has_terms:
            candidates = np.flatnonzero(index.alive if filters is None else filters)
            empty = np.zeros(len(candidates))
            return self._context(
                query,
                (),
                candidates,
                empty,
                empty,
                np.zeros(len(candidates), dtype=np.int64),
                0.0,
                browse=True,
            )
        documents = index.live_count
        matched_any: BoolArray | None = None
        for term in query.terms:
            scored, matched = self._term_scores(term, query.expands(term))
            matched_any = matched if matched_any is None else matched_any | matched
            terms.append(scored)
        required = filters
        for phrase, phrase_tokens in zip(query.phrases, query.phrase_tokens, strict=True):
            counts = self._phrase_counts(phrase, phrase_tokens)
            phrase_tf = np.zeros(slot_count)
            for slot, (heading, body) in counts.items():
                phrase_tf[slot] = HEADING_WEIGHT * heading + body
            matched = phrase_tf > 0
            required = matched if required is None else required & matched
            terms.append(
                TermScores(
                    f'"{phrase}"', phrase_tf, idf(len(counts), documents), len(counts), None, counts
                )
            )
        candidates = np.flatnonzero(_intersect(slot_count, matched_any, required))
        count = len(candidates)
        k1_norm = gather(self._k1_norm(), candidates, self._scratch("k1_norm", count))
        if len(terms) == 1:
            raw = self._term_part(terms[0], candidates, k1_norm, np.empty(count))
            matched_terms = np.ones(count, dtype=np.int64)
            weighted = raw
        else:
            raw = np.zeros(count)
            matched_terms = np.zeros(count, dtype=np.int64)
            for scored in terms:
                raw += self._term_part(scored, candidates, k1_norm, self._scratch("part", count))
                matched_terms += self._scratch("tf", count) > 0
            coverage = np.divide(matched_terms, len(terms), out=self._scratch("coverage", count))
            weighted = raw * np.multiply(coverage, coverage, out=coverage)
        best = float(weighted.max()) if len(weighted) else 0.0
        relevance = weighted / best if best > 0 else weighted
        return self._context(
            query, tuple(terms), candidates, relevance, raw, matched_terms, best, browse=False
        )

    def _term_scores(self, term: str, expands: bool) -> tuple[TermScores, BoolArray]:
        """A term's credited tf over all slots and the live slots it matches; cached per index
        version because typing the next word re-scores every earlier word of the query."""
        key = (term, expands)
        cached = self._term_cache.get(key)
        if cached is not None:
            return cached
        index = self.index
        expansion = index.expand(term, prefix=expands)
        term_tf = index.term_frequencies(expansion, key)
        matched = term_tf > 0
        if index.live_count != index.slot_count:
            matched &= index.alive
        count = int(np.count_nonzero(matched))
        scored = TermScores(term, term_tf, idf(count, index.live_count), count, expansion)
        if len(self._term_cache) >= TERM_CACHE_SIZE:
            self._term_cache.pop(next(iter(self._term_cache)))
        self._term_cache[key] = (scored, matched)
        return scored, matched

    def _scratch(self, name: str, count: int) -> FloatArray:
        """A reusable float buffer for temporaries of one keystroke: fresh arrays of 50k
        floats are fresh pages from the OS, and faulting them in cost more than the math.
        Never handed out beyond the call that filled it (the Engine serialises searches)."""
        buffer = self._scratch_buffers.get(name)
        if buffer is None or len(buffer) < count:
            buffer = self._scratch_buffers[name] = np.empty(max(count, self.index.slot_count))
        return buffer[:count]

    def _term_part(
        self, scored: TermScores, candidates: IntArray, k1_norm: FloatArray, out: FloatArray
    ) -> FloatArray:
        """idf · saturate(tf) per candidate into `out` (the same operations in the same order
        as `saturate`, so the explanation's scalar arithmetic gives the same bits); the
        candidates' tf is left in the "tf" scratch buffer."""
        tf = gather(scored.tf, candidates, self._scratch("tf", len(candidates)))
        numerator = np.multiply(tf, BM25_K1 + 1.0, out=out)
        denominator = np.add(tf, k1_norm, out=self._scratch("denominator", len(candidates)))
        return np.multiply(np.divide(numerator, denominator, out=out), scored.idf, out=out)

    def _context(
        self,
        query: Query,
        terms: tuple[TermScores, ...],
        candidates: IntArray,
        relevance: FloatArray,
        raw: FloatArray,
        matched_terms: IntArray,
        best: float,
        *,
        browse: bool,
    ) -> RankContext:
        """Final scores (the vector twin of RankContext.score_parts) and the snapshot."""
        statics = self.statics
        count = len(candidates)
        relevance_part = np.multiply(
            relevance,
            self.settings.weights["relevance"],
            out=self._scratch("relevance_part", count),
        )
        static = gather(self._static_part(), candidates, self._scratch("static", count))
        summed = np.add(relevance_part, static, out=relevance_part)
        if self._has_multipliers():
            base = np.clip(summed, 0.0, 1.0, out=summed)  # combine(), in place
            scores: FloatArray = apply_multiplier(base, gather(statics.multiplier, candidates))
        else:
            scores = clamp01(summed)  # combine(), into a fresh array
        if not browse:
            keep = scores >= self.settings.config.min_score
            if not keep.all():
                kept = np.flatnonzero(keep)  # one mask scan; a gather is cheaper than masking
                candidates, relevance, raw = (
                    gather(candidates, kept),
                    gather(relevance, kept),
                    gather(raw, kept),
                )
                matched_terms, scores = gather(matched_terms, kept), gather(scores, kept)
        index = self.index
        return RankContext(
            query=query,
            settings=self.settings,
            entries=index.entries,
            statics=statics,
            lengths=index.lengths,
            average_length=index.average_length,
            terms=terms,
            candidates=candidates,
            relevance=relevance,
            raw_relevance=raw,
            matched_terms=matched_terms,
            best=best,
            scores=scores,
            browse=browse,
            path_id=index.path_id,
            path_rank=index.path_rank,
        )

    def _has_multipliers(self) -> bool:
        """False when every multiplier is 1 (then base × 1, clamped, is base itself)."""
        key = self._revision
        if self._multiplier_key != key:
            self._any_multiplier = bool(np.any(self.statics.multiplier != 1.0))
            self._multiplier_key = key
        return self._any_multiplier

    def _k1_norm(self) -> FloatArray:
        """k1 · length normalisation per slot, cached until the index changes."""
        if self._k1_norm_version != self.index.version or self._k1_norm_cache is None:
            self._k1_norm_cache = k1_length_norm(self.index.lengths, self.index.average_length)
            self._k1_norm_version = self.index.version
        return self._k1_norm_cache

    def _static_part(self) -> FloatArray:
        """Σ weight · value of source, recency and position per slot, cached per settings."""
        key = self._revision
        if self._static_key != key or self._static_cache is None:
            statics = self.statics
            values = {
                "source": statics.source,
                "recency": statics.recency,
                "position": statics.position,
            }
            self._static_cache = static_part(self.settings.weights, values)
            self._static_key = key
        return self._static_cache

    def _phrase_counts(
        self, phrase: str, phrase_tokens: tuple[str, ...]
    ) -> dict[int, tuple[int, int]]:
        """slot -> (heading, body) occurrences of a phrase, verified on candidate entries."""
        cached = self._phrase_cache.get(phrase)
        if cached is not None:
            return cached
        slot_sets = None
        for token in dict.fromkeys(phrase_tokens):
            docs = self.index.expand(token, prefix=False).docs
            slot_sets = docs if slot_sets is None else np.intersect1d(slot_sets, docs)
        counts: dict[int, tuple[int, int]] = {}
        for slot in [] if slot_sets is None else slot_sets.tolist():
            if not self.index.alive[slot]:
                continue
            heading_key, body_key = heading_and_body_keys(self.index.entries[slot])
            found = count_phrase(phrase, heading_key), count_phrase(phrase, body_key)
            if found != (0, 0):
                counts[slot] = found
        self._phrase_cache[phrase] = counts
        return counts

    def _filter_mask(self, query: Query) -> BoolArray | None:
        """Live slots that pass the filters and exclusions; None when there are none."""
        if not query.has_filters:
            return None
        key = (
            query.sources,
            query.path_globs,
            query.tag_globs,
            query.root_globs,
            query.after,
            query.before,
            query.excluded_terms,
            query.excluded_phrases,
        )
        cached = self._filter_cache.get(key)
        if cached is not None:
            return cached
        index, statics = self.index, self.statics
        mask = index.alive.copy()
        if query.sources:
            codes = [SOURCE_CODES[source] for source in query.sources]
            mask &= np.isin(statics.source_code, codes)
        if query.after is not None:
            mask &= statics.date_ordinal >= query.after.toordinal()
        if query.before is not None:
            mask &= (statics.date_ordinal >= 0) & (statics.date_ordinal < query.before.toordinal())
        if query.path_globs:
            mask &= self._slots_where(lambda e: _path_matches(e, query.path_globs))
        if query.root_globs:
            wanted = {
                key
                for key, targets in self.root_targets.items()
                if any(fnmatchcase(target, glob) for glob in query.root_globs for target in targets)
            }
            mask &= self._slots_where(lambda e: e.root in wanted)
        if query.tag_globs:
            mask &= self._slots_where(
                lambda e: any(
                    fnmatchcase(tag.casefold(), glob) for tag in e.tags for glob in query.tag_globs
                )
            )
        for term in query.excluded_terms:
            mask[self.index.expand(term, prefix=False).docs] = False
        for phrase in query.excluded_phrases:
            excluded = self._phrase_counts(phrase, tuple(tokens(phrase, query=True)))
            mask[list(excluded)] = False
        self._filter_cache[key] = mask
        return mask

    def _slots_where(self, predicate: Callable[[Entry], bool]) -> BoolArray:
        mask = np.zeros(self.index.slot_count, dtype=bool)
        for slot in np.flatnonzero(self.index.alive).tolist():
            mask[slot] = predicate(self.index.entries[slot])
        return mask

    def suggestions(self, terms: tuple[str, ...]) -> tuple[str, ...]:
        """Did-you-mean words from the vocabulary for terms that matched nothing."""
        found: list[str] = []
        for term in terms:
            if len(term) < 3:
                continue
            for word in self.index.fuzzy_words(term, cutoff=SUGGESTION_CUTOFF):
                if word not in found and self._readable_somewhere(word):
                    found.append(word)
                    break
        return tuple(found)

    def _readable_somewhere(self, word: str) -> bool:
        """Whether a live entry holds `word` outside a masked secret: a word only secrets hold
        is never suggested, or "did you mean" would print the password the excerpts mask."""
        return any(
            word not in masked_words(searchable_text(self.index.entries[slot]))
            for slot in self.index.live_slots_with(word)
        )


def _intersect(slot_count: int, *masks: BoolArray | None) -> BoolArray:
    present = [mask for mask in masks if mask is not None]
    if not present:
        return np.ones(slot_count, dtype=bool)
    result = present[0]
    for mask in present[1:]:
        result = result & mask
    return result


def _path_matches(entry: Entry, globs: tuple[str, ...]) -> bool:
    targets = [entry.path.casefold(), entry.file_name.casefold()]
    if entry.role:
        targets.append(entry.role.casefold())
    return any(fnmatchcase(target, glob) for glob in globs for target in targets)


def elapsed_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0
