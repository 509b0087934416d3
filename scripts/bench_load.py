"""Measure the store on a generated memory folder: full load, one-file updates, the window count.

By default generates 300 daily notes (30 timed sections each) plus a MEMORY.md with 1,000 sections
(~10k entries); `--entries N` writes `memtui bench`'s synthetic corpus of N entries instead. Times
a full load (best and median of several runs), then the store's part of a one-file update
(`Store.apply_changes` after appending a section to a daily note, median of 7) and the first
`hidden_by_window` under a 30-day window. Usage:

    .venv/bin/python scripts/bench_load.py [--daily 300] [--sections 30] [--long-term 1000]
    .venv/bin/python scripts/bench_load.py --entries 50000 --runs 2

Wall time and on-CPU time are both printed: on shared cores the difference is contention.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import tempfile
import time
from pathlib import Path

from memtui.bench.corpus import write_corpus
from memtui.core.live.store import Store

WORDS = [
    "deploy",
    "postgres",
    "migration",
    "invoice",
    "rotate",
    "key",
    "flaky",
    "test",
    "staging",
    "rollback",
    "customer",
    "webhook",
    "ledger",
    "worker",
    "queue",
    "latency",
    "index",
    "vacuum",
    "release",
    "checklist",
    "token",
    "secret",
]
FENCE = "```bash\n# not a heading\nmake deploy\n```"


def paragraph(seed: int, words: int = 40) -> str:
    return " ".join(WORDS[(seed * 7 + i * 3) % len(WORDS)] for i in range(words))


def generate(root: Path, today: dt.date, daily: int, sections: int, long_term: int) -> int:
    memory = root / "memory"
    memory.mkdir(parents=True)
    count = 0
    for day in range(daily):
        date = today - dt.timedelta(days=day % 30)
        name = f"{date.isoformat()}-s{day}.md" if day >= 30 else f"{date.isoformat()}.md"
        parts = [f"# Daily Note - {date.isoformat()}\n"]
        for section in range(sections):
            minute = section * 2
            parts.append(
                f"## {minute // 60 + 8:02d}:{minute % 60:02d}:00 UTC\n\n"
                f"{paragraph(day * sections + section)}\n\n{FENCE}\n\n---\n"
            )
            count += 1
        (memory / name).write_text("\n".join(parts), encoding="utf-8")
    parts = ["# MEMORY.md\n"]
    for section in range(long_term):
        topic = WORDS[section % len(WORDS)]
        parts.append(f"## Topic {section}: {topic}\n\n{paragraph(section, 60)}\n")
        count += 1
    (root / "MEMORY.md").write_text("\n".join(parts), encoding="utf-8")
    return count


def time_updates(store: Store, root: Path, rounds: int = 7) -> list[float]:
    """Append a section to spread-out daily notes and time applying each one (then restore it)."""
    notes = sorted(path for path in root.rglob("*.md") if path.name[:4].isdigit())
    samples: list[float] = []
    for number, path in enumerate(notes[:: max(1, len(notes) // rounds)][:rounds]):
        original = path.read_bytes()
        path.write_bytes(original + f"\n## Update {number}\n\nappended\n".encode())
        start = time.perf_counter()
        store.apply_changes([path])
        samples.append((time.perf_counter() - start) * 1000)
        path.write_bytes(original)
        store.apply_changes([path])
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--daily", type=int, default=300)
    parser.add_argument("--sections", type=int, default=30)
    parser.add_argument("--long-term", type=int, default=1000)
    parser.add_argument("--entries", type=int, help="write the `memtui bench` corpus instead")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    today = dt.date(2026, 11, 21)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        if args.entries is not None:
            expected = write_corpus(root, args.entries, today=today).entries
        else:
            expected = generate(root, today, args.daily, args.sections, args.long_term)
        walls: list[float] = []
        cpus: list[float] = []
        for _ in range(args.runs):
            store = Store(root, days=0, today=today)
            start, cpu_start = time.perf_counter(), time.process_time()
            store.load()
            walls.append((time.perf_counter() - start) * 1000)
            cpus.append((time.process_time() - cpu_start) * 1000)
        print(
            f"generated {expected:,} entries, loaded {len(store.entries):,} "
            f"from {len(store.paths()):,} files (no window)"
        )
        print(f"load wall: best {min(walls):.0f} ms, median {statistics.median(walls):.0f} ms")
        print(f"load CPU:  best {min(cpus):.0f} ms, median {statistics.median(cpus):.0f} ms")
        updates = time_updates(store, root)
        print(
            f"one-file update (store): median {statistics.median(updates):.2f} ms, "
            f"max {max(updates):.2f} ms"
        )
        windowed = Store(root, days=30, today=today)
        windowed.load()
        start = time.perf_counter()
        hidden = windowed.hidden_by_window
        print(
            f"30-day window: {len(windowed.entries):,} loaded, first hidden_by_window "
            f"({hidden:,}) {(time.perf_counter() - start) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
