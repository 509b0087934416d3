"""`n`/`N` walk the entry's matches like less: wrap-around, the current one marked, `k/N` shown."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static
from ui_helpers import SIZE, build_app, type_query, wait_loaded, wait_until, write

from memtui.ui.textual_private import painted_strips
from memtui.ui.widgets.detail import EntryView

BODY = "\n".join(
    f"line {number} " + ("container here" if number % 9 == 0 else "filler words")
    for number in range(1, 60)
)


def header(app: object) -> str:
    return str(app.screen.query_one("#detail-header", Static).render())  # type: ignore[attr-defined]


async def test_n_and_shift_n_walk_every_match_and_wrap(tmp_path: Path) -> None:
    write(tmp_path / "root" / "MEMORY.md", f"## Containers\n{BODY}\n")
    app = build_app(str(tmp_path / "root"), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "container")
        view = app.screen.query_one(EntryView)
        total = len(view._matches)
        assert total == 7  # "Containers" in the heading + six body lines
        await wait_until(pilot, lambda: "match 1/7" in header(app))
        await pilot.press("tab", "enter")  # to the entry pane
        await wait_until(pilot, lambda: app.focused is view)
        seen = []
        for _ in range(total):
            await pilot.press("n")
            await pilot.pause()
            seen.append(view.current_match)
        assert seen == [1, 2, 3, 4, 5, 6, 0]  # every press moves, and wraps to the first
        assert "match 1/7" in header(app)
        await pilot.press("N")
        await pilot.pause()
        assert view.current_match == 6 and "match 7/7" in header(app)
        line = view._matches[6][0]
        painted = view.render_line(line - int(view.scroll_y))
        assert any(
            segment.text == "container" and segment.style is not None and segment.style.underline
            for segment in painted
        )


async def test_a_narrow_pane_still_shows_the_match_position(tmp_path: Path) -> None:
    """At 80 columns the header's end is cut: the position comes right after the path."""
    write(tmp_path / "root" / "MEMORY.md", f"## Containers\n{BODY}\n")
    app = build_app(str(tmp_path / "root"), "--no-watch")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "container")
        await wait_until(pilot, lambda: "match 1/7" in header(app))
        bar = app.screen.query_one("#detail-header", Static)
        drawn = painted_strips(app.screen)[bar.region.y].text
        assert "MEMORY.md:1-60 · match 1/7" in drawn, drawn
