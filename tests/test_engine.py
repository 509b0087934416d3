"""Engine on real folders: load, per-file updates equal a fresh load, window, boosts, weights."""

from __future__ import annotations

import datetime as dt
import math
import threading
from pathlib import Path

import pytest

from memtui.core.live import engine as engine_module
from memtui.core.live.engine import Engine
from memtui.core.model import RankResult
from memtui.core.search import index as index_module
from memtui.core.search.hits import RankContext
from memtui.core.search.query import Query, QueryError
from memtui.core.settings.config import Config

QUERIES = [
    "deploy",
    "depl",
    "login test",
    "invoice",
    "deploymnet",
    "ci",
    "source:daily deploy",
    "fixed -login",
    '"flaky login"',
    "数据",
    "after:2026-11-01",
    "",
]


def loaded(root: Path, today: dt.date, days: int = 0) -> Engine:
    engine = Engine(root, Config(), today=today, days=days)
    engine.load()
    return engine


def same_results(left: RankResult, right: RankResult) -> None:
    assert left.total_matches == right.total_matches
    left_scores = {hit.entry.id: hit.score for hit in left.hits}
    right_scores = {hit.entry.id: hit.score for hit in right.hits}
    assert left_scores.keys() == right_scores.keys()
    for entry_id, score in left_scores.items():
        assert math.isclose(score, right_scores[entry_id], rel_tol=1e-9), entry_id


def test_load_and_search(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today)
    assert len(engine) > 10
    assert engine.vocabulary_size > 50
    result = engine.search("deploy", limit=3)
    assert 0 < len(result.hits) <= 3 <= result.total_matches
    assert all("deploy" in (h.entry.title + h.entry.body).casefold() for h in result.hits)
    assert [h.rank for h in result.hits] == [1, 2, 3]


def test_per_file_updates_equal_a_fresh_load(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today)
    daily = memory_root / "memory/2026-11-20.md"
    daily.write_text(daily.read_text() + "\n## 22:00 — Deploy again\n\nDeployment of v2.2.\n")
    (memory_root / "notes/loose.md").unlink()
    (memory_root / "notes/new.md").write_text("# New\n\n## Invoice deploy\n\nInvoice run.\n")
    changes = engine.apply_changes(
        [daily, memory_root / "notes/loose.md", memory_root / "notes/new.md"]
    )
    assert set(changes.paths) == {"memory/2026-11-20.md", "notes/loose.md", "notes/new.md"}
    fresh = loaded(memory_root, today)
    assert len(engine) == len(fresh)
    for query in QUERIES:
        same_results(engine.search(query), fresh.search(query))


def test_compaction_keeps_results(
    memory_root: Path, today: dt.date, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_module, "COMPACT_MIN_DEAD", 0)
    engine = loaded(memory_root, today)
    target = memory_root / "MEMORY.md"
    for round_number in range(3):
        target.write_text(target.read_text() + f"\n## Round {round_number}\n\nDeploy note.\n")
        engine.apply_changes([target])
    fresh = loaded(memory_root, today)
    for query in QUERIES:
        same_results(engine.search(query), fresh.search(query))


def test_window_change_reindexes(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today, days=30)
    before = engine.search("invoice").total_matches
    engine.set_window(0)
    assert engine.search("invoice").total_matches > before
    same_results(engine.search("invoice"), loaded(memory_root, today).search("invoice"))


def test_hidden_by_window_is_reported(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today, days=30)
    assert engine.search("zzzqqq").hidden_by_window > 0


def test_session_boost_is_an_explained_multiplier(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today)
    before = engine.search("deploy")
    last = before.hits[-1]
    engine.set_session_boost(last.entry.path, 3.0)
    assert engine.session_boosts == {last.entry.path: 3.0}
    explanation = engine.explain(last.entry.id, "deploy")
    assert explanation is not None
    assert [m.name for m in explanation.multipliers] == ["session"]
    assert explanation.score == pytest.approx(explanation.base * 3.0)
    engine.set_session_boost(last.entry.path, None)
    assert engine.session_boosts == {}
    cleared = engine.explain(last.entry.id, "deploy")
    assert cleared is not None and cleared.multipliers == ()


def test_changed_weights_are_state_not_warnings(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today)
    assert not engine.weights_custom
    for _ in range(5):
        engine.set_weights({"relevance": 2.0, "source": 0.0, "recency": 0.0, "position": 0.0})
    assert engine.weights["relevance"] == pytest.approx(1.0)
    assert engine.weights_custom and engine.warnings == []
    hit = engine.search("deploy").hits[0]
    assert hit.explanation.factors[0].weight == pytest.approx(1.0)
    engine.set_weights(dict(engine.config.weights), engine.config.half_life_days)
    assert not engine.weights_custom
    engine.set_weights(None, 7.0)
    assert engine.weights_custom and engine.half_life_days == 7.0


