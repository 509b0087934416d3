"""Measure the app's worst event-loop stall over the hostile corpus plus the two giants.

The app must stay responsive (no event-loop stall over 250 ms) with a 20 MB single-line file
and a 50,000-section file in the folder. A ticker task records the largest gap
between its wake-ups while the real app loads the folder, runs queries that select the giant
entries and moves through them. The figure is printed, not asserted: timings belong to reports,
not to tests.

    .venv/bin/python scripts/measure_stall.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from memtui.bench import hostile
from memtui.cli import build_tui_parser
from memtui.commands.tui import create_app
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.main import MainScreen
from memtui.ui.widgets.results import ResultsList

TICK = 0.005


class StallMeter:
    """Wakes every TICK seconds and remembers the longest time it was kept waiting."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.worst_phase = ""
        self.long_gaps: list[tuple[float, str]] = []
        self.phase = "start"
        self._running = True

        self.last_tick = time.perf_counter()
        self.stall_stacks: collections.Counter[str] = collections.Counter()

    async def run(self) -> None:
        last = time.perf_counter()
        while self._running:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            self.last_tick = now
            gap = now - last - TICK
            if gap > self.worst:
                self.worst, self.worst_phase = gap, self.phase
            if gap > 0.1:
                self.long_gaps.append((gap, self.phase))
            last = now

    def stop(self) -> None:
        self._running = False

    def sample_stalls(self, loop_thread: int) -> None:
        """From another thread: while the loop is late, record what the loop thread is doing."""
        while self._running:
            time.sleep(0.03)
            if time.perf_counter() - self.last_tick > 0.1:
                frame = sys._current_frames().get(loop_thread)
                if frame is not None:
                    stack = traceback.extract_stack(frame)[-8:]
                    where = " <- ".join(
                        f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(stack)
                    )
                    self.stall_stacks[where] += 1


async def settle(pilot: Pilot[object], ready: Callable[[], bool]) -> None:
    """Let the app run until `ready()` holds (giants can take a while: up to 5 minutes)."""
    for _ in range(30_000):
        if ready():
            return
        await pilot.pause(0.01)
    raise TimeoutError("the app never got there")


def painted(app: MemtuiApp, query: str | None = None) -> bool:
    screen = app.screen
    return (
        isinstance(screen, MainScreen)
        and screen.engine is not None
        and (query is None or screen.query_text == query)
        and app.painted_generation >= max(1, screen.generation)
    )


async def measure(root: Path, where: bool) -> None:
    meter = StallMeter()
    ticker = asyncio.create_task(meter.run())
    if where:
        sampler = threading.Thread(
            target=meter.sample_stalls, args=(threading.get_ident(),), daemon=True
        )
        sampler.start()
    args = build_tui_parser().parse_args([str(root), "--no-watch", "--days", "0"])
    app = create_app(args)
    started = time.perf_counter()
    async with app.run_test(size=(120, 36)) as pilot:
        meter.phase = "load"
        await settle(pilot, lambda: painted(app))
        loaded = time.perf_counter() - started
        for query in ("enormous", "section", "word", "body of section 4999"):
            meter.phase = f"query {query!r}"
            await pilot.press("slash", "ctrl+u")
            for char in query:
                await pilot.press("space" if char == " " else char)
            await settle(pilot, lambda query=query: painted(app, query))
            meter.phase = f"move through {query!r}"
            for _ in range(min(6, len(app.screen.query_one(ResultsList).rendered_rows()))):
                await pilot.press("down")
                await pilot.pause()
        meter.phase = "quit"
        await pilot.press("ctrl+q")
    meter.stop()
    await ticker
    print(f"app loaded in {loaded:.2f} s ({app.load_ms or 0:.0f} ms reported by the app)")
    print(f"worst event-loop stall: {meter.worst * 1000:.0f} ms (during {meter.worst_phase})")
    for gap, phase in meter.long_gaps:
        print(f"  stall over 100 ms: {gap * 1000:.0f} ms during {phase}")
    for stack, samples in meter.stall_stacks.most_common(6):
        print(f"\n{samples} samples while stalled: {stack}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, default=None, help="build the corpus here and keep it")
    parser.add_argument("--no-heavy", action="store_true", help="baseline: without the giants")
    parser.add_argument("--where", action="store_true", help="sample the loop's stack in stalls")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        base = args.keep or Path(temporary)
        corpus = hostile.build_hostile_corpus(base / "memory", many_files=2_000)
        if not args.no_heavy:
            hostile.build_heavy_files(corpus.root)
        try:
            asyncio.run(measure(corpus.root, args.where))
        finally:
            if args.keep is None:
                hostile.cleanup(corpus)


if __name__ == "__main__":
    main()
