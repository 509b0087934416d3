"""A cold load keeps what it reads as columns, its bodies in a spool file in the cache folder
(`core.cache.spool`): the same entries and rankings as entries held in memory, none made until
asked for, and entries kept in memory when the spool cannot be written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cache_helpers import TODAY, assert_same_engine, cached_engine, fresh_engine

from memtui.core.cache import entry_table, spool
from memtui.core.cache.entry_table import CACHE_DAMAGED, TableView
from memtui.core.cache.folder import CacheFolder, default_cache_folder
from memtui.core.live import file_spool
from memtui.core.live.engine import Engine
from memtui.core.settings.config import Config


def _spooled_engine(root: Path) -> Engine:
    """Cold (nothing cached yet), with a cache folder: what it reads is spooled."""
    engine = Engine(root, Config(), today=TODAY, days=0, cache=CacheFolder(default_cache_folder()))
    engine.load_store()
    return engine


def _views(engine: Engine) -> list[object]:
    return [entries for store in engine.stores for entries in store.loaded_files().values()]


@pytest.mark.parametrize("rows", [1, 3, 64, spool.SPOOL_ROWS])
def test_a_cold_load_spools_and_ranks_like_entries_in_memory(
    memory_root: Path, monkeypatch: pytest.MonkeyPatch, rows: int
) -> None:
    """Any table size (one entry a table, tables cut inside a file's neighbours, one table)
    gives the entries and rankings of a load that keeps them in memory."""
    monkeypatch.setattr(file_spool, "SPOOL_ROWS", rows)
    engine = _spooled_engine(memory_root)
    views = [entries for entries in _views(engine) if entries]
    assert all(isinstance(entries, TableView) for entries in views)
    tables = {id(view.table) for view in views if isinstance(view, TableView)}
    if rows == 1:
        assert len(tables) == len(views)
    elif rows < len(engine):  # a table is cut after the file that fills it
        assert 1 < len(tables) <= -(-len(engine) // rows)
    else:
        assert len(tables) == 1
    engine.build_index()
    assert_same_engine(engine, fresh_engine(memory_root))
    assert sorted(entry.body for entry in engine.loaded_entries()) == sorted(
        entry.body for entry in fresh_engine(memory_root).loaded_entries()
    )


def test_loading_and_indexing_make_no_entry_to_keep(memory_root: Path, made: list[int]) -> None:
    """Loading makes no entry at all; the build makes each once (one batch at a time), and the
    index keeps columns, not entries."""
    engine = _spooled_engine(memory_root)
    assert made == []
    engine.build_index()
    assert len(made) == len(engine)
    assert isinstance(engine._index.entries.base, TableView)


def test_the_tables_together_keep_a_bounded_number_of_converted_rows(
    memory_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build makes every entry of every table once; the rows' converted numbers it leaves
    behind are bounded for all tables together, not per table (a cold load has many)."""
    monkeypatch.setattr(file_spool, "SPOOL_ROWS", 1)
    monkeypatch.setattr(entry_table, "NUMBER_CHUNKS", 3)
    monkeypatch.setattr(entry_table, "_converted", {})
    engine = _spooled_engine(memory_root)
    engine.build_index()
    assert len({id(view.table) for view in _views(engine) if isinstance(view, TableView)}) > 3
    assert len(entry_table._converted) <= 3
    assert_same_engine(engine, fresh_engine(memory_root))


def test_the_spooled_cache_is_the_cache_of_entries_in_memory(memory_root: Path) -> None:
    """Saved from a spool, the cache gives a warm start that ranks like a fresh load."""
    cold = _spooled_engine(memory_root)
    cold.build_index()
    assert cold.save_cache() > 0 and not cold.cache_stale
    warm = cached_engine(memory_root)
    assert warm.warnings == [] and not warm.cache_stale
    assert_same_engine(warm, fresh_engine(memory_root))


def test_no_room_for_a_spool_keeps_the_entries_in_memory(
    memory_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache folder memtui cannot write (fault-injected: root ignores permissions) loads as
    before, entries in memory."""

    folder = default_cache_folder()
    folder.mkdir(parents=True)
    folder.chmod(0o500)
    opened = os.open

    def refuse(path: object, flags: int, mode: int = 0o777) -> int:
        if flags & os.O_CREAT and str(path).startswith(str(folder)):
            raise PermissionError(13, "Permission denied")
        return opened(path, flags, mode)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refuse)
    engine = _spooled_engine(memory_root)
    assert not any(isinstance(entries, TableView) for entries in _views(engine))
    engine.build_index()
    assert_same_engine(engine, fresh_engine(memory_root))


def test_a_full_disk_half_way_keeps_the_rest_in_memory(
    memory_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The spool's first table is written, the next write fails (no space): the files read
    after keep their entries in memory, and everything ranks as before."""
    monkeypatch.setattr(file_spool, "SPOOL_ROWS", 4)
    writes = 0
    pwrite = os.pwrite

    def fill_up(descriptor: int, data: bytes, offset: int) -> int:
        nonlocal writes
        writes += 1
        if writes > 1:
            raise OSError(28, "No space left on device")
        return pwrite(descriptor, data, offset)

    monkeypatch.setattr(os, "pwrite", fill_up)
    engine = _spooled_engine(memory_root)
    kinds = {isinstance(entries, TableView) for entries in _views(engine) if entries}
    assert kinds == {True, False}
    engine.build_index()
    assert_same_engine(engine, fresh_engine(memory_root))


def test_a_damaged_spool_piece_is_shown_as_damage_and_never_cached(memory_root: Path) -> None:
    """Bytes that no longer read back as written (a failing disk) are never shown as text:
    the entry is empty with a warning, and no cache is written from the table."""
    engine = _spooled_engine(memory_root)
    view = next(entries for entries in _views(engine) if isinstance(entries, TableView))
    bodies = view.table.bodies
    os.pwrite(bodies._descriptor, b"\x00garbage\x00", bodies._offset)
    entry = view.table.entry(0)
    assert entry.body == "" and CACHE_DAMAGED in entry.warnings
    engine.build_index()
    engine.save_cache()
    assert any("damaged cache" in warning for warning in engine.warnings)
    assert not CacheFolder(default_cache_folder()).file_for(memory_root).exists()


def test_the_spool_leaves_no_file_behind(memory_root: Path) -> None:
    engine = _spooled_engine(memory_root)
    engine.build_index()
    folder = default_cache_folder()
    assert not [path for path in folder.iterdir() if path.name.startswith(spool.SPOOL_PREFIX)]
