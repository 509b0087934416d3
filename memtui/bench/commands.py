"""`memtui rank` as a user, a script or an agent runs it: whole processes, cold and warm, beside
`grep -ril` on the same folder and the floor of any such process.

Every run is a fresh `python -m memtui rank -q QUERY ROOT`, so the figures hold the interpreter's
start, the imports and the output, not only the search. The cache folder is the bench's own
(`XDG_CACHE_HOME` points into a temporary folder; the user's is never touched):

- cold: `--no-cache`, every file read, parsed and indexed (what a first call costs; the cache
  write a first call leaves behind runs detached, after the caller has its answer);
- warm: from a cache that a load finds current, as a command called on every turn finds it.

The floor is a Python process that only imports numpy and msgspec, as `rank` does before it reads
a byte: the part of a call memtui cannot cut, and the part that moves most with the host's speed
(0.06–0.2 s for numpy alone on this kind of shared 2-core machine within a day). `rank` minus the
floor is memtui's own time.

Each is the median of RUNS runs, wall clock and CPU (user + system of the process), with the
load average before and after: on a shared machine wall clock includes waiting for a core.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memtui.bench.setup import BenchSetup
from memtui.core.cache.folder import CacheFolder
from memtui.core.live.engine import Engine
from memtui.core.reading.walk import RACY_WINDOW_NS

RUNS = 5
SETTLE_ROUNDS = 3
"""Loads that may still find the cache stale (a file changed meanwhile); they start once every
file is past its racy window (`_past_racy_window`)."""


def measure_commands(setup: BenchSetup, query: str) -> dict[str, Any]:
    """Median wall and CPU milliseconds of `rank` cold and warm, the floor, and `grep -ril`."""
    load_before = _load_average()
    with tempfile.TemporaryDirectory(prefix="memtui-bench-cache-") as folder:
        environment = {**os.environ, "XDG_CACHE_HOME": folder}
        rank = [
            sys.executable,
            "-m",
            "memtui",
            "rank",
            "-q",
            query,
            "--today",
            setup.today.isoformat(),
            "--days",
            str(setup.days),
            str(setup.root),
        ]
        cold = _median_run([*rank, "--no-cache"], environment)
        unsettled = settle_cache(setup, CacheFolder(Path(folder) / "memtui"))
        _run(rank, environment)  # the warming run a user's first call is
        warm = _median_run(rank, environment)
        floor = _median_run(
            [sys.executable, "-c", "import numpy, msgspec"],
            {**environment, "OPENBLAS_NUM_THREADS": "1"},  # as `cli.one_blas_thread` loads it
        )
    grep = shutil.which("grep")
    words = query.split()
    grep_figures = (
        _median_run(
            [grep, "-ril", *(part for word in words for part in ("-e", word)), str(setup.root)],
            dict(os.environ),
        )
        if grep and words
        else None
    )
    return {
        "query": query,
        "runs": RUNS,
        "rank_cold": cold,
        "rank_warm": warm,
        "imports_floor": floor,
        "cache_settled": not unsettled,
        "cache_problems": unsettled,
        "grep_ril": grep_figures,
        "load_average_1m": [load_before, _load_average()],
    }


def settle_cache(setup: BenchSetup, folder: CacheFolder) -> list[str]:
    """Write the root's cache until a load finds it current; why it never did, if it did not
    (an empty list: settled)."""
    _past_racy_window(setup.root)
    problems: list[str] = []
    for _ in range(SETTLE_ROUNDS):
        engine = Engine(setup.root, setup.config, today=setup.today, days=setup.days, cache=folder)
        engine.load()
        if not engine.cache_stale:
            return []
        engine.save_cache()
        problems = engine.warnings
    return problems or ["the cache was still stale after every write"]


def _past_racy_window(root: Path) -> None:
    """Wait until the newest file is older than the racy window: before that, a load keeps its
    digest, and the record changes once the moment passes, so on a busy machine each of the
    settling loads could find the cache stale again (the smoke test saw it under load)."""
    newest = max((path.stat().st_mtime_ns for path in root.rglob("*.md")), default=0)
    wait_ns = newest + RACY_WINDOW_NS - time.time_ns()
    if wait_ns > 0:
        time.sleep(wait_ns / 1e9)


def _median_run(argv: Sequence[str], environment: dict[str, str]) -> dict[str, float]:
    samples = [_run(argv, environment) for _ in range(RUNS)]
    return {
        "wall_ms": round(statistics.median(wall for wall, _ in samples), 1),
        "cpu_ms": round(statistics.median(cpu for _, cpu in samples), 1),
        "wall_ms_min": round(min(wall for wall, _ in samples), 1),
    }


def _run(argv: Sequence[str], environment: dict[str, str]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one process, run to its end with its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        argv, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    )
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def _load_average() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
