"""The score's formulas, pinned: known values worked out by hand, and the reference's own copies.

`tests/reference_rank.py` writes every formula again from docs/ranking.md; these tests compare
production with it directly, for floats and for numpy arrays (the ranker's path), so a changed
formula fails here in a second instead of only in a screenshot.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import reference_rank as reference
from hypothesis import given
from hypothesis import strategies as st

from memtui.core.search import scoring
from memtui.core.settings.config import normalise_weights

LENGTHS = st.floats(min_value=0.0, max_value=10_000.0)
AVERAGES = st.floats(min_value=0.5, max_value=10_000.0)
TFS = st.floats(min_value=0.0, max_value=1_000.0)
UNIT = st.floats(min_value=-2.0, max_value=3.0)


@pytest.mark.parametrize(
    ("document_frequency", "documents", "expected"),
    [
        (5, 10, math.log(2)),  # half the entries: 1 + 5.5 / 5.5
        (1, 1, math.log(4 / 3)),  # every entry: 1 + 0.5 / 1.5
        (1, 10, math.log(22 / 3)),  # 1 + 9.5 / 1.5
        (10, 10, math.log(22 / 21)),  # 1 + 0.5 / 10.5: common words still weigh a little
        (0, 3, math.log(8)),  # 1 + 3.5 / 0.5
    ],
)
def test_idf_known_values(document_frequency: int, documents: int, expected: float) -> None:
    assert scoring.idf(document_frequency, documents) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("length", "expected"),
    [(100.0, 1.2), (0.0, 0.6), (200.0, 1.8)],  # k1 · (1 − b + b · length / 100)
)
def test_length_norm_known_values(length: float, expected: float) -> None:
    assert scoring.k1_length_norm(length, 100.0) == pytest.approx(expected, rel=1e-12)


def test_saturation_known_values() -> None:
    assert scoring.saturate(0.0, 1.2) == 0.0
    assert scoring.saturate(1.2, 1.2) == pytest.approx(1.1, rel=1e-12)  # 1.2 · 2.2 / 2.4
    assert scoring.saturate(1e12, 1.2) == pytest.approx(2.2, rel=1e-9)  # bounded by k1 + 1


@given(st.integers(min_value=1, max_value=100_000), st.data())
def test_idf_agrees_with_the_reference_and_favours_rare_terms(
    documents: int, data: st.DataObject
) -> None:
    rare = data.draw(st.integers(min_value=0, max_value=documents - 1))
    common = data.draw(st.integers(min_value=rare + 1, max_value=documents))
    for frequency in (rare, common):
        assert scoring.idf(frequency, documents) == pytest.approx(
            reference.idf(frequency, documents), rel=1e-12
        )
    assert scoring.idf(rare, documents) > scoring.idf(common, documents) > 0


@given(LENGTHS, AVERAGES, TFS)
def test_bm25_terms_agree_with_the_reference_for_floats_and_arrays(
    length: float, average: float, tf: float
) -> None:
    norm = scoring.k1_length_norm(length, average)
    assert norm == pytest.approx(reference.k1_length_norm(length, average), rel=1e-12)
    assert scoring.saturate(tf, norm) == pytest.approx(reference.saturate(tf, norm), rel=1e-12)
    lengths = np.array([length, average], dtype=np.float64)
    norms = scoring.k1_length_norm(lengths, average)
    assert norms[0] == pytest.approx(norm, rel=1e-12)
    saturated = scoring.saturate(np.array([tf, tf]), norms)
    assert saturated[0] == pytest.approx(reference.saturate(tf, norm), rel=1e-12)


@given(UNIT, UNIT, st.floats(min_value=0.0, max_value=10.0))
def test_base_and_multipliers_agree_with_the_reference(
    relevance: float, static: float, multiplier: float
) -> None:
    base = scoring.combine(relevance, static)
    assert base == reference.combine(relevance, static)
    assert scoring.combine(np.array([relevance]), np.array([static]))[0] == base
    assert scoring.apply_multiplier(base, multiplier) == reference.apply_multiplier(
        base, multiplier
    )


@given(
    st.dictionaries(
        st.sampled_from(["relevance", "source", "recency", "position"]),
        st.floats(min_value=0.0, max_value=5.0),
        min_size=1,
    ).filter(lambda weights: sum(weights.values()) > 0)
)
def test_weights_normalise_as_the_reference_does(weights: dict[str, float]) -> None:
    normalised, _ = normalise_weights(weights)
    expected = reference.normalise_weights(weights)
    assert normalised == pytest.approx(expected, rel=1e-9)
