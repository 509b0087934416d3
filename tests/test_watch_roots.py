"""Several roots watched as one stream (`core.live.watch_roots`): a root that vanishes is reported
missing on its own while the others keep reporting, and comes back on its own.

No timing assertions: each test waits (generously) for the batch it expects.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import pytest
from watch_helpers import TIMEOUT, Running

from memtui.core.live.watch import RootWatcher, WatchBatch, WatchMode
from memtui.core.live.watch_roots import RootsWatcher, watch_roots


def holds(target: Path, batch: WatchBatch) -> bool:
    return target in batch.paths


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    made = []
    for name in ("alpha", "beta"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "MEMORY.md").write_text(f"## {name}\nfirst\n")
        made.append(folder)
    return made[0], made[1]


@pytest.fixture
async def stream(folders: tuple[Path, Path]) -> AsyncIterator[Running]:
    watcher = RootsWatcher(folders, root_check_ms=100, step_ms=30)
    running = Running(watcher)
    await running.live()
    yield running
    watcher.stop()
    await asyncio.wait_for(running.task, TIMEOUT)
    assert watcher.mode is WatchMode.OFF


async def test_changes_in_every_root_arrive(stream: Running, folders: tuple[Path, Path]) -> None:
    for folder in folders:
        target = folder / "2026-11-20.md"
        target.write_text("## 09:00\nnew\n")
        batch = await stream.until(partial(holds, target))
        assert batch.mode is WatchMode.WATCHING and batch.missing == ()


async def test_a_vanished_root_is_missing_alone_and_returns(
    stream: Running, folders: tuple[Path, Path], tmp_path: Path
) -> None:
    alpha, beta = folders
    shutil.move(beta, tmp_path / "parked")
    gone = await stream.until(lambda batch: batch.rescan and beta in batch.paths)
    assert gone.mode is WatchMode.ROOT_MISSING and gone.missing == (beta,)
    note = alpha / "still-watched.md"
    note.write_text("## Still\nhere\n")
    seen = await stream.until(lambda batch: note in batch.paths)
    assert seen.missing == (beta,)
    shutil.move(tmp_path / "parked", beta)
    back = await stream.until(lambda batch: batch.rescan and beta in batch.paths)
    assert back.mode is WatchMode.WATCHING and back.missing == ()


def test_one_root_gets_the_plain_watcher(folders: tuple[Path, Path]) -> None:
    assert isinstance(watch_roots([folders[0]]), RootWatcher)
    assert isinstance(watch_roots(list(folders)), RootsWatcher)
