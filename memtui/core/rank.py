"""Factors, weights, multipliers and tie-breaks -> ranked hits, each with an exact explanation.

score = clamp01(Σ weight_f · factor_f) × Π multipliers, clamped to [0, 1] (DESIGN §3).

- relevance: per query term t, the entry's credited term frequency
  tf_t = Σ over matched words w of credit(t, w) · (2 · heading count + body count), where credit
  is 1 for the exact word, 0.6 + 0.4 · len(t)/len(w) for a prefix completion, 0.7 for a word
  variant (deployment -> deploy*), 0.8 · OSA similarity for a typo. Each term adds
  idf_t · BM25 saturation(tf_t) (k1 = 1.2, length normalisation b = 0.5); idf_t counts the
  entries the term matches in any way, so rare terms weigh more. The sum is multiplied by the
  squared share of query terms matched (coverage², so matching all terms beats matching some)
  and divided by the best such value among the results: the best match has relevance 1.
  A required phrase is one more term (exact, credit 1).
- recency: 0.5 ** (age_days / half_life_days); long-term entries are evergreen (1.0) when
  configured; undated entries get a neutral 0.5; future dates count as age 0.
- source: configured priority (0–100) / 100.
- position: entries near the start of a long-term or note file, and near the end (newest) of
  a daily note, score higher: 1 − 0.5 · r / (n − 1), where r counts entries from the favoured
  end of a file of n entries (1.0 for single-entry files, 0.5 for the far end).
- multipliers: every config boost whose glob matches the path (or file name) or, for `tag:`
  patterns, a tag; then the session boost of the entry's file. Their product scales the base.

Ties break by score, source priority, newest date, path, then line. An empty query (filters
allowed) is browse mode: every matching entry, newest first, relevance 0.

The fast path scores every candidate with numpy; the explanation of a hit reads the same
arrays back (per-term credited tf, idf, static factors) and redoes the final scalar arithmetic
in the same order, so `Explanation.score == Hit.score` exactly.
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from memtui.core.config import FACTOR_NAMES, Config, normalise_weights
from memtui.core.index import (
    HEADING_WEIGHT,
    Expansion,
    FloatArray,
    Index,
    IntArray,
    heading_and_body_keys,
)
from memtui.core.model import (
    Entry,
    Explanation,
    Factor,
    Hit,
    MatchKind,
    Multiplier,
    RankResult,
    Source,
    TermMatch,
    TokenMatch,
)
from memtui.core.query import Query
from memtui.core.tokenize import count_phrase, tokens

BoolArray = npt.NDArray[np.bool_]

BM25_K1 = 1.2
BM25_B = 0.5
NEUTRAL_RECENCY = 0.5
POSITION_FLOOR = 0.5
SUGGESTION_CUTOFF = 0.6
TERM_CACHE_SIZE = 32
HEAD_SIZE = 200
"""Hits ordered eagerly per search; the rest of the order is sorted on first access beyond."""
SAMPLE_STEP = 7
"""Prime, so the sample does not follow a corpus's periodic layout (files of 8 entries)."""
SAMPLE_SLACK = 8
SAMPLE_MIN_FACTOR = 4
"""top_threshold samples only when there are at least this many times step × limit scores."""
_SOURCE_CODES = {Source.LONG_TERM: 0, Source.DAILY: 1, Source.NOTE: 2}


def clamp01(value: Any) -> Any:
    """Clamp a float or an array to [0, 1] (one function for both paths)."""
    if isinstance(value, np.ndarray):
        return np.clip(value, 0.0, 1.0)
    return min(1.0, max(0.0, value))


def saturate(tf: Any, k1_norm: Any) -> Any:
    """BM25 term-frequency saturation: repeated matches add less and less."""
    return tf * (BM25_K1 + 1.0) / (tf + k1_norm)


def k1_length_norm(length: Any, average_length: float) -> Any:
    """k1 · BM25 length normalisation: long entries need more matches for the same credit."""
    return BM25_K1 * ((1.0 - BM25_B) + BM25_B * length / average_length)