def test_half_life_change_updates_recency(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today)
    daily = next(h for h in engine.search("invoice").hits if h.entry.date is not None)
    before = next(f for f in daily.explanation.factors if f.name == "recency").value
    engine.set_weights(half_life_days=365.0)
    after_hit = next(h for h in engine.search("invoice").hits if h.entry.id == daily.entry.id)
    after = next(f for f in after_hit.explanation.factors if f.name == "recency").value
    assert after > before


def test_explain_unknown_and_unmatched(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today)
    assert engine.explain("no-such-id", "deploy") is None
    unmatched = next(
        e
        for e in (engine.entry(h.entry.id) for h in engine.search("").hits)
        if e is not None and "deploy" not in (e.title + e.body).casefold()
    )
    explanation = engine.explain(unmatched.id, "deploy")
    assert explanation is not None
    assert "not a result for this query" in explanation.notes


def test_browse_mode_is_newest_first(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today)
    result = engine.search("")
    assert result.total_matches == len(engine)
    dated = [h.entry.when for h in result.hits if h.entry.when is not None]
    assert dated == sorted(dated, reverse=True)
    assert "browse mode" in result.hits[0].explanation.notes[-1]


def test_invalid_query_raises(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today)
    with pytest.raises(QueryError):
        engine.search("after:2026-02-30")


def test_concurrent_searches_and_updates(memory_root: Path, today: dt.date) -> None:
    engine = loaded(memory_root, today)
    target = memory_root / "memory/2026-11-20.md"
    failures: list[BaseException] = []

    def search_loop() -> None:
        try:
            for query in QUERIES * 5:
                for hit in engine.search(query, limit=5).hits:
                    assert hit.explanation.score == hit.score
        except BaseException as exc:  # reported to the main thread
            failures.append(exc)

    threads = [threading.Thread(target=search_loop) for _ in range(2)]
    for thread in threads:
        thread.start()
    for round_number in range(5):
        target.write_text(target.read_text() + f"\n## Extra {round_number}\n\nDeploy.\n")
        engine.apply_changes([target])
    for thread in threads:
        thread.join()
    assert failures == []


def test_two_phase_load_browses_before_the_index(memory_root: Path, today: dt.date) -> None:
    """load_store() alone answers browse queries; a query with words builds the index first."""
    full = loaded(memory_root, today)
    engine = Engine(memory_root, Config(), today=today, days=0)
    engine.load_store()
    assert not engine.index_ready
    for query in ("", "source:daily", "after:2026-11-01"):
        browsed, expected = engine.search(query), full.search(query)
        assert [h.entry.id for h in browsed.hits] == [h.entry.id for h in expected.hits]
    assert not engine.index_ready
    for query in QUERIES:
        same_results(engine.search(query), full.search(query))
    assert engine.index_ready
    engine.build_index()
    assert engine.vocabulary_size == full.vocabulary_size


def test_changes_between_the_two_phases(memory_root: Path, today: dt.date) -> None:
    """A file changed after load_store() and before build_index() is indexed like a fresh load."""
    engine = Engine(memory_root, Config(), today=today, days=0)
    engine.load_store()
    daily = memory_root / "memory/2026-11-20.md"
    daily.write_text(daily.read_text() + "\n## 23:00 — Rollback\n\nDeploy rolled back.\n")
    engine.apply_changes([daily])
    engine.build_index()
    fresh = loaded(memory_root, today)
    assert len(engine) == len(fresh)
    for query in QUERIES:
        same_results(engine.search(query), fresh.search(query))


@pytest.mark.parametrize(
    ("budget", "rescored"), [(engine_module.CONTEXT_CACHE_BYTES, False), (0, True)]
)
def test_recent_queries_stay_scored_within_a_memory_budget(
    memory_root: Path,
    today: dt.date,
    monkeypatch: pytest.MonkeyPatch,
    budget: int,
    rescored: bool,
) -> None:
    """A backspace and `explain` after `search` reuse the scored query; past the byte budget
    older queries are dropped, never the newest."""
    monkeypatch.setattr(engine_module, "CONTEXT_CACHE_BYTES", budget)
    engine = loaded(memory_root, today)
    ranked: list[str] = []
    rank = engine._ranker.rank

    def counted(query: Query) -> RankContext:
        ranked.append(query.text)
        return rank(query)

    monkeypatch.setattr(engine._ranker, "rank", counted)
    first = engine.search("deploy", limit=5).hits[0]
    assert engine.explain(first.entry.id, "deploy") == first.explanation
    engine.search("ci", limit=5)
    engine.search("deploy", limit=5)
    assert ranked == (["deploy", "ci", "deploy"] if rescored else ["deploy", "ci"])
