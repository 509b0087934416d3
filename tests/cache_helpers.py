"""Shared by the cache tests: engines with and without a cache, and 'same results' checks that
compare everything a search shows (ids, scores and explanations bit for bit)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from memtui.core.cache.folder import CacheFolder, default_cache_folder
from memtui.core.live.engine import Engine
from memtui.core.live.roots import MemoryRoot, folder_label, make_roots
from memtui.core.settings.config import Config

TODAY = dt.date(2026, 11, 21)
QUERIES = (
    "deploy",
    "depl",
    "login test",
    "invoice",
    "deploymnet",
    "ci",
    "source:daily deploy",
    "fixed -login",
    '"flaky login"',
    "数据",
    "after:2026-11-01",
    "",
    "zzqx",
    "a",
)


def roots_of(*folders: Path) -> Path | tuple[MemoryRoot, ...]:
    return (
        folders[0]
        if len(folders) == 1
        else make_roots((folder_label(folder), folder) for folder in folders)
    )


def cached_engine(
    *folders: Path, days: int = 0, today: dt.date = TODAY, cache: CacheFolder | None = None
) -> Engine:
    """Loaded (both phases) from the default cache folder, or `cache`."""
    engine = Engine(
        roots_of(*folders),
        Config(),
        today=today,
        days=days,
        cache=cache or CacheFolder(default_cache_folder()),
    )
    engine.load()
    return engine


def fresh_engine(*folders: Path, days: int = 0, today: dt.date = TODAY) -> Engine:
    engine = Engine(roots_of(*folders), Config(), today=today, days=days)
    engine.load()
    return engine


def assert_same_engine(warm: Engine, fresh: Engine, queries: Sequence[str] = QUERIES) -> None:
    """Every query ranks the same ids with the same scores and explanations, and what an empty
    result says (unmatched terms, suggestions, hidden entries) is the same too."""
    assert len(warm) == len(fresh)
    assert warm.skipped == fresh.skipped
    assert sorted(e.id for e in warm.loaded_entries()) == sorted(
        e.id for e in fresh.loaded_entries()
    )
    for query in queries:
        left, right = warm.search(query), fresh.search(query)
        assert left.total_matches == right.total_matches, query
        assert (left.unmatched_terms, left.suggestions, left.hidden_by_window) == (
            right.unmatched_terms,
            right.suggestions,
            right.hidden_by_window,
        ), query
        assert [(hit.entry, hit.score, hit.explanation) for hit in left.hits] == [
            (hit.entry, hit.score, hit.explanation) for hit in right.hits
        ], query
