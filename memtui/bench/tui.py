"""Keystroke → repainted list, and the app's start-up and memory, measured through the real
app driven headlessly.

The app calls `MemtuiApp.results_painted(generation, ...)` after the results list has been
repainted for search `generation` (from `call_after_refresh`, i.e. after the compositor
rendered the update). This module subclasses the app only to timestamp that hook, posts one
key event at a time (`events.Key`, as a terminal would deliver it), and waits for the paint
of the search the key caused before the next key. Pilot's `press()` is not used because it
sleeps ≥ 40 ms per key waiting for idle, which would swamp the figure. Headless means the
frame is rendered but not written to a terminal.

The app is launched twice, each time in a fresh Python process (`python -m memtui.bench.tui`,
asked and answering in JSON), with a cache folder of the bench's own (the user's is never
touched): cold, from an empty folder (the app writes it after indexing), then warm, from what
the cold start wrote. Each time: app created -> first results painted, a one-word query typed
right after that paint -> its results painted (the cold one waits for the index), then every
query typed key by key. A process of its own per launch means its peak RSS is the app's, as
a user's `top` shows it: imports, the UI, the engine and typing, nothing the bench held.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot

from memtui.bench.keystrokes import keystrokes, latency_summary
from memtui.bench.setup import BenchSetup, peak_rss_mb
from memtui.core.cache.folder import CacheFolder
from memtui.core.live.engine import Engine
from memtui.core.settings.config import load_config
from memtui.ui.app import MemtuiApp
from memtui.ui.options import AppOptions
from memtui.ui.screens.main import MainScreen

TERMINAL_SIZE = (140, 40)
WARM_STARTS = 5
"""Warm starts timed for the first word (one of them typed into): a single start on a shared
machine swung 50-100 ms."""
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


async def until_painted(
    app: TimedApp, done: Callable[[], bool], deadline: float, poll: float, failure: str
) -> None:
    """Wait until `done()`, looking again at each of the app's paints (and every `poll` s);
    TimeoutError(`failure`) at `deadline`. The times measured are the ones `results_painted`
    took, not when this wakes."""
    while not done():
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise TimeoutError(failure)
        app.paint_signal.clear()
        try:
            await asyncio.wait_for(app.paint_signal.wait(), timeout=min(remaining, poll))
        except TimeoutError:
            continue


async def wait_for_paint(app: TimedApp, screen: MainScreen, query: str, generation: int) -> float:
    """Wait until `query` is in the box and search `generation` (or newer) is painted."""
    await until_painted(
        app,
        lambda: screen.query_text == query and app.painted_generation >= generation,
        time.perf_counter() + PAINT_TIMEOUT_S,
        0.01,
        f"the app did not repaint its results for {query!r} in time",
    )
    return app.painted_at.get(app.painted_generation, time.perf_counter())


async def wait_for_first_results(app: TimedApp, launched: float) -> MainScreen:
    """Wait for the app's first painted results, woken by its paint. Polling every
    millisecond woke the event loop ~600 times during a 50k warm start, and each wake took
    the GIL from the loader: ~30 ms of main-thread CPU that an app in a terminal does not
    spend."""
    await until_painted(
        app,
        lambda: isinstance(app.screen, MainScreen) and bool(app.painted_at),
        launched + PAINT_TIMEOUT_S,
        0.05,
        "the app painted no results",
    )
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


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
        return Engine(
            options.open_roots,
            options.config,
            today=options.today,
            days=options.days,
            cache=cache,
            prepare=False,  # as the app's (`ui.search_work.open_engine`)
        )

    options = AppOptions(
        root=setup.root,
        config=setup.config,
        today=setup.today,
        days=setup.days,
        watch=False,
        engine_factory=engine,
    )
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
    """Wait until the cache holds what the app loaded: the screen writes it in a worker once
    typing pauses after the index is built (`load_ms` is set then)."""
    deadline = time.perf_counter() + PAINT_TIMEOUT_S
    while (
        launch.app.load_ms is None
        or (engine := launch.screen.engine) is None
        or engine.cache_stale
        or any(worker.group == "cache" and not worker.is_finished for worker in launch.app.workers)
    ):
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


async def launch(
    setup: BenchSetup, cache: CacheFolder, word: str, queries: Sequence[str]
) -> dict[str, Any]:
    """One start of the app, typed into: its figures, and this process's peak RSS."""
    async with running(setup, cache) as started:
        word_ms = await first_word(started, word)
        await saved(started)
        samples = await type_queries(started, queries)
        await started.pilot.pause()
        load_ms = started.app.load_ms
    return {
        "first_results_ms": round(started.first_results_ms, 1),
        "first_word_ms": round(word_ms, 1),
        "load_ms": round(load_ms, 1) if load_ms is not None else None,
        "keystroke_samples": samples,
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def launch_in_child(
    setup: BenchSetup, cache: Path, word: str, queries: Sequence[str]
) -> dict[str, Any]:
    """`launch` in a fresh interpreter (see the module's docstring)."""
    request = {
        "root": str(setup.root),
        "cache": str(cache),
        "today": setup.today.isoformat(),
        "days": setup.days,
        "word": word,
        "queries": list(queries),
        "config": None if setup.config.source_path is None else str(setup.config.source_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "memtui.bench.tui"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"the app's bench process failed ({done.returncode}): {done.stderr.strip()[-2000:]}"
        )
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def measure_tui(setup: BenchSetup, queries: Sequence[str]) -> dict[str, Any]:
    """A cold start (empty cache folder), then a warm one from the cache it wrote, each typed
    into; the keystroke figures are the warm app's, the steady state of every later session."""
    word = next((part for query in queries for part in query.split() if part.isalpha()), "a")
    with tempfile.TemporaryDirectory(prefix="memtui-bench-cache-") as folder:
        cold = launch_in_child(setup, Path(folder), word, queries)
        warm = launch_in_child(setup, Path(folder), word, queries)
        starts = [warm] + [
            launch_in_child(setup, Path(folder), word, ()) for _ in range(WARM_STARTS - 1)
        ]
        cache_mb = cache_megabytes(CacheFolder(Path(folder)))
    first_words = [start["first_word_ms"] for start in starts]
    return {
        "keystroke_ms": latency_summary(warm["keystroke_samples"]),
        "first_results_ms": cold["first_results_ms"],
        "keystrokes": len(warm["keystroke_samples"]),
        "app_load_ms": cold["load_ms"],
        "startup": {
            "cold_first_results_ms": cold["first_results_ms"],
            "warm_first_results_ms": statistics.median(
                start["first_results_ms"] for start in starts
            ),
            "cold_first_word_ms": cold["first_word_ms"],
            "warm_first_word_ms": statistics.median(first_words),
            "warm_first_word_samples_ms": first_words,
            "cold_peak_rss_mb": cold["peak_rss_mb"],
            "warm_peak_rss_mb": max(start["peak_rss_mb"] for start in starts),
            "cache_mb": cache_mb,
            "first_word": word,
        },
        "note": "headless App.run_test, each start in a process of its own: key event posted "
        f"-> results list repainted; warm figures the median of {WARM_STARTS} starts (peak "
        "RSS their highest), keystrokes typed into the first; peak RSS of each app process, "
        "typing included",
    }


def main() -> None:
    """`python -m memtui.bench.tui`: one `launch`, asked on stdin and answered on stdout."""
    request = json.loads(sys.stdin.read())
    config, _ = load_config(None if request["config"] is None else Path(request["config"]))
    setup = BenchSetup(
        Path(request["root"]),
        config,
        dt.date.fromisoformat(request["today"]),
        request["days"],
        request["queries"],
        None,
    )
    answer = asyncio.run(
        launch(setup, CacheFolder(Path(request["cache"])), request["word"], request["queries"])
    )
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
