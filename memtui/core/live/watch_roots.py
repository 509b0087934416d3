"""Watch several memory roots as one stream: one supervised `RootWatcher` per root, merged.

Each root keeps its own supervision (a root that vanishes is waited for and re-watched on its
own; the others keep reporting), and every merged batch says which roots are missing, so a
consumer shows one banner and keeps the other roots' entries. The combined mode is the most
severe of the roots' modes: root missing, then polling, then watching. With one root,
`watch_roots` returns the plain `RootWatcher`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from pathlib import Path

from memtui.core.live.watch import RootWatcher, WatchBatch, WatchMode

_SEVERITY = (WatchMode.ROOT_MISSING, WatchMode.POLLING, WatchMode.WATCHING, WatchMode.OFF)


class RootsWatcher:
    """The `RootWatcher` interface (iterate once, `stop`, `mode`, `live`, `last_error`,
    `unwatched`) over several roots."""

    def __init__(
        self,
        roots: Sequence[Path],
        *,
        step_ms: int = 50,
        root_check_ms: int = 500,
        force_polling: bool = False,
        shallow: frozenset[Path] = frozenset(),
    ) -> None:
        self.stop_event = asyncio.Event()
        self.step_ms = step_ms
        self.root_check_ms = root_check_ms
        self.watchers = [
            RootWatcher(
                root,
                stop_event=self.stop_event,
                step_ms=step_ms,
                root_check_ms=root_check_ms,
                force_polling=force_polling,
                recursive=root not in shallow,
            )
            for root in roots
        ]
        self.live = asyncio.Event()
        """Set while every root's watch session is confirmed running."""

    @property
    def mode(self) -> WatchMode:
        modes = {watcher.mode for watcher in self.watchers}
        return next(mode for mode in _SEVERITY if mode in modes)

    @property
    def last_error(self) -> str | None:
        return next((w.last_error for w in self.watchers if w.last_error), None)

    @property
    def unwatched(self) -> tuple[tuple[Path, str], ...]:
        return tuple(item for watcher in self.watchers for item in watcher.unwatched)

    @property
    def missing(self) -> tuple[Path, ...]:
        return tuple(w.root for w in self.watchers if w.mode is WatchMode.ROOT_MISSING)

    def stop(self) -> None:
        self.stop_event.set()

    def __aiter__(self) -> AsyncIterator[WatchBatch]:
        return self._run()

    async def _run(self) -> AsyncGenerator[WatchBatch]:
        queue: asyncio.Queue[WatchBatch] = asyncio.Queue()

        async def pump(watcher: RootWatcher) -> None:
            async for batch in watcher:
                await queue.put(batch)

        tasks = [asyncio.create_task(pump(watcher)) for watcher in self.watchers]
        tasks.append(asyncio.create_task(self._track_live()))
        try:
            while not self.stop_event.is_set():
                try:
                    batch = await asyncio.wait_for(queue.get(), self.step_ms / 1000)
                except TimeoutError:
                    continue
                yield WatchBatch(batch.paths, self.mode, batch.rescan, self.missing, self.unwatched)
        finally:
            self.stop_event.set()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _track_live(self) -> None:
        while not self.stop_event.is_set():
            if all(watcher.live.is_set() for watcher in self.watchers):
                self.live.set()
            else:
                self.live.clear()
            await asyncio.sleep(self.step_ms / 1000)


def watch_roots(
    roots: Sequence[Path], *, force_polling: bool = False, shallow: frozenset[Path] = frozenset()
) -> RootWatcher | RootsWatcher:
    """A watcher for `roots`: the plain `RootWatcher` for one, a `RootsWatcher` for several;
    the `shallow` ones are watched without their subfolders."""
    if len(roots) == 1:
        return RootWatcher(roots[0], force_polling=force_polling, recursive=roots[0] not in shallow)
    return RootsWatcher(roots, force_polling=force_polling, shallow=shallow)
