"""Keys that tell the truth: remaps show where keys are listed, bad remaps are refused and
reported, and enter in the results does what help says."""

from __future__ import annotations

from textual.command import CommandPalette
from ui_helpers import SIZE, demo_app, type_query, wait_loaded, wait_until

from memtui.ui.screens.help import help_rows
from memtui.ui.screens.main import MainScreen
from memtui.ui.textual_private import notices
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.results import ResultsList

KEYMAP = {"pane.edit": "E", "pane.nonexistent": "x", "pane.weights": "y"}


async def test_remapped_keys_are_shown_and_bad_ones_refused() -> None:
    app = demo_app()
    app.options.keymap = dict(KEYMAP)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        assert app.live_keymap == {"pane.edit": "E"}
        rows = {binding_id: keys for _, keys, _, binding_id in help_rows(app, app.live_keymap)}
        assert rows["pane.edit"] == "E" and rows["pane.weights"] == "w"
        problems = [problem for where, problem in screen.warning_rows() if where == "keymap"]
        assert len(problems) == 2
        assert any("pane.nonexistent" in p for p in problems)
        assert any('"pane.weights" = "y"' in p and "pane.copy_entry" in p for p in problems)
        palette = {command.title: command.help for command in app.get_system_commands(screen)}
        assert palette["Open in editor"].endswith("(E)")
        assert palette["Weights"].endswith("(w)")

        await type_query(pilot, app, "deploy")
        await pilot.press("tab")
        assert isinstance(app.focused, ResultsList)
        await pilot.press("y")  # still Copy: the refused remap did not take it
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert any("Copied" in notice for notice in notices(app))


async def test_enter_in_the_results_goes_to_the_entry() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        await pilot.press("tab")
        assert isinstance(app.focused, ResultsList)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.focused, EntryView))


async def test_the_palette_opens() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
