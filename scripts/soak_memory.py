"""Soak the real app's memory: grow a watched file to 10 MB, remove it, replace the root, rewrite.

The app (watcher on, as a user runs it) opens a copy of the demo in a temporary folder. Then:

1. *grow*: a watched file is appended to, chunk by chunk, until it holds `--grow-mb` MB;
2. *removed*: the file is deleted;
3. *replaced*: the root folder is swapped for one holding 4 entries;
4. *rewrites*: one file is rewritten `--rewrites` times.

After each write the script waits for the app to apply the change and repaint. It prints RSS
(from /proc/self/statm) over time and at the end of each phase, next to a fresh app (a new
process) on the same folder. Figures are printed, not asserted: memory belongs to reports, not
to tests. Linux only (statm).

    .venv/bin/python scripts/soak_memory.py [--grow-mb 10] [--chunk-kb 256] [--rewrites 300]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gc
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from textual.pilot import Pilot

from memtui.cli import build_tui_parser
from memtui.commands.tui import create_app
from memtui.demo import materialise_demo
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.main import MainScreen

TODAY = dt.date(2026, 11, 23)
GROWN = "notes/grown.md"
REWRITTEN = "notes/rewritten.md"
SIZE = (120, 36)
SAMPLE_EVERY_S = 0.5
SETTLE_S = 1.0
"""Idle time after a phase before its RSS is read (the app settles its heap after a paint)."""
WAIT_S = 120.0
PAGE = os.sysconf("SC_PAGE_SIZE")
FRESH_MARK = "fresh-rss-bytes="


def rss() -> int:
    """Resident set size of this process, in bytes."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * PAGE


def mb(size: float) -> str:
    return f"{size / 1e6:7.1f} MB"


def objects() -> str:
    """Objects the cyclic collector tracks, frozen ones included (a leak of UI objects shows
    here long before it shows in RSS)."""
    return f"{len(gc.get_objects()) + gc.get_freeze_count():,} objects"


@dataclass
class Meter:
    """Samples RSS in the background, labelled with the current phase."""

    started: float = field(default_factory=time.perf_counter)
    phase: str = "start"
    samples: list[tuple[float, str, int]] = field(default_factory=list)
    running: bool = True

    async def run(self) -> None:
        next_print = 0.0
        while self.running:
            elapsed = time.perf_counter() - self.started
            self.samples.append((elapsed, self.phase, rss()))
            if elapsed >= next_print:
                print(
                    f"  t={elapsed:6.1f} s  {self.phase:<10} rss {mb(self.samples[-1][2])}",
                    flush=True,
                )
                next_print = elapsed + 10.0
            await asyncio.sleep(SAMPLE_EVERY_S)


class Words:
    """Pseudo-words from a fixed seed, so the vocabulary grows like real notes' does."""

    def __init__(self, seed: int = 16) -> None:
        self._random = random.Random(seed)
        letters = "etaoinshrdlucmfwypvbgkqjxz"
        self._words = [
            "".join(self._random.choices(letters, k=self._random.randint(3, 11)))
            for _ in range(30_000)
        ]

    def section(self, number: int, size: int) -> str:
        body: list[str] = []
        length = 0
        while length < size:
            line = " ".join(self._random.choices(self._words, k=14))
            body.append(line)
            length += len(line) + 1
        heading = f"## 2026-11-{1 + number % 22:02d} {number % 24:02d}:00 soak note {number}"
        return f"\n{heading}\n\nsoakmarker {' '.join(body)}\n"


def tui_args(root: Path) -> argparse.Namespace:
    return build_tui_parser().parse_args(
        [str(root), "--days", "0", "--today", TODAY.isoformat(), "--query", "soakmarker"]
    )


def settled(app: MemtuiApp) -> bool:
    screen = app.screen
    return (
        isinstance(screen, MainScreen)
        and screen.engine is not None
        and screen.engine.index_ready
        and app.painted_generation >= max(1, screen.generation)
    )


async def wait_for(pilot: Pilot[int], what: str, condition: Callable[[], bool]) -> None:
    deadline = time.perf_counter() + WAIT_S
    while not condition():
        if time.perf_counter() > deadline:
            print(f"  ! gave up waiting for {what}", flush=True)
            return
        await pilot.pause(0.02)


async def applied(
    pilot: Pilot[int],
    app: MemtuiApp,
    before: int,
    what: str,
    done: Callable[[], bool] = lambda: True,
) -> None:
    """Wait until the watcher's change reached the engine and the list was repainted."""
    await wait_for(pilot, what, lambda: app.changes_applied > before and done() and settled(app))


async def idle(pilot: Pilot[int]) -> None:
    await pilot.pause(SETTLE_S)


async def fresh_rss(root: Path) -> int:
    """RSS of a new app process on `root`, loaded, indexed and painted (run off the loop)."""
    started = time.perf_counter()
    output = (
        await asyncio.to_thread(
            subprocess.run,
            [sys.executable, __file__, "--fresh", str(root)],
            capture_output=True,
            text=True,
            check=True,
        )
    ).stdout
    print(f"  (fresh app measured in {time.perf_counter() - started:.1f} s)", flush=True)
    line = next(line for line in output.splitlines() if line.startswith(FRESH_MARK))
    return int(line.removeprefix(FRESH_MARK))


async def measure_fresh(root: Path) -> None:
    app = create_app(tui_args(root))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, "load", lambda: settled(app))
        await browse(pilot)
        await idle(pilot)
        print(f"{FRESH_MARK}{rss()}", flush=True)
        await pilot.press("ctrl+q")


