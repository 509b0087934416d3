"""Build the real app for Pilot tests and wait for it without sleeping blindly."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual import events
from textual.command import Provider
from textual.pilot import Pilot
from textual.screen import Screen

from memtui.cli import build_parser, build_tui_parser
from memtui.commands.tui import create_app
from memtui.core.settings.config import Config
from memtui.ui.app import MemtuiApp
from memtui.ui.options import AppOptions, HandOffMode
from memtui.ui.screens.main import MainScreen
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.results import ResultsList

if TYPE_CHECKING:
    from memtui.core.live.engine import Engine

TODAY = dt.date(2026, 11, 21)
SIZE = (120, 36)


def build_app(*argv: str, deterministic: bool = True) -> MemtuiApp:
    args = build_tui_parser().parse_args([*argv, "--today", TODAY.isoformat()])
    return create_app(args, deterministic=deterministic)


def demo_app(*argv: str) -> MemtuiApp:
    return build_app("--demo", "--no-watch", *argv)


def picker(*argv: str, multi: bool = False) -> MemtuiApp:
    args = build_parser("pick").parse_args(
        [*argv, "--no-watch", "--today", TODAY.isoformat(), *(["--multi"] if multi else [])]
    )
    mode: HandOffMode = "all" if multi else "selected"
    return create_app(args, deterministic=True, hand_off=mode)


def burst(app: MemtuiApp, keys: list[str]) -> None:
    """Keys queued all at once, as a terminal delivers a paste or fast typing in one read:
    nothing runs between them (`pilot.press` waits for the app to idle after each key)."""
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        app.post_message(event)


def app_over(engine: object, root: Path) -> MemtuiApp:
    """The app on a stand-in engine (`ui_fakes`) for `root`, unwatched, its output fixed: for
    the tests that hold, release or replay searches by hand."""
    options = AppOptions(
        root=root,
        config=Config(),
        today=TODAY,
        days=30,
        watch=False,
        deterministic=True,
        engine_factory=lambda _: cast("Engine", engine),
    )
    return MemtuiApp(options)


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], *, steps: int = 400) -> None:
    """Let the app run until `condition()` holds (bounded by steps, not by wall-clock time)."""
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never reached the expected state")


async def workers_done(pilot: Pilot[Any], app: MemtuiApp) -> None:
    """Let the app run until no worker is running. Not `app.workers.wait_for_complete`: it
    raises WorkerCancelled when a search ends cancelled by a newer one, as searches do (a
    flake whenever one was cancelled just then)."""
    await wait_until(pilot, lambda: all(worker.is_finished for worker in app.workers), steps=3000)


def main_screen(app: MemtuiApp) -> MainScreen:
    screen = app.screen
    assert isinstance(screen, MainScreen), screen
    return screen


async def wait_loaded(pilot: Pilot[Any], app: MemtuiApp) -> MainScreen:
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, MainScreen)
            and app.screen.engine is not None
            and app.painted_generation > 0
        ),
    )
    return main_screen(app)


async def type_query(pilot: Pilot[Any], app: MemtuiApp, text: str) -> None:
    """Type like a user (one key at a time) and wait for the last search to be painted."""
    screen = main_screen(app)
    for char in text:
        await pilot.press("space" if char == " " else char)
    await wait_until(
        pilot,
        lambda: (
            screen.query_text == text
            and app.painted_generation >= screen.generation
            and not screen.detail_pending
        ),
    )
    await pilot.pause()


def rows(app: MemtuiApp) -> list[str]:
    return app.screen.query_one(ResultsList).rendered_rows()


def detail_lines(app: MemtuiApp) -> list[str]:
    return app.screen.query_one(EntryView).plain_lines()


def static_text(app: MemtuiApp, selector: str) -> str:
    """The text a Static or a status line shows now."""
    return str(app.screen.query_one(selector).render())


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


async def palette_commands(app: MemtuiApp, screen: Screen[Any]) -> dict[str, str]:
    """Title -> help of every command the palette offers over `screen` with nothing typed:
    the app's system commands and those of the screen's own command providers."""
    commands = {command.title: command.help for command in app.get_system_commands(screen)}
    for source in screen.COMMANDS:
        provider: type[Provider] = source if isinstance(source, type) else source()
        async for hit in provider(screen).discover():
            commands[hit.text or ""] = hit.help or ""
    return commands
