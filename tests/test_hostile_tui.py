"""The app over the hostile corpus (Pilot): payloads show literally and made visible, markup is
never interpreted, clicking anything does nothing, and skip reasons reach the warnings view."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static
from ui_helpers import SIZE, build_app, detail_lines, rows, type_query, wait_loaded, wait_until

from memtui.bench import hostile
from memtui.core.sanitize import has_unsafe
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.main import MainScreen
from memtui.ui.screens.warnings import WarningsScreen
from memtui.ui.textual_private import notices
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.results import ResultsList


@pytest.fixture(scope="module")
def corpus(hostile_corpus: hostile.HostileFactory) -> hostile.HostileCorpus:
    return hostile_corpus(200)


@pytest.fixture
def opened_urls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every URL the app tries to open (none may be: content never becomes a link)."""
    calls: list[str] = []
    monkeypatch.setattr(MemtuiApp, "open_url", lambda self, url, **_: calls.append(url))
    return calls


def screen_is_safe(app: MemtuiApp) -> None:
    svg = app.export_screenshot()
    assert "\x1b" not in svg
    assert not has_unsafe(svg.replace("\n", "").replace("\r", ""))


async def test_markup_shows_literally_and_clicks_do_nothing(
    corpus: hostile.HostileCorpus,
    tmp_path: Path,
    opened_urls: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = build_app(str(corpus.root), "--no-watch", "--days", "0")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "click")
        listed = "\n".join(rows(app))
        assert "[@click=app.quit]CLICK" in listed  # titles are cut to the column width
        assert "[$accent @click=app.qu" in listed
        clicked = []
        for index in range(3):  # click all over the entries that carry action markup
            clicked.append("\n".join(detail_lines(app)))
            for line in range(8):
                await pilot.click(EntryView, offset=(2 + 9 * (line % 4), line))
            await pilot.click(ResultsList, offset=(20, index))
            assert app.is_running and isinstance(app.screen, MainScreen)
            await pilot.press("down")
            await pilot.pause()
        assert "[@click=app.quit]CLICK-QUIT[/]" in "\n".join(clicked)
        screen_is_safe(app)

        await pilot.press("slash", "ctrl+u")  # clicking moved the focus: back to the query
        await type_query(pilot, app, "markup")
        seen = []
        for _ in range(len(rows(app))):
            seen.append("\n".join(detail_lines(app)))
            await pilot.press("down")
            await pilot.pause()
        shown = "\n".join(seen)
        assert not has_unsafe(shown)
        for payload in hostile.MARKUP_PAYLOADS:
            assert payload in shown, payload
        assert "evil.example/md-link" in shown
        assert opened_urls == []
        assert app.is_running


async def test_escape_payloads_and_hostile_names_are_shown_visibly(
    corpus: hostile.HostileCorpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = build_app(str(corpus.root), "--no-watch", "--days", "0")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        for query in ("payload", "named"):
            await type_query(pilot, app, query)
            for step in range(min(12, len(rows(app)))):
                if step % 3 == 0:
                    screen_is_safe(app)
                await pilot.press("down")
                await pilot.pause()
            await pilot.press("ctrl+u")
            await pilot.pause()
        screen_is_safe(app)


async def test_skip_reasons_reach_the_warnings_view(
    corpus: hostile.HostileCorpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    app = build_app(str(corpus.root), "--no-watch", "--days", "0")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("enter")  # focus the list, where single-letter keys act
        await pilot.press("exclamation_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, WarningsScreen))
        body = str(app.screen.query_one("#warnings-body", Static).render())
        assert "symlink leaves the memory folder" in body
        assert "FIFO" in body
        assert "binary" in body
        assert not has_unsafe(body)
        screen_is_safe(app)


async def test_a_hostile_file_name_arriving_while_watched_is_announced_safely(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text("## Start\nfirst\n")
    app = build_app(str(root), "--days", "0", deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(
            pilot, lambda: screen.watcher is not None and screen.watcher.live.is_set(), steps=1_000
        )
        applied = app.changes_applied
        name = hostile.ESCAPE_PAYLOADS["osc52_clipboard"] + ".md"
        (root / name).write_text("## Arrived\n" + hostile.ESCAPE_PAYLOADS["osc0_title"] + "\n")
        await wait_until(pilot, lambda: app.changes_applied > applied, steps=1_500)
        await pilot.pause()
        shown = notices(app)
        assert any("␛]52;c;" in notice for notice in shown), shown
        assert not any(has_unsafe(notice) for notice in shown)
        screen_is_safe(app)
