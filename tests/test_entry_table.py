"""A warm start keeps the cache's entries as columns and makes an `Entry` only when one is looked
at: the entries made are exactly the ones parsing gives, the columns the index and the static
factors read agree with those entries field for field, and a query makes only the hits shown."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import cast

import msgspec
import numpy as np
import pytest
from cache_helpers import TODAY, assert_same_engine, cached_engine, fresh_engine

from memtui.bench.corpus import write_corpus
from memtui.core.cache.compact_columns import SPARSE_SHARE, SparseColumn, compact_column
from memtui.core.cache.entry_table import TableView
from memtui.core.cache.folder import CacheFolder
from memtui.core.live.engine import Engine
from memtui.core.model import Entry
from memtui.core.search.facets import facets_of
from memtui.core.search.slots import (
    COLUMNS_FROM,
    EntryRows,
    SlotEntries,
    ids_and_chars,
    joined_rows,
)
from memtui.core.search.statics import StaticFactors, compute_statics, make_settings
from memtui.core.settings.config import Boost, Config


def warm_engine(*folders: Path, config: Config | None = None) -> Engine:
    """An engine started from a cache written by an earlier one (so nothing is read again)."""
    cached_engine(*folders).save_cache()
    return reopened(*folders, config=config)


def reopened(*folders: Path, config: Config | None = None) -> Engine:
    """An engine started from the cache as it is."""
    engine = Engine(
        folders[0] if len(folders) == 1 else cached_engine(*folders).roots,
        config or Config(),
        today=TODAY,
        days=0,
        cache=CacheFolder(),
    )
    engine.load()
    return engine


def rows_of(engine: Engine) -> EntryRows:
    base = engine._index.entries.base
    assert isinstance(base, EntryRows), "the warm start did not keep the cached columns"
    return base


def table_of(engine: Engine) -> TableView:
    base = rows_of(engine)
    assert isinstance(base, TableView)
    return base


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    write_corpus(tmp_path / "corpus", 600, today=TODAY)
    return tmp_path / "corpus"


def test_a_warm_query_makes_only_the_entries_it_shows(corpus: Path, made: list[int]) -> None:
    warm_engine(corpus)
    made.clear()  # what writing the cache made
    engine = reopened(corpus)
    assert made == [], "loading made entries"
    result = engine.search("more", limit=5)
    shown = [hit.entry for hit in result.hits[:5]]
    assert result.total_matches > 5 and len(shown) == 5
    assert len(made) == len(shown)


def test_the_next_query_reuses_the_entries_still_shown(corpus: Path, made: list[int]) -> None:
    """Typing the next letter mostly shows the same entries: those the list still holds are
    handed back, not read again; an entry nobody holds is not kept by the table."""
    warm_engine(corpus)
    engine = reopened(corpus)
    shown = [hit.entry for hit in engine.search("more", limit=10).hits[:10]]
    made.clear()
    again = [hit.entry for hit in engine.search("more", limit=10).hits[:10]]
    assert made == [] and all(new is old for new, old in zip(again, shown, strict=True))
    del shown, again
    made.clear()
    engine.search("more", limit=10).hits[:10]
    assert len(made) == 10


def test_a_narrower_window_than_the_cache_drops_its_slots_without_making_them(
    corpus: Path, made: list[int]
) -> None:
    """A cache written with every daily note, read by a command with the default window: the
    slots of the notes left out are dropped from their columns (only the entries kept may be
    made, to compact the index), and the engine is the one a fresh start gives."""
    warm_engine(corpus)
    made.clear()
    engine = Engine(corpus, Config(), today=TODAY, days=7, cache=CacheFolder())
    engine.load()
    assert len(made) <= len(engine) < len(fresh_engine(corpus))
    assert_same_engine(engine, fresh_engine(corpus, days=7), ["more", "the", ""])


@pytest.mark.parametrize("count", [3, COLUMNS_FROM + 1], ids=["few", "many"])
def test_ids_and_chars_of_columns_and_of_appended_entries(corpus: Path, count: int) -> None:
    slots = SlotEntries(table_of(warm_engine(corpus)))
    slots.append(fresh_engine(corpus).loaded_entries()[0])
    picked = [len(slots) - 1, *range(0, 2 * count, 2)][:count]
    assert ids_and_chars(slots, picked) == (
        [slots[slot].id for slot in picked],
        [slots[slot].text_chars for slot in picked],
    )
    entries = list(slots)
    assert ids_and_chars(entries, picked) == ids_and_chars(slots, picked)


def test_made_entries_are_the_parsed_ones(corpus: Path, memory_root: Path) -> None:
    for folder in (corpus, memory_root):
        view = table_of(warm_engine(folder))
        fresh = {entry.id: entry for entry in fresh_engine(folder).loaded_entries()}
        made = list(view)
        assert made == [fresh[entry.id] for entry in made]
        assert [view[at] for at in range(len(view))] == made


def test_entries_made_out_of_order_are_the_parsed_ones(corpus: Path) -> None:
    """A search's hits are scattered rows, each converted alone; a walk converts its rows a
    chunk at a time: the entries are the same either way, from pieces read in any order."""
    view = table_of(warm_engine(corpus))
    fresh = {entry.id: entry for entry in fresh_engine(corpus).loaded_entries()}
    for at in [*range(len(view) - 1, -1, -3), *range(0, len(view), 7), 5, 6, 7]:
        entry = view[at]
        assert entry == fresh[entry.id]


def field_columns(entries: list[Entry]) -> dict[str, object]:
    return {
        "ids": [entry.id for entry in entries],
        "paths": [entry.path for entry in entries],
        "qualified_paths": [entry.qualified_path for entry in entries],
        "tags": [entry.tags for entry in entries],
        "chars": [entry.text_chars for entry in entries],
    }


def assert_same_statics(left: StaticFactors, right: StaticFactors) -> None:
    for name in StaticFactors.__struct_fields__:
        assert np.array_equal(getattr(left, name), getattr(right, name), equal_nan=True), name


@pytest.mark.parametrize(
    "boosts",
    [(), (Boost("MEMORY.md", 1.5), Boost("tag:deploy*", 1.2), Boost("memory/*-session-*", 0.8))],
    ids=["no boosts", "boosts"],
)
def test_columns_agree_with_the_entries_they_make(
    corpus: Path, memory_root: Path, boosts: tuple[Boost, ...]
) -> None:
    config = msgspec.structs.replace(Config(), boosts=boosts)
    settings = make_settings(config, today_ordinal=TODAY.toordinal())
    for rows in (
        rows_of(warm_engine(corpus, config=config)),
        rows_of(warm_engine(memory_root, corpus, config=config)),
    ):
        entries = list(rows)
        assert field_columns(entries) == {
            "ids": rows.ids(),
            "paths": rows.paths(),
            "qualified_paths": rows.qualified_paths(),
            "tags": rows.tags(),
            "chars": rows.chars().tolist(),
        }
        assert_same_statics(
            compute_statics(cast(Sequence[Entry], rows), settings),
            compute_statics(entries, settings),
        )


def test_several_roots_start_warm_as_one_set_of_columns(corpus: Path, memory_root: Path) -> None:
    engine = warm_engine(memory_root, corpus)
    rows_of(engine)
    assert_same_engine(engine, fresh_engine(memory_root, corpus))


def test_views_compare_by_their_entries(corpus: Path) -> None:
    view = table_of(warm_engine(corpus))
    first = view[0:3]
    assert first == view[0:3] and first == tuple(view[0:3]) and tuple(view[0:3]) == first
    assert first != view[1:4] and first != tuple(view[1:4])
    assert view[-1] == view[len(view) - 1]
    with pytest.raises(TypeError):
        hash(first)


def test_slot_entries_append_after_the_base(corpus: Path) -> None:
    view = table_of(warm_engine(corpus))
    slots = SlotEntries(view[0:4])
    extra = view[10]
    slots.append(extra)
    assert len(slots) == 5 and slots[4] is extra and slots[-1] is extra
    assert slots[2:5] == [view[2], view[3], extra]
    assert list(slots) == [*view[0:4], extra]
    with pytest.raises(IndexError):
        slots[5]
    assert isinstance(joined_rows([view[0:2], view[5:7]]), EntryRows)
    assert list(joined_rows([view[0:2], [extra]])) == [view[0], view[1], extra]


def test_a_file_changed_after_the_cache_updates_only_that_file(
    corpus: Path, made: list[int]
) -> None:
    cached_engine(corpus).save_cache()
    changed = sorted((corpus / "memory").iterdir())[-1]
    changed.write_text(changed.read_text("utf-8") + "\n## Redis outage again\n\nfailover.\n")
    made.clear()
    engine = cached_engine(corpus)
    assert engine.search("failover redis", limit=1).hits[0].entry.path.endswith(changed.name)
    assert len(made) < 100  # the changed file's old entries (to compare), no more
    assert_same_engine(engine, fresh_engine(corpus), queries=("redis failover", "more", ""))


def test_the_memory_s_filters_are_read_from_the_columns(
    corpus: Path, memory_root: Path, made: list[int]
) -> None:
    """The query box's placeholder (sources, tags, roles, newest date) makes no entry."""
    warm_engine(corpus)
    made.clear()
    facets = reopened(corpus).facets()
    assert made == []
    assert facets == facets_of(fresh_engine(corpus).loaded_entries())
    both = warm_engine(memory_root, corpus)
    assert both.facets() == facets_of(fresh_engine(memory_root, corpus).loaded_entries())


