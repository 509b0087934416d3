"""Watch the memory root and yield debounced batches of changed paths, whatever happens to it.

`watchfiles` alone stops reporting when the watched folder is deleted (the inotify watch dies
with the old inode), raises when the OS runs out of watches, and knows nothing about Markdown.
`RootWatcher` supervises it: it filters events down to Markdown files and folders, notices the
root disappearing or being replaced (checking its identity every `root_check_ms`), waits for it
to come back and re-watches it, and falls back to polling when native watching fails. Every mode
change (and every change of the unwatched folders) comes with a batch, possibly without paths, so
a consumer that only reads batches always shows the right status.

A folder under the root that cannot be listed would stop the native watcher's recursive walk part
way (see `watch_survey`): then every listable folder is watched on its own and the unlistable ones
are checked every `root_check_ms` until they can be read; `unwatched` says which and why.

Events are hints, the disk is the truth: consumers re-stat the yielded paths; a batch with
`rescan=True` (its only path is the root) means "reload everything".
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from enum import StrEnum
from pathlib import Path

from msgspec import Struct
from watchfiles import Change, awatch

from memtui.core.live.watch_survey import folder_problem, survey_folders
from memtui.core.reading.walk import IGNORED_FOLDERS

MARKDOWN_SUFFIXES = (".md", ".markdown")


class WatchMode(StrEnum):
    """What the watcher is doing, in words the status bar can show as they are."""

    WATCHING = "watching"
    POLLING = "polling"
    ROOT_MISSING = "root missing"
    OFF = "off"


class WatchBatch(Struct, frozen=True):
    """One debounced group of changes: absolute paths to re-stat, and the mode after them."""

    paths: frozenset[Path]
    mode: WatchMode
    rescan: bool = False
    """The root itself went away, came back or was re-watched: reload everything."""
    missing: tuple[Path, ...] = ()
    """The watched roots that are missing after this batch (for the banner)."""
    unwatched: tuple[tuple[Path, str], ...] = ()
    """Folders that cannot be watched (why), checked at an interval instead."""


WatchChanges = Callable[..., AsyncGenerator[set[tuple[Change, str]]]]
"""`watchfiles.awatch`'s shape: the native watcher, replaceable to inject faults in tests."""


def is_relevant(root: Path, change: Change, path: str) -> bool:
    """Keep Markdown files, folders and deletions (a deleted folder has no suffix to judge by).

    Paths inside the folders the store never scans (VCS, tooling) are dropped, so a
    `git commit` does not wake the UI; only the part below `root` is judged.
    """
    relative = os.path.relpath(path, root)
    if any(part in IGNORED_FOLDERS for part in Path(relative).parts):
        return False
    if path.lower().endswith(MARKDOWN_SUFFIXES) or change == Change.deleted:
        return True
    return os.path.isdir(path)


def _identity(root: Path) -> tuple[int, int] | None:
    """(device, inode) of the root folder, or None when it is missing or not a folder."""
    try:
        info = root.stat()
    except OSError:
        return None
    if not os.path.isdir(root):
        return None
    return (info.st_dev, info.st_ino)


