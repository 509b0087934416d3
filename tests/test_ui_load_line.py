"""The load line on the main screen, as a user sees it: a ⤓ badge on the rows of entries an
agent does not load at session start, and the line drawn above such an entry's text; neither on
an ordinary entry, and both follow an edit of the file."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from ui_helpers import (
    SIZE,
    build_app,
    demo_app,
    rows,
    static_text,
    type_query,
    wait_loaded,
    wait_until,
    write,
)

from memtui.ui.app import MemtuiApp
from memtui.ui.load_line import BADGE
from memtui.ui.screens.main import MainScreen
from memtui.ui.textual_private import painted_strips
from memtui.ui.widgets.results import ResultsList


def row_of(app: MemtuiApp, title: str) -> str:
    return next(row for row in rows(app) if title in row)


def drawn_line(app: MemtuiApp) -> str:
    """The load line above the entry text ('' when it is hidden)."""
    rule = app.screen.query_one("#detail-rule", Static)
    return static_text(app, "#detail-rule") if rule.display and rule.has_class("-shown") else ""


async def wait_checked(pilot: Pilot[Any], screen: MainScreen) -> None:
    """The load-line check ran after the load (in its worker)."""
    await wait_until(pilot, lambda: bool(screen.query_one(ResultsList).past_load_line))


def memory_app(tmp_path: Path, text: str) -> MemtuiApp:
    """The app on a root whose MEMORY.md is `text`."""
    root = tmp_path / "root"
    write(root / "MEMORY.md", text)
    return build_app(str(root), "--no-watch")


def rule_heights(app: MemtuiApp) -> tuple[int, int]:
    """The drawn line's height as laid out, and the height its text needs at its width."""
    rule = app.screen.query_one("#detail-rule", Static)
    width = rule.content_size.width
    return rule.content_size.height, rule.get_content_height(rule.container_size, app.size, width)


async def searched(pilot: Pilot[Any], app: MemtuiApp, query: str) -> MainScreen:
    """Loaded, the load lines checked, and `query` typed."""
    screen = await wait_loaded(pilot, app)
    await wait_checked(pilot, screen)
    await type_query(pilot, app, query)
    return screen


async def test_a_badge_and_a_drawn_line_mark_what_the_agent_never_loads() -> None:
    app = demo_app("--days", "0")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_checked(pilot, screen)
        await type_query(pilot, app, "conference talks")
        assert screen.pane.hit is not None and screen.pane.hit.entry.title == "Conference talks"
        assert f"{BADGE} Conference talks" in row_of(app, "Conference talks")
        assert (
            "⤓ not loaded by Claude Code: it stops after line 200 (200 lines / 25,000 bytes)"
            in drawn_line(app)
        )

        await pilot.press("ctrl+u")  # clear the query: the newest entries, none past a line
        await wait_until(
            pilot,
            lambda: (
                screen.query_text == ""
                and app.painted_generation >= screen.generation
                and not screen.detail_pending
            ),
        )
        await pilot.pause()
        assert screen.pane.hit is not None and screen.pane.hit.entry.path != "MEMORY.md"
        assert all(BADGE not in row for row in rows(app))
        assert drawn_line(app) == ""


async def test_the_badge_follows_an_edit_of_the_file(tmp_path: Path) -> None:
    root = tmp_path / "root"
    filler = "".join(f"- note {number}\n" for number in range(195))
    memory_file = write(
        root / "MEMORY.md",
        f"# Memory\n\n## Early\n\n{filler}\n## Late topic\n\nWritten after the load line.\n",
    )
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_checked(pilot, screen)
        await type_query(pilot, app, "late topic")
        assert f"{BADGE} Late topic" in row_of(app, "Late topic")
        assert (
            "not loaded by Claude Code: it stops after line 200 (200 lines / 25,000 bytes)"
            in drawn_line(app)
        )

        memory_file.write_text(
            f"# Memory\n\n## Late topic\n\nNow near the top.\n\n## Early\n\n{filler}",
            encoding="utf-8",
        )
        applied = app.changes_applied
        screen.apply_paths([memory_file])
        await wait_until(pilot, lambda: app.changes_applied > applied)
        results = screen.query_one(ResultsList)
        await wait_until(
            pilot,
            lambda: (
                not any(
                    hit.entry.title == "Late topic" and hit.entry.id in results.past_load_line
                    for hit in results.hits[:5]
                )
            ),
        )
        await pilot.pause()
        assert BADGE not in row_of(app, "Late topic")
        assert drawn_line(app) == ""


