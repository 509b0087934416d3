"""Ranking quality: nDCG@10 of the ranker on judged query sets (tests/judged/*.json).

Each set names a root ("demo" = the bundled demo materialised for the set's `today`, else a folder
relative to the JSON file), `today`, `days` and graded judgments keyed by `path:line_start`
(3 = what the user wants, 2 = highly relevant, 1 = related; unlisted = 0). Gains are 2^g - 1.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtui.core.live.engine import Engine
from memtui.core.settings.config import Config
from memtui.demo import materialise_demo

CUTOFF = 10


@dataclass(frozen=True)
class JudgedQuery:
    """One judged query's outcome."""

    judged_set: str
    query: str
    ndcg: float
    ranked: tuple[tuple[str, int], ...]
    """The top results as (path:line_start, grade)."""
    missing: tuple[str, ...]
    """Judged keys that name no loaded entry (a stale judgment)."""


def dcg(grades: list[int]) -> float:
    return float(sum((2**grade - 1) / math.log2(rank + 2) for rank, grade in enumerate(grades)))


def load_sets(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    return [
        (path, json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(folder.glob("*.json"))
    ]


def engine_for(path: Path, judged: dict[str, Any], config: Config) -> Engine:
    today = dt.date.fromisoformat(judged["today"])
    if judged["root"] == "demo":
        root = materialise_demo(today)
    else:
        root = (path.parent / judged["root"]).resolve()
    engine = Engine(root, config, today=today, days=judged.get("days", 0))
    engine.load()
    return engine


def judge(folder: Path, config: Config) -> list[JudgedQuery]:
    """Every judged query of every set in `folder`, ranked with `config`."""
    outcomes: list[JudgedQuery] = []
    for path, judged in load_sets(folder):
        engine = engine_for(path, judged, config)
        known = {f"{e.path}:{e.line_start}" for e in engine.loaded_entries()}
        for item in judged["queries"]:
            judgments: dict[str, int] = item["judgments"]
            result = engine.search(item["query"], limit=CUTOFF)
            ranked = [f"{h.entry.path}:{h.entry.line_start}" for h in result.hits]
            ideal = dcg(sorted(judgments.values(), reverse=True)[:CUTOFF])
            score = dcg([judgments.get(key, 0) for key in ranked]) / ideal if ideal else 0.0
            outcomes.append(
                JudgedQuery(
                    judged_set=path.stem,
                    query=item["query"],
                    ndcg=score,
                    ranked=tuple((key, judgments.get(key, 0)) for key in ranked),
                    missing=tuple(sorted(set(judgments) - known)),
                )
            )
    return outcomes


def mean_ndcg(outcomes: list[JudgedQuery]) -> float:
    return sum(outcome.ndcg for outcome in outcomes) / len(outcomes)
