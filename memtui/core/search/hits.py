"""A scored query: RankContext, its explanations read back, top-k selection.

A `RankContext` keeps the arrays one query was scored with (per-term credited tf, idf, static
factors, final scores). Hits are built from it only when someone reads them
(`core.search.ranked_hits`), and a hit's explanation reads the same arrays back and redoes the
final scalar arithmetic with the `core.search.scoring` functions in the same order as the
vectorised path, so `Explanation.score == Hit.score` exactly.

Ties break by score, source priority, newest date, path, then line. In browse mode (no query
terms) every matching entry is a result, newest first, relevance 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from msgspec import Struct, field

from memtui.core.model import (
    Entry,
    Explanation,
    Factor,
    MatchKind,
    TermMatch,
    TokenMatch,
)
from memtui.core.search.arrays import FloatArray, IntArray
from memtui.core.search.expansion import Expansion
from memtui.core.search.query import Query
from memtui.core.search.scoring import (
    apply_multiplier,
    combine,
    k1_length_norm,
    saturate,
    static_part,
)
from memtui.core.search.statics import Settings, StaticFactors, entry_multipliers, position_rank
from memtui.core.settings.config import FACTOR_NAMES

SAMPLE_STEP = 7
"""Prime, so the sample does not follow a corpus's periodic layout (files of 8 entries)."""
SAMPLE_SLACK = 8
SAMPLE_MIN_FACTOR = 4
"""top_threshold samples only when there are at least this many times step × limit scores."""


class TermScores(Struct, frozen=True):
    """One query term (or required phrase) scored over all slots."""

    term: str
    tf: FloatArray
    """Credited term frequency per slot (0 = no match)."""
    idf: float
    matches: int
    """Live entries the term matches (before filters); 0 = the term matched nothing."""
    expansion: Expansion | None
    phrase_counts: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    """For phrases: slot -> (heading count, body count)."""


