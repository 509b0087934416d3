"""Readable in every theme: WCAG AA contrast measured on what the app actually draws.

Every theme the app can switch to (memtui's, Textual's built-in ones reachable from the palette,
and any added later) is rendered, and the contrast of each character is computed from the
foreground and background of the rendered segments — not from a table of expected colours.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.terminal_theme import MONOKAI
from textual.color import Color
from textual.filter import monochrome_style
from textual.pilot import Pilot
from textual.widgets import Footer
from ui_helpers import SIZE, demo_app, wait_loaded, wait_until

from memtui.ui import render
from memtui.ui.app import MemtuiApp
from memtui.ui.contrast import (
    AA_TEXT,
    Cell,
    contrast_ratio,
    is_text,
    line_cells,
    matching_cells,
    readable,
    widget_cells,
)
from memtui.ui.screens.main import MainScreen
from memtui.ui.themes import readable_variables
from memtui.ui.widgets.results import ResultsList

channel = st.integers(0, 255)
colours = st.tuples(channel, channel, channel).map(lambda rgb: Color(*rgb))


@given(colours, colours)
def test_readable_always_reaches_aa(foreground: Color, background: Color) -> None:
    adjusted = readable(foreground, background)
    assert contrast_ratio(adjusted, background) >= AA_TEXT
    if contrast_ratio(foreground, background) >= AA_TEXT:
        assert adjusted == foreground  # a colour that passes is left alone


@pytest.mark.parametrize(
    ("first", "second", "ratio"),
    [
        ("#000000", "#ffffff", 21.0),
        ("#ffffff", "#ffffff", 1.0),
        ("#777777", "#ffffff", 4.48),
    ],
)
def test_contrast_ratio_matches_wcag(first: str, second: str, ratio: float) -> None:
    assert contrast_ratio(Color.parse(first), Color.parse(second)) == pytest.approx(ratio, abs=0.01)


def test_theme_variables_are_guarded_including_alpha_and_auto() -> None:
    variables = {
        "background": "#101010",
        "surface": "#181818",
        "panel": "#202020",
        "muted": "#303030",
        "text-accent": "ansi_blue",
        "block-cursor-foreground": "auto 87%",
        "block-cursor-background": "#ffffff 40%",
        "block-cursor-blurred-foreground": "#ffffff",
        "block-cursor-blurred-background": "#fafafa",
    }
    guarded = readable_variables(variables, MONOKAI)
    surface = Color.parse("#181818")
    assert contrast_ratio(Color.parse(guarded["muted"]), surface) >= AA_TEXT
    cursor = surface.blend(Color.parse("#ffffff"), 0.4)
    assert contrast_ratio(Color.parse(guarded["block-cursor-foreground"]), cursor) >= AA_TEXT
    blurred = Color.parse("#fafafa")
    assert (
        contrast_ratio(Color.parse(guarded["block-cursor-blurred-foreground"]), blurred) >= AA_TEXT
    )
    assert guarded["background"] == "#101010"  # backgrounds are never touched


def text_below(cells: list[Cell], minimum: float = AA_TEXT) -> str:
    """The unreadable characters, grouped by colours, for the failure message ('' if none)."""
    bad: dict[tuple[str, str], str] = {}
    for cell in cells:
        if is_text(cell.char) and cell.ratio < minimum:
            key = (cell.foreground.hex, cell.background.hex)
            bad[key] = bad.get(key, "") + cell.char
    return "; ".join(
        f"{text[:24]!r} {fg} on {bg} ({contrast_ratio(Color.parse(fg), Color.parse(bg)):.2f})"
        for (fg, bg), text in bad.items()
    )


def cursor_line(results: ResultsList) -> list[Cell]:
    return line_cells(
        widget_cells(results), results.region.y + results.cursor - int(results.scroll_y)
    )


async def loaded(pilot: Pilot[Any], app: MemtuiApp) -> MainScreen:
    screen = await wait_loaded(pilot, app)
    await wait_until(pilot, lambda: screen.pane.hit is not None and not screen.detail_pending)
    return screen


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(3):
        await pilot.pause()


async def test_every_theme_is_readable_where_it_matters() -> None:
    """Selected row (list focused and not), the entry's matches and the breakdown: ≥ 4.5:1."""
    app = demo_app("-q", "deploy")
    failures: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot, app)
        results = screen.query_one(ResultsList)
        themes = sorted(app.available_themes)
        assert {
            "memtui-dark",
            "memtui-light",
            "memtui-high-contrast",
            "textual-dark",
            "nord",
            "ansi-dark",
        } <= set(themes)
        for theme in themes:
            app.theme = theme
            results.focus()
            await settle(pilot)
            places = {"selected row, list focused": cursor_line(results)}
            screen.query_one("#query").focus()
            await settle(pilot)
            places["selected row, list not focused"] = cursor_line(results)
            hit = screen.pane.hit
            assert hit is not None
            pattern = render.match_pattern(hit.explanation.terms)
            assert pattern is not None
            matches = matching_cells(widget_cells(screen.query_one("#detail")), pattern)
            assert matches, f"{theme}: no match drawn in the entry pane"
            places["matches in the entry"] = matches
            places["breakdown"] = widget_cells(screen.query_one("#why"))
            places["header"] = widget_cells(screen.query_one("#topbar"))
            places["footer"] = widget_cells(screen.query_one(Footer))
            for place, cells in places.items():
                assert any(is_text(cell.char) for cell in cells), f"{theme}: {place} is empty"
                problem = text_below(cells)
                if problem:
                    failures.append(f"{theme} · {place}: {problem}")
    assert not failures, "\n".join(failures)


