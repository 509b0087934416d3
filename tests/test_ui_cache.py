"""The cache through the app: the first start writes it after painting, the second starts with
the index ready and shows the same results, a damaged cache is reported in the warnings view,
and `--no-cache` (or `cache = false`) writes nothing."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import layouts
import pytest
from cache_helpers import cached_engine
from textual.pilot import Pilot
from ui_helpers import SIZE, build_app, rows, static_text, type_query, wait_loaded, wait_until

from memtui.core.cache.entry_table import CachedBodies
from memtui.core.cache.folder import CacheFolder
from memtui.core.settings.config import Config
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.warnings import WarningsScreen


async def wait_for_cache_worker(pilot: Pilot[Any], app: MemtuiApp) -> None:
    """The index is built and the cache holds what is loaded (or there is none to write), its
    worker finished. A cold start saves once the rerank after the build is painted, a moment
    after `load_ms` is set: waiting on that and on the worker alone could find none yet."""
    screen = await wait_loaded(pilot, app)
    await wait_until(
        pilot,
        lambda: (
            app.load_ms is not None
            and screen.engine is not None
            and not screen.engine.cache_stale
            and not any(
                worker.group == "cache" and not worker.is_finished for worker in app.workers
            )
        ),
    )


async def test_the_second_start_is_warm_and_ranks_the_same(tmp_path: Path) -> None:
    root = layouts.build_all(tmp_path / "root")
    first = build_app(str(root), "--no-watch", "--days", "0")
    async with first.run_test(size=SIZE) as pilot:
        await wait_for_cache_worker(pilot, first)
        await type_query(pilot, first, "deploy")
        cold_rows = rows(first)
    assert CacheFolder().file_for(root).is_file()
    second = build_app(str(root), "--no-watch", "--days", "0")
    async with second.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, second)
        assert screen.engine is not None and screen.engine.index_ready  # at the first paint
        await type_query(pilot, second, "deploy")
        assert rows(second) == cold_rows
        assert "indexing" not in static_text(second, "#query-status")


async def test_a_damaged_cache_is_reported_and_rebuilt(tmp_path: Path) -> None:
    root = layouts.build_all(tmp_path / "root")
    first = build_app(str(root), "--no-watch")
    async with first.run_test(size=SIZE) as pilot:
        await wait_for_cache_worker(pilot, first)
    path = CacheFolder().file_for(root, days=Config().days)  # the app's window by default
    path.write_bytes(path.read_bytes()[:1000])
    second = build_app(str(root), "--no-watch")
    async with second.run_test(size=SIZE) as pilot:
        await wait_for_cache_worker(pilot, second)
        await pilot.press("enter", "exclamation_mark")  # from the list, where letters act
        await wait_until(pilot, lambda: isinstance(second.screen, WarningsScreen))
        assert "ignored and rebuilt: truncated" in static_text(second, "#warnings-body")
    assert CacheFolder().read(root, "", days=Config().days)[1] is None  # rewritten whole


async def test_no_cache_writes_nothing(tmp_path: Path) -> None:
    root = layouts.build_all(tmp_path / "root")
    config = tmp_path / "config.toml"
    config.write_text("cache = false\n")
    for argv in (["--no-cache"], ["--config", str(config)]):
        app = build_app(str(root), "--no-watch", *argv)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_cache_worker(pilot, app)
            await type_query(pilot, app, "deploy")
        assert CacheFolder().listing() == []


async def test_a_warm_start_reads_no_text_on_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries of a warm start are made when shown, and making one may read its text back from
    the cache file: the search worker makes the rows the list paints, so the event loop never
    reads a file, typing and moving the cursor included."""
    root = layouts.build_all(tmp_path / "root")
    cached_engine(root).save_cache()
    readers: list[str] = []
    read = CachedBodies._read

    def recorded(bodies: CachedBodies, number: int) -> object:
        readers.append(threading.current_thread().name)
        return read(bodies, number)

    monkeypatch.setattr(CachedBodies, "_read", recorded)
    app = build_app(str(root), "--no-watch", "--days", "0")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        await pilot.press("down", "down", "up")
        await pilot.pause()
        assert rows(app)
    assert readers and threading.main_thread().name not in readers
