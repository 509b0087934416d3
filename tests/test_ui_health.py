"""The health view, driven like a user: h from the results, sections on screen, the selected
entry beside its reason, y and e through the main screen's own actions, esc back."""

from __future__ import annotations

from typing import Any

from test_health_cli import DEMO_FINDINGS_SHOWN
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import OptionList
from ui_helpers import demo_app, static_text, wait_loaded, wait_until

from memtui.ui.app import MemtuiApp
from memtui.ui.palette import PALETTE_COMMANDS
from memtui.ui.screens.health import HealthScreen
from memtui.ui.screens.main import MainScreen
from memtui.ui.textual_private import notices
from memtui.ui.widgets.detail import EntryView


def screen_lines(widget: Widget) -> list[str]:
    """What the widget paints, line by line."""
    return [
        "".join(segment.text for segment in widget.render_line(y)).rstrip()
        for y in range(widget.size.height)
    ]


async def open_health(pilot: Pilot[Any], app: MemtuiApp) -> HealthScreen:
    await wait_loaded(pilot, app)
    await pilot.press("enter")  # to the results, where single letters are keys
    await pilot.press("h")
    await wait_until(
        pilot, lambda: isinstance(app.screen, HealthScreen) and app.screen.report is not None
    )
    await pilot.pause()
    assert isinstance(app.screen, HealthScreen)
    return app.screen


async def test_h_shows_every_section_with_its_findings() -> None:
    app = demo_app("--days", "0")
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_health(pilot, app)
        shown = "\n".join(screen_lines(screen.query_one(OptionList)))
        for expected in DEMO_FINDINGS_SHOWN:  # the same as `memtui health --demo` prints
            assert expected in shown
        assert "memory health · " in static_text(app, "#health-title")
        assert "newest of 2 near-duplicates" in static_text(app, "#health-header")


async def test_the_load_line_is_drawn_above_the_entry() -> None:
    app = demo_app("--days", "0")
    async with app.run_test(size=(130, 40)) as pilot:
        screen = await open_health(pilot, app)
        listing = screen.query_one(OptionList)
        while screen.selected is None or screen.selected.entry.title != "Conference talks":
            await pilot.press("down")
        await pilot.pause()
        assert (
            "⤓ not loaded by Claude Code: it stops after line 200 (200 lines / 25,000 bytes)"
            in static_text(app, "#health-rule")
        )
        assert "## Conference talks" in screen.query_one(EntryView).plain_lines()[0]
        await pilot.press("enter")
        assert app.focused is screen.query_one(EntryView)
        assert listing.highlighted is not None


async def test_y_copies_through_the_main_screen_and_esc_goes_back() -> None:
    app = demo_app("--days", "0")
    async with app.run_test(size=(130, 40)) as pilot:
        screen = await open_health(pilot, app)
        while screen.selected is None or screen.selected.entry.title != "Credentials policy":
            await pilot.press("down")
        await pilot.press("y")
        await wait_until(pilot, lambda: bool(app.clipboard))
        assert "## Credentials policy" in app.clipboard
        assert "ghp_FA…••••" in app.clipboard  # masked, as the main screen's y copies
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))


async def test_e_asks_the_main_screen_to_edit() -> None:
    """Pilot has no terminal to suspend, so the main screen's edit says it cannot open an
    editor: proof that `e` reached it (under a real terminal it opens $EDITOR at the line)."""
    app = demo_app("--days", "0")
    async with app.run_test(size=(130, 40)) as pilot:
        await open_health(pilot, app)
        await pilot.press("e")
        await wait_until(
            pilot,
            lambda: any("Cannot open an editor" in notice for notice in notices(app)),
        )
        assert app.is_running


def test_the_palette_names_it() -> None:
    assert ("Memory health", "health") in {(title, action) for title, _, action in PALETTE_COMMANDS}


async def test_the_last_section_is_what_every_session_loads() -> None:
    app = demo_app("--days", "0")
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_health(pilot, app)
        listing = screen.query_one(OptionList)
        prompts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        heading = next(i for i, text in enumerate(prompts) if "every session start" in text)
        assert "chars ≈" in prompts[heading] and "tokens" in prompts[heading]
        assert "every session, up to a cap" in prompts[heading + 1]
        assert prompts[heading + 1].rstrip().endswith("MEMORY.md")
