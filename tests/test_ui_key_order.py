"""Keys typed in one burst with a query act on that query's results (`ui.key_order`): a move
or a pick queued right behind the last letter waits for the list to show what the box holds,
as fzf does, instead of acting on the list the query replaces."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from ui_fakes import FakeEngine
from ui_helpers import (
    SIZE,
    app_over,
    burst,
    demo_app,
    picker,
    static_text,
    wait_loaded,
    wait_until,
)

from memtui.ui.app import MemtuiApp
from memtui.ui.screens.main import MainScreen
from memtui.ui.widgets.results import ResultsList


def ranked_ids(screen: MainScreen, query: str) -> list[str]:
    assert screen.engine is not None
    return [hit.entry.id for hit in screen.engine.search(query).hits]


async def settled(pilot: Pilot[Any], screen: MainScreen, query: str) -> None:
    await wait_until(
        pilot,
        lambda: screen.query_text == query and screen.painted_generation == screen.generation,
    )
    await pilot.pause()


async def browsing(pilot: Pilot[Any], app: MemtuiApp) -> MainScreen:
    """The demo's main screen once its browse list (newest first) has settled."""
    screen = await wait_loaded(pilot, app)
    assert isinstance(screen, MainScreen)
    await settled(pilot, screen, "")
    return screen


@pytest.mark.parametrize(
    ("moves", "row"),
    [
        (["down", "down"], 2),
        (["down", "down", "down", "up"], 2),
        (["end"], -1),
        (["tab", "j", "j", "j"], 3),
        (["enter", "j"], 1),
    ],
)
async def test_moves_typed_right_behind_a_query_act_on_its_results(
    moves: list[str], row: int
) -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await browsing(pilot, app)
        burst(app, [*"deploy", *moves])
        await settled(pilot, screen, "deploy")
        results = screen.query_one(ResultsList)
        expected = ranked_ids(screen, "deploy")
        assert len(expected) > 3
        assert results.selected is not None
        assert results.selected.entry.id == expected[row]


async def pick_burst(app: MemtuiApp, keys: list[str]) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(pilot, lambda: screen.painted_generation == screen.generation > 0)
        burst(app, keys)
        await wait_until(pilot, lambda: not app.is_running)


@pytest.mark.parametrize(
    ("keys", "rank"),
    [
        (["enter"], 1),
        (["down", "down", "enter"], 3),
        (["ctrl+j"], 1),  # an enter typed before the app had the terminal: a newline
    ],
)
async def test_a_pick_typed_right_behind_a_query_picks_from_its_results(
    keys: list[str], rank: int
) -> None:
    app = picker("--demo")
    await pick_burst(app, [*"deploy", *keys])
    handed = app.handed_off
    assert handed is not None and handed.query == "deploy"
    assert [item.hit.rank for item in handed.picked if item.hit] == [rank]
    expected = picker("--demo")
    async with expected.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, expected)
        assert isinstance(screen, MainScreen)
        top = ranked_ids(screen, "deploy")[rank - 1]
    assert [item.entry.id for item in handed.picked] == [top]


async def test_a_move_typed_behind_a_query_that_fails_moves_in_the_list_left_shown() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await browsing(pilot, app)
        browse = ranked_ids(screen, "")
        burst(app, [*"after:nope", "down"])
        results = screen.query_one(ResultsList)
        await wait_until(pilot, lambda: screen.query_error and results.cursor == 1)
        assert results.selected is not None and results.selected.entry.id == browse[1]


async def test_a_copy_typed_right_behind_a_query_and_a_move_copies_from_its_results() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await browsing(pilot, app)
        burst(app, [*"deploy", "tab", "j", "Y"])  # Y: the selected entry's citation
        await wait_until(pilot, lambda: bool(app.clipboard))
        assert screen.engine is not None
        first, second = (hit.entry for hit in screen.engine.search("deploy").hits[:2])
        assert f"{second.path}:{second.line_start}-" in app.clipboard
        assert f"{first.path}:{first.line_start}-" not in app.clipboard


async def test_keys_typed_after_the_pick_enter_change_nothing() -> None:
    """The picker is ending: what follows enter (the next shell command typed too soon, more
    moves) must not change the query or the selection it picks from."""
    app = picker("--demo")
    await pick_burst(app, [*"deploy", "enter", "j", "x", "down", "space", "y"])
    handed = app.handed_off
    assert handed is not None and handed.query == "deploy"
    assert [item.hit.rank for item in handed.picked if item.hit] == [1]


async def test_a_pick_with_nothing_to_pick_rings_and_takes_keys_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = picker("--demo")
    rings: list[None] = []
    monkeypatch.setattr(app, "bell", lambda: rings.append(None))
    async with app.run_test(size=SIZE) as pilot:
        screen = await browsing(pilot, app)
        burst(app, [*"zzqx", "enter"])
        await wait_until(pilot, lambda: bool(rings))
        assert app.is_running and not screen.keys_closed
        await pilot.press("ctrl+u", *"deploy", "enter")
        await wait_until(pilot, lambda: not app.is_running)
    handed = app.handed_off
    assert handed is not None and handed.query == "deploy"


class BrokenEngine(FakeEngine):
    def load_store(self, *, index_next: bool = False) -> None:
        raise OSError("the disk went away")


async def test_a_pick_after_a_failed_load_rings_instead_of_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys typed while the memory loads wait for results; when the load fails there will be
    none: they run on the empty list (the pick rings) and the box takes keys again."""
    app = app_over(BrokenEngine(tmp_path, []), tmp_path)
    app.options.hand_off = "selected"
    rings: list[None] = []
    monkeypatch.setattr(app, "bell", lambda: rings.append(None))
    async with app.run_test(size=SIZE) as pilot:
        burst(app, [*"deploy", "down", "enter"])
        await wait_until(pilot, lambda: bool(rings))
        screen = app.screen
        assert isinstance(screen, MainScreen) and not screen.keys_closed
        assert app.is_running and "Could not load" in static_text(app, "#banner")