@pytest.mark.parametrize("roots", [1, 2], ids=["one root", "two roots"])
def test_saving_a_warm_start_makes_no_entry_of_an_unchanged_file(
    tmp_path: Path, memory_root: Path, made: list[int], roots: int
) -> None:
    """Saving reads the cached columns: an entry is made for no row, neither when the index
    is the cached one as is nor after a file changed (dead slots, a delta)."""
    write_corpus(tmp_path / "big", 3000, today=TODAY)
    folders = (tmp_path / "big", memory_root)[:roots]
    engine = warm_engine(*folders)
    rows_of(engine)
    for change in (False, True):
        if change:
            changed = sorted((tmp_path / "big" / "memory").iterdir())[-1]
            changed.write_text(changed.read_text("utf-8") + "\n## Redis outage\n\nfailover.\n")
            engine.apply_changes([changed])
        engine._caches.dirty = True
        made.clear()
        assert engine.save_cache() > 0 and not engine.warnings
        assert made == [], "saving made entries of the cached rows"
        assert_same_engine(reopened(*folders), fresh_engine(*folders), queries=("failover", ""))


@pytest.mark.parametrize(
    "values",
    [[None] * 40, [None] * 39 + ["last"], ["first"] + [None] * 30 + [["a", "b"]], [], ["x", None]],
)
def test_a_sparse_column_reads_as_its_list(values: list[object]) -> None:
    column = compact_column(values)
    nearly_empty = (len(values) - values.count(None)) * SPARSE_SHARE < len(values)
    assert isinstance(column, SparseColumn) == nearly_empty
    assert len(column) == len(values) and list(column) == values
    assert column[2:7] == values[2:7] and column[::3] == values[::3]
    for row in range(-len(values), len(values)):
        assert column[row] == values[row]
    with pytest.raises(IndexError):
        column[len(values)]
