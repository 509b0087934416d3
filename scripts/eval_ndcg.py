"""nDCG@10 of the ranker on the judged query sets in tests/judged/*.json (see memtui.bench.quality).

Usage:
  .venv/bin/python scripts/eval_ndcg.py                 # defaults, per query and mean
  .venv/bin/python scripts/eval_ndcg.py --weights relevance=0.6,recency=0.2,source=0.1,position=0.1
  .venv/bin/python scripts/eval_ndcg.py --grid          # mean nDCG for a grid of weightings

tests/test_quality.py keeps a floor under the defaults' mean.
"""

from __future__ import annotations

import argparse
import itertools
from dataclasses import replace
from pathlib import Path

from memtui.bench.quality import CUTOFF, judge, mean_ndcg
from memtui.core.settings.config import Config

JUDGED = Path(__file__).resolve().parent.parent / "tests" / "judged"


def evaluate(config: Config, *, verbose: bool) -> float:
    outcomes = judge(JUDGED, config)
    mean = mean_ndcg(outcomes)
    if verbose:
        for outcome in outcomes:
            flag = f"  MISSING {list(outcome.missing)}" if outcome.missing else ""
            print(f"{outcome.ndcg:.3f}  {outcome.judged_set}: {outcome.query!r}{flag}")
            if outcome.ndcg < 0.8:
                for rank, (key, grade) in enumerate(outcome.ranked, start=1):
                    print(f"         {rank:>2}. {grade}  {key}")
        print(f"mean nDCG@{CUTOFF} over {len(outcomes)} queries: {mean:.4f}")
    return mean


def parse_weights(text: str) -> dict[str, float]:
    pairs = (part.split("=", 1) for part in text.split(",") if part)
    return {name.strip(): float(value) for name, value in pairs}


def grid(base: Config) -> None:
    results = []
    for relevance, recency, source, position in itertools.product(
        (0.5, 0.6, 0.7, 0.8), (0.05, 0.1, 0.15, 0.2), (0.05, 0.1, 0.15), (0.0, 0.05, 0.1)
    ):
        weights = {
            "relevance": relevance,
            "recency": recency,
            "source": source,
            "position": position,
        }
        total = sum(weights.values())
        weights = {name: value / total for name, value in weights.items()}
        mean = evaluate(replace(base, weights=weights), verbose=False)
        results.append((mean, relevance, recency, source, position))
    for mean, *weights in sorted(results, reverse=True)[:15]:
        print(f"{mean:.4f}  relevance/recency/source/position = {weights}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
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
