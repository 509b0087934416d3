"""Help and forms are readable: help is a two-column table that scrolls to its end, and the
filters form shows placeholders as placeholders, ticks by shape and bad dates as you type."""

from __future__ import annotations

from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Input
from ui_helpers import demo_app, wait_loaded, wait_until

from memtui.ui.app import MemtuiApp
from memtui.ui.screens.filters import FiltersScreen, TickBox
from memtui.ui.screens.help import HelpScreen, help_table
from memtui.ui.screens.main import MainScreen
from memtui.ui.screens.weights import WeightsScreen
from memtui.ui.textual_private import painted_strips

ROWS = [
    ("in the results list", "j ↓", "next result", "results.down"),
    (
        "in the results list",
        "e",
        "open $EDITOR at the entry's line (reloads the file after it "
        "was edited, so the list shows the change)",
        "pane.edit",
    ),
    ("query syntax", "-word", "drop entries containing word", ""),
]


@pytest.mark.parametrize("ids", [False, True])
@pytest.mark.parametrize("width", [40, 56, 76, 96])
def test_help_descriptions_wrap_inside_their_own_column(width: int, ids: bool) -> None:
    lines = help_table(ROWS, width, ids=ids).plain.split("\n")
    key_column = 2 + max(len(keys) for _, keys, _, _ in ROWS) + 2
    rows = [line for line in lines if line.startswith("  ")]  # not headers or blank lines
    assert len(rows) > len(ROWS)  # the long description took more than one line
    id_cells = len("results.down") + 2 if ids else 0
    for line in rows:
        keys, text = line[:key_column], line[key_column:]
        assert keys.strip() in {"", "j ↓", "e", "-word"}  # nothing runs under the keys
        assert text and not text.startswith(" ")
        assert len(line) <= max(width, key_column + 16 + id_cells)
    text = " ".join(lines)
    # the ids (what [keymap] remaps) only in their own column, when asked for
    assert ("pane.edit" in text and "results.down" in text) is ids
    if ids:
        starts = {
            line.index(name)
            for name in ("pane.edit", "results.down")
            for line in rows
            if name in line
        }
        assert len(starts) == 1  # one column, aligned


async def test_help_is_in_sentence_case_and_i_shows_the_ids() -> None:
    app = demo_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_help(pilot, app)
        body = screen.query_one("#help-body")
        for *_, what, _ in screen.rows:
            assert what[:1] == what[:1].upper(), what
        shown = str(body.render())
        assert "Next result" in shown and "results.down" not in shown
        assert "ctrl+" not in shown  # keys written one way: ^a, as the footer does
        await pilot.press("i")
        await pilot.pause()
        assert "results.down" in str(body.render())


async def open_help(pilot: Pilot[Any], app: MemtuiApp) -> HelpScreen:
    await wait_loaded(pilot, app)
    await pilot.press("f1")
    await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, HelpScreen)
    return screen


@pytest.mark.parametrize("key", ["end", "pagedown"])
async def test_end_and_page_down_reach_the_end_of_the_help(key: str) -> None:
    app = demo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_help(pilot, app)
        scroll = screen.query_one(VerticalScroll)
        for _ in range(1 if key == "end" else 30):
            await pilot.press(key)
        await pilot.pause()
        assert scroll.max_scroll_y > 0
        assert scroll.scroll_y == scroll.max_scroll_y
        shown = [strip.text for strip in painted_strips(screen)]
        assert any("newest first" in line for line in shown)  # the last row is on screen


async def open_filters(pilot: Pilot[Any], app: MemtuiApp) -> FiltersScreen:
    await wait_loaded(pilot, app)
    await pilot.press("tab", "f")
    await wait_until(pilot, lambda: isinstance(app.screen, FiltersScreen))
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, FiltersScreen)
    return screen


async def test_ticks_differ_by_shape_and_placeholders_look_like_placeholders() -> None:
    app = demo_app("-q", "deploy source:daily")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_filters(pilot, app)
        boxes = {box.id: str(box.render()) for box in screen.query(TickBox)}
        assert boxes["source-daily"].startswith("[x]")
        assert boxes["source-long_term"].startswith("[ ]")
        role = screen.query_one("#role", Input)
        placeholder = role.get_component_rich_style("input--placeholder")
        assert placeholder.italic and placeholder.color != role.rich_style.color
        assert role.placeholder.startswith("e.g.")


async def test_a_bad_date_is_flagged_as_you_type_and_not_applied() -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_filters(pilot, app)
        after = screen.query_one("#after", Input)
        note = screen.query_one("#date-problem")
        assert not note.display
        after.focus()
        await pilot.press(*"2026-13")
        await pilot.pause()
        assert note.display and "after:2026-13" in str(note.render())
        assert after.has_class("-invalid")
        await pilot.press("ctrl+s")  # refused: the search would reject it
        await pilot.pause()
        assert app.screen is screen and screen.focused is after
        await pilot.press("backspace", "2")
        await pilot.pause()
        assert not note.display and not after.has_class("-invalid")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.screen.query_text == "deploy after:2026-12"


async def test_f_tab_space_enter_applies_a_source_filter() -> None:
    """enter applies from a checkbox too (space ticks it), as the window's hint says."""
    app = demo_app("-q", "deploy")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("tab", "f")
        await wait_until(pilot, lambda: isinstance(app.screen, FiltersScreen))
        await pilot.press("tab", "space", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        main = app.screen
        assert isinstance(main, MainScreen) and main.query_text == "deploy source:daily"


@pytest.mark.parametrize("field", ["#role", "#tag", "#after"])
async def test_enter_in_any_field_applies(field: str) -> None:
    app = demo_app("-q", "deploy")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_filters(pilot, app)
        screen.query_one("#source-long_term", TickBox).focus()
        await pilot.press("space")
        screen.query_one(field, Input).focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        main = app.screen
        assert isinstance(main, MainScreen) and main.query_text == "deploy source:long_term"


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
async def test_the_weights_window_fits_with_its_keys_and_sum(size: tuple[int, int]) -> None:
    app = demo_app()
    async with app.run_test(size=size) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, WeightsScreen))
        await pilot.pause()
        shown = "\n".join(strip.text for strip in painted_strips(app.screen))
        assert "sum 1.00" in shown and "esc close" in shown and "s save" in shown
        for name in ("relevance", "source", "recency", "position", "half-life"):
            assert name in shown
        assert "of\n" not in shown  # no label wrapped onto a line of its own