def idf(document_frequency: int, documents: int) -> float:
    return math.log(1.0 + (documents - document_frequency + 0.5) / (document_frequency + 0.5))


STATIC_FACTORS = tuple(name for name in FACTOR_NAMES if name != "relevance")


def static_part(weights: Mapping[str, float], values: Mapping[str, Any]) -> Any:
    """Σ weight · value over the query-independent factors (precomputed per slot)."""
    total: Any = 0.0
    for name in STATIC_FACTORS:
        total = total + weights[name] * values[name]
    return total


def combine(relevance_contribution: Any, static: Any) -> Any:
    """base = clamp01(weight · relevance + static part), for floats or arrays alike."""
    return clamp01(relevance_contribution + static)


def apply_multiplier(base: Any, multiplier: Any) -> Any:
    return clamp01(base * multiplier)


def position_rank(entry: Entry) -> tuple[int, int, str]:
    """(r, n, wording): r counts entries from the favoured end of the file (see module doc)."""
    count = max(entry.count, 1)
    index = min(max(entry.position, 0), count - 1)
    if entry.source is Source.DAILY:
        return count - 1 - index, count, "from the newest"
    return index, count, "from the top"


def position_value(entry: Entry) -> float:
    r, n, _ = position_rank(entry)
    if n <= 1:
        return 1.0
    return 1.0 - (1.0 - POSITION_FLOOR) * r / (n - 1)


def glob_matches(pattern: str, entry: Entry) -> bool:
    """Config boost patterns: `tag:GLOB` against tags, else a glob on the path or file name."""
    if pattern.startswith("tag:"):
        wanted = pattern[4:].casefold()
        return any(fnmatchcase(tag.casefold(), wanted) for tag in entry.tags)
    if fnmatchcase(entry.path, pattern):
        return True
    return "/" not in pattern and fnmatchcase(entry.file_name, pattern)


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything besides the index that a score depends on."""

    config: Config
    weights: Mapping[str, float]
    half_life_days: float
    session_boosts: Mapping[str, float]
    today_ordinal: int


@dataclass(frozen=True, slots=True)
class StaticFactors:
    """Per-slot arrays that do not depend on the query (replaced, never mutated)."""

    ages: FloatArray
    """Age in days; NaN when undated."""
    evergreen: BoolArray
    recency: FloatArray
    source: FloatArray
    priority: IntArray
    position: FloatArray
    multiplier: FloatArray
    source_code: IntArray
    date_ordinal: IntArray
    """Date as an ordinal, -1 when undated."""
    when: IntArray
    """Seconds key for 'newest first', -1 when undated."""
    line: IntArray


def entry_multipliers(entry: Entry, settings: Settings) -> tuple[Multiplier, ...]:
    """Config boosts that fire, then the session boost; their product is the slot's multiplier."""
    fired = [
        Multiplier(name="boost", reason=f"config boost {boost.pattern!r}", factor=boost.factor)
        for boost in settings.config.boosts
        if glob_matches(boost.pattern, entry)
    ]
    session = settings.session_boosts.get(entry.path)
    if session is not None:
        fired.append(Multiplier(name="session", reason=f"session boost on {entry.path}",
                                factor=session))
    return tuple(fired)


def product(multipliers: tuple[Multiplier, ...]) -> float:
    total = 1.0
    for multiplier in multipliers:
        total = total * multiplier.factor
    return total


