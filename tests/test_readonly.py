"""Proof that memtui never writes under the memory root.

A `sys.addaudithook` hook records every Python-level open-for-writing, rename, delete, mkdir,
chmod … whose path lies under the root, during a full core session (load, queries,
apply_changes, watching), the `list`, `rank` and `health` commands, and a full app session
(load, typing, moving, a file changing while watched). Audit hooks cannot be removed, so the
hook is inert unless `_recording` is set. Limits: native code (watchfiles' Rust watcher) raises
no Python audit events; it only reads (inotify or stat polling).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import build_app, type_query, wait_loaded, wait_until

from memtui.bench import hostile
from memtui.cli import main
from memtui.core.live.engine import Engine
from memtui.core.live.watch import RootWatcher
from memtui.core.settings.config import Config
from memtui.ui.app import MemtuiApp

TODAY = dt.date(2026, 11, 21)
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
MUTATING_EVENTS = frozenset(
    {
        "os.rename",
        "os.remove",
        "os.rmdir",
        "os.mkdir",
        "os.chmod",
        "os.chown",
        "os.truncate",
        "os.link",
        "os.symlink",
        "os.utime",
        "os.chflags",
        "os.lchflags",
        "os.setxattr",
        "os.removexattr",
        "shutil.rmtree",
        "shutil.copyfile",
        "shutil.copytree",
        "shutil.copymode",
        "shutil.copystat",
        "shutil.move",
        "shutil.chown",
    }
)

_recording: list[tuple[str, str]] | None = None
_roots: tuple[str, ...] = ()
_installed = False


def applied_since(app: MemtuiApp, before: int) -> bool:
    """The app applied a file change after the `before`th one."""
    return app.changes_applied > before


def _under_root(candidate: Any) -> str | None:
    if isinstance(candidate, int) or candidate is None:
        return None
    try:
        path = os.path.abspath(os.fsdecode(candidate))
    except (TypeError, ValueError):
        return None
    return path if any(path == root or path.startswith(root + os.sep) for root in _roots) else None


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _recording is None:
        return
    if event == "open":
        path, mode, flags = [*args, None, None, None][:3]
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & WRITE_FLAGS
        )
        if writes and (hit := _under_root(path)):
            _recording.append((event, hit))
    elif event in MUTATING_EVENTS:
        for argument in args[:2]:
            if hit := _under_root(argument):
                _recording.append((event, hit))


@contextmanager
def recording(root: Path) -> Iterator[list[tuple[str, str]]]:
    """Record writes under `root` (by its absolute and its real path) while the block runs."""
    global _recording, _roots, _installed
    if not _installed:
        sys.addaudithook(_audit)
        _installed = True
    _roots = tuple({os.path.abspath(root), os.path.realpath(root)})
    events: list[tuple[str, str]] = []
    _recording = events
    try:
        yield events
    finally:
        _recording = None


@contextmanager
def paused() -> Iterator[None]:
    """The test's own edits to the root (to exercise watching) are not memtui's writes."""
    global _recording
    saved, _recording = _recording, None
    try:
        yield
    finally:
        _recording = saved


@pytest.fixture(scope="module")
def corpus(hostile_corpus: hostile.HostileFactory) -> hostile.HostileCorpus:
    return hostile_corpus(200)


def test_the_hook_sees_writes(tmp_path: Path) -> None:
    """Guard against a silently broken proof: a real write under the root is recorded."""
    with recording(tmp_path) as events:
        (tmp_path / "written.md").write_text("x")
        os.rename(tmp_path / "written.md", tmp_path / "renamed.md")
        os.mkdir(tmp_path / "made")
        os.remove(tmp_path / "renamed.md")
    assert {event for event, _ in events} >= {"open", "os.rename", "os.mkdir", "os.remove"}


async def test_core_session_writes_nothing(corpus: hostile.HostileCorpus) -> None:
    root = corpus.root
    with recording(root) as events:
        engine = Engine(root, Config(), today=TODAY, days=0)
        engine.load()
        for query in ("hostile", "click", "deploy", "name", ""):
            result = engine.search(query, limit=20)
            for hit in result.hits[:3]:
                engine.explain(hit.entry.id, query)
        engine.apply_changes([root, root / "MEMORY.md", root / "fs", root / "gone.md"])

        watcher = RootWatcher(root, root_check_ms=100, step_ms=30)
        batches: asyncio.Queue[frozenset[Path]] = asyncio.Queue()

        async def pump() -> None:
            async for batch in watcher:
                await batches.put(batch.paths)

        task = asyncio.create_task(pump())
        await asyncio.wait_for(watcher.live.wait(), 10)
        with paused():
            (root / "new-note.md").write_text("## Arrived while watched\nhello\n")
        paths = await asyncio.wait_for(batches.get(), 10)
        engine.apply_changes(paths)
        assert engine.search("arrived").hits
        watcher.stop()
        await asyncio.wait_for(task, 10)
    with paused():
        (root / "new-note.md").unlink()
    assert events == []


def test_cli_commands_write_nothing(
    corpus: hostile.HostileCorpus,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    root = str(corpus.root)
    common = [root, "--days", "0", "--today", TODAY.isoformat()]
    with recording(corpus.root) as events:
        assert main(["list", *common, "--json"]) == 0
        assert main(["list", *common]) == 0
        assert main(["rank", "-q", "hostile", *common, "--json", "--explain"]) == 0
        assert main(["rank", "-q", "hostile", *common, "--explain", "--reveal-secrets"]) == 0
        assert main(["health", *common, "--json"]) in (0, 1)
        assert main(["health", *common, "--reveal-secrets"]) in (0, 1)
    capsys.readouterr()
    assert events == []


async def test_app_session_writes_nothing(
    corpus: hostile.HostileCorpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    root = corpus.root
    with recording(root) as events:
        app = build_app(str(root), "--days", "0", deterministic=False)
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_loaded(pilot, app)
            await type_query(pilot, app, "hostile")
            await pilot.press("down", "down", "down", "up")
            await pilot.pause()
            applied = app.changes_applied
            with paused():
                (root / "app-note.md").write_text("## Seen by the app\nwatched\n")
            await wait_until(pilot, lambda: app.changes_applied > applied, steps=1_000)
            await pilot.press("ctrl+q")
    with paused():
        (root / "app-note.md").unlink()
    assert events == []


async def test_several_roots_write_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two roots open together (CLI and app, watched, a file changing in each): no writes."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    roots = tmp_path / "roots"
    alpha, beta = roots / "alpha", roots / "beta"
    for folder in (alpha, beta):
        folder.mkdir(parents=True)
        (folder / "MEMORY.md").write_text(f"## Deploy\n{folder.name} way\n")
    with recording(roots) as events:
        assert main(["list", str(alpha), str(beta), "--json"]) == 0
        assert main(["rank", "-q", "deploy root:beta", str(alpha), str(beta), "--json"]) == 0
        app = build_app(str(alpha), str(beta), deterministic=False)
        async with app.run_test(size=(120, 36)) as pilot:
            screen = await wait_loaded(pilot, app)
            await type_query(pilot, app, "deploy")
            await wait_until(
                pilot,
                lambda: screen.watcher is not None and screen.watcher.live.is_set(),
                steps=1_500,
            )
            for folder in (alpha, beta):
                applied = app.changes_applied
                with paused():
                    (folder / "new.md").write_text("## Seen\nwatched\n")
                await wait_until(pilot, partial(applied_since, app, applied), steps=1_500)
            await pilot.press("ctrl+q")
    capsys.readouterr()
    assert events == []
