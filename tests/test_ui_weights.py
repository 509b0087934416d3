"""Weights changed in the app are state, not warnings; they can be saved and reset."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from textual.app import App
from ui_helpers import SIZE, demo_app, type_query, wait_loaded, wait_until, workers_done

from memtui.ui.screens.main import MainScreen
from memtui.ui.screens.weights import WeightsScreen


def header(app: App[Any]) -> str:
    return str(app.screen.query_one("#app-status").render())


async def test_weights_are_shown_as_custom_saved_and_reset(isolated_environment: Path) -> None:
    app = demo_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        assert screen.engine is not None and "weights: custom" not in header(app)
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: isinstance(app.screen, WeightsScreen))
        generation = screen.generation
        for _ in range(5):
            await pilot.press("down", "right", "up")  # nudge source up, five times
        await wait_until(pilot, lambda: app.painted_generation > generation + 4)
        source = screen.engine.weights["source"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert "weights: custom" in header(app)
        assert screen.engine.warnings == []
        assert not any(row[0] == "engine" for row in screen.warning_rows())

        await pilot.press("ctrl+g")  # reopened: it starts from the weights in use
        await wait_until(pilot, lambda: isinstance(app.screen, WeightsScreen))
        assert isinstance(app.screen, WeightsScreen)
        total = sum(app.screen.weights.values())
        assert abs(app.screen.weights["source"] / total - source) < 1e-9
        await pilot.press("s")
        await wait_until(
            pilot, lambda: (isolated_environment / "config/memtui/config.toml").exists()
        )
        await workers_done(pilot, app)
        saved = tomllib.loads((isolated_environment / "config/memtui/config.toml").read_text())
        assert abs(saved["weights"]["source"] - source) < 1e-3
        assert saved["half_life_days"] == 30.0

        generation = screen.generation
        await pilot.press("r")  # back to the config's weights
        await wait_until(pilot, lambda: app.painted_generation > generation)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.pause()
        assert "weights: custom" not in header(app)
