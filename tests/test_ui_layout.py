"""The layout adapts from 60×20 to 220×50: the entry text is always on screen, narrow lists
drop columns before they cut titles, z zooms a pane, and weights/filters leave the list in sight.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from ui_helpers import demo_app, rows, type_query, wait_loaded, wait_until

from memtui.ui.app import MemtuiApp, size_classes
from memtui.ui.screens.filters import FiltersScreen
from memtui.ui.screens.main import MainScreen
from memtui.ui.screens.weights import WeightsScreen
from memtui.ui.textual_private import painted_strips
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.entry_pane import EntryPane
from memtui.ui.widgets.results import ResultsList

SIZES = [(60, 20), (80, 24), (100, 30), (160, 45), (220, 50)]
TOP_TITLE = "14:30 — Deploy billing-api v2.15.1"
BODY_WORDS = "Deployed v2.15.1 to staging"


async def loaded(pilot: Pilot[Any], app: MemtuiApp) -> MainScreen:
    screen = await wait_loaded(pilot, app)
    await wait_until(pilot, lambda: screen.pane.hit is not None and not screen.detail_pending)
    await pilot.pause()
    return screen


def on_screen(app: MemtuiApp) -> list[str]:
    """The whole screen as text, as the user sees it."""
    return [strip.text for strip in painted_strips(app.screen)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_entry_body_and_the_list_are_on_screen_at_every_size(
    size: tuple[int, int],
) -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=size) as pilot:
        screen = await loaded(pilot, app)
        text = "\n".join(on_screen(app))
        assert BODY_WORDS in text, f"no line of the entry's body at {size}"
        view = screen.query_one(EntryView)
        assert view.region.height >= 5
        assert len(rows(app)) >= 4
        listed = screen.query_one(ResultsList).region
        assert listed.width >= 36 and listed.height >= 4


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30)])
async def test_narrow_lists_drop_the_date_and_source_before_cutting_titles(
    size: tuple[int, int],
) -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=size) as pilot:
        await loaded(pilot, app)
        first = rows(app)[0]
        assert "daily" not in first and "2026-11-21 " not in first.split("·")[0]
        if size[0] < 80:  # stacked: the list has the whole width
            assert TOP_TITLE in first
        else:  # side by side the entry has the room; the title is cut, not the columns'
            assert TOP_TITLE[:20] in first


@pytest.mark.parametrize("size", [(100, 30), (120, 35), (160, 45), (220, 50)])
async def test_from_100_columns_the_entry_is_at_least_as_wide_as_the_list(
    size: tuple[int, int],
) -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=size) as pilot:
        screen = await loaded(pilot, app)
        listed = screen.query_one("#left").region.width
        entry = screen.query_one("#right").region.width
        assert entry >= listed and 0.55 <= entry / size[0] <= 0.6


async def test_wide_lists_keep_the_date_and_source_columns() -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=(160, 45)) as pilot:
        await loaded(pilot, app)
        first = rows(app)[0]
        # beside the scrollbar's track the title's last cell gives way, not a column
        assert TOP_TITLE[:-1] in first and first.endswith("2026-11-21 daily")


async def test_rows_keep_their_width_when_the_results_stop_filling_the_list() -> None:
    """The scrollbar's track stays when the results fit: typing moves no column of the rows
    (and does not lay the screen out again each time the count crosses the list's height)."""
    app = demo_app()
    async with app.run_test(size=(120, 35)) as pilot:
        screen = await loaded(pilot, app)
        results = screen.query_one(ResultsList)
        assert results.virtual_size.height > results.scrollable_content_region.height
        browsing = results.scrollable_content_region.width
        await type_query(pilot, app, "deploy")
        assert 0 < results.virtual_size.height < results.scrollable_content_region.height
        assert results.show_vertical_scrollbar
        assert results.scrollable_content_region.width == browsing


async def test_below_80_columns_the_panes_stack_and_b_swaps_in_the_why() -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await loaded(pilot, app)
        results, entry = screen.query_one(ResultsList), screen.query_one(EntryView)
        assert results.region.bottom <= entry.region.y  # stacked, list on top
        assert not screen.query_one("#why").display
        assert str(entry.border_subtitle) == "b: why"  # the hidden pane's key is on screen
        await pilot.press("tab", "b")
        await pilot.pause()
        assert screen.query_one("#why").display and not entry.display
        shown = "\n".join(on_screen(app))
        assert "relevance" in shown and "b: entry" in shown
        assert not any(line.rstrip("│ ").endswith("(bar: t…") for line in on_screen(app))


async def test_z_maximises_the_focused_pane_and_restores_it() -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot, app)
        await pilot.press("tab", "z")
        assert screen.maximized is screen.query_one(ResultsList)
        await pilot.press("z")
        assert screen.maximized is None
        screen.query_one(EntryView).focus()
        await pilot.pause()
        await pilot.press("z")
        await pilot.pause()
        pane = screen.query_one(EntryPane)
        assert screen.maximized is pane and pane.region.width == 80
        assert BODY_WORDS in "\n".join(on_screen(app))
        await pilot.press("escape")
        assert screen.maximized is None