def compute_statics(entries: list[Entry], settings: Settings) -> StaticFactors:
    """Per-slot static arrays, gathered into plain lists first (numpy item writes are slow)."""
    n = len(entries)
    ordinals: list[int] = []
    seconds: list[int] = []
    sources: list[Source] = []
    positions: list[float] = []
    lines: list[int] = []
    for entry in entries:
        date, time_of_day = entry.date, entry.time
        ordinals.append(-1 if date is None else date.toordinal())
        seconds.append(0 if time_of_day is None else (
            time_of_day.hour * 3600 + time_of_day.minute * 60 + time_of_day.second
        ))
        sources.append(entry.source)
        positions.append(position_value(entry))
        lines.append(entry.line_start)
    date_ordinal = np.asarray(ordinals, dtype=np.int64).reshape(n)
    dated = date_ordinal >= 0
    ages = np.where(dated, np.maximum(0, settings.today_ordinal - date_ordinal), np.nan)
    when = np.where(dated, date_ordinal * 86400 + np.asarray(seconds, dtype=np.int64), -1)
    priorities = settings.config.source_priority
    priority = np.asarray([priorities.get(source.value, 0) for source in sources],
                          dtype=np.int64).reshape(n)
    source_code = np.asarray([_SOURCE_CODES[source] for source in sources],
                             dtype=np.int64).reshape(n)
    evergreen = np.asarray([source is Source.LONG_TERM for source in sources],
                           dtype=bool).reshape(n) & settings.config.evergreen_long_term
    multiplier = np.ones(n)
    if settings.config.boosts or settings.session_boosts:
        multiplier = np.asarray([product(entry_multipliers(entry, settings))
                                 for entry in entries], dtype=np.float64).reshape(n)
    return StaticFactors(
        ages=ages, evergreen=evergreen,
        recency=recency_values(ages, evergreen, settings.half_life_days),
        source=priority / 100.0, priority=priority,
        position=np.asarray(positions, dtype=np.float64).reshape(n), multiplier=multiplier,
        source_code=source_code, date_ordinal=date_ordinal, when=when,
        line=np.asarray(lines, dtype=np.int64).reshape(n),
    )


def recency_values(ages: FloatArray, evergreen: BoolArray, half_life: float) -> FloatArray:
    decayed = np.power(0.5, ages / half_life)
    return np.where(evergreen, 1.0, np.where(np.isnan(ages), NEUTRAL_RECENCY, decayed))


def concat_statics(old: StaticFactors, new: StaticFactors) -> StaticFactors:
    return StaticFactors(*(
        np.concatenate([getattr(old, name), getattr(new, name)])
        for name in StaticFactors.__slots__
    ))


@dataclass(frozen=True, slots=True)
class TermScores:
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