class RootWatcher:
    """A supervised async iterator of `WatchBatch`es for one root folder.

    Stop it with `stop()` (or by setting the `stop_event` passed in); iteration then ends within
    about `step_ms`. Iterate it once.
    """

    def __init__(
        self,
        root: Path,
        *,
        stop_event: asyncio.Event | None = None,
        debounce_ms: int = 300,
        step_ms: int = 50,
        force_polling: bool = False,
        poll_delay_ms: int = 300,
        root_check_ms: int = 500,
        recursive: bool = True,
        watch_changes: WatchChanges = awatch,
        problem: Callable[[Path], str | None] | None = None,
    ) -> None:
        self.root = Path(os.path.abspath(root))
        self.recursive = recursive
        """False: only the root folder's own entries are watched (a root of a few files)."""
        self.watch_changes = watch_changes
        self.problem = problem or folder_problem
        """Why a folder cannot be listed, or None (replaceable: tests run as root)."""
        self.unwatched: tuple[tuple[Path, str], ...] = ()
        """Folders under the root that cannot be watched and why, as of the last survey."""
        self._fresh: set[Path] = set()
        self.stop_event = stop_event or asyncio.Event()
        self.debounce_ms = debounce_ms
        self.step_ms = step_ms
        self.poll_delay_ms = poll_delay_ms
        self.root_check_ms = root_check_ms
        self._polling = force_polling
        self._mode = WatchMode.OFF
        self.last_error: str | None = None
        """Why native watching (or polling) last failed, for the UI's warnings view."""
        self.live = asyncio.Event()
        """Set while a watch session is confirmed running (it has reported at least once)."""

    @property
    def mode(self) -> WatchMode:
        return self._mode

    def stop(self) -> None:
        self.stop_event.set()

    def __aiter__(self) -> AsyncIterator[WatchBatch]:
        return self._run()

    def _session_mode(self) -> WatchMode:
        return WatchMode.POLLING if self._polling else WatchMode.WATCHING

    def _rescan(self) -> WatchBatch:
        missing = (self.root,) if self._mode is WatchMode.ROOT_MISSING else ()
        return WatchBatch(
            frozenset({self.root}), self._mode, True, missing, unwatched=self.unwatched
        )

    async def _run(self) -> AsyncGenerator[WatchBatch]:
        identity = _identity(self.root)
        try:
            while not self.stop_event.is_set():
                if identity is None:
                    self._mode = WatchMode.ROOT_MISSING
                    identity = await self._wait_for_root()
                    if identity is None:
                        return
                    self._mode = self._session_mode()
                    yield self._rescan()
                    continue
                self._mode = self._session_mode()
                failed = False
                async with contextlib.aclosing(self._session(identity)) as session:
                    async for batch in session:
                        if batch is None:
                            failed = True
                            break
                        yield batch
                if self.stop_event.is_set():
                    return
                new_identity = _identity(self.root)
                if failed and new_identity is not None:
                    if await self._recover():
                        yield self._rescan()
                elif new_identity is None:
                    if failed:  # the root vanished under the watcher: not a watching problem
                        self.last_error = None
                    self._mode = WatchMode.ROOT_MISSING
                    yield self._rescan()
                elif new_identity != identity:
                    yield self._rescan()
                identity = new_identity
        finally:
            self._mode = WatchMode.OFF

    async def _recover(self) -> bool:
        """After a failed session: watch around a folder that became unlistable, else poll (or,
        polling already, wait a little). True when changes may have been missed meanwhile."""
        survey = await asyncio.to_thread(survey_folders, self.root, self.problem, self.recursive)
        if survey.unlistable != self.unwatched:
            self.last_error = None  # the warnings view lists the folder instead
            return True  # the next session watches folder by folder, around it
        if not self._polling:
            self._polling = True
            self._mode = WatchMode.POLLING
            self.last_error = (
                f"{self.last_error}; polling every {self.poll_delay_ms / 1000:g} s instead"
            )
            return True
        await self._sleep(self.root_check_ms * 4)
        return False

    async def _session(self, identity: tuple[int, int]) -> AsyncGenerator[WatchBatch | None]:
        """Watch until the root disappears or changes identity, or the folders to watch change
        (ends), or watching fails (None)."""
        survey = await asyncio.to_thread(survey_folders, self.root, self.problem, self.recursive)
        # Folders that came or became readable since the last session: scanned once it is live,
        # for what was written in them before their watch was set.
        fresh = frozenset(
            self._fresh | {path for path, _ in self.unwatched if path in survey.listable}
        )
        self._fresh = set()
        news = fresh or survey.unlistable != self.unwatched  # a batch tells the consumer
        self.unwatched = survey.unlistable
        # One recursive watch when every folder can be listed; else one watch per folder.
        folders = set(survey.listable) if survey.unlistable else None
        if folders is not None and not folders:
            await self._sleep(self.root_check_ms)  # not even the root can be listed
            return
        changes_stream = self.watch_changes(
            *(sorted(folders) if folders is not None else [self.root]),
            watch_filter=functools.partial(is_relevant, self.root),
            debounce=self.debounce_ms,
            step=self.step_ms,
            stop_event=self.stop_event,
            rust_timeout=self.root_check_ms,
            yield_on_timeout=True,
            force_polling=self._polling,
            poll_delay_ms=self.poll_delay_ms,
            recursive=self.recursive and folders is None,
            ignore_permission_denied=True,
        )
        try:
            async with contextlib.aclosing(changes_stream):
                async for changes in changes_stream:
                    if not self.live.is_set() and news:
                        yield self._batch(fresh)
                    self.live.set()
                    if _identity(self.root) != identity:
                        return
                    paths = frozenset(Path(path) for _, path in changes)
                    if paths:
                        yield self._batch(paths)
                    if folders is not None and self._folders_changed(folders, paths):
                        return  # survey again: a folder came, went, or can be read now
        except Exception as exc:  # native watching can fail in many ways: inotify limits, EACCES …
            while isinstance(exc, ExceptionGroup) and exc.exceptions:  # anyio wraps it
                exc = exc.exceptions[0]
            self.last_error = f"{type(exc).__name__}: {exc}"
            yield None
        finally:
            self.live.clear()

    def _batch(self, paths: frozenset[Path]) -> WatchBatch:
        return WatchBatch(paths, self._mode, unwatched=self.unwatched)

    def _folders_changed(self, watched: set[Path], paths: frozenset[Path]) -> bool:
        """A new folder to watch, a watched one gone, or an unlistable one listable now."""
        self._fresh = {path for path in paths if path not in watched and os.path.isdir(path)}
        gone = any(path in watched and not os.path.isdir(path) for path in paths)
        return bool(self._fresh) or gone or any(self.problem(f) is None for f, _ in self.unwatched)

    async def _wait_for_root(self) -> tuple[int, int] | None:
        """Poll until the root exists again; None when stopped first."""
        while not self.stop_event.is_set():
            identity = _identity(self.root)
            if identity is not None:
                return identity
            await self._sleep(self.root_check_ms)
        return None

    async def _sleep(self, milliseconds: int) -> None:
        """Sleep, but wake at once when stopped."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop_event.wait(), milliseconds / 1000)
