"""↑ in an empty query box walks back through earlier queries; ↓ comes forward again."""

from __future__ import annotations

from pathlib import Path

from ui_helpers import SIZE, build_app, type_query, wait_loaded, wait_until, workers_done

from memtui.core.settings.history import default_history_path, read_history
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList


async def test_queries_are_remembered_and_recalled(isolated_environment: Path) -> None:
    app = build_app("--demo", "--no-watch", deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        box = screen.query_one(QueryInput)
        for query in ("deploy", "stripe key"):
            await type_query(pilot, app, query)
            await pilot.press("enter")  # acted on: to the results, remembered
            await wait_until(pilot, lambda: isinstance(app.focused, ResultsList))
            await pilot.press("slash", "ctrl+u")
        await workers_done(pilot, app)
        assert read_history(default_history_path()) == ["deploy", "stripe key"]

        assert box.value == ""
        await pilot.press("up")
        assert box.value == "stripe key"
        await pilot.press("up")
        assert box.value == "deploy"
        await pilot.press("down")
        assert box.value == "stripe key"
        await pilot.press("down")
        assert box.value == ""
        await type_query(pilot, app, "rollback")
        results = screen.query_one(ResultsList)
        before = results.cursor
        await pilot.press("down")  # with a typed query, ↓ moves in the results
        assert box.value == "rollback" and results.cursor == before + 1
