"""Drive a watcher from a test: iterate it in a background task, queue what it yields."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from memtui.core.live.watch import RootWatcher, WatchBatch
from memtui.core.live.watch_roots import RootsWatcher

TIMEOUT = 10.0


class Running:
    """A watcher iterated in a background task, its batches queued for the test to await."""

    def __init__(self, watcher: RootWatcher | RootsWatcher) -> None:
        self.watcher = watcher
        self.batches: asyncio.Queue[WatchBatch] = asyncio.Queue()
        self.task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        async for batch in self.watcher:
            await self.batches.put(batch)

    async def until(self, predicate: Callable[[WatchBatch], bool]) -> WatchBatch:
        """The first batch satisfying `predicate` (earlier ones are dropped)."""

        async def wait() -> WatchBatch:
            while True:
                batch = await self.batches.get()
                if predicate(batch):
                    return batch

        return await asyncio.wait_for(wait(), TIMEOUT)

    async def live(self) -> None:
        await asyncio.wait_for(self.watcher.live.wait(), TIMEOUT)
