"""Regenerate screenshots/*.svg from the bundled demo (fixed today, watcher off, no blink).

    .venv/bin/python scripts/make_screenshots.py [--out screenshots]

Uses the same `create_app` factory as the CLI and the tests, so the pictures show the real app.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from memtui.cli import build_tui_parser
from memtui.commands.tui import create_app
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.main import MainScreen

TODAY = "2026-11-21"
SIZE = (130, 38)


async def settle(pilot: Pilot[int], condition: Callable[[], bool]) -> None:
    for _ in range(1000):
        if condition():
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise RuntimeError("the app did not reach the expected state")


async def shoot(
    out: Path,
    name: str,
    *,
    theme: str = "memtui-dark",
    query: str = "",
    keys: tuple[str, ...] = (),
    screen_name: str = "MainScreen",
    size: tuple[int, int] = SIZE,
) -> Path:
    args = build_tui_parser().parse_args(
        ["--demo", "--today", TODAY, "--no-watch", "--theme", theme]
    )
    app: MemtuiApp = create_app(args, deterministic=True)
    async with app.run_test(size=size) as pilot:
        await settle(
            pilot, lambda: isinstance(app.screen, MainScreen) and app.painted_generation > 0
        )
        screen = app.screen
        assert isinstance(screen, MainScreen)
        for char in query:
            await pilot.press("space" if char == " " else char)
        await settle(
            pilot,
            lambda: (
                screen.query_text == query
                and app.painted_generation >= screen.generation
                and not screen.detail_pending
            ),
        )
        if keys:
            await pilot.press(*keys)
        await settle(pilot, lambda: type(app.screen).__name__ == screen_name)
        path = out / f"{name}.svg"
        path.write_text(app.export_screenshot(title=f"memtui — {name}"), encoding="utf-8")
    return path


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    shots = [
        await shoot(out, "main", query="deploy"),
        await shoot(
            out, "breakdown", query="stripe key", keys=("enter", "B"), screen_name="BreakdownScreen"
        ),
        await shoot(out, "help", keys=("f1",), screen_name="HelpScreen"),
        await shoot(out, "light", theme="memtui-light", query="offsite tokyo"),
        await shoot(out, "no-matches", query="xylophone"),
        await shoot(out, "small-80x24", query="deploy", size=(80, 24)),
        await shoot(
            out,
            "high-contrast",
            theme="memtui-high-contrast",
            query="vat reverse charge",
            keys=("tab",),
        ),
    ]
    for path in shots:
        print(path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("screenshots"))
    options = parser.parse_args()
    # A private config home: the user's theme or settings must not change the pictures.
    with tempfile.TemporaryDirectory() as config_home:
        os.environ["XDG_CONFIG_HOME"] = config_home
        asyncio.run(main(options.out))
