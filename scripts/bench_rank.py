"""Quick rerank-latency measurement of the Engine on a synthetic corpus of Entry objects.

Usage: .venv/bin/python scripts/bench_rank.py [--entries 10000 50000] [--limit 200]

Every query is typed character by character (one-character prefixes included); each keystroke
is one `Engine.search(prefix, limit=...)`. Reports index build time and p50/p95/max per size,
both wall-clock and thread CPU time (on a shared machine the wall clock includes waiting for a
core).
The corpus is deterministic: Zipf-distributed synthetic words plus real technical terms, with
headings, daily/long-term/note sources and dates over a year.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import random
import statistics
import time
from pathlib import Path

from memtui.core.config import Config
from memtui.core.engine import Engine
from memtui.core.model import Entry, Source

TODAY = dt.date(2026, 6, 1)
TECH = (
    "deploy", "deployment", "staging", "production", "kubernetes", "docker", "database",
    "migration", "postgres", "redis", "cache", "ci", "pipeline", "github", "release",
    "rollback", "incident", "latency", "memory", "agent", "prompt", "token", "embedding",
    "vector", "search", "index", "query", "config", "secret", "vault", "backup", "monitoring",
    "alert", "grafana", "terraform", "aws", "s3", "bucket", "lambda", "api", "endpoint",
    "webhook", "auth", "oauth", "session", "cookie",
)
QUERIES = (
    "deploy staging", "kubernetes rollback", "database migration plan", "redis cache",
    "ci pipeline", "s3 bucket policy", "deploymnet", "kubernetse", "incident latency",
    "memory agent", "oauth session", "grafana alert rule", "backup vault", "api endpoint",
    "terraform aws", "webhook retry",
)


def synthetic_words(rng: random.Random, count: int) -> list[str]:
    syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"] + ["ar", "en", "ol", "is"]
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def make_entries(count: int, seed: int = 7) -> list[Entry]:
    rng = random.Random(seed)
    synthetic = synthetic_words(rng, 30000)
    vocabulary = synthetic[:200] + list(TECH) + synthetic[200:]
    weights = [1.0 / (rank + 1) ** 1.05 for rank in range(len(vocabulary))]
    cumulative = list(itertools.accumulate(weights))
    entries: list[Entry] = []
    per_file = 8
    for file_number in range((count + per_file - 1) // per_file):
        kind = file_number % 10
        day = TODAY - dt.timedelta(days=file_number % 365)
        if kind < 7:
            source, path, date = Source.DAILY, f"memory/{day.isoformat()}-{file_number}.md", day
        elif kind < 9:
            source, path, date = Source.NOTE, f"notes/topic-{file_number}.md", None
        else:
            source, path, date = Source.LONG_TERM, f"memory/MEMORY-{file_number}.md", None
        in_file = min(per_file, count - len(entries))
        for position in range(in_file):
            title = " ".join(rng.choices(vocabulary, cum_weights=cumulative, k=rng.randint(2, 6)))
            body = " ".join(rng.choices(vocabulary, cum_weights=cumulative, k=rng.randint(30, 150)))
            line = 1 + position * 10
            entries.append(Entry(
                id=f"{path}#{position}", path=path, source=source, title=title,
                heading_path=(title,), body=body, line_start=line, line_end=line + 9,
                date=date, position=position, count=in_file,
            ))
    return entries


def keystrokes(query: str) -> list[str]:
    return [query[:end] for end in range(1, len(query) + 1)]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(count: int, limit: int) -> None:
    entries = make_entries(count)
    engine = Engine(Path("/nonexistent"), Config(), today=TODAY, days=0)
    start = time.perf_counter()
    engine.load_entries(entries)
    build_ms = (time.perf_counter() - start) * 1000
    strokes = [stroke for query in QUERIES for stroke in keystrokes(query)]
    for stroke in strokes[:20]:
        engine.search(stroke, limit=limit)
    engine.load_entries(entries)
    wall: list[float] = []
    cpu: list[float] = []
    for stroke in strokes:
        began, began_cpu = time.perf_counter(), time.thread_time()
        engine.search(stroke, limit=limit)
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.thread_time() - began_cpu) * 1000)
    print(
        f"{count:>6} entries  vocabulary {engine.vocabulary_size:>6}  build {build_ms:7.0f} ms  "
        f"keystrokes {len(wall)}\n"
        f"        wall  p50 {statistics.median(wall):.3f} ms  p95 {percentile(wall, 0.95):.3f} ms"
        f"  max {max(wall):.3f} ms\n"
        f"        cpu   p50 {statistics.median(cpu):.3f} ms  p95 {percentile(cpu, 0.95):.3f} ms"
        f"  max {max(cpu):.3f} ms  (thread CPU time: what the machine's load does not inflate)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, nargs="+", default=[10000, 50000])
    parser.add_argument("--limit", type=int, default=200)
    args = parser.parse_args()
    for count in args.entries:
        measure(count, args.limit)


if __name__ == "__main__":
    main()
