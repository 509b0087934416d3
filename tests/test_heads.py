"""`memtui list` lists entry heads made from the cache's columns: they say exactly what the
entries say (all but the text), however the entries were loaded."""

from __future__ import annotations

from pathlib import Path

import pytest
from cache_helpers import cached_engine
from hypothesis import given
from hypothesis import strategies as st

from memtui.core.cache.compact_columns import HeadingPaths
from memtui.core.cache.entry_table import TableView
from memtui.core.live.engine import Engine
from memtui.core.live.heads import loaded_heads
from memtui.core.model import EntryHead


def heads_of_entries(engine: Engine) -> list[EntryHead]:
    return sorted(map(EntryHead.of, engine.loaded_entries()), key=lambda head: head.id)


def listed(engine: Engine) -> list[EntryHead]:
    return sorted(loaded_heads(engine.stores), key=lambda head: head.id)


@pytest.mark.parametrize("days", [0, 30])
def test_heads_say_what_the_entries_say_cold_and_warm(memory_root: Path, days: int) -> None:
    cold = cached_engine(memory_root, days=days)
    assert listed(cold) == heads_of_entries(cold) != []
    cold.save_cache()
    warm = cached_engine(memory_root, days=days)
    files = warm.stores[0].loaded_files().values()
    assert any(isinstance(entries, TableView) for entries in files)  # from the columns
    assert listed(warm) == heads_of_entries(warm)


def test_heads_of_several_roots_and_of_a_file_changed_since_the_cache(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for root, word in ((first, "alpha"), (second, "beta")):
        (root / "memory").mkdir(parents=True)
        (root / "MEMORY.md").write_text(f"# Long\n\n## {word} one\n{word}\n\n## Two\nmore\n")
        (root / "memory" / "2026-11-20.md").write_text(f"## Daily {word}\n{word} today\n")
    cached_engine(first, second).save_cache()
    (second / "MEMORY.md").write_text("# Long\n\n## Changed\nafter the cache was written\n")
    warm = cached_engine(first, second)
    heads = listed(warm)
    assert heads == heads_of_entries(warm)
    assert {head.root for head in heads} == {"first", "second"}
    assert "Changed" in {head.title for head in heads}


@given(st.lists(st.lists(st.sampled_from(["A", "B", "C", "日本"]), max_size=4), max_size=12))
def test_heading_paths_of_a_run_of_rows_are_each_row_s(paths: list[list[str]]) -> None:
    headings = HeadingPaths.of(tuple(path) for path in paths)
    for start in range(len(paths) + 1):
        rows = range(start, len(paths))
        assert headings.paths(rows) == [headings.path(row) for row in rows]
