"""Pilot tests of the real app: what the list, the entry pane and the breakdown show."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from ui_helpers import (
    SIZE,
    build_app,
    demo_app,
    detail_lines,
    main_screen,
    palette_commands,
    rows,
    static_text,
    type_query,
    wait_loaded,
    wait_until,
    workers_done,
    write,
)

from memtui.cli import main
from memtui.core.live.engine import Engine
from memtui.core.model import ChangeSet
from memtui.ui.bindings import PANE_BINDINGS
from memtui.ui.palette import PALETTE_COMMANDS
from memtui.ui.screens.breakdown import BreakdownScreen
from memtui.ui.screens.filters import FiltersScreen
from memtui.ui.screens.help import HelpScreen, help_rows
from memtui.ui.screens.main import MainScreen
from memtui.ui.screens.no_memory import NoMemoryScreen
from memtui.ui.screens.warnings import WarningsScreen
from memtui.ui.screens.weights import WeightsScreen
from memtui.ui.textual_private import notices, painted_strips
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.entry_pane import EntryPane
from memtui.ui.widgets.results import ResultsList


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No user config or themes leak in; nothing is written to the real home."""
    config_home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home))
    monkeypatch.delenv("MEMTUI_DIR", raising=False)
    return config_home


async def test_typing_reranks_and_explains_the_top_hit() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        listed = rows(app)
        assert listed, "no rows rendered"
        assert screen.result is not None and screen.result.total_matches == len(screen.result.hits)
        top = screen.result.hits[0]
        assert "deploy" in top.entry.title.lower()
        assert top.entry.title[:12] in listed[0]
        assert listed[0].lstrip().startswith("1 ")
        assert len(listed) == len(screen.result.hits)
        assert f"{screen.result.total_matches} matches" in static_text(app, "#query-status")
        assert detail_lines(app)[0] == f"## {top.entry.title}"
        assert app.screen.query_one(EntryView).match_count > 0
        why = static_text(app, "#breakdown")
        for factor in ("relevance", "source", "recency", "position"):
            assert factor in why
        assert "deploy" in why and "exact" in why
        assert top.entry.path in static_text(app, "#detail-header")


async def test_arrows_move_the_selection_while_the_query_has_focus() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        assert screen.result is not None
        second = screen.result.hits[1]
        await pilot.press("down")
        await pilot.pause()
        assert isinstance(app.focused, type(app.screen.query_one("#query")))
        results = app.screen.query_one(ResultsList)
        assert results.selected is not None and results.selected.entry.id == second.entry.id
        assert detail_lines(app)[0] == f"## {second.entry.title}"
        assert "why #2" in str(app.screen.query_one("#why").border_title)
        assert "vs #1" in static_text(app, "#breakdown")
        await pilot.press("end")
        await pilot.pause()
        assert results.cursor == len(screen.result.hits) - 1
        await pilot.press("home")
        await pilot.pause()
        assert results.cursor == 0


async def test_selection_survives_a_rerank_by_entry_id() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        await pilot.press("down", "down")
        results = app.screen.query_one(ResultsList)
        chosen = results.selected
        assert chosen is not None
        await pilot.press("enter")  # focus the list, where single-letter keys act
        generation = screen.generation
        await pilot.press("plus")  # boost the file: the list reranks
        await wait_until(pilot, lambda: app.painted_generation > generation)
        assert results.selected is not None
        assert results.selected.entry.id == chosen.entry.id
        why = static_text(app, "#breakdown")
        assert "session" in why.lower()


async def test_no_matches_explains_itself() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "zzqxv")
        empty = app.screen.query_one("#empty")
        assert empty.display and not app.screen.query_one(ResultsList).display
        text = static_text(app, "#empty")
        assert "No matches for" in text
        assert "zzqxv" in text
        assert not "".join(detail_lines(app)).strip(), "a stale entry is still shown"
        assert not static_text(app, "#breakdown").strip()