@dataclass
class RankContext:
    """A scored query: immutable snapshot arrays the lazy explanations read back."""

    query: Query
    settings: Settings
    entries: list[Entry]
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

    def order(self, limit: int | None) -> IntArray:
        """Positions (into `candidates`) of the top `limit` results in rank order."""
        if self.ordered is not None:
            return self.ordered if limit is None else self.ordered[:limit]
        if limit is not None and limit <= 0:
            return np.zeros(0, dtype=np.int64)
        slots = self.candidates
        if not self.browse and limit is not None and limit < len(slots):
            positions = np.flatnonzero(self.scores >= top_threshold(self.scores, limit))
            slots = slots[positions]
        else:
            positions = np.arange(len(slots))
        keys: tuple[Any, ...] = (
            self.statics.line[slots], self.path_rank[self.path_id[slots]],
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
        contributions = self.contributions(slot)[0]
        return tuple((name, contributions[name]) for name in FACTOR_NAMES)

    def contributions(self, slot: int) -> tuple[dict[str, float], float, float]:
        """Per-factor contributions, base and score of a slot (the scalar twin of `score`)."""
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
        contributions, base, score = self.contributions(slot)
        values = self.factor_values(slot)
        weights = self.settings.weights
        factors = tuple(
            Factor(name=name, raw=self._raw(name, slot, entry), value=values[name],
                   weight=weights[name], contribution=contributions[name])
            for name in FACTOR_NAMES
        )
        notes = list(self.query.notes)
        if self.browse:
            notes.append("browse mode: no query terms, entries newest first")
        elif self._candidate_position(slot) is None:
            notes.append("not a result for this query")
        gaps: tuple[tuple[str, float], ...] = ()
        if previous is not None:
            above, above_base, above_score = self.contributions(previous)
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
            return (f"{matched}/{len(self.terms)} terms, raw {self.raw_relevance[at]:.3f} "
                    f"× coverage² {coverage * coverage:.2f} ÷ best {self.best:.3f}")
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
            matches.append(TermMatch(term=scored.term, weight=scored.idf, score=term_score,
                                     matches=_token_matches(scored, slot)))
        return tuple(matches)


def _token_matches(scored: TermScores, slot: int) -> tuple[TokenMatch, ...]:
    if scored.expansion is None:
        counts = scored.phrase_counts.get(slot)
        if counts is None:
            return ()
        phrase = scored.term.strip('"')
        return (TokenMatch(token=phrase, kind=MatchKind.PHRASE, similarity=1.0,
                           heading_count=counts[0], body_count=counts[1]),)
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


class LazyHit(Hit):
    """A Hit whose explanation is built on first access (a keystroke ranks thousands of hits
    but the UI shows one explanation); the numbers come from the same RankContext."""

    __slots__ = ("_source",)
    _source: tuple[RankContext, int, int | None]
    """(context, slot, slot of the hit ranked just above)."""

    def __init__(
        self, rank: int, entry: Entry, score: float,
        source: tuple[RankContext, int, int | None],
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "rank", rank)
        setattr_(self, "entry", entry)
        setattr_(self, "score", score)
        setattr_(self, "_source", source)

    def __getattr__(self, name: str) -> Explanation:
        if name != "explanation":
            raise AttributeError(name)
        context, slot, previous = self._source
        explanation = context.explain(slot, previous)
        object.__setattr__(self, "explanation", explanation)
        return explanation

    @property
    def contributions(self) -> tuple[tuple[str, float], ...]:
        """The stacked-bar numbers straight from the scoring arrays (no explanation built)."""
        context, slot, _ = self._source
        return context.factor_contributions(slot)


class RankedHits(Sequence[Hit]):
    """Hits best first, built only when indexed: a one-letter query over 50k entries orders
    the top HEAD_SIZE eagerly and pays for the full sort only when someone scrolls past it."""

    __slots__ = ("_context", "_hits", "_length", "_order", "_slots")

    def __init__(
        self, context: RankContext, limit: int | None, *, head: int = HEAD_SIZE
    ) -> None:
        total = len(context.candidates)
        self._context = context
        self._length = total if limit is None else max(0, min(limit, total))
        self._order = context.order(min(self._length, head))
        self._slots: list[int] = context.candidates[self._order].tolist()
        self._hits: dict[int, LazyHit] = {}

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Hit: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Hit]: ...

    def __getitem__(self, index: int | slice) -> Hit | Sequence[Hit]:
        if isinstance(index, slice):
            return tuple(self._hit(at) for at in range(*index.indices(self._length)))
        at = operator.index(index)
        if at < 0:
            at += self._length
        if not 0 <= at < self._length:
            raise IndexError("hit index out of range")
        return self._hit(at)

    def __iter__(self) -> Iterator[Hit]:
        for at in range(self._length):
            yield self._hit(at)

    def __repr__(self) -> str:
        return f"RankedHits({self._length} hits)"

    def _hit(self, at: int) -> LazyHit:
        hit = self._hits.get(at)
        if hit is None:
            if at >= len(self._slots):
                context = self._context
                full = self._length == len(context.candidates)
                self._order = context.order(None if full else self._length)
                self._slots = context.candidates[self._order].tolist()
            slot = self._slots[at]
            previous = self._slots[at - 1] if at > 0 else None
            score = float(self._context.scores[self._order[at]])
            hit = LazyHit(at + 1, self._context.entries[slot], score,
                          (self._context, slot, previous))
            self._hits[at] = hit
        return hit


