"""Snapshot tests (pytest-textual-snapshot) of the demo: fixed today, no watcher, no blink.

Regenerate after an intended visual change with `pytest tests/test_ui_snapshots.py
--snapshot-update` and look at the report before committing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from ui_helpers import SIZE, build_app, demo_app, type_query, wait_loaded, wait_until

from memtui.ui.app import MemtuiApp
from memtui.ui.filters import SEARCH_HINT
from memtui.ui.screens.breakdown import BreakdownScreen
from memtui.ui.screens.help import HelpScreen
from memtui.ui.screens.no_memory import NoMemoryScreen
from memtui.ui.widgets.query import QueryInput

Snap = Callable[..., bool]


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MEMTUI_DIR", raising=False)
    monkeypatch.chdir("/")


def prepare(
    app: MemtuiApp, query: str = "", *keys: str, until: Callable[[], bool] | None = None
) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_loaded(pilot, app)
        if query:
            await type_query(pilot, app, query)
        if keys:
            await pilot.press(*keys)
        if until is not None:
            await wait_until(pilot, until)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("theme", ["memtui-dark", "memtui-light", "memtui-high-contrast"])
def test_main_screen_with_a_query(snap_compare: Snap, theme: str) -> None:
    app = demo_app("--theme", theme)
    assert snap_compare(app, terminal_size=SIZE, run_before=prepare(app, "deploy"))


SIZES = [(60, 20), (80, 24), (100, 30), (120, 35), (160, 45), (220, 50)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{width}x{height}" for width, height in SIZES])
def test_main_screen_at_every_size(snap_compare: Snap, size: tuple[int, int]) -> None:
    """The layout's size classes: stacked below 80 columns, the why pane shrinking first."""
    app = demo_app()
    assert snap_compare(app, terminal_size=size, run_before=prepare(app, "deploy"))


def test_browse_mode_lists_newest_first_with_dates(snap_compare: Snap) -> None:
    """An empty query: dates instead of scores, 'newest first' and a one-line why."""
    app = demo_app()

    def hinted() -> bool:  # the placeholder's filters come from a worker after indexing
        return app.screen.query_one(QueryInput).placeholder != SEARCH_HINT

    assert snap_compare(app, terminal_size=(120, 35), run_before=prepare(app, until=hinted))


def test_markdown_table_and_inline_code(snap_compare: Snap) -> None:
    app = demo_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=prepare(app, "vat reverse charge"))


@pytest.mark.parametrize("key", ["w", "f"])
def test_weights_and_filters_dock_under_the_list(snap_compare: Snap, key: str) -> None:
    app = demo_app()
    assert snap_compare(
        app,
        terminal_size=(80, 24),
        run_before=prepare(
            app, "deploy", "tab", key, until=lambda: type(app.screen).__name__ != "MainScreen"
        ),
    )


def test_no_matches(snap_compare: Snap) -> None:
    app = demo_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=prepare(app, "xylophone"))


def test_help_screen(snap_compare: Snap) -> None:
    app = demo_app()
    assert snap_compare(
        app,
        terminal_size=SIZE,
        run_before=prepare(app, "", "f1", until=lambda: isinstance(app.screen, HelpScreen)),
    )


def test_expanded_breakdown(snap_compare: Snap) -> None:
    app = demo_app()
    assert snap_compare(
        app,
        terminal_size=SIZE,
        run_before=prepare(
            app, "deploy", "enter", "B", until=lambda: isinstance(app.screen, BreakdownScreen)
        ),
    )


def test_no_memory_folder(snap_compare: Snap) -> None:
    app = build_app("--no-watch")

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: isinstance(app.screen, NoMemoryScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