async def test_hostile_text_shows_literally(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(
        root / "MEMORY.md",
        (
            "# Memory\n\n## Payload [@click=app.quit] [bold]loud[/\n\n"
            "Click [@click=app.quit]here[/] or [link=file:///etc/passwd]this[/link].\n"
            "Title trick \x1b]0;pwned\x07 and \x1b]52;c;SGVsbG8=\x07 clipboard.\n"
            "[a link](javascript:alert(1)) ![img](http://example.com/x.png)\n"
        ),
    )
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        listed = rows(app)
        assert any("Payload [@click=app." in row for row in listed)
        text = "\n".join(detail_lines(app))
        assert "[@click=app.quit]here[/]" in text
        assert "[link=file:///etc/passwd]" in text
        assert "\x1b" not in text and "␛]0;pwned" in text
        assert "‹javascript:alert(1)›" in text
        await pilot.click(ResultsList, offset=(10, 0))
        await pilot.pause()
        assert app.is_running


async def test_watching_shows_an_appended_entry(tmp_path: Path) -> None:
    root = tmp_path / "root"
    memory = write(root / "MEMORY.md", "# Memory\n\n## First\n\nAlpha entry.\n")
    app = build_app(str(root), deterministic=False)
    app.options.force_polling = False
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(pilot, lambda: screen.watcher is not None)
        await type_query(pilot, app, "zebracorn")
        assert not rows(app)
        with memory.open("a", encoding="utf-8") as handle:
            handle.write("\n## Zebracorn sighting\n\nA zebracorn walked past.\n")
        await wait_until(
            pilot, lambda: any("Zebracorn sighting" in row for row in rows(app)), steps=1500
        )
        assert screen.query_text == "zebracorn"
        assert app.changes_applied >= 1


async def test_a_change_applied_while_the_app_quits_touches_no_widget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quitting app removes the screen's widgets before the screen and its watcher; a change
    whose apply ends then must not look for them (it failed the app once: `ResultsList` gone)."""
    root = tmp_path / "root"
    memory = write(root / "MEMORY.md", "# Memory\n\n## First\n\nAlpha entry.\n")
    applying, release = threading.Event(), threading.Event()
    apply_changes = Engine.apply_changes

    def held(engine: Engine, paths: list[str]) -> ChangeSet:
        applying.set()
        release.wait(5)
        return apply_changes(engine, paths)

    monkeypatch.setattr(Engine, "apply_changes", held)
    # The apply ends the moment the list is removed, before its screen is.
    monkeypatch.setattr(ResultsList, "on_unmount", lambda _: release.set(), raising=False)
    app = build_app(str(root), deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(pilot, lambda: screen.watcher is not None and screen.watcher.live.is_set())
        with memory.open("a", encoding="utf-8") as handle:
            handle.write("\n## Second\n\nBeta entry.\n")
        await wait_until(pilot, applying.is_set, steps=1500)
    assert release.is_set()


async def test_window_toggle_keeps_the_query() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "offsite")
        before = screen.result.total_matches if screen.result else 0
        generation = screen.generation
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: app.painted_generation > generation)
        assert screen.window_all
        assert screen.query_text == "offsite"
        assert "all dates" in static_text(app, "#app-status")
        assert screen.result is not None and screen.result.total_matches >= before


async def test_filters_screen_rewrites_the_query() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        await pilot.press("ctrl+f")
        await wait_until(pilot, lambda: isinstance(app.screen, FiltersScreen))
        await pilot.click("#source-daily")
        await pilot.click("#apply")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert screen.query_text == "deploy source:daily"
        await wait_until(pilot, lambda: app.painted_generation >= screen.generation)
        assert screen.result is not None and screen.result.hits
        assert all(hit.entry.source.value == "daily" for hit in screen.result.hits)


async def test_weights_screen_reranks_live() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        assert screen.engine is not None
        before = dict(screen.engine.weights)
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, WeightsScreen))
        generation = screen.generation
        await pilot.press("down", "right", "right")  # more weight on `source`
        await wait_until(pilot, lambda: app.painted_generation > generation)
        assert screen.engine.weights["source"] > before["source"]
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_help_lists_every_binding() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = static_text(app, "#help-body")
        for what in (row[2] for row in help_rows(app, app.live_keymap)):
            assert what in text
        assert len([b for b in PANE_BINDINGS]) <= len(help_rows(app, app.live_keymap))
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_expanded_breakdown_and_warnings_screens_open() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        await pilot.press("enter", "B")
        await wait_until(pilot, lambda: isinstance(app.screen, BreakdownScreen))
        text = static_text(app, "#why-body")
        assert "matched terms" in text and "relevance" in text
        await pilot.press("escape", "exclamation_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, WarningsScreen))
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_secrets_are_masked_until_revealed(tmp_path: Path) -> None:
    root = tmp_path / "root"
    secret = "sk-live-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4"
    write(root / "MEMORY.md", f"# Memory\n\n## Keys\n\nThe key is {secret} for billing.\n")
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        assert secret not in "\n".join(detail_lines(app))
        assert "masked" in static_text(app, "#detail-header")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert screen.query_one(EntryPane).revealed
        assert secret in "\n".join(detail_lines(app))


async def test_the_why_pane_and_b_mask_a_secret_the_match_came_from(tmp_path: Path) -> None:
    """QA: `B` opened the breakdown with the matched secret whole, where the pane masked it."""
    root = tmp_path / "root"
    password = "hunter2hunter2"
    write(root / "MEMORY.md", f"# Memory\n\n## Staging\n\npassword = {password} (rotated)\n")
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "hunt")
        why = static_text(app, "#breakdown")
        assert "hu…••••" in why and password not in why
        await pilot.press("enter", "B")
        await wait_until(pilot, lambda: isinstance(app.screen, BreakdownScreen))
        why = static_text(app, "#why-body")
        assert "hu…••••" in why and password not in why
        await pilot.press("escape", "r")
        await wait_until(pilot, lambda: password in static_text(app, "#breakdown"))
        await pilot.press("B")
        await wait_until(pilot, lambda: isinstance(app.screen, BreakdownScreen))
        assert password in static_text(app, "#why-body")  # revealed in the pane: in `B` too


async def test_secrets_in_titles_and_tags_are_masked_outside_the_entry_text_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The results list printed a heading's token whole, and the entry header and `list
    --json` a frontmatter tag's, while the entry text masked them."""
    root = tmp_path / "root"
    token, tag = "ghp_" + "W" * 36, "ghp_" + "Q" * 36
    write(
        root / "notes.md",
        f"---\ntags: [{tag}, 'password=hunter2hunter2']\n---\n## Tokens {token}\n\nrotate them\n",
    )
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "rotate")
        shown = "\n".join([*rows(app), static_text(app, "#detail-header"), *detail_lines(app)])
        assert "rotate" in shown and "ghp_WW…" in shown
        assert token not in shown and tag not in shown and "hunter2hunter2" not in shown
    assert main(["list", str(root), "--json"]) == 0
    listed = capsys.readouterr().out
    assert tag not in listed and "hunter2hunter2" not in listed and token not in listed


