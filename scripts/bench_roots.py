"""Does opening memory as two roots cost more than one? Load 2 × N/2 entries vs 1 × N.

Writes `memtui bench`'s synthetic corpus of N entries (default 10,000) once, then splits the
same files over two roots (MEMORY.md and every other daily note in one, the rest in the other),
so both setups hold exactly the same text. Times `Engine.load()` (read, parse, slot and index)
for each setup, interleaved, median of several runs, wall and on-CPU, and the median rerank of
a few queries typed one character at a time. Usage:

    .venv/bin/python scripts/bench_roots.py [--entries 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from memtui.bench.corpus import write_corpus
from memtui.core.live.engine import Engine
from memtui.core.live.roots import MemoryRoot
from memtui.core.settings.config import Config

TODAY = dt.date(2026, 11, 21)
QUERIES = ("deploy rollback", "postgres migration", "invoice", "release checklist")


def split(source: Path, first: Path, second: Path) -> None:
    """MEMORY.md and every other daily note to `first`, the other notes to `second`."""
    notes = sorted(source.rglob("*.md"))
    for number, path in enumerate(notes):
        relative = path.relative_to(source)
        target = first if relative.name == "MEMORY.md" or number % 2 == 0 else second
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target / relative)


def timed_load(roots: Path | tuple[MemoryRoot, ...]) -> tuple[Engine, float, float]:
    engine = Engine(roots, Config(), today=TODAY, days=0)
    start, cpu = time.perf_counter(), time.process_time()
    engine.load()
    return engine, (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def rerank_ms(engine: Engine) -> float:
    samples = []
    for query in QUERIES:
        for end in range(1, len(query) + 1):
            start = time.perf_counter()
            engine.search(query[:end], limit=50)
            samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        one, alpha, beta = base / "one", base / "alpha", base / "beta"
        write_corpus(one, args.entries, today=TODAY)
        split(one, alpha, beta)
        two = (MemoryRoot("alpha", alpha), MemoryRoot("beta", beta))
        results: dict[str, list[tuple[float, float, float]]] = {"1 root": [], "2 roots": []}
        sizes: dict[str, str] = {}
        for _ in range(args.runs):
            for name, roots in (("1 root", one), ("2 roots", two)):
                gc.collect()  # the previous engine's garbage is not this load's cost
                engine, wall, cpu = timed_load(roots)
                results[name].append((wall, cpu, rerank_ms(engine)))
                per_root = [len(store.entries) for store in engine.stores]
                sizes[name] = " + ".join(f"{count:,}" for count in per_root)
                del engine
        print(f"{args.entries:,} synthetic entries, {args.runs} runs each, interleaved")
        for name, rows in results.items():
            wall = statistics.median(row[0] for row in rows)
            cpu = statistics.median(row[1] for row in rows)
            rerank = statistics.median(row[2] for row in rows)
            print(
                f"{name:8} ({sizes[name]:>15} entries): load wall {wall:6.0f} ms, "
                f"CPU {cpu:6.0f} ms; rerank median {rerank:.2f} ms"
            )


if __name__ == "__main__":
    main()