class RankContext(Struct):
    """A scored query: immutable snapshot arrays the lazy explanations read back."""

    query: Query
    settings: Settings
    entries: Sequence[Entry]
    statics: StaticFactors
    lengths: FloatArray
    average_length: float
    terms: tuple[TermScores, ...]
    candidates: IntArray
    """Slots that are results, sorted ascending."""
    relevance: FloatArray
    raw_relevance: FloatArray
    matched_terms: IntArray
    best: float
    scores: FloatArray
    browse: bool
    path_id: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    path_rank: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    ordered: IntArray | None = None
    """Candidate positions in rank order (computed fully only when someone asks for a rank)."""

    @property
    def nbytes(self) -> int:
        """Memory of the arrays this query owns (the index's and the term cache's are shared):
        a query matching most of 50,000 entries holds ~2.4 MB."""
        owned = (
            self.candidates,
            self.relevance,
            self.raw_relevance,
            self.matched_terms,
            self.scores,
            self.ordered,
        )
        return sum(array.nbytes for array in owned if array is not None)

    def order(self, limit: int | None) -> IntArray:
        """Positions (into `candidates`) of the top `limit` results in rank order."""
        if self.ordered is not None:
            return self.ordered if limit is None else self.ordered[:limit]
        if limit is not None and limit <= 0:
            return np.zeros(0, dtype=np.int64)
        slots = self.candidates
        if limit is not None and limit < len(slots):
            if self.browse:  # newest first: only the entries as new as the limit-th newest
                when = self.statics.when[slots]
                newest = np.partition(when, len(when) - limit)[len(when) - limit]
                positions = np.flatnonzero(when >= newest)
            else:
                positions = np.flatnonzero(self.scores >= top_threshold(self.scores, limit))
            slots = slots[positions]
        else:
            positions = np.arange(len(slots))
        keys: tuple[Any, ...] = (
            self.statics.line[slots],
            self.path_rank[self.path_id[slots]],
            -self.statics.when[slots],
        )
        if not self.browse:
            keys += (-self.statics.priority[slots], -self.scores[positions])
        ordered = positions[np.lexsort(keys)]
        if len(ordered) == len(self.candidates):
            self.ordered = ordered
        return ordered if limit is None else ordered[:limit]

    def _candidate_position(self, slot: int) -> int | None:
        at = int(np.searchsorted(self.candidates, slot))
        if at < len(self.candidates) and self.candidates[at] == slot:
            return at
        return None

    def rank_of(self, slot: int) -> int | None:
        at = self._candidate_position(slot)
        if at is None:
            return None
        return int(np.flatnonzero(self.order(None) == at)[0]) + 1

    def slot_at_rank(self, rank: int) -> int:
        return int(self.candidates[self.order(None)[rank - 1]])

    # --- explanation: the same numbers, read back ------------------------------------------

    def factor_contributions(self, slot: int) -> tuple[tuple[str, float], ...]:
        """(name, weight × value) per factor in FACTOR_NAMES order, exactly as `explain`
        reports them, without the term-matching work of a full explanation."""
        contributions = self.score_parts(slot)[0]
        return tuple((name, contributions[name]) for name in FACTOR_NAMES)

    def contributions_of(self, slots: list[int]) -> list[tuple[tuple[str, float], ...]]:
        """`factor_contributions` of each of `slots`, worked out in one numpy pass (a
        results list's first rows: ~20 µs a row one at a time). The same float64 products
        of the same values, so the numbers are bit for bit the scalar path's."""
        chosen = np.asarray(slots, dtype=np.int64)
        relevance = np.zeros(len(chosen))
        if len(self.candidates) and not self.browse:
            at = np.minimum(np.searchsorted(self.candidates, chosen), len(self.candidates) - 1)
            found = self.candidates[at] == chosen
            relevance[found] = self.relevance[at[found]]
        statics = self.statics
        values = {
            "relevance": relevance,
            "source": statics.source[chosen],
            "recency": statics.recency[chosen],
            "position": statics.position[chosen],
        }
        weights = self.settings.weights
        columns = [
            (weights[name] * values[name].astype(np.float64)).tolist() for name in FACTOR_NAMES
        ]
        return [tuple(zip(FACTOR_NAMES, row, strict=True)) for row in zip(*columns, strict=True)]

    def score_parts(self, slot: int) -> tuple[dict[str, float], float, float]:
        """(name -> weight × value per factor, base, score) of a slot: the scalar twin of the
        vectorised scoring in `Ranker._context`."""
        values = self.factor_values(slot)
        weights = self.settings.weights
        contributions = {name: weights[name] * values[name] for name in FACTOR_NAMES}
        base = float(combine(contributions["relevance"], static_part(weights, values)))
        score = float(apply_multiplier(base, float(self.statics.multiplier[slot])))
        return contributions, base, score

    def factor_values(self, slot: int) -> dict[str, float]:
        at = self._candidate_position(slot)
        relevance = 0.0 if at is None or self.browse else float(self.relevance[at])
        return {
            "relevance": relevance,
            "source": float(self.statics.source[slot]),
            "recency": float(self.statics.recency[slot]),
            "position": float(self.statics.position[slot]),
        }

    def explain(self, slot: int, previous: int | None = None) -> Explanation:
        entry = self.entries[slot]
        contributions, base, score = self.score_parts(slot)
        values = self.factor_values(slot)
        weights = self.settings.weights
        factors = tuple(
            Factor(
                name=name,
                raw=self._raw(name, slot, entry),
                value=values[name],
                weight=weights[name],
                contribution=contributions[name],
            )
            for name in FACTOR_NAMES
        )
        notes = list(self.query.notes)
        if self.browse:
            notes.append("browse mode: no query terms, entries newest first")
        elif self._candidate_position(slot) is None:
            notes.append("not a result for this query")
        gaps: tuple[tuple[str, float], ...] = ()
        if previous is not None:
            above, above_base, above_score = self.score_parts(previous)
            gaps = tuple((name, above[name] - contributions[name]) for name in FACTOR_NAMES)
            gaps += (("multipliers", (above_score - above_base) - (score - base)),)
        return Explanation(
            factors=factors,
            terms=self._term_matches(slot),
            multipliers=entry_multipliers(entry, self.settings),
            base=base,
            score=score,
            notes=tuple(notes),
            gap_to_previous=gaps,
            browse=self.browse,
        )

    def _raw(self, name: str, slot: int, entry: Entry) -> str:
        if name == "relevance":
            if self.browse:
                return "no query terms (browse mode)"
            at = self._candidate_position(slot)
            if at is None:
                return "no match"
            matched = int(self.matched_terms[at])
            coverage = matched / len(self.terms)
            return (
                f"{matched}/{len(self.terms)} terms, raw {self.raw_relevance[at]:.3f} "
                f"× coverage² {coverage * coverage:.2f} ÷ best {self.best:.3f}"
            )
        if name == "recency":
            if bool(self.statics.evergreen[slot]):
                return "long-term: evergreen"
            age = float(self.statics.ages[slot])
            if math.isnan(age):
                return "undated: neutral"
            return f"age {age:g} d, half-life {self.settings.half_life_days:g} d"
        if name == "source":
            return f"{entry.source.value} → priority {int(self.statics.priority[slot])}"
        r, n, wording = position_rank(entry)
        if n <= 1:
            return "only entry in its file"
        return f"entry {r + 1} of {n} {wording}"

    def _term_matches(self, slot: int) -> tuple[TermMatch, ...]:
        if self.browse:
            return ()
        k1_norm = k1_length_norm(float(self.lengths[slot]), self.average_length)
        matches = []
        for scored in self.terms:
            tf = float(scored.tf[slot])
            term_score = scored.idf * float(saturate(tf, k1_norm)) if tf > 0 else 0.0
            matches.append(
                TermMatch(
                    term=scored.term,
                    weight=scored.idf,
                    score=term_score,
                    matches=_token_matches(scored, slot),
                )
            )
        return tuple(matches)


