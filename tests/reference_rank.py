"""A slow, obviously-correct reference of ranking, as docs/ranking.md documents it.

Nothing of the score's arithmetic is imported from production: every formula (idf, the BM25
saturation and length norm, the weights' normalisation, the clamp and the multipliers) is
written again below from docs/ranking.md ("The arithmetic, exactly"), so a changed formula in
`memtui.core.search.scoring` makes the fast path disagree with this reference
(tests/test_rank_properties.py) and with its own unit tests (tests/test_scoring_formulas.py).

Re-implemented here as plain loops over entries and their tokens (no index, no numpy, no
caches), from the documented rules and their literal constants: which text is heading, body
and context, which words a term matches and their credit (exact 1, prefix 0.6 + 0.4 · len(t) /
len(w), variant 0.7, typo 0.8 · OSA similarity), heading occurrences counting twice, the
per-term tf and document frequency, coverage², normalisation by the best result, the recency,
source and position values, the boosts and the min_score cut. The property test checks that
the fast indexed path computes the same scores and the same result set.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from fnmatch import fnmatchcase

from rapidfuzz.distance import OSA

from memtui.core.model import Entry, Source
from memtui.core.search.tokenize import is_cjk, tokens
from memtui.core.settings.config import Config

K1 = 1.2
B = 0.5


def idf(document_frequency: int, documents: int) -> float:
    """ln(1 + (N − df + 0.5) / (df + 0.5)): positive, and larger for rarer terms."""
    return math.log(1 + (documents - document_frequency + 0.5) / (document_frequency + 0.5))


def k1_length_norm(length: float, average_length: float) -> float:
    """k1 · (1 − b + b · length / average length)."""
    return K1 * (1 - B + B * length / average_length)


def saturate(tf: float, k1_norm: float) -> float:
    """tf · (k1 + 1) / (tf + k1 · length norm)."""
    return tf * (K1 + 1) / (tf + k1_norm)


def combine(weighted_relevance: float, static: float) -> float:
    """base = clamp01(weight · relevance + the static factors' weighted sum)."""
    return min(1.0, max(0.0, weighted_relevance + static))


def apply_multiplier(base: float, multiplier: float) -> float:
    """score = base × the product of the multipliers (never capped)."""
    return base * multiplier


def normalise_weights(weights: dict[str, float]) -> dict[str, float]:
    """Weights scaled to sum to 1."""
    total = sum(weights.values())
    return {name: value / total for name, value in weights.items()}


SUFFIXES = (
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


def make_entry(
    path: str,
    title: str,
    body: str,
    *,
    source: Source = Source.NOTE,
    date: dt.date | None = None,
    position: int = 0,
    count: int = 1,
    line: int = 1,
    tags: tuple[str, ...] = (),
    time: dt.time | None = None,
    parents: tuple[str, ...] = (),
) -> Entry:
    return Entry(
        id=f"{path}#{position}",
        path=path,
        source=source,
        title=title,
        heading_path=(*parents, title),
        body=body,
        line_start=line,
        line_end=line + 3,
        date=date,
        time=time,
        position=position,
        count=count,
        tags=tags,
    )


def echoes(text: str, entry: Entry) -> bool:
    core = text.rstrip("…").strip()
    return core != "" and core in entry.body[: len(core) + 200]


def heading_of(entry: Entry) -> str:
    parts = [] if echoes(entry.title, entry) else [entry.title]
    parts += list(entry.tags)
    for key in ("name", "title", "description", "summary"):
        value = entry.meta(key)
        if value:
            parts.append(value)
    return "\n".join(dict.fromkeys(p for p in parts if p))


def context_of(entry: Entry) -> str:
    parents = [p for p in entry.heading_path if p != entry.title and not echoes(p, entry)]
    return "\n".join(dict.fromkeys(parents))


def file_words(entry: Entry) -> list[str]:
    """The file name's words, once each, camelCase split and whole."""
    stem = entry.file_name.rsplit(".", 1)[0]
    spaced = "".join(
        f" {char}"
        if char.isupper() and i and (stem[i - 1].islower() or stem[i - 1].isdigit())
        else char
        for i, char in enumerate(stem)
    )
    return list(dict.fromkeys(tokens(spaced) + tokens(stem)))


def stem_of(term: str) -> str | None:
    for suffix in SUFFIXES:
        if term.endswith(suffix) and len(term) - len(suffix) >= 4:
            return term[: -len(suffix)]
    return None


def credits_for(term: str, prefix: bool, vocabulary: set[str]) -> dict[str, float]:
    """word -> credit, by the documented rules."""
    if is_cjk(term) or not prefix:
        return {term: 1.0} if term in vocabulary else {}
    found: dict[str, float] = {}
    stem = stem_of(term)
    for word in vocabulary:
        if word.startswith(term):
            found[word] = 0.6 + 0.4 * len(term) / len(word)
        elif stem is not None and word.startswith(stem):
            found[word] = 0.7
    if found or len(term) < 4:
        return found
    spread = 1 if len(term) <= 5 else 2
    similar = []
    for word in vocabulary:
        if word == term or is_cjk(word) or word[0] not in term[:2]:
            continue
        if abs(len(word) - len(term)) > spread:
            continue
        similarity = OSA.normalized_similarity(term, word)
        if similarity >= 0.75:
            similar.append((-similarity, word))
    return {word: 0.8 * -negative for negative, word in sorted(similar)[:8]}


def reference_scores(
    entries: list[Entry],
    terms: list[str],
    prefix_flags: list[bool],
    config: Config,
    today: dt.date,
) -> dict[str, float]:
    """entry id -> score for every result of a plain-terms query (no filters, no phrases)."""
    weights = normalise_weights(dict(config.weights))
    heading_counts = {e.id: Counter(tokens(heading_of(e))) for e in entries}
    body_counts = {
        e.id: Counter(tokens(e.body) + tokens(context_of(e)) + file_words(e)) for e in entries
    }
    lengths = {
        e.id: sum(heading_counts[e.id].values()) + sum(body_counts[e.id].values()) for e in entries
    }
    average = sum(lengths.values()) / len(entries)
    vocabulary = {w for e in entries for w in heading_counts[e.id] | body_counts[e.id]}
    n = len(entries)

    tf: dict[str, dict[str, float]] = {}
    weight: dict[str, float] = {}
    for term, prefix in zip(terms, prefix_flags, strict=True):
        credits = credits_for(term, prefix, vocabulary)
        per_entry = {}
        for e in entries:
            total = 0.0
            for word, credit in sorted(credits.items()):
                h, b = heading_counts[e.id][word], body_counts[e.id][word]
                if h or b:
                    total += credit * (2 * h + b)
            per_entry[e.id] = total
        tf[term] = per_entry
        df = sum(1 for value in per_entry.values() if value > 0)
        weight[term] = idf(df, n)

    weighted = {}
    for e in entries:
        matched = [t for t in terms if tf[t][e.id] > 0]
        if not matched:
            continue
        k1_norm = k1_length_norm(lengths[e.id], average)
        raw = sum(weight[t] * saturate(tf[t][e.id], k1_norm) for t in matched)
        coverage = len(matched) / len(terms)
        weighted[e.id] = raw * coverage * coverage
    best = max(weighted.values(), default=0.0)
    scores = {}
    for e in entries:
        if e.id not in weighted:
            continue
        relevance = weighted[e.id] / best
        static = (
            weights["source"] * source_value(e, config)
            + weights["recency"] * recency_value(e, config, today)
            + weights["position"] * position_value(e)
        )
        base = combine(weights["relevance"] * relevance, static)
        multiplier = 1.0
        for boost in config.boosts:
            if fnmatchcase(e.path, boost.pattern):
                multiplier *= boost.factor
        score = apply_multiplier(base, multiplier)
        if score >= config.min_score:
            scores[e.id] = score
    return scores


def source_value(entry: Entry, config: Config) -> float:
    return config.source_priority[entry.source.value] / 100


def recency_value(entry: Entry, config: Config, today: dt.date) -> float:
    if entry.source is Source.LONG_TERM and config.evergreen_long_term:
        return 1.0
    if entry.date is None:
        return 0.5
    age = max(0, (today - entry.date).days)
    return float(0.5 ** (age / config.half_life_days))


def position_value(entry: Entry) -> float:
    if entry.count <= 1:
        return 1.0
    r = entry.count - 1 - entry.position if entry.source is Source.DAILY else entry.position
    return 1 - 0.5 * r / (entry.count - 1)