async def browse(pilot: Pilot[int]) -> None:
    """Move through the first results, so the entry pane renders (and caches) them."""
    await pilot.press("tab")
    for _ in range(5):
        await pilot.press("down")
        await pilot.pause(0.05)
    await pilot.press("slash")


def replace_root(root: Path, scratch: Path) -> None:
    """Swap the root folder for one holding 4 entries (as a sync tool or `git checkout` does)."""
    fresh = scratch / "replacement"
    fresh.mkdir()
    (fresh / "MEMORY.md").write_text(
        "# Memory\n\n## One\n\nfirst\n\n## Two\n\nsecond\n\n## Three\n\nthird\n\n"
        "## Four\n\nfourth soakmarker\n",
        encoding="utf-8",
    )
    old = scratch / "replaced"
    root.rename(old)
    fresh.rename(root)
    shutil.rmtree(old)


async def soak(root: Path, scratch: Path, options: argparse.Namespace) -> None:
    words = Words()
    rewritten = root / REWRITTEN
    rewritten.parent.mkdir(parents=True, exist_ok=True)
    rewritten.write_text(words.section(0, 400), encoding="utf-8")
    grown = root / GROWN
    grown.write_text("# Grown\n", encoding="utf-8")
    phases: list[tuple[str, int, int | None, str]] = []
    meter = Meter()
    sampler = asyncio.create_task(meter.run())
    app = create_app(tui_args(root))
    async with app.run_test(size=SIZE) as pilot:
        meter.phase = "load"
        await wait_for(pilot, "load", lambda: settled(app))
        await browse(pilot)
        await idle(pilot)
        phases.append(("loaded", rss(), await fresh_rss(root), objects()))

        meter.phase = "grow"
        number = 0
        target = options.grow_mb * 1_000_000
        while grown.stat().st_size < target:
            chunk = []
            chunk_size = 0
            while chunk_size < options.chunk_kb * 1000:
                number += 1
                chunk.append(words.section(number, options.section_bytes))
                chunk_size += len(chunk[-1])
            before = app.changes_applied
            with grown.open("a", encoding="utf-8") as handle:
                handle.write("".join(chunk))
            await applied(pilot, app, before, "an append")
            await browse(pilot)
        await idle(pilot)
        phases.append((f"grown to {grown.stat().st_size / 1e6:.1f} MB", rss(), None, objects()))

        meter.phase = "removed"
        before = app.changes_applied
        grown.unlink()
        engine = app.screen.engine if isinstance(app.screen, MainScreen) else None
        await applied(
            pilot,
            app,
            before,
            "the removal",
            lambda: engine is not None and not engine.stores[0].entries_in(GROWN),
        )
        await browse(pilot)
        await idle(pilot)
        phases.append(("file removed", rss(), await fresh_rss(root), objects()))

        meter.phase = "replaced"
        before = app.changes_applied
        replace_root(root, scratch)
        await applied(
            pilot, app, before, "the new root", lambda: engine is not None and len(engine) == 4
        )
        await browse(pilot)
        await idle(pilot)
        phases.append(("root replaced (4 entries)", rss(), await fresh_rss(root), objects()))

        meter.phase = "rewrites"
        rewritten = root / REWRITTEN
        rewritten.parent.mkdir(parents=True, exist_ok=True)
        creep: list[tuple[int, int]] = []
        for count in range(1, options.rewrites + 1):
            before = app.changes_applied
            rewritten.write_text(
                f"# Rewritten {count}\n" + words.section(count, 400), encoding="utf-8"
            )
            await applied(pilot, app, before, "a rewrite")
            if count % 50 == 0 or count == 1:
                await idle(pilot)
                creep.append((count, rss()))
                print(f"  rewrite {count}: rss {mb(creep[-1][1])}, {objects()}", flush=True)
        phases.append(
            (f"after {options.rewrites} rewrites", rss(), await fresh_rss(root), objects())
        )
        await pilot.press("ctrl+q")
    meter.running = False
    await sampler
    report(phases, creep)


def report(phases: list[tuple[str, int, int | None, str]], creep: list[tuple[int, int]]) -> None:
    print("\nphase                          app RSS       fresh app     ratio   app's GC")
    for name, app_rss, fresh, counted in phases:
        ratio = f"{app_rss / fresh:5.2f}x" if fresh else "     -"
        fresh_text = mb(fresh) if fresh else "          -"
        print(f"{name:<28} {mb(app_rss)}    {fresh_text}    {ratio}   {counted}")
    if len(creep) >= 2:
        (first, first_rss), (last, last_rss) = creep[0], creep[-1]
        per = (last_rss - first_rss) / max(1, last - first)
        print(
            f"\nrewrites {first}..{last}: {per / 1000:+.2f} KB per rewrite "
            f"({', '.join(f'{count}: {mb(size).strip()}' for count, size in creep)})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grow-mb", type=float, default=10.0, help="grow the file to this size")
    parser.add_argument("--chunk-kb", type=int, default=256, help="bytes per append, in kB")
    parser.add_argument(
        "--section-bytes", type=int, default=2000, help="body size of each appended section"
    )
    parser.add_argument("--rewrites", type=int, default=300, help="rewrites of one file")
    parser.add_argument("--fresh", type=Path, default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.fresh is not None:
        asyncio.run(measure_fresh(options.fresh))
        return
    with tempfile.TemporaryDirectory(prefix="memtui-soak-") as temporary:
        scratch = Path(temporary)
        root = scratch / "memory"
        shutil.copytree(materialise_demo(TODAY), root)
        asyncio.run(soak(root, scratch, options))


if __name__ == "__main__":
    main()
