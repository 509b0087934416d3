"""The app gives memory back: nothing it keeps reaches content that went away.

Proven by structure (what the app still reaches, weak references), never by RSS; the RSS
figures come from `scripts/soak_memory.py`.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_memory_release import low_thresholds, reachable, reachable_entries
from textual.pilot import Pilot
from textual.widget import Widget
from ui_helpers import (
    SIZE,
    build_app,
    main_screen,
    type_query,
    wait_loaded,
    wait_until,
    workers_done,
    write,
)

from memtui.core.live.roots import MemoryRoot
from memtui.ui.app import MemtuiApp
from memtui.ui.heap import (
    COLLECT_AFTER_PAINT,
    FULL_GC_EVERY,
    RELEASE_ATTEMPTS,
    RELEASE_RETRY_S,
    YOUNG_GC_EVERY,
    collect_after_paint,
    release_pending,
    settle_heap,
)
from memtui.ui.messages import RootsChosen
from memtui.ui.screens.main import MainScreen

GIANT = "notes/giant.md"
__all__ = ["low_thresholds"]  # a fixture this module uses


@pytest.fixture(autouse=True)
def thawed() -> Iterator[None]:
    """Leave nothing frozen for the next test (the app freezes what it loads)."""
    yield
    gc.unfreeze()


class Widgetish:
    """Stands for a widget: it holds a cycle, so only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_settling_the_heap_never_keeps_what_dies_later() -> None:
    """Freezing at every applied change kept whatever the UI held then (widgets, messages,
    timers) for good once it died: their cycles need the collector."""
    alive = Widgetish()
    gone = weakref.ref(alive)
    settle_heap()
    del alive
    gc.collect()
    assert gone() is None


@pytest.fixture
def collections_seen() -> Iterator[list[int]]:
    """The generation of each collection the collector runs while the test does."""
    seen: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.collect()
    gc.callbacks.append(record)
    try:
        yield seen
    finally:
        gc.callbacks.remove(record)


@pytest.mark.parametrize(
    ("middle_made", "old_made", "expected"),
    [(0, 0, 0), (9, 0, 1), (9, 99, 2)],
    ids=["young", "middle due", "full due"],
)
def test_a_paint_is_followed_by_the_collections_the_next_keys_would_pay(
    monkeypatch: pytest.MonkeyPatch,
    collections_seen: list[int],
    middle_made: int,
    old_made: int,
    expected: int,
) -> None:
    """Enough young objects: collect them now, with the older generations that are due."""
    monkeypatch.setattr(gc, "get_threshold", lambda: (YOUNG_GC_EVERY, 10, FULL_GC_EVERY))
    young = gc.get_count()[0]
    monkeypatch.setattr(
        gc, "get_count", lambda: (young + COLLECT_AFTER_PAINT, middle_made, old_made)
    )
    collect_after_paint()
    assert collections_seen == [expected]


def test_a_paint_after_few_new_objects_collects_nothing(
    monkeypatch: pytest.MonkeyPatch, collections_seen: list[int]
) -> None:
    monkeypatch.setattr(gc, "get_count", lambda: (COLLECT_AFTER_PAINT - 1, 9, 99))
    collect_after_paint()
    monkeypatch.setattr(gc, "get_count", lambda: (COLLECT_AFTER_PAINT, 9, 99))
    monkeypatch.setattr(gc, "isenabled", lambda: False)  # a load is running (`heap.loading`)
    collect_after_paint()
    assert collections_seen == []


async def test_switching_folders_releases_the_old_engine(tmp_path: Path) -> None:
    """The engine of the folder open before was frozen with its load (out of the collector's
    reach): its screen's cycles kept it, and the whole corpus, for good. The app frees it on
    its own, with no file change or keystroke to prompt a settle."""
    first_root = write(tmp_path / "first" / "MEMORY.md", "## One\n\nzebracorn\n").parent
    second_root = write(tmp_path / "second" / "MEMORY.md", "## Two\n\nbeta\n").parent
    app = build_app(str(first_root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_loaded(pilot, app)
        assert first.engine is not None
        old_engine = weakref.ref(first.engine)
        app.post_message(RootsChosen((MemoryRoot("second", second_root),)))
        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, MainScreen)
                and app.screen is not first
                and app.screen.engine is not None
            ),
        )
        first = None  # type: ignore[assignment]
        await wait_until(
            pilot,
            lambda: old_engine() is None,
            steps=int(RELEASE_ATTEMPTS * RELEASE_RETRY_S * 100) + 400,
        )
        assert not release_pending()


async def settled_after_a_change(pilot: Pilot[Any], app: MemtuiApp, path: Path) -> None:
    """Let every worker finish (the old screen's cache writer too), then apply a change and
    wait for its paint, the settle of the heap that follows once the app is idle, and every
    worker it started."""
    screen = main_screen(app)
    await wait_until(
        pilot,
        lambda: (
            screen.engine is not None
            and screen.engine.index_ready
            and app.painted_generation >= screen.generation
        ),
    )
    await workers_done(pilot, app)
    applied, settles = app.changes_applied, screen.heap_settles
    screen.apply_paths([path])
    await wait_until(
        pilot,
        lambda: (
            app.changes_applied > applied
            and app.painted_generation >= screen.generation
            and not screen.detail_pending
            and screen.heap_settles > settles
        ),
    )
    # What the change started (the cache writer, the load-line check) holds its own snapshot
    # while it runs: it is not kept, and on a loaded machine it can still be running here.
    await workers_done(pilot, app)
    await pilot.pause()


async def test_a_removed_giant_is_not_kept_by_the_ui(low_thresholds: None, tmp_path: Path) -> None:
    """Rows, masked texts and results must let the entries of a removed file go."""
    body = " ".join(f"giantword{number % 331}" for number in range(5_000))
    root = write(tmp_path / "memory" / "MEMORY.md", "## Deploy\n\ncanary first\n").parent
    giant = write(root / GIANT, f"# Giant\n\n{body}\n")
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "giantword1")
        assert reachable_entries(app, GIANT)
        giant.unlink()
        await settled_after_a_change(pilot, app, giant)
        assert not reachable_entries(app, GIANT)


async def test_focus_changes_leave_no_old_footer_keys(tmp_path: Path) -> None:
    """Each focus change recomposes the footer; the old keys stayed watched by it for good."""
    root = write(tmp_path / "memory" / "MEMORY.md", "## Deploy\n\ncanary first\n").parent
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        for _ in range(6):
            await pilot.press("tab")
            await pilot.pause()
            await pilot.press("slash")
            await pilot.pause()
        keys = [
            item
            for item in reachable(app)
            if isinstance(item, Widget) and type(item).__name__ == "FooterKey"
        ]
        assert keys and all(key.is_attached for key in keys)