async def test_the_drawn_line_is_as_tall_as_its_text_from_entry_to_entry(tmp_path: Path) -> None:
    """Moving between entries an agent stops reading in: the drawn line is re-laid out when its
    wrapped text needs another height, and only repainted when it does not."""
    filler = "".join(f"- note {number}\n" for number in range(190))
    straddle = "".join(f"- step {number}\n" for number in range(12))
    app = memory_app(
        tmp_path,
        f"# Memory\n\n## Early\n\n{filler}\n## Straddling topic\n\n{straddle}\n"
        "## Late topic\n\nWritten after the load line.\n\n"
        "## Later topic\n\nAlso written after it.\n\n## Latest topic\n\nAnd this.\n",
    )
    async with app.run_test(size=(90, 40)) as pilot:  # from 36 rows the line wraps
        screen = await searched(pilot, app, "topic")
        await pilot.press("tab")
        seen = []
        for key in ["down", "down", "down", "up", "up", "up", "down"]:
            await pilot.press(key)
            await wait_until(pilot, lambda: not screen.detail_pending)
            await pilot.pause()
            assert "not loaded by" in drawn_line(app)
            hit = screen.pane.hit
            assert hit is not None
            seen.append((hit.entry.title, *rule_heights(app)))
        assert all(height == needed for _, height, needed in seen), seen
        moves = list(pairwise(seen))
        assert any(a[0] != b[0] and a[1] == b[1] for a, b in moves)  # repainted only
        assert any(a[1] != b[1] for a, b in moves)  # laid out again


async def test_moves_faster_than_a_layout_keep_the_drawn_line_whole(tmp_path: Path) -> None:
    """Two moves between one frame and the next (a held arrow key): the line drawn by the first
    is not laid out yet when the second redraws it."""
    filler = "".join(f"- note {number}\n" for number in range(195))
    app = memory_app(
        tmp_path,
        f"# Memory\n\n## Early topic\n\n{filler}\n"
        "## Late topic\n\nWritten after the load line.\n\n"
        "## Later topic\n\nAlso written after it.\n",
    )
    async with app.run_test(size=(90, 40)) as pilot:  # from 36 rows the line wraps
        screen = await searched(pilot, app, "topic")
        hits = {hit.entry.title: hit for hit in screen.query_one(ResultsList).hits}
        early, late, later = hits["Early topic"], hits["Late topic"], hits["Later topic"]
        pane = screen.pane
        pane.select(early, None, painted=True)
        await pilot.pause()
        assert drawn_line(app) == ""
        pane.select(late, early, painted=True)  # shows the line; its layout is still to come
        pane.select(later, late, painted=True)
        await pilot.pause()
        assert "not loaded by" in drawn_line(app)
        shown, needed = rule_heights(app)
        assert shown == needed


@pytest.mark.parametrize(("size", "rule_rows"), [((80, 24), 1), ((120, 36), 2)])
async def test_on_a_short_screen_the_drawn_line_is_one_row_with_its_verdict_first(
    size: tuple[int, int], rule_rows: int
) -> None:
    """At 80×24 a two-row rule per agent left the entry three rows; the verdict leads, so the
    one row a short screen gives keeps what matters."""
    app = demo_app("--days", "0")
    async with app.run_test(size=size) as pilot:
        await searched(pilot, app, "conference talks")
        await pilot.pause()
        rule = app.screen.query_one("#detail-rule", Static)
        assert rule.content_size.height >= rule_rows
        if rule_rows == 1:
            assert rule.content_size.height == 1
            drawn = painted_strips(app.screen)[rule.region.y].text
            assert "⤓ not loaded by Claude Code" in drawn