def in_256_colours(color: Color) -> Color:
    """The colour a 256-colour terminal draws (tmux's default): the nearest of its palette, as
    Rich downgrades a truecolor style there."""
    rounded = RichColor.from_rgb(color.r, color.g, color.b).downgrade(ColorSystem.EIGHT_BIT)
    return Color(*rounded.get_truecolor())


@pytest.mark.parametrize("theme", ["memtui-dark", "memtui-light", "memtui-high-contrast"])
async def test_memtui_themes_stay_readable_in_256_colours(theme: str) -> None:
    """QA: in tmux's default 256 colours, memtui-light's source colour (#8a3f9e) became
    #875faf, 3.5-3.9:1 on the badges' and the why pane's greys. Every text cell of the screen,
    list focused and not, with both colours rounded to the 256-colour palette."""
    app = demo_app("-q", "deploy", "--theme", theme)
    failures: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot, app)
        for focus in ("#query", "ResultsList"):
            screen.query_one(focus).focus()
            await settle(pilot)
            rounded = [
                replace(
                    cell,
                    foreground=in_256_colours(cell.foreground),
                    background=in_256_colours(cell.background),
                )
                for cell in widget_cells(screen)
            ]
            problem = text_below(rounded)
            if problem:
                failures.append(f"{focus} focused: {problem}")
    assert not failures, "\n".join(failures)


async def test_no_color_still_marks_the_selected_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under NO_COLOR (Textual draws greys) the selected row is reversed and stays readable."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = demo_app("-q", "deploy")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot, app)
        results = screen.query_one(ResultsList)
        assert app.no_color
        for theme in (
            "memtui-dark",
            "memtui-light",
            "memtui-high-contrast",
            "textual-light",
            "ansi-dark",
            "ansi-light",
        ):
            app.theme = theme
            for focused in (True, False):
                (results if focused else screen.query_one("#query")).focus()
                await settle(pilot)
                row = [cell for cell in cursor_line(results) if is_text(cell.char)]
                assert row and all(cell.style.reverse for cell in row), theme
                grey = [
                    Cell(
                        cell.x,
                        cell.y,
                        cell.char,
                        cell.foreground.monochrome,
                        cell.background.monochrome,
                        monochrome_style(cell.style),
                    )
                    for cell in row
                ]
                assert not text_below(grey), (theme, focused, text_below(grey))
                other = results.region.y + (results.cursor + 1) - int(results.scroll_y)
                others = line_cells(widget_cells(results), other)
                assert not any(cell.style.reverse for cell in others)
