"""Query history: stored once each, newest last, capped, never under a root, never a crash."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from memtui.core.settings.history import (
    MAX_QUERIES,
    HistoryCursor,
    default_history_path,
    read_history,
    remembered,
    write_history,
)


def test_a_query_is_stored_once_and_moves_to_the_end() -> None:
    history = remembered(remembered(remembered([], "deploy"), "stripe"), "  deploy  ")
    assert history == ["stripe", "deploy"]
    assert remembered(history, "   ") == history


@given(st.lists(st.text(max_size=30), max_size=40))
def test_history_is_capped_flat_and_unique(queries: list[str]) -> None:
    history: list[str] = []
    for query in queries:
        history = remembered(history, query)
    assert len(history) == len(set(history)) <= MAX_QUERIES
    assert all(item.strip() and "\n" not in item for item in history)


def test_round_trip_and_default_place(tmp_path: Path, isolated_environment: Path) -> None:
    path = tmp_path / "state" / "history"
    assert read_history(path) == []
    assert write_history(path, ["a b", "c"])
    assert read_history(path) == ["a b", "c"]
    assert default_history_path().is_relative_to(isolated_environment / "state")


def test_never_written_under_a_root(tmp_path: Path) -> None:
    assert not write_history(tmp_path / "root" / "history", ["x"], roots=[tmp_path / "root"])
    assert not (tmp_path / "root").exists()


def test_an_unwritable_place_is_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert not write_history(tmp_path / "file" / "history", ["x"])


def test_the_cursor_walks_back_and_forward() -> None:
    cursor = HistoryCursor(["one", "two", "three"])
    assert cursor.newer() is None
    assert [cursor.older(), cursor.older(), cursor.older(), cursor.older()] == [
        "three",
        "two",
        "one",
        "one",
    ]
    assert [cursor.newer(), cursor.newer(), cursor.newer()] == ["two", "three", ""]
    assert cursor.position is None
    assert HistoryCursor([]).older() is None