def _token_matches(scored: TermScores, slot: int) -> tuple[TokenMatch, ...]:
    if scored.expansion is None:
        counts = scored.phrase_counts.get(slot)
        if counts is None:
            return ()
        phrase = scored.term.strip('"')
        return (
            TokenMatch(
                token=phrase,
                kind=MatchKind.PHRASE,
                similarity=1.0,
                heading_count=counts[0],
                body_count=counts[1],
            ),
        )
    expansion = scored.expansion
    positions = np.flatnonzero(expansion.docs == slot)
    word_indexes = np.searchsorted(expansion.word_ptr, positions, side="right") - 1
    return tuple(
        TokenMatch(
            token=expansion.words[word_index],
            kind=expansion.kind(expansion.words[word_index]),
            similarity=float(expansion.word_credits[word_index]),
            heading_count=int(expansion.heading[position]),
            body_count=int(expansion.body[position]),
        )
        for position, word_index in zip(positions.tolist(), word_indexes.tolist(), strict=True)
    )


def top_threshold(scores: FloatArray, limit: int) -> float:
    """The `limit`-th largest score, exactly. Partitioning tens of thousands of scores costs
    more than the rest of a keystroke, so a strided sample first gives a lower bound that
    (almost always) keeps a few hundred scores; only those are partitioned. When the bound
    keeps fewer than `limit` scores, the full partition decides."""
    if len(scores) >= SAMPLE_MIN_FACTOR * SAMPLE_STEP * limit:
        sample = scores[::SAMPLE_STEP]
        rank_in_sample = min(len(sample), 3 * limit // SAMPLE_STEP + SAMPLE_SLACK)
        bound = np.partition(sample, len(sample) - rank_in_sample)[len(sample) - rank_in_sample]
        kept = scores[scores >= bound]
        if len(kept) >= limit:
            return float(np.partition(kept, len(kept) - limit)[len(kept) - limit])
    return float(np.partition(scores, len(scores) - limit)[len(scores) - limit])
