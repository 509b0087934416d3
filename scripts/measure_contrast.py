"""Measure WCAG contrast in every theme, from what the app actually draws (the demo, `deploy`).

    .venv/bin/python scripts/measure_contrast.py [--no-color] [--size 120x36]

Prints, per theme, the weakest text contrast of the selected row (results focused and not),
of the query's matches in the entry pane, of the whole entry pane and of the breakdown.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile

from textual.filter import monochrome_style
from textual.pilot import Pilot
from textual.widget import Widget

from memtui.cli import build_tui_parser
from memtui.commands.tui import create_app
from memtui.ui import render
from memtui.ui.app import MemtuiApp
from memtui.ui.contrast import Cell, line_cells, matching_cells, weakest, widget_cells
from memtui.ui.screens.main import MainScreen
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.results import ResultsList

COLUMNS = ("row focused", "row blurred", "matches", "entry text", "breakdown")


def mono(found: list[Cell]) -> list[Cell]:
    """The cells as NO_COLOR shows them (Textual's monochrome filter)."""
    out = []
    for cell in found:
        style = monochrome_style(cell.style)
        out.append(
            Cell(
                cell.x,
                cell.y,
                cell.char,
                cell.foreground.monochrome,
                cell.background.monochrome,
                style,
            )
        )
    return out


def cursor_row(results: ResultsList, found: list[Cell]) -> list[Cell]:
    return line_cells(found, results.region.y + results.cursor - int(results.scroll_y))


def match_cells(found: list[Cell], screen: MainScreen) -> list[Cell]:
    hit = screen.pane.hit
    pattern = render.match_pattern(hit.explanation.terms) if hit else None
    return matching_cells(found, pattern) if pattern else []


async def settle(pilot: Pilot[int]) -> None:
    for _ in range(5):
        await pilot.pause()


def fmt(cells: list[Cell], no_color: bool) -> str:
    chosen = mono(cells) if no_color else cells
    low = weakest(chosen)
    return "   –  " if low is None else f"{low.ratio:6.2f}"


async def measure(size: tuple[int, int], no_color: bool) -> None:
    args = build_tui_parser().parse_args(
        ["--demo", "--today", "2026-11-21", "--no-watch", "-q", "deploy"]
    )
    app: MemtuiApp = create_app(args, deterministic=True)
    async with app.run_test(size=size) as pilot:
        for _ in range(500):
            if (
                isinstance(app.screen, MainScreen)
                and app.painted_generation > 0
                and not app.screen.detail_pending
            ):
                break
            await pilot.pause(0.01)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        results = screen.query_one(ResultsList)
        view = screen.query_one(EntryView)
        breakdown: Widget = screen.query_one("#breakdown")
        print(f"{'theme':<24}" + "".join(f"{name:>13}" for name in COLUMNS))
        for theme in sorted(app.available_themes):
            app.theme = theme
            results.focus()
            await settle(pilot)
            focused = cursor_row(results, widget_cells(results))
            screen.query_one("#query").focus()
            await settle(pilot)
            blurred = cursor_row(results, widget_cells(results))
            entry = widget_cells(view)
            matches = match_cells(entry, screen)
            why = widget_cells(breakdown)
            row = [fmt(found, no_color) for found in (focused, blurred, matches, entry, why)]
            print(f"{theme:<24}" + "".join(f"{value:>13}" for value in row))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-color", action="store_true", help="measure as NO_COLOR shows it")
    parser.add_argument("--size", default="120x36")
    options = parser.parse_args()
    width, height = (int(part) for part in options.size.split("x"))
    with tempfile.TemporaryDirectory() as config_home:
        os.environ["XDG_CONFIG_HOME"] = config_home
        if options.no_color:
            os.environ["NO_COLOR"] = "1"
        asyncio.run(measure((width, height), options.no_color))
