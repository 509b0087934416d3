"""A keystroke's echo is held until its results are in place, so both go out in one frame (on
Textual's 60 Hz grid an echo frame of its own delays the results by one or two frames), but
never longer than PAINT_HOLD_S: a slow search still shows the typed text first."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ui_fakes import FakeEngine, make_entry
from ui_helpers import SIZE, TODAY, demo_app, rows, type_query, wait_loaded, wait_until

from memtui.core.model import Entry, RankResult
from memtui.core.settings.config import Config
from memtui.ui.app import MemtuiApp
from memtui.ui.options import AppOptions
from memtui.ui.widgets.query import QueryInput

if TYPE_CHECKING:
    from memtui.core.live.engine import Engine


class BlockedEngine(FakeEngine):
    """Searches for "slow" wait until the test releases them."""

    def __init__(self, root: Path, entries: list[Entry]) -> None:
        super().__init__(root, entries)
        self.started = threading.Event()
        self.release = threading.Event()

    def search(self, query: str, *, limit: int | None = None) -> RankResult:
        if query == "slow":
            self.started.set()
            assert self.release.wait(timeout=30), "the test never released the search"
        return super().search(query, limit=limit)


async def test_the_results_release_the_held_echo() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        query = app.screen.query_one(QueryInput)
        await type_query(pilot, app, "deploy")
        assert query._paint_hold is None
        assert query.value == "deploy" and rows(app)


async def test_a_slow_search_still_shows_the_typed_text(tmp_path: Path) -> None:
    engine = BlockedEngine(tmp_path, [make_entry(0, "slow plan", "slow steps")])
    options = AppOptions(
        root=tmp_path,
        config=Config(),
        today=TODAY,
        days=30,
        watch=False,
        deterministic=True,
        engine_factory=lambda _: cast("Engine", engine),
    )
    app = MemtuiApp(options)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        query = app.screen.query_one(QueryInput)
        screen.set_query("slow")
        await wait_until(pilot, engine.started.is_set)
        await wait_until(pilot, lambda: query._paint_hold is None)  # released by its timer:
        assert not engine.release.is_set()  # the search is still running
        engine.release.set()
        await wait_until(
            pilot,
            lambda: (
                screen.result is not None
                and screen.result.query == "slow"
                and app.painted_generation >= screen.generation
            ),
        )
        assert "slow plan" in rows(app)[0]
