"""Quitting can be found in seconds: the footer names the way out wherever the focus is (even
at 80 columns), esc on an empty query box moves to the results (where `q` quits), and ctrl+c
quits as in fzf instead of Textual's "press ctrl+q" notice."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from ui_helpers import demo_app, type_query, wait_loaded, wait_until

from memtui.ui.app import MemtuiApp
from memtui.ui.textual_private import notices, painted_strips
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList

NARROW = (80, 24)


def footer(app: MemtuiApp) -> str:
    """The bottom row as the terminal shows it."""
    return painted_strips(app.screen)[-1].text


async def start(pilot: Pilot[Any], app: MemtuiApp) -> None:
    await wait_loaded(pilot, app)
    await pilot.pause()


async def test_the_way_out_is_on_the_footer_and_esc_leads_to_it() -> None:
    app = demo_app()
    async with app.run_test(size=NARROW) as pilot:
        await start(pilot, app)
        assert isinstance(app.focused, QueryInput)  # `q` would type a q here
        assert "^q Quit" in footer(app)
        await pilot.press("escape")  # the box is empty: to the results
        assert isinstance(app.focused, ResultsList)
        await wait_until(pilot, lambda: "q Quit" in footer(app) and "^q" not in footer(app))
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert app.return_code == 0


async def test_esc_clears_the_query_then_moves_to_the_results_then_back() -> None:
    app = demo_app()
    async with app.run_test(size=NARROW) as pilot:
        await start(pilot, app)
        await type_query(pilot, app, "deploy")
        query = app.screen.query_one(QueryInput)
        await pilot.press("escape")
        assert query.value == "" and app.focused is query
        await pilot.press("escape")
        assert isinstance(app.focused, ResultsList)
        await pilot.press("escape")
        assert app.focused is query
        assert app.is_running  # esc never quits the app


@pytest.mark.parametrize("focus", ["query", "results"])
async def test_ctrl_c_quits(focus: str) -> None:
    app = demo_app()
    async with app.run_test(size=NARROW) as pilot:
        await start(pilot, app)
        await type_query(pilot, app, "dep")
        if focus == "results":
            await pilot.press("tab")
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: not app.is_running)
        assert not any("ctrl+q" in notice for notice in notices(app))
    assert app.return_code == 0
