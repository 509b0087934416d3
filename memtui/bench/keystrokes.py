"""Benchmark queries: derived from the corpus (or read from a file) and typed key by key.

Every prefix of a query, from its first character on, is one keystroke and so one rerank:
`dep`, `depl`, ... `deploy ` (the space too) ... `deploy fix`. A quarter of the derived
queries carry a typo (two letters swapped or one dropped), as people type.
"""

from __future__ import annotations

import math
import random
import re
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from memtui.bench.corpus import FUNCTION_WORDS

DEFAULT_QUERY_COUNT = 24
TYPO_SHARE = 0.25
MIN_QUERY_WORD = 3
MAX_QUERY_CHARS = 200
WORD = re.compile(r"[^\W\d_]{3,}")
STOPWORDS = frozenset(FUNCTION_WORDS)
FALLBACK_QUERIES = ("memory", "deploy fix", "meeting notes", "config", "test failure")


def read_queries(path: Path) -> list[str]:
    """One query per non-blank line, whitespace-trimmed and capped in length."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [line.strip()[:MAX_QUERY_CHARS] for line in lines if line.strip()]


def add_typo(word: str, rng: random.Random) -> str:
    """Swap two neighbouring letters or drop one (never the first letter)."""
    if len(word) < 4:
        return word
    position = rng.randrange(1, len(word) - 1)
    if rng.random() < 0.5:
        letters = list(word)
        letters[position], letters[position + 1] = letters[position + 1], letters[position]
        swapped = "".join(letters)
        return swapped if swapped != word else word[:position] + word[position + 1 :]
    return word[:position] + word[position + 1 :]


def derive_queries(
    texts: Sequence[str], count: int = DEFAULT_QUERY_COUNT, *, seed: int = 7
) -> list[str]:
    """1–3 neighbouring content words from random entries; some with a typo.

    Words come from the entries themselves, so queries match something, as a user's would.
    """
    rng = random.Random(seed)
    queries: list[str] = []
    attempts = 0
    while texts and len(queries) < count and attempts < count * 20:
        attempts += 1
        words = [
            word
            for word in WORD.findall(texts[rng.randrange(len(texts))].casefold())
            if word not in STOPWORDS
        ]
        if not words:
            continue
        size = min(len(words), rng.choice((1, 1, 2, 2, 2, 3)))
        start = rng.randrange(len(words) - size + 1)
        picked = words[start : start + size]
        if rng.random() < TYPO_SHARE:
            longest = max(range(len(picked)), key=lambda i: len(picked[i]))
            picked[longest] = add_typo(picked[longest], rng)
        query = " ".join(picked)
        if query not in queries:
            queries.append(query)
    return queries or list(FALLBACK_QUERIES)


def keystrokes(query: str) -> list[str]:
    """What the query box holds after each key: every prefix, one character longer each time."""
    return [query[:length] for length in range(1, len(query) + 1)]


def all_keystrokes(queries: Sequence[str]) -> list[str]:
    return [stroke for query in queries for stroke in keystrokes(query)]


@dataclass(frozen=True, slots=True)
class Timings:
    """Per-keystroke wall-clock and on-CPU milliseconds, in keystroke order.

    Wall time is what a user waits; CPU time (this thread's) excludes time the process spent
    descheduled, so a gap between the two means other programs were competing for the cores.
    """

    wall: list[float]
    cpu: list[float]


def time_each(search: Callable[[str], object], strokes: Sequence[str]) -> Timings:
    """Time one call of `search` per keystroke."""
    timings = Timings([], [])
    for stroke in strokes:
        wall_start, cpu_start = time.perf_counter_ns(), time.thread_time_ns()
        search(stroke)
        timings.cpu.append((time.thread_time_ns() - cpu_start) / 1e6)
        timings.wall.append((time.perf_counter_ns() - wall_start) / 1e6)
    return timings


def percentile(samples: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (no interpolation), so it is always an observed latency."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    rank = min(len(ordered), max(1, math.ceil(fraction * len(ordered))))
    return ordered[rank - 1]


def latency_summary(samples: Sequence[float]) -> dict[str, float]:
    """p50, p95, max and mean in milliseconds, rounded for reading."""
    return {
        "p50": round(percentile(samples, 0.50), 4),
        "p95": round(percentile(samples, 0.95), 4),
        "max": round(max(samples, default=0.0), 4),
        "mean": round(statistics.fmean(samples), 4) if samples else 0.0,
    }