@pytest.mark.parametrize("size", [(80, 24), (220, 40)])
async def test_a_file_named_by_a_secret_is_masked_on_screen(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """QA: `memory/ghp_….md` showed whole in the results list's path column, the title's file
    suffix and the entry header, while the same token in the text was masked."""
    root = tmp_path / "root"
    token = "ghp_" + "K" * 36
    write(root / "memory" / f"{token}.md", "# Token file\n\n## Named file\nzebra notes\n")
    app = build_app(str(root), "--no-watch", "--days", "0")
    async with app.run_test(size=size) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "zebra")
        shown = "\n".join([*rows(app), static_text(app, "#detail-header")])
        assert "ghp_KK…" in shown and token not in shown
        await pilot.press("ctrl+r")  # the reveal key shows it in the entry pane's header
        await wait_until(pilot, lambda: token in static_text(app, "#detail-header"))


async def test_copy_citation_uses_the_clipboard() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        await pilot.press("enter", "Y")
        assert screen.result is not None
        top = screen.result.hits[0].entry
        cited = f"{top.path}:{top.line_start}-{top.line_end}"
        await wait_until(pilot, lambda: app.clipboard == cited)
        await pilot.press("y")
        await wait_until(pilot, lambda: app.clipboard.startswith(cited + " ("))
        assert f"> {'#' * len(top.heading_path)} {top.title}" in app.clipboard


