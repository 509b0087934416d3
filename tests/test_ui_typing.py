"""Typing continues where the user left off: the caret is at the end of the query whenever the
box gets it (`-q`, a recalled query, focus coming back), and no key typed after a clear is lost,
however fast it comes."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_helpers import (
    SIZE,
    build_app,
    burst,
    demo_app,
    rows,
    static_text,
    type_query,
    wait_loaded,
    wait_until,
    workers_done,
    write,
)

from memtui.core.live.engine import Engine
from memtui.core.settings.history import default_history_path, write_history
from memtui.ui import idle, render
from memtui.ui.screens.main import MainScreen
from memtui.ui.textual_private import painted_strips
from memtui.ui.widgets.entry_pane import EntryPane
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList


async def test_typing_after_dash_q_extends_the_query_at_its_end() -> None:
    app = demo_app("-q", "deplo")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.query_text == "deploy")
        assert screen.query_one(QueryInput).value == "deploy"


async def test_typing_after_a_recalled_query_extends_it(isolated_environment: Path) -> None:
    write_history(default_history_path(), ["stripe key"], roots=[])
    app = build_app("--demo", "--no-watch", deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        box = screen.query_one(QueryInput)
        await workers_done(pilot, app)
        await pilot.press("up")
        assert box.value == "stripe key"
        await pilot.press("s")
        assert box.value == "stripe keys"


async def test_typing_after_focus_comes_back_extends_the_query(tmp_path: Path) -> None:
    """The list empties under focus, the box takes focus back: `x` gives `quokkax`."""
    root = tmp_path / "root"
    write(root / "MEMORY.md", "## Other\nnothing to see\n")
    quokka = write(root / "quokka.md", "## Quokka\nA quokka smiled.\n")
    app = build_app(str(root), "--days", "0", deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(
            pilot, lambda: screen.watcher is not None and screen.watcher_mode.value == "watching"
        )
        await type_query(pilot, app, "quokka")
        await pilot.press("ctrl+a", "tab")  # the caret at the start, then the list takes focus
        assert app.focused is screen.query_one(ResultsList)
        quokka.unlink()
        await wait_until(pilot, lambda: isinstance(app.focused, QueryInput), steps=1500)
        await pilot.press("x")
        await wait_until(pilot, lambda: screen.query_text == "quokkax")


async def test_typing_after_tab_back_to_the_box_extends_the_query() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deplo")
        await pilot.press("ctrl+a", "tab", "slash", "y")  # caret moved away; focus leaves, returns
        await wait_until(pilot, lambda: screen.query_text == "deploy")


@pytest.mark.parametrize("clear", [["ctrl+u"], ["escape"], ["slash", "ctrl+u"]])
async def test_a_burst_after_a_clear_is_never_dropped(clear: list[str]) -> None:
    app = demo_app("-q", "stripe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        if clear[0] == "slash":
            await pilot.press("tab")  # from the results, as a user coming back to type
        burst = list("rollback")
        await pilot.press(*clear, *burst)  # one call: no pause between the clear and the keys
        await wait_until(pilot, lambda: screen.query_text == "rollback")
        assert screen.query_one(QueryInput).value == "rollback"


@pytest.mark.parametrize(
    "clear", [["slash", "ctrl+u"], ["slash"], ["escape"], ["escape", "ctrl+u"]]
)
async def test_keys_queued_right_behind_a_focus_change_or_clear_go_to_the_box(
    clear: list[str],
) -> None:
    """From the results: `/` (or esc), ctrl+u, then a burst, all queued before any runs."""
    app = demo_app("-q", "stripe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await pilot.press("tab")
        assert isinstance(app.focused, ResultsList)
        burst(app, [*clear, "ctrl+u", *"rollback"])
        await wait_until(pilot, lambda: screen.query_text == "rollback")
        assert isinstance(app.screen, MainScreen) and not screen.pane.revealed


@pytest.mark.parametrize("key", ["enter", "tab"])
async def test_keys_queued_right_behind_enter_or_tab_go_to_the_list(key: str) -> None:
    app = demo_app("-q", "stripe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        results = screen.query_one(ResultsList)
        burst(app, [key, "j", "j"])
        await wait_until(pilot, lambda: results.cursor == 2)
        assert screen.query_text == "stripe"


async def test_z_queued_right_behind_enter_in_the_list_zooms_the_entry() -> None:
    app = demo_app("-q", "stripe")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("tab")
        assert isinstance(app.focused, ResultsList)
        burst(app, ["enter", "z"])
        await wait_until(pilot, lambda: app.screen.maximized is not None)
        assert isinstance(app.screen.maximized, EntryPane)


@pytest.mark.parametrize(
    ("keys", "typed"),
    [
        (["a", "b", "backspace", "c"], "ac"),
        (["a", "b", "ctrl+u", "c", "d"], "cd"),
        (["a", "b", "left", "x"], "axb"),
        (["a", "b", "ctrl+w", "z"], "z"),
    ],
)
async def test_editing_keys_in_a_burst_act_in_the_order_they_were_typed(
    keys: list[str], typed: str
) -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        burst(app, keys)
        await wait_until(pilot, lambda: screen.query_text == typed)
        await pilot.pause()
        assert screen.query_one(QueryInput).value == typed


async def test_the_placeholder_names_filters_this_memory_has(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root / "MEMORY.md", "## Deploys\nship on Tuesdays\n")
    write(root / "notes/stack.md", "---\ntags: [infra]\n---\n## Stack\npostgres\n")
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        box = screen.query_one(QueryInput)
        await wait_until(pilot, lambda: "tag:" in str(box.placeholder))
        assert "tag:infra" in box.placeholder
        assert "source:daily" not in box.placeholder  # no daily notes here


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 35), (160, 45)])
async def test_browse_mode_says_what_it_is(size: tuple[int, int]) -> None:
    """An empty query lists newest first: the status says so, rows show dates, not scores
    that go up and down, and the why pane says in one line that nothing is ranked yet."""
    app = demo_app()
    async with app.run_test(size=size) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(pilot, lambda: "newest first" in static_text(app, "#query-status"))
        first = rows(app)[0]
        assert first.split()[1] in {"2026-11-21", "11-21"}
        assert "▆" not in first
        if size[0] >= 80:  # below 80 the why pane is behind b
            await wait_until(
                pilot, lambda: screen.pane.hit is not None and not screen.detail_pending
            )
            why = static_text(app, "#breakdown")
            assert why == render.BROWSE_WHY  # one line, not a breakdown of zeros
        await type_query(pilot, app, "deploy")
        assert "newest first" not in static_text(app, "#query-status")
        assert "▆" in rows(app)[0]
        assert screen.result is not None and not screen.result.browse


@pytest.mark.parametrize("width", [60, 80, 100, 120, 160, 200])
async def test_no_status_line_ends_in_a_separator_and_the_window_hint_shows(width: int) -> None:
    app = demo_app()
    async with app.run_test(size=(width, 24)) as pilot:
        await wait_loaded(pilot, app)
        for line in (static_text(app, "#query-status"), static_text(app, "#app-status")):
            assert line.strip() and not line.rstrip().endswith("·")
        shown = static_text(app, "#query-status") + static_text(app, "#app-status")
        if width >= 80:
            assert "+11 older" in shown  # the window hint, in one line or the other


async def test_the_typing_helpers_wait_for_a_pause_in_typing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Typo buckets and prefix sums are prepared once typing pauses, not beside the first
    word: keys that keep coming keep them waiting, and a pause lets them run."""
    prepared: list[Engine] = []

    def prepare(engine: Engine) -> None:
        prepared.append(engine)

    monkeypatch.setattr(Engine, "prepare_expansions", prepare)
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(pilot, lambda: screen.engine is not None and screen.engine.index_ready)
        for key in "stripe":
            await pilot.press(key)
            assert prepared == []  # each key restarts the wait
        await pilot.pause(idle.IDLE_S + 0.2)
        await wait_until(pilot, lambda: prepared != [])
        assert prepared == [screen.engine]


async def test_a_query_longer_than_the_box_keeps_what_is_typed_in_view() -> None:
    app = demo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_loaded(pilot, app)
        box = screen.query_one(QueryInput)
        query = "deploy the gateway service with docker compose then read the logs for xyzzy"
        await pilot.press(*query)
        await wait_until(pilot, lambda: screen.query_text == query)
        assert box.max_scroll_x > 0 and box.scroll_x == box.max_scroll_x
        query_row = painted_strips(app.screen)[box.region.y].text
        assert "xyzzy" in query_row and not query_row.startswith(" ❯ deploy")