@pytest.mark.parametrize("key,modal", [("w", WeightsScreen), ("f", FiltersScreen)])
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_weights_and_filters_dock_below_the_visible_list(
    key: str, modal: type, size: tuple[int, int]
) -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=size) as pilot:
        await loaded(pilot, app)
        await pilot.press("tab", key)
        await wait_until(pilot, lambda: isinstance(app.screen, modal))
        await pilot.pause()
        box = app.screen.query_one(".modal-box")
        assert box.region.bottom >= size[1] - 1  # docked at the bottom (above the footer)
        text = on_screen(app)
        visible_rows = [
            line
            for line in text[: box.region.y]
            if TOP_TITLE[:12] in line or "Deploy checklist" in line
        ]
        assert len(visible_rows) >= 2, "the reranked list is hidden behind the window"


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        ((60, 20), {"-w-small", "-h-small"}),
        ((80, 24), {"-w-medium", "-h-medium"}),
        ((119, 35), {"-w-medium", "-h-medium"}),
        ((160, 45), {"-w-large", "-h-large"}),
    ],
)
async def test_the_main_screen_opens_with_its_size_classes_and_keeps_them_on_resize(
    size: tuple[int, int], expected: set[str]
) -> None:
    """The app gives the main screen its size classes when it makes it (Textual would add them
    on the first resize, after styling the whole screen once without them), and Textual's
    resizes then agree with them."""
    app = demo_app()
    async with app.run_test(size=size) as pilot:
        screen = app._main_screen()  # as the app makes it, before it is mounted
        assert {name for name in screen.classes if name.startswith(("-w-", "-h-"))} == expected
        await loaded(pilot, app)
        for width, height in [(70, 30), size]:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            shown = {name for name in app.screen.classes if name.startswith(("-w-", "-h-"))}
            assert shown == {name for name, on in size_classes(width, height).items() if on}


async def test_the_selected_row_stays_in_view_when_the_window_shrinks() -> None:
    app = demo_app("--days", "0")
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_loaded(pilot, app)
        results = app.screen.query_one(ResultsList)
        await wait_until(pilot, lambda: len(results.hits) > 30)
        results.focus()
        for _ in range(25):
            await pilot.press("down")
        await pilot.resize_terminal(120, 20)
        await pilot.pause()
        top, height = int(results.scroll_y), results.scrollable_content_region.height
        assert top <= results.cursor < top + height


@pytest.mark.parametrize("size", [(160, 45), (80, 24)])
async def test_b_gives_the_why_pane_what_it_holds_and_the_entry_the_rest(
    size: tuple[int, int],
) -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=size) as pilot:
        screen = await loaded(pilot, app)
        entry, why = screen.query_one(EntryView), screen.query_one("#why")
        await pilot.press("tab", "b")
        await pilot.pause()
        breakdown = screen.query_one("#breakdown")
        cap = 0.7 * screen.query_one("#right").region.height
        assert why.region.height <= breakdown.region.height + 2  # its border, no blank rows
        assert why.region.height <= cap
        assert why.region.height == breakdown.region.height + 2 or why.region.height >= cap - 1
        assert entry.region.height >= 6