class Ranker:
    """Scores queries over an Index with the current settings; the Engine serialises access."""

    def __init__(self, index: Index, settings: Settings) -> None:
        self.index = index
        self.settings = settings
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
        elif len(self.statics.line) < index.capacity:
            fresh = compute_statics(index.entries[len(self.statics.line):], self.settings)
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
            for slot in self.index.slots_of_path.get(path, ()):
                multiplier[slot] = product(
                    entry_multipliers(self.index.entries[slot], self.settings)
                )
        fields = {name: getattr(self.statics, name) for name in StaticFactors.__slots__}
        fields["multiplier"] = multiplier
        self.statics = StaticFactors(**fields)
        self._revision += 1

    # --- scoring ---------------------------------------------------------------------------

    def rank(self, query: Query) -> RankContext:
        """Score every candidate of `query`; hits are built from the returned context."""
        self.sync()
        index = self.index
        capacity = index.capacity
        filters = self._filter_mask(query)
        terms: list[TermScores] = []
        if not query.has_terms:
            candidates = np.flatnonzero(index.alive if filters is None else filters)
            empty = np.zeros(len(candidates))
            return self._context(query, (), candidates, empty, empty,
                                 np.zeros(len(candidates), dtype=np.int64), 0.0, browse=True)
        documents = index.live_count
        matched_any: BoolArray | None = None
        for term in query.terms:
            scored, matched = self._term_scores(term, query.expands(term))
            matched_any = matched if matched_any is None else matched_any | matched
            terms.append(scored)
        required = filters
        for phrase, phrase_tokens in zip(query.phrases, query.phrase_tokens, strict=True):
            counts = self._phrase_counts(phrase, phrase_tokens)
            phrase_tf = np.zeros(capacity)
            for slot, (heading, body) in counts.items():
                phrase_tf[slot] = HEADING_WEIGHT * heading + body
            matched = phrase_tf > 0
            required = matched if required is None else required & matched
            terms.append(TermScores(f'"{phrase}"', phrase_tf, idf(len(counts), documents),
                                    len(counts), None, counts))
        candidates = np.flatnonzero(_intersect(capacity, matched_any, required))
        count = len(candidates)
        k1_norm = np.take(self._k1_norm(), candidates, out=self._scratch("k1_norm", count))
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
        return self._context(query, tuple(terms), candidates, relevance, raw, matched_terms,
                             best, browse=False)

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
        if index.live_count != index.capacity:
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
            buffer = self._scratch_buffers[name] = np.empty(max(count, self.index.capacity))
        return buffer[:count]

    def _term_part(
        self, scored: TermScores, candidates: IntArray, k1_norm: FloatArray, out: FloatArray
    ) -> FloatArray:
        """idf · saturate(tf) per candidate into `out` (the same operations in the same order
        as `saturate`, so the explanation's scalar arithmetic gives the same bits); the
        candidates' tf is left in the "tf" scratch buffer."""
        tf = np.take(scored.tf, candidates, out=self._scratch("tf", len(candidates)))
        numerator = np.multiply(tf, BM25_K1 + 1.0, out=out)
        denominator = np.add(tf, k1_norm, out=self._scratch("denominator", len(candidates)))
        return np.multiply(np.divide(numerator, denominator, out=out), scored.idf, out=out)

    def _context(
        self, query: Query, terms: tuple[TermScores, ...], candidates: IntArray,
        relevance: FloatArray, raw: FloatArray, matched_terms: IntArray, best: float, *,
        browse: bool,
    ) -> RankContext:
        """Final scores (the vector twin of RankContext.contributions) and the snapshot."""
        statics = self.statics
        count = len(candidates)
        relevance_part = np.multiply(relevance, self.settings.weights["relevance"],
                                     out=self._scratch("relevance_part", count))
        static = np.take(self._static_part(), candidates, out=self._scratch("static", count))
        summed = np.add(relevance_part, static, out=relevance_part)
        if self._has_multipliers():
            base = np.clip(summed, 0.0, 1.0, out=summed)  # combine(), in place
            scores: FloatArray = apply_multiplier(base, statics.multiplier[candidates])
        else:
            scores = clamp01(summed)  # combine(), into a fresh array
        if not browse:
            keep = scores >= self.settings.config.min_score
            if not keep.all():
                kept = np.flatnonzero(keep)  # one mask scan; `take` is cheaper than masking
                candidates, relevance, raw = candidates.take(kept), relevance.take(kept), \
                    raw.take(kept)
                matched_terms, scores = matched_terms.take(kept), scores.take(kept)
        index = self.index
        return RankContext(
            query=query, settings=self.settings, entries=index.entries, statics=statics,
            lengths=index.lengths, average_length=index.average_length, terms=terms,
            candidates=candidates, relevance=relevance, raw_relevance=raw,
            matched_terms=matched_terms, best=best, scores=scores, browse=browse,
            path_id=index.path_id, path_rank=index.path_rank,
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
            values = {"source": statics.source, "recency": statics.recency,
                      "position": statics.position}
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
        key = (query.sources, query.path_globs, query.tag_globs, query.after, query.before,
               query.excluded_terms, query.excluded_phrases)
        cached = self._filter_cache.get(key)
        if cached is not None:
            return cached
        index, statics = self.index, self.statics
        mask = index.alive.copy()
        if query.sources:
            codes = [_SOURCE_CODES[source] for source in query.sources]
            mask &= np.isin(statics.source_code, codes)
        if query.after is not None:
            mask &= statics.date_ordinal >= query.after.toordinal()
        if query.before is not None:
            mask &= (statics.date_ordinal >= 0) & (statics.date_ordinal < query.before.toordinal())
        if query.path_globs:
            mask &= self._slots_where(lambda e: _path_matches(e, query.path_globs))
        if query.tag_globs:
            mask &= self._slots_where(lambda e: any(
                fnmatchcase(tag.casefold(), glob) for tag in e.tags for glob in query.tag_globs
            ))
        for term in query.excluded_terms:
            mask[self.index.expand(term, prefix=False).docs] = False
        for phrase in query.excluded_phrases:
            excluded = self._phrase_counts(phrase, tuple(tokens(phrase, query=True)))
            mask[list(excluded)] = False
        self._filter_cache[key] = mask
        return mask

    def _slots_where(self, predicate: Callable[[Entry], bool]) -> BoolArray:
        mask = np.zeros(self.index.capacity, dtype=bool)
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
                if word not in found and self.index.document_frequency(word) > 0:
                    found.append(word)
                    break
        return tuple(found)


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


def _intersect(capacity: int, *masks: BoolArray | None) -> BoolArray:
    present = [mask for mask in masks if mask is not None]
    if not present:
        return np.ones(capacity, dtype=bool)
    result = present[0]
    for mask in present[1:]:
        result = result & mask
    return result


def _path_matches(entry: Entry, globs: tuple[str, ...]) -> bool:
    targets = [entry.path.casefold(), entry.file_name.casefold()]
    if entry.role:
        targets.append(entry.role.casefold())
    return any(fnmatchcase(target, glob) for glob in globs for target in targets)


def build_result(
    context: RankContext, limit: int | None, elapsed_ms: float, *,
    unmatched: tuple[str, ...], suggestions: tuple[str, ...], hidden_by_window: int,
) -> RankResult:
    return RankResult(
        query=context.query.text, hits=RankedHits(context, limit),
        total_matches=len(context.candidates), elapsed_ms=elapsed_ms, unmatched_terms=unmatched,
        suggestions=suggestions, hidden_by_window=hidden_by_window, notes=context.query.notes,
    )


def make_settings(
    config: Config, *, today_ordinal: int, weights: Mapping[str, float] | None = None,
    half_life_days: float | None = None, session_boosts: Mapping[str, float] | None = None,
) -> tuple[Settings, str | None]:
    """Settings with weights normalised to sum to 1 (returns the normalisation note if any)."""
    merged = dict(config.weights)
    if weights:
        merged.update(weights)
    for name in FACTOR_NAMES:
        merged.setdefault(name, 0.0)
    normalised, note = normalise_weights({name: merged[name] for name in FACTOR_NAMES})
    return Settings(
        config=config, weights=normalised,
        half_life_days=config.half_life_days if half_life_days is None else half_life_days,
        session_boosts=dict(session_boosts or {}), today_ordinal=today_ordinal,
    ), note


def elapsed_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0
