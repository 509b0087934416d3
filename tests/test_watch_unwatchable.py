"""Watching tells the truth: a folder that cannot be watched neither stops the others nor hides.

An unreadable subfolder stops the native watcher's recursive walk part way (notify, even with
`ignore_permission_denied`), so changes elsewhere went unreported while the header said
"watching". Tests run as root here, where nothing is unreadable: the folder's problem is injected,
and a real `chmod 000` case runs when the tests run as an ordinary user.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncGenerator, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static
from ui_helpers import SIZE, build_app, rows, static_text, type_query, wait_loaded, wait_until
from watch_helpers import TIMEOUT, Running
from watchfiles import Change, awatch

from memtui.core.live import watch as watch_module
from memtui.core.live.watch import RootWatcher, WatchBatch, WatchMode
from memtui.core.live.watch_survey import Survey, folder_problem, survey_folders
from memtui.ui import status
from memtui.ui.screens.warnings import WarningsScreen


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    for name in ("memory", "locked", "notes/deep"):
        (folder / name).mkdir(parents=True)
    (folder / "MEMORY.md").write_text("# Memory\n\n## One\nfirst\n")
    return folder


class Locks:
    """An injected `problem`: the named folders cannot be listed until unlocked."""

    def __init__(self, *folders: Path) -> None:
        self.locked = set(folders)

    def __call__(self, folder: Path) -> str | None:
        return "permission denied" if folder in self.locked else folder_problem(folder)


def adds(path: Path) -> Callable[[WatchBatch], bool]:
    return lambda batch: path in batch.paths


def test_survey_sorts_out_the_folders_that_cannot_be_listed(root: Path) -> None:
    (root / ".git" / "objects").mkdir(parents=True)
    (root / "linked").symlink_to(root / "notes", target_is_directory=True)
    survey = survey_folders(root, Locks(root / "locked"))
    assert survey.unlistable == ((root / "locked", "permission denied"),)
    assert survey.listable == (
        root,
        root / "memory",
        root / "notes",
        root / "notes" / "deep",
    )
    assert survey_folders(root, Locks(root / "locked"), deep=False) == Survey((root,), ())


@pytest.mark.parametrize("polling", [False, True], ids=["native", "polling"])
async def test_an_unlistable_folder_is_polled_and_the_others_stay_watched(
    root: Path, polling: bool
) -> None:
    locks = Locks(root / "locked")
    watcher = RootWatcher(
        root, problem=locks, force_polling=polling, root_check_ms=100, poll_delay_ms=100
    )
    run = Running(watcher)
    await run.live()
    assert watcher.unwatched == ((root / "locked", "permission denied"),)
    for relative in ("memory/2026-11-21.md", "notes/deep/topic.md", "late.md"):
        note = root / relative
        note.write_text("## 09:00\nnew\n")
        batch = await run.until(adds(note))
        assert batch.mode is (WatchMode.POLLING if polling else WatchMode.WATCHING)
        assert batch.unwatched == ((root / "locked", "permission denied"),)

    fresh = root / "memory" / "fresh"
    fresh.mkdir()
    await run.until(adds(fresh))
    await run.live()  # a new folder is watched on its own too
    inner = fresh / "2026-11-22.md"
    inner.write_text("## 10:00\nin a new folder\n")
    await run.until(lambda batch: bool({inner, fresh} & batch.paths))

    (root / "locked" / "now.md").write_text("## Readable\nat last\n")
    locks.locked.clear()
    # Scanned once it can be read:
    await run.until(lambda batch: root / "locked" in batch.paths and not batch.unwatched)
    assert not watcher.unwatched
    watcher.stop()
    await asyncio.wait_for(run.task, TIMEOUT)


def failing_natively(calls: list[bool]) -> Any:
    """An `awatch` whose native watcher fails the way an exhausted inotify limit does."""

    def watch_changes(*paths: Path, **options: Any) -> AsyncGenerator[set[tuple[Change, str]]]:
        calls.append(bool(options["force_polling"]))
        if not options["force_polling"]:
            return _raises(OSError(28, "OS file watch limit reached"))
        return awatch(*paths, **options)

    return watch_changes


async def _raises(error: Exception) -> AsyncGenerator[set[tuple[Change, str]]]:
    raise error
    yield set()  # pragma: no cover - makes this an async generator


async def test_a_failing_watcher_falls_back_to_polling_with_its_reason(root: Path) -> None:
    calls: list[bool] = []
    watcher = RootWatcher(
        root, watch_changes=failing_natively(calls), root_check_ms=100, poll_delay_ms=100
    )
    run = Running(watcher)
    fallback = await run.until(lambda batch: batch.mode is WatchMode.POLLING)
    assert fallback.rescan and calls[0] is False
    assert watcher.last_error == (
        "OSError: [Errno 28] OS file watch limit reached; polling every 0.1 s instead"
    )
    await run.live()
    assert calls[-1] is True
    note = root / "memory" / "2026-11-21.md"
    note.write_text("## 09:00\npolled\n")
    await run.until(adds(note))
    watcher.stop()
    await asyncio.wait_for(run.task, TIMEOUT)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read a mode-000 folder")
async def test_a_real_unreadable_folder_does_not_stop_the_others(root: Path) -> None:
    (root / "locked").chmod(0)
    try:
        run = Running(RootWatcher(root, root_check_ms=100))
        await run.live()
        note = root / "memory" / "2026-11-21.md"
        note.write_text("## 09:00\nnew\n")
        batch = await run.until(adds(note))
        assert batch.unwatched == ((root / "locked", "permission denied"),)
        run.watcher.stop()
        await asyncio.wait_for(run.task, TIMEOUT)
    finally:
        (root / "locked").chmod(0o755)


def test_the_header_counts_the_polled_folders() -> None:
    line = status.app_status(
        entries=2, skipped=0, days=0, window_all=False, hidden=0, mode=WatchMode.WATCHING, polled=1
    )
    assert line.plain == "2 entries · all dates · watching · 1 folder polled"


async def test_the_app_says_a_folder_is_polled_and_still_shows_new_notes(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(watch_module, "folder_problem", Locks(root / "locked"))
    app = build_app(str(root), deterministic=False)
    app.options.force_polling = False
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await wait_until(pilot, lambda: "1 folder polled" in static_text(app, "#app-status"))
        assert "watching · 1 folder polled" in static_text(app, "#app-status")
        await type_query(pilot, app, "zebracorn")
        (root / "memory" / "2026-11-21.md").write_text("## Zebracorn\n\nA zebracorn came by.\n")
        await wait_until(pilot, lambda: any("Zebracorn" in row for row in rows(app)), steps=1500)
        await pilot.press("enter", "exclamation_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, WarningsScreen))
        body = str(app.screen.query_one("#warnings-body", Static).render())
        assert "cannot be watched (permission denied); checked every 0.5 s" in body
