"""Property: whatever happens to the files while memtui is closed (edits, same-size rewrites in
the same timestamp tick, new files, deletions, renames, touches), and whatever the next start's
date window, a warm start ranks every query exactly like a fresh load. Twice in a row, so the
second cache is one saved from a live index that had changes layered on it."""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from pathlib import Path

from cache_helpers import TODAY, assert_same_engine, cached_engine, fresh_engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.core.cache.folder import CacheFolder

WORDS = (
    "deploy",
    "deployment",
    "canary",
    "ledger",
    "invoice",
    "login",
    "flaky",
    "rollback",
    "数据",
    "cache",
)
PATHS = (
    "MEMORY.md",
    "memory/2026-11-20.md",
    "memory/2026-11-02.md",
    "memory/2025-01-05.md",
    "notes/topic.md",
    "HISTORY.md",
    "memory-bank/activeContext.md",
)
QUERIES = (
    "deploy",
    "depl",
    "canary ledger",
    "invoce",
    "flaky -login",
    '"deploy canary"',
    "source:daily",
    "数据",
    "",
    "rollback after:2026-11-01",
)

words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)


@st.composite
def file_text(draw: st.DrawFn, path: str) -> str:
    if path == "HISTORY.md":
        days = draw(st.lists(st.integers(1, 60), min_size=1, max_size=4))
        return (
            "\n\n".join(f"[{TODAY - dt.timedelta(days=day)} 10:00] {draw(words)}" for day in days)
            + "\n"
        )
    sections = draw(st.lists(st.tuples(words, words), min_size=1, max_size=4))
    return "# Title\n\n" + "".join(f"## {heading}\n\n{body}\n\n" for heading, body in sections)


@st.composite
def operation(draw: st.DrawFn) -> tuple[str, str, str]:
    kind = draw(st.sampled_from(("write", "same_size", "append", "delete", "rename", "touch")))
    path = draw(st.sampled_from(PATHS))
    detail = draw(file_text(path)) if kind in ("write", "append") else draw(st.sampled_from(PATHS))
    return kind, path, detail


def apply(root: Path, kind: str, path: str, detail: str) -> None:
    target = root / path
    exists = target.is_file()
    if kind == "write" or (not exists and kind == "append"):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(detail, encoding="utf-8")
    elif not exists:
        return
    elif kind == "append":
        with target.open("a", encoding="utf-8") as handle:
            handle.write(detail)
    elif kind == "same_size":
        before = target.stat()
        text = target.read_text(encoding="utf-8")
        swapped = text.replace("deploy", "ledger").replace("canary", "flakyy")
        target.write_text(swapped if swapped != text else text[::-1], encoding="utf-8")
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    elif kind == "delete":
        target.unlink()
    elif kind == "rename" and detail != path:
        (root / detail).parent.mkdir(parents=True, exist_ok=True)
        target.replace(root / detail)
    elif kind == "touch":
        os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 1_000_000))


sessions = st.tuples(st.sampled_from((0, 30)), st.sampled_from((0, 1, 45)))
"""(days, how many days later than TODAY the next start is)."""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_warm_start_after_any_changes_ranks_like_a_fresh_load(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root, cache = Path(folder) / "root", CacheFolder(Path(folder) / "cache")
        root.mkdir()
        for path in data.draw(st.lists(st.sampled_from(PATHS), min_size=1, unique=True)):
            apply(root, "write", path, data.draw(file_text(path)))
        days, later = data.draw(sessions)
        cached_engine(root, days=days, today=TODAY, cache=cache).save_cache()
        for _ in range(2):
            for kind, path, detail in data.draw(st.lists(operation(), max_size=6)):
                apply(root, kind, path, detail)
            days, later = data.draw(sessions)
            today = TODAY + dt.timedelta(days=later)
            warm = cached_engine(root, days=days, today=today, cache=cache)
            assert warm.warnings == []
            assert_same_engine(warm, fresh_engine(root, days=days, today=today), QUERIES)
            warm.save_cache()
