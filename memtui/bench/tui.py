"""Keystroke → repainted list, measured through the real app driven headlessly.

The app calls `MemtuiApp.results_painted(generation, ...)` after the results list has been
repainted for search `generation` (from `call_after_refresh`, i.e. after the compositor
rendered the update). This module subclasses the app only to timestamp that hook, posts one
key event at a time (`events.Key`, as a terminal would deliver it), and waits for the paint
of the search the key caused before the next key. Pilot's `press()` is not used because it
sleeps ≥ 40 ms per key waiting for idle, which would swamp the figure. Headless means the
frame is rendered but not written to a terminal.

Start-up is measured twice with a cache folder of the bench's own (the user's is never
touched): cold, from an empty folder (the app writes it after indexing), then warm, from what
the cold start wrote. Each time: app created -> first results painted, and a one-word query
typed right after that paint -> its results painted (the cold one waits for the index).
"""

from __future__ import annotations

import asyncio
import gc
import tempfile
import time
import unicodedata
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot

from memtui.bench.keystrokes import keystrokes, latency_summary
from memtui.bench.runner import BenchSetup
from memtui.core.cache.folder import CacheFolder
from memtui.core.engine import Engine
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


@dataclass(frozen=True, slots=True)
class Launch:
    app: TimedApp
    pilot: Pilot[Any]
    screen: MainScreen
    first_results_ms: float
    """From creating the app to its first painted results (the browse list)."""


@asynccontextmanager
async def running(setup: BenchSetup, cache: CacheFolder) -> AsyncIterator[Launch]:
    """The app on the bench corpus with `cache` as its cache folder, once it painted results."""
    def engine(options: AppOptions) -> Engine:
        return Engine(options.open_roots, options.config, today=options.today,
                      days=options.days, cache=cache)

    options = AppOptions(root=setup.root, config=setup.config, today=setup.today,
                         days=setup.days, watch=False, engine_factory=engine)
    launched = time.perf_counter()
    app = TimedApp(options)
    async with app.run_test(size=TERMINAL_SIZE) as pilot:
        screen = await wait_for_first_results(app, launched)
        yield Launch(app, pilot, screen, (min(app.painted_at.values()) - launched) * 1000)


async def first_word(launch: Launch, word: str) -> float:
    """A one-word query typed right after the first paint (keys posted back to back, as a
    fast typist or a paste does): ms from its first key to its results painted."""
    app, screen = launch.app, launch.screen
    expected = screen.generation + len(word)
    started = time.perf_counter()
    for character in word:
        app.post_message(key_event(character))
    painted = await wait_for_paint(app, screen, word, expected)
    return (painted - started) * 1000


async def saved(launch: Launch) -> None:
    """Wait for the worker that writes the cache after the index is built."""
    deadline = time.perf_counter() + PAINT_TIMEOUT_S
    while launch.screen.engine is None or not launch.screen.engine.index_ready or any(
            worker.group == "cache" and not worker.is_finished for worker in launch.app.workers):
        if time.perf_counter() > deadline:
            raise TimeoutError("the app did not save its cache in time")
        await asyncio.sleep(0.01)


async def type_queries(launch: Launch, queries: Sequence[str]) -> list[float]:
    """Every query key by key, each key waiting for its paint: ms per keystroke."""
    app, screen = launch.app, launch.screen
    samples: list[float] = []
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
    return samples


def cache_megabytes(cache: CacheFolder) -> float:
    return round(sum(item.size for item in cache.listing()) / 1e6, 1)


def fresh_heap() -> None:
    """Unfreeze what the previous app's load froze (`ui.heap.loading`) and collect it, so the
    next launch starts without the last one's corpus."""
    gc.unfreeze()
    gc.collect()


async def drive(setup: BenchSetup, queries: Sequence[str]) -> dict[str, Any]:
    """A cold start (empty cache folder), then a warm one from the cache it wrote; the
    keystrokes are typed into the warm app, the steady state of every later session."""
    word = next((part for query in queries for part in query.split() if part.isalpha()), "a")
    with tempfile.TemporaryDirectory(prefix="memtui-bench-cache-") as folder:
        cache = CacheFolder(Path(folder))
        async with running(setup, cache) as cold:
            cold_word_ms = await first_word(cold, word)
            await saved(cold)
            cold_load_ms, cold_results_ms = cold.app.load_ms, cold.first_results_ms
        del cold  # its app holds the cold engine: not in memory while the warm one starts
        fresh_heap()
        async with running(setup, cache) as warm:
            warm_word_ms = await first_word(warm, word)
            samples = await type_queries(warm, queries)
            await warm.pilot.pause()
        cache_mb = cache_megabytes(cache)
    return {
        "keystroke_ms": latency_summary(samples),
        "first_results_ms": round(cold_results_ms, 1),
        "keystrokes": len(samples),
        "app_load_ms": round(cold_load_ms, 1) if cold_load_ms is not None else None,
        "startup": {
            "cold_first_results_ms": round(cold_results_ms, 1),
            "warm_first_results_ms": round(warm.first_results_ms, 1),
            "cold_first_word_ms": round(cold_word_ms, 1),
            "warm_first_word_ms": round(warm_word_ms, 1),
            "cache_mb": cache_mb,
            "first_word": word,
        },
        "note": "headless App.run_test: key event posted -> results list repainted; "
                "keystrokes typed into the warm-started app",
    }


def measure_tui(setup: BenchSetup, queries: Sequence[str]) -> dict[str, Any]:
    """Launch the app on the bench corpus (cold, then warm), then type every query key by key."""
    return asyncio.run(drive(setup, queries))
