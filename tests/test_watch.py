"""The watcher on real temp folders: every kind of change arrives as a batch, whatever happens.

No timing assertions: each test waits (generously) for the batch it expects to arrive.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from pathlib import Path

import pytest
from watch_helpers import TIMEOUT, Running
from watchfiles import Change

from memtui.core.live.watch import RootWatcher, WatchBatch, WatchMode, is_relevant


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "memory"
    folder.mkdir()
    memory = folder / "MEMORY.md"
    memory.write_text("# Memory\n\n## One\nfirst\n")
    # Written long ago, as real memory is: polling compares whole-second mtimes.
    os.utime(memory, (1_700_000_000, 1_700_000_000))
    return folder


@pytest.fixture(params=[False, True], ids=["native", "polling"])
async def running(request: pytest.FixtureRequest, root: Path) -> AsyncIterator[Running]:
    watcher = RootWatcher(
        root, force_polling=request.param, root_check_ms=100, poll_delay_ms=100, step_ms=30
    )
    run = Running(watcher)
    await run.live()
    yield run
    watcher.stop()
    await asyncio.wait_for(run.task, TIMEOUT)
    assert watcher.mode is WatchMode.OFF


def touches(path: Path) -> Callable[[WatchBatch], bool]:
    return lambda batch: path in batch.paths


async def test_edit_arrives(running: Running, root: Path) -> None:
    target = root / "MEMORY.md"
    target.write_text("# Memory\n\n## One\nedited\n")
    batch = await running.until(touches(target))
    assert batch.mode in (WatchMode.WATCHING, WatchMode.POLLING)
    assert not batch.rescan


async def test_atomic_save_arrives(running: Running, root: Path) -> None:
    target = root / "MEMORY.md"
    temp = root / ".MEMORY.md.tmp123"
    temp.write_text("# Memory\n\n## Two\nreplaced\n")
    os.replace(temp, target)
    await running.until(touches(target))


async def test_delete_arrives(running: Running, root: Path) -> None:
    target = root / "MEMORY.md"
    target.unlink()
    await running.until(touches(target))


async def test_new_file_arrives(running: Running, root: Path) -> None:
    target = root / "2026-11-20.md"
    target.write_text("## 09:00\nnew\n")
    await running.until(touches(target))


async def test_new_subfolder_with_file_arrives(running: Running, root: Path) -> None:
    folder = root / "memory"
    folder.mkdir()
    (folder / "2026-11-21.md").write_text("## 10:00\nnested\n")
    # The folder itself is enough: the store rescans a folder path it is given.
    await running.until(lambda batch: bool({folder, folder / "2026-11-21.md"} & batch.paths))


async def test_file_replaced_by_a_folder_arrives(running: Running, root: Path) -> None:
    target = root / "MEMORY.md"
    target.unlink()
    target.mkdir()
    (target / "inner.md").write_text("## Inner\nnow a folder\n")
    await running.until(lambda batch: bool({target, target / "inner.md"} & batch.paths))


async def test_root_removed_and_recreated_is_watched_again(running: Running, root: Path) -> None:
    shutil.rmtree(root)
    gone = await running.until(lambda batch: batch.mode is WatchMode.ROOT_MISSING)
    assert gone.rescan and gone.paths == {root}
    assert running.watcher.mode is WatchMode.ROOT_MISSING

    root.mkdir()
    (root / "MEMORY.md").write_text("## Back\nagain\n")
    back = await running.until(
        lambda batch: batch.rescan and batch.mode is not WatchMode.ROOT_MISSING
    )
    assert back.paths == {root}

    await running.live()
    later = root / "later.md"
    later.write_text("## Later\nwatched after the comeback\n")
    await running.until(touches(later))


async def test_root_missing_at_start_waits_for_it(tmp_path: Path) -> None:
    root = tmp_path / "not-yet"
    run = Running(RootWatcher(root, root_check_ms=50))
    while run.watcher.mode is not WatchMode.ROOT_MISSING:
        await asyncio.sleep(0.01)
    root.mkdir()
    batch = await run.until(lambda batch: batch.rescan)
    assert batch.mode is WatchMode.WATCHING
    run.watcher.stop()
    await asyncio.wait_for(run.task, TIMEOUT)


class NativeFails(RootWatcher):
    """Native watching that fails like an exhausted inotify limit; polling still works."""

    async def _session(self, identity: tuple[int, int]) -> AsyncGenerator[WatchBatch | None]:
        if not self._polling:
            self.last_error = "OSError: OS file watch limit reached"
            yield None
            return
        async for batch in super()._session(identity):
            yield batch


async def test_falls_back_to_polling_when_native_fails(root: Path) -> None:
    run = Running(NativeFails(root, root_check_ms=100, poll_delay_ms=100))
    fallback = await run.until(lambda batch: batch.mode is WatchMode.POLLING)
    assert fallback.rescan
    assert run.watcher.last_error and "limit" in run.watcher.last_error
    await run.live()
    target = root / "MEMORY.md"
    target.write_text("## Polled\nstill seen\n")
    await run.until(touches(target))
    run.watcher.stop()
    await asyncio.wait_for(run.task, TIMEOUT)


async def test_unreadable_subfolder_does_not_stop_watching(running: Running, root: Path) -> None:
    locked = root / "locked"
    locked.mkdir()
    (locked / "secret.md").write_text("## Hidden\n")
    locked.chmod(0)
    try:
        target = root / "open.md"
        target.write_text("## Open\n")
        # A watcher that failed on the new folder and now watches around it reloads everything.
        await running.until(lambda batch: target in batch.paths or batch.rescan)
    finally:
        locked.chmod(0o755)


@pytest.mark.parametrize(
    ("change", "name", "expected"),
    [
        (Change.modified, "MEMORY.md", True),
        (Change.added, "notes.MARKDOWN", True),
        (Change.modified, "build.log", False),
        (Change.deleted, "gone-folder", True),
        (Change.modified, ".git/MEMORY.md", False),
        (Change.added, "node_modules/x.md", False),
    ],
)
def test_filter_keeps_markdown_and_deletions(
    tmp_path: Path, change: Change, name: str, expected: bool
) -> None:
    assert is_relevant(tmp_path, change, str(tmp_path / name)) is expected


def test_filter_keeps_folders(tmp_path: Path) -> None:
    (tmp_path / "daily").mkdir()
    assert is_relevant(tmp_path, Change.added, str(tmp_path / "daily"))


def test_filter_judges_only_the_part_below_the_root(tmp_path: Path) -> None:
    root = tmp_path / "venv" / "memory"
    assert is_relevant(root, Change.modified, str(root / "MEMORY.md"))
    assert not is_relevant(root, Change.modified, str(root / ".git" / "x.md"))
