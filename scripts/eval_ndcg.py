"""nDCG@10 of the ranker on the judged query sets in tests/judged/*.json.

Usage:
  .venv/bin/python scripts/eval_ndcg.py                 # defaults, per query and mean
  .venv/bin/python scripts/eval_ndcg.py --weights relevance=0.6,recency=0.2,source=0.1,position=0.1
  .venv/bin/python scripts/eval_ndcg.py --grid          # mean nDCG for a grid of weightings

Each set names a root ("demo" = the bundled demo materialised for the set's `today`, else a folder
relative to the JSON file), `today`, `days` and graded judgments keyed by `path:line_start`
(3 = what the user wants, 2 = highly relevant, 1 = related; unlisted = 0). Gains are 2^g − 1.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

from memtui.core.config import Config
from memtui.core.engine import Engine

JUDGED = Path(__file__).resolve().parent.parent / "tests" / "judged"
CUTOFF = 10


def dcg(grades: list[int]) -> float:
    return sum((2**grade - 1) / math.log2(rank + 2) for rank, grade in enumerate(grades))


def load_sets() -> list[tuple[Path, dict[str, Any]]]:
    return [(path, json.loads(path.read_text(encoding="utf-8")))
            for path in sorted(JUDGED.glob("*.json"))]


def engine_for(path: Path, judged: dict[str, Any], config: Config) -> Engine:
    today = dt.date.fromisoformat(judged["today"])
    if judged["root"] == "demo":
        from memtui.demo import materialise_demo

        root = materialise_demo(today)
    else:
        root = (path.parent / judged["root"]).resolve()
    engine = Engine(root, config, today=today, days=judged.get("days", 0))
    engine.load()
    return engine


def evaluate(config: Config, *, verbose: bool) -> float:
    scores: list[float] = []
    for path, judged in load_sets():
        engine = engine_for(path, judged, config)
        known = {f"{e.path}:{e.line_start}" for e in engine.store.entries.values()}
        for item in judged["queries"]:
            judgments: dict[str, int] = item["judgments"]
            missing = sorted(set(judgments) - known)
            result = engine.search(item["query"], limit=CUTOFF)
            ranked = [f"{h.entry.path}:{h.entry.line_start}" for h in result.hits]
            ideal = dcg(sorted(judgments.values(), reverse=True)[:CUTOFF])
            score = dcg([judgments.get(key, 0) for key in ranked]) / ideal if ideal else 0.0
            scores.append(score)
            if verbose:
                flag = f"  MISSING {missing}" if missing else ""
                print(f"{score:.3f}  {path.stem}: {item['query']!r}{flag}")
                if score < 0.8:
                    for rank, key in enumerate(ranked, start=1):
                        print(f"         {rank:>2}. {judgments.get(key, 0)}  {key}")
    mean = sum(scores) / len(scores)
    if verbose:
        print(f"mean nDCG@{CUTOFF} over {len(scores)} queries: {mean:.4f}")
    return mean


def parse_weights(text: str) -> dict[str, float]:
    pairs = (part.split("=", 1) for part in text.split(",") if part)
    return {name.strip(): float(value) for name, value in pairs}


def grid(base: Config) -> None:
    results = []
    for relevance, recency, source, position in itertools.product(
        (0.5, 0.6, 0.7, 0.8), (0.05, 0.1, 0.15, 0.2), (0.05, 0.1, 0.15), (0.0, 0.05, 0.1)
    ):
        weights = {"relevance": relevance, "recency": recency, "source": source,
                   "position": position}
        total = sum(weights.values())
        weights = {name: value / total for name, value in weights.items()}
        mean = evaluate(replace(base, weights=weights), verbose=False)
        results.append((mean, relevance, recency, source, position))
    for mean, *weights in sorted(results, reverse=True)[:15]:
        print(f"{mean:.4f}  relevance/recency/source/position = {weights}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", default="", help="name=value,... (normalised)")
    parser.add_argument("--half-life", type=float, default=None)
    parser.add_argument("--grid", action="store_true", help="try a grid of weightings")
    args = parser.parse_args()
    config = Config()
    if args.weights:
        weights = {**config.weights, **parse_weights(args.weights)}
        total = sum(weights.values())
        config = replace(config, weights={k: v / total for k, v in weights.items()})
    if args.half_life is not None:
        config = replace(config, half_life_days=args.half_life)
    if args.grid:
        grid(config)
    else:
        evaluate(config, verbose=True)


if __name__ == "__main__":
    main()
