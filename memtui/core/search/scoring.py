"""The arithmetic of a score: every formula, for a float or a numpy array alike.

score = clamp01(Σ weight_f · factor_f) × Π multipliers (docs/ranking.md, "How ranking works",
documents the same formula for users). The base is in [0, 1]; the score is not clamped, so a
boosted entry can score above 1 and boosted entries keep the order of their real scores instead
of tying at a cap.

- relevance: per query term t, the entry's credited term frequency
  tf_t = Σ over matched words w of credit(t, w) · (HEADING_WEIGHT · heading count + body count),
  where credit is 1 for the exact word, PREFIX_BASE_CREDIT + (1 − PREFIX_BASE_CREDIT) ·
  len(t)/len(w) for a prefix completion, VARIANT_CREDIT for a word variant
  (deployment -> deploy*), FUZZY_CREDIT_SCALE · OSA similarity for a typo. Each term adds
  idf_t · `saturate`(tf_t) (BM25, k1 = 1.2, length normalisation b = 0.5); idf_t counts the
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

The ranker applies these to whole arrays and the explanation to single floats; both call the
same functions in the same order, so `Explanation.score == Hit.score` exactly.
`tests/reference_rank.py` reuses these functions in its plain-loop reference.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from memtui.core.search.arrays import BoolArray, FloatArray
from memtui.core.settings.config import FACTOR_NAMES

BM25_K1 = 1.2
BM25_B = 0.5
HEADING_WEIGHT = 2.0
"""A heading occurrence counts as this many body occurrences."""
PREFIX_BASE_CREDIT = 0.6
"""Prefix credit = base + (1 - base) · len(term) / len(word): closer completions earn more."""
VARIANT_CREDIT = 0.7
"""Credit of a word variant (the term minus a common suffix, e.g. deployment -> deploy*)."""
FUZZY_CREDIT_SCALE = 0.8
"""Fuzzy credit = scale · OSA similarity, so a typo match stays below a real one."""
NEUTRAL_RECENCY = 0.5
"""Recency of an undated entry."""
POSITION_FLOOR = 0.5
"""Position value of the entry farthest from the favoured end of its file."""
STATIC_FACTORS = tuple(name for name in FACTOR_NAMES if name != "relevance")
"""The query-independent factors, in FACTOR_NAMES order."""


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
    """Rarity weight of a term that `document_frequency` of `documents` entries match."""
    return math.log(1.0 + (documents - document_frequency + 0.5) / (document_frequency + 0.5))


def recency_values(ages: FloatArray, evergreen: BoolArray, half_life: float) -> FloatArray:
    """Half-life decay of the age in days; 1 when evergreen, neutral when undated (NaN age)."""
    decayed = np.power(0.5, ages / half_life)
    return np.where(evergreen, 1.0, np.where(np.isnan(ages), NEUTRAL_RECENCY, decayed))


def position_score(r: int, n: int) -> float:
    """Position value of the entry `r` steps from the favoured end of a file of `n` entries."""
    if n <= 1:
        return 1.0
    return 1.0 - (1.0 - POSITION_FLOOR) * r / (n - 1)


def static_part(weights: Mapping[str, float], values: Mapping[str, Any]) -> Any:
    """Σ weight · value over the query-independent factors (precomputed per slot)."""
    total: Any = 0.0
    for name in STATIC_FACTORS:
        total = total + weights[name] * values[name]
    return total


def combine(weighted_relevance: Any, static: Any) -> Any:
    """base = clamp01(weight · relevance + static part), for floats or arrays alike."""
    return clamp01(weighted_relevance + static)


def apply_multiplier(base: Any, multiplier: Any) -> Any:
    """score = base × the product of the multipliers that fired (never capped)."""
    return base * multiplier
