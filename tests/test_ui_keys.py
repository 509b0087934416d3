"""Keys that tell the truth: remaps show where keys are listed, bad remaps are refused and
reported, and enter in the results does what help says."""

from __future__ import annotations

from textual.command import CommandList, CommandPalette
from ui_helpers import SIZE, demo_app, palette_commands, type_query, wait_loaded, wait_until

from memtui.ui.screens.help import help_rows
from memtui.ui.screens.main import MainScreen
from memtui.ui.screens.weights import WeightsScreen
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
        palette = await palette_commands(app, screen)
        assert palette["Open in editor"].endswith("(E)")
        assert palette["Weights"].endswith("(w)")

        await type_query(pilot, app, "deploy")
        await pilot.press("tab")
        assert isinstance(app.focused, ResultsList)
        await pilot.press("y")  # still Copy: the refused remap did not take it
        await wait_until(pilot, lambda: any("1 entry" in notice for notice in notices(app)))
        assert isinstance(app.screen, MainScreen)


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


async def test_a_palette_command_runs_the_main_screen_action() -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"weights")
        await wait_until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, WeightsScreen))


async def test_the_narrow_hint_names_the_key_in_force_not_a_refused_remap() -> None:
    """`"pane.breakdown" = "e"` clashes with Edit and is refused: `b` still swaps in the why,
    so the entry's border must say `b: why`, not `e: why`."""
    app = demo_app("-q", "deploy")
    app.options.keymap = {"pane.breakdown": "e"}
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await wait_loaded(pilot, app)
        assert "pane.breakdown" not in app.live_keymap
        await wait_until(pilot, lambda: screen.query_one(EntryView).border_subtitle is not None)
        assert str(screen.query_one(EntryView).border_subtitle) == "b: why"


async def test_the_narrow_hint_follows_an_accepted_remap() -> None:
    app = demo_app("-q", "deploy")
    app.options.keymap = {"pane.breakdown": "v"}
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await wait_loaded(pilot, app)
        assert app.live_keymap == {"pane.breakdown": "v"}
        entry_view = screen.query_one(EntryView)
        # The pane gets its hint with the first hit it shows, which can follow the first paint.
        await wait_until(pilot, lambda: entry_view.border_subtitle is not None)
        assert str(entry_view.border_subtitle) == "v: why"