async def test_no_memory_folder_offers_the_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    app = build_app("--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, NoMemoryScreen))
        text = "\n".join(str(w.render()) for w in app.screen.query("Static"))
        assert "No memory folder found" in text
        assert "MEMTUI_DIR" in text and ".openclaw/workspace" in text
        await pilot.press("d")
        screen = await wait_loaded(pilot, app)
        assert screen.engine is not None and len(screen.engine) > 0


async def test_empty_folder_says_so(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        assert "No memory entries here yet" in static_text(app, "#empty")


async def test_palette_offers_every_main_action() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        titles = set(await palette_commands(app, screen))
        assert {title for title, _, _ in PALETTE_COMMANDS} <= titles
        actions = {action.split("(")[0] for _, _, action in PALETTE_COMMANDS}
        for action in actions:
            assert hasattr(screen, f"action_{action}"), action


async def test_theme_key_cycles_and_is_remembered(isolated_config: Path) -> None:
    app = build_app("--demo", "--no-watch", deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        assert app.theme == "memtui-dark"
        await pilot.press("f2")
        await workers_done(pilot, app)
        assert app.theme != "memtui-dark"
        saved = (isolated_config / "memtui" / "config.toml").read_text(encoding="utf-8")
        assert f'theme = "{app.theme}"' in saved
        shown = notices(app)
        assert any(f"Theme {app.theme} saved" in notice for notice in shown)  # every save says so


async def test_the_theme_goes_to_the_config_file_in_use(
    isolated_config: Path, tmp_path: Path
) -> None:
    config = tmp_path / "cfg" / "x.toml"
    config.parent.mkdir()
    config.write_text('theme = "memtui-light"  # picked by hand\ndays = 30\n')
    app = build_app("--demo", "--no-watch", "--config", str(config), deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        assert app.theme == "memtui-light"
        await pilot.press("f2")
        await workers_done(pilot, app)
        chosen = app.theme
    assert config.read_text() == f'theme = "{chosen}"  # picked by hand\ndays = 30\n'
    assert not (isolated_config / "memtui" / "config.toml").exists()


async def test_main_screen_state_is_consistent_after_query_edit() -> None:
    app = demo_app("--query", "deploy")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        assert main_screen(app).query_text == "deploy"
        assert screen.result is not None and screen.result.query == "deploy"


async def test_a_bad_filter_is_explained_and_cleared() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        for char in "after:2026-13-45":
            await pilot.press(char)
        await wait_until(pilot, lambda: screen.query_error)
        banner = app.screen.query_one("#banner")
        assert banner.display and "after:" in static_text(app, "#banner")
        assert "query error" in static_text(app, "#query-status")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.query_error)
        assert not banner.display


async def test_the_banner_follows_the_root_going_and_coming_back(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root / "MEMORY.md", "# Memory\n\n## Kept\n\nSomething.\n")
    app = build_app(str(root), deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(
            pilot, lambda: screen.watcher is not None and screen.watcher_mode.value == "watching"
        )
        root.rename(tmp_path / "away")
        banner = app.screen.query_one("#banner")
        await wait_until(pilot, lambda: banner.display, steps=1500)
        assert "is gone" in static_text(app, "#banner")
        assert "root missing" in static_text(app, "#app-status")
        (tmp_path / "away").rename(root)
        await wait_until(pilot, lambda: not banner.display, steps=1500)
        await wait_until(pilot, lambda: any("Kept" in row for row in rows(app)), steps=1500)


async def test_bindings_can_be_remapped_by_id() -> None:
    app = demo_app()
    app.options.keymap = {"query.weights": "f4"}
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("f4")
        await wait_until(pilot, lambda: isinstance(app.screen, WeightsScreen))


async def test_huge_entries_are_shown_capped(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root / "MEMORY.md", "# Memory\n\n## Huge\n\n" + "word " * 600_000 + "\n")
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(pilot, lambda: screen.query_one(EntryPane).shown is not None)
        text = "\n".join(detail_lines(app))
        assert "more characters not shown" in text or "more lines not shown" in text
        assert len(text) < 1_000_000


async def test_edit_without_a_terminal_says_so_instead_of_crashing() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("enter", "e")
        await pilot.pause()
        assert app.is_running
        assert any("editor" in notice for notice in notices(app))


async def test_moving_up_in_a_scrolled_list_moves_the_highlight_on_screen() -> None:
    """Scrolled down, a move that does not scroll repaints the old and the new cursor row:
    Textual's `refresh_line` takes a line of the list, and a screen line was passed, so the
    highlight stayed on the old row while the entry pane followed the new one."""
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        results = app.screen.query_one(ResultsList)
        results.focus()
        await pilot.press(*["j"] * 30)
        await pilot.pause()
        assert results.scroll_y > 0
        await pilot.press("k", "k", "k")
        await pilot.pause()
        cursor = results.get_component_rich_style("results--cursor").bgcolor
        highlighted = [
            strip.text.split("│")[1].split()[0]
            for strip in painted_strips(app.screen)
            if any(segment.style and segment.style.bgcolor == cursor for segment in strip)
        ]
        assert highlighted == [str(results.cursor + 1)]
