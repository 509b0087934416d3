"""Focus is never lost: when the list empties under the user the query box takes over, and the
results get focus (and their selection) back when they return."""

from __future__ import annotations

from pathlib import Path

from textual.widget import Widget
from ui_helpers import SIZE, build_app, type_query, wait_loaded, wait_until, write

from memtui.ui.widgets.footer import KeysFooter
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList


async def test_focus_survives_the_list_emptying_and_refilling(tmp_path: Path) -> None:
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
        await pilot.press("tab")
        results = screen.query_one(ResultsList)
        assert app.focused is results

        quokka.unlink()
        await wait_until(pilot, lambda: not results.display, steps=1500)
        # a widget that takes keys (focus moves on the next turn of the loop), footer intact
        await wait_until(pilot, lambda: isinstance(app.focused, QueryInput))
        assert screen.query_one("Footer").display

        write(quokka, "## Quokka\nA quokka smiled again.\n")
        await wait_until(pilot, lambda: results.display and app.focused is results, steps=1500)
        await pilot.press("slash")  # a pane key acts again
        assert isinstance(app.focused, QueryInput)


async def test_the_selection_survives_the_root_going_and_coming_back(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root / "MEMORY.md", "## First\none\n\n## Second\ntwo\n\n## Third\nthree\n")
    app = build_app(str(root), deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(
            pilot, lambda: screen.watcher is not None and screen.watcher_mode.value == "watching"
        )
        results = screen.query_one(ResultsList)
        await pilot.press("tab", "down")
        assert app.focused is results and results.selected is not None
        chosen = results.selected.entry.id
        root.rename(tmp_path / "away")
        await wait_until(pilot, lambda: screen.watcher_mode.value == "root missing", steps=1500)
        await wait_until(pilot, lambda: bool(results.gone), steps=1500)  # dimmed, still there
        assert results.display and app.focused is results
        assert results.selected is not None and results.selected.entry.id == chosen
        (tmp_path / "away").rename(root)
        await wait_until(
            pilot,
            lambda: not results.gone and results.selected is not None and app.focused is results,
            steps=1500,
        )
        assert results.selected is not None and results.selected.entry.id == chosen
        await pilot.press("down")  # and the list still moves
        assert results.selected is not None and results.selected.entry.id != chosen


async def test_focus_survives_a_query_that_empties_the_list_and_a_modal(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root / "MEMORY.md", "## Quokka\nA quokka smiled.\n\n## Other\nnothing\n")
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        results = screen.query_one(ResultsList)
        await pilot.press("tab")
        assert app.focused is results
        await pilot.press("exclamation_mark")  # a modal opens and closes over the list
        await wait_until(pilot, lambda: app.screen is not screen)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen and app.focused is results)
        await pilot.press("j")  # a letter acts on the list again
        assert results.cursor == 1

        screen.set_query("xqzvk")  # matches nothing; e.g. set by the filters form or the palette
        await wait_until(pilot, lambda: not results.display)
        await wait_until(pilot, lambda: isinstance(app.focused, QueryInput))
        await pilot.press("down")  # Down and typing act in the query box, nothing is stuck
        assert isinstance(app.focused, QueryInput)


async def test_the_footer_remounts_its_keys_only_when_they_change(tmp_path: Path) -> None:
    """Bindings are updated on every focus change and several times at start; the footer keeps
    its key widgets while the keys shown stay the same, and shows the new ones when not."""
    root = write(tmp_path / "memory" / "MEMORY.md", "## Deploy\n\ncanary first\n").parent
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        footer = screen.query_one(KeysFooter)

        def shown() -> list[Widget]:
            return list(footer.children)

        def labels() -> list[str]:
            return [str(key.render()) for key in footer.children]

        before, before_labels = shown(), labels()
        assert before and "quit" in " ".join(before_labels).lower()
        screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert shown() == before

        await pilot.press("tab")  # the list takes focus: its keys join the footer
        await wait_until(pilot, lambda: labels() != before_labels)
        assert all(key not in before for key in shown())


async def test_a_recompose_that_waited_for_a_footer_whose_screen_went_does_nothing() -> None:
    """Textual queues the recompose for after a refresh; a screen switched away meanwhile left
    the footer detached, and reading its keys then raised in the default screen's callbacks,
    which kept the closed screen (and its whole engine) alive."""
    await KeysFooter().recompose()
