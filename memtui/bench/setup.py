"""What a benchmark run is given, and the peak memory it reads: kept apart from the runner so
the app's bench process (`bench.tui`) measures the app without the runner's baselines (SQLite)."""

from __future__ import annotations

import datetime as dt
import resource
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memtui.bench.corpus import CorpusSummary
from memtui.core.settings.config import Config


@dataclass(frozen=True, slots=True)
class BenchSetup:
    """Everything a run needs; `synthetic` is set when the bench wrote the corpus itself."""

    root: Path
    config: Config
    today: dt.date
    days: int
    queries: Sequence[str] | None
    synthetic: CorpusSummary | None


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far. On Linux that is VmHWM: `ru_maxrss`
    survives exec, so a process started by a large one (the bench starting an app) would
    report its parent's peak. Elsewhere ru_maxrss (KiB on Linux, bytes on macOS)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024
