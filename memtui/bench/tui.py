"""Keystroke → repainted list, measured through the real app driven headlessly.

The app calls `MemtuiApp.results_painted(generation, ...)` after the results list has been
repainted for search `generation` (from `call_after_refresh`, i.e. after the compositor
rendered the update). This module subclasses the app only to timestamp that hook, posts one
key event at a time (`events.Key`, as a terminal would deliver it), and waits for the paint
of the search the key caused before the next key. Pilot's `press()` is not used because it
sleeps ≥ 40 ms per key waiting for idle, which would swamp the figure. Headless means the
frame is rendered but not written to a terminal.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from collections.abc import Sequence
from typing import Any

from textual import events

from memtui.bench.keystrokes import keystrokes, latency_summary
from memtui.bench.runner import BenchSetup
from memtui.ui.app import AppOptions, MemtuiApp
from memtui.ui.screens.main import MainScreen

TERMINAL_SIZE = (140, 40)
PAINT_TIMEOUT_S = 30.0


class TimedApp(MemtuiApp):
    """The real app, with the paint hook timestamped on the bench's clock."""

    def __init__(self, options: AppOptions) -> None:
        super().__init__(options)
        self.painted_at: dict[int, float] = {}
        self.paint_signal = asyncio.Event()

    def results_painted(self, generation: int, requested_at: float) -> None:
        self.painted_at[generation] = time.perf_counter()
        super().results_painted(generation, requested_at)
        self.paint_signal.set()


def key_event(character: str) -> events.Key:
    """The event a terminal delivers for one typed character (Textual's key naming)."""
    if character.isalnum():
        return events.Key(character, character)
    try:
        name = unicodedata.name(character).lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        name = character
    return events.Key(name, character)


async def wait_for_paint(app: TimedApp, screen: MainScreen, query: str, generation: int) -> float:
    """Wait until `query` is in the box and search `generation` (or newer) is painted."""
    deadline = time.perf_counter() + PAINT_TIMEOUT_S
    while screen.query_text != query or app.painted_generation < generation:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise TimeoutError(f"the app did not repaint its results for {query!r} in time")
        app.paint_signal.clear()
        try:
            await asyncio.wait_for(app.paint_signal.wait(), timeout=min(remaining, 0.01))
        except TimeoutError:
            continue
    return app.painted_at.get(app.painted_generation, time.perf_counter())


async def wait_for_first_results(app: TimedApp, launched: float) -> MainScreen:
    while True:
        screen = app.screen
        if isinstance(screen, MainScreen) and app.painted_at:
            return screen
        if time.perf_counter() - launched > PAINT_TIMEOUT_S:
            raise TimeoutError("the app painted no results")
        await asyncio.sleep(0.001)


async def drive(setup: BenchSetup, queries: Sequence[str]) -> dict[str, Any]:
    options = AppOptions(
        root=setup.root, config=setup.config, today=setup.today, days=setup.days, watch=False
    )
    launched = time.perf_counter()
    app = TimedApp(options)
    samples: list[float] = []
    async with app.run_test(size=TERMINAL_SIZE) as pilot:
        screen = await wait_for_first_results(app, launched)
        first_results_ms = (min(app.painted_at.values()) - launched) * 1000
        for query in queries:
            if screen.query_text:
                cleared = screen.generation + 1
                screen.set_query("")
                await wait_for_paint(app, screen, "", cleared)
            for stroke in keystrokes(query):
                expected = screen.generation + 1
                started = time.perf_counter()
                app.post_message(key_event(stroke[-1]))
                painted = await wait_for_paint(app, screen, stroke, expected)
                samples.append((painted - started) * 1000)
        await pilot.pause()
        app_load_ms = app.load_ms
    return {
        "keystroke_ms": latency_summary(samples),
        "first_results_ms": round(first_results_ms, 1),
        "keystrokes": len(samples),
        "app_load_ms": round(app_load_ms, 1) if app_load_ms is not None else None,
        "note": "headless App.run_test: key event posted -> results list repainted",
    }


def measure_tui(setup: BenchSetup, queries: Sequence[str]) -> dict[str, Any]:
    """Launch the app on the bench corpus, then type every query key by key."""
    return asyncio.run(drive(setup, queries))
