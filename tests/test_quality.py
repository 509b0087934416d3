"""Ranking quality cannot silently drop: a floor under nDCG@10 on the judged query sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtui.bench.quality import JudgedQuery, judge, mean_ndcg
from memtui.core.settings.config import Config

JUDGED = Path(__file__).resolve().parent / "judged"
NDCG_FLOOR = 0.92
"""The defaults measure 0.932 over 43 queries; a change that costs more than ~1.5 points fails."""
QUERY_FLOOR = 0.5
"""No single judged query may collapse (the worst measures 0.63)."""


@pytest.fixture(scope="module")
def outcomes() -> list[JudgedQuery]:
    return judge(JUDGED, Config())


def test_every_judgment_names_a_loaded_entry(outcomes: list[JudgedQuery]) -> None:
    stale = {outcome.query: outcome.missing for outcome in outcomes if outcome.missing}
    assert not stale


def test_mean_ndcg_stays_above_the_floor(outcomes: list[JudgedQuery]) -> None:
    assert len(outcomes) >= 40
    assert mean_ndcg(outcomes) >= NDCG_FLOOR


def test_no_judged_query_collapses(outcomes: list[JudgedQuery]) -> None:
    worst = min(outcomes, key=lambda outcome: outcome.ndcg)
    assert worst.ndcg >= QUERY_FLOOR, (worst.query, worst.ranked)
