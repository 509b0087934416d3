"""A keystroke's echo is held until its results are in place, so both go out in one frame (on
Textual's 60 Hz grid an echo frame of its own delays the results by one or two frames), but
never longer than PAINT_HOLD_S: a slow search still shows the typed text first."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from ui_fakes import FakeEngine, make_entry
from ui_helpers import SIZE, app_over, demo_app, rows, type_query, wait_loaded, wait_until

from memtui.core.model import Entry, RankResult
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList


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
    app = app_over(engine, tmp_path)
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


async def test_a_keystroke_s_echo_and_its_rows_go_out_in_one_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The list sends its rows to the screen from its own message queue: the hold is released
    after it has, so the frame that echoes a letter also draws the rows it found (the paint
    hook then fires after that frame, not after an echo-only one a frame before).

    A frame is drawn and written in one go, so a callback the echo's drawing schedules runs
    after that frame: by then the list must have drawn its current hits."""
    drawn: list[object] = []
    echoed: dict[str, bool] = {}
    draw_row, draw_echo = ResultsList.render_line, QueryInput.render_line

    def row(results: ResultsList, y: int) -> Any:
        drawn.append(results.hits)
        return draw_row(results, y)

    def echo(query: QueryInput, y: int) -> Any:
        value, results = query.value, query.screen.query_one(ResultsList)
        if value not in echoed:
            echoed[value] = False
            query.call_later(lambda: echoed.update({value: any(h is results.hits for h in drawn)}))
        return draw_echo(query, y)

    monkeypatch.setattr(ResultsList, "render_line", row)
    monkeypatch.setattr(QueryInput, "render_line", echo)
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        for typed in ("d", "de", "dep", "depl"):
            await pilot.pause(0.05)  # past the next 60 Hz grid point: the frame is not waited for
            await pilot.press(typed[-1])
            await wait_until(pilot, lambda: app.painted_generation >= screen.generation)
            await pilot.pause()
            assert echoed.get(typed), (typed, echoed)
