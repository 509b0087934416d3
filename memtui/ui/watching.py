"""Following the memory folders while the main screen has them open.

The main screen creates a `Watching` when its engine has loaded, reads every batch of changes
through it, and stops it when it closes; the app never holds the watcher. What a batch means for
the screen (its mode, which folders are missing, what the banner says) is decided here; the
screen does the painting and hands the changed paths to the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memtui.core.live.roots import MemoryRoot, watches_subfolders
from memtui.core.live.watch import RootWatcher, WatchBatch, WatchMode
from memtui.core.live.watch_roots import RootsWatcher, watch_roots
from memtui.ui import status


@dataclass(frozen=True, slots=True)
class WatchStep:
    """What one batch changes on the main screen."""

    missing: tuple[Path, ...]
    """The open folders that are missing now (the engine dims their entries)."""
    banner: str | None
    """The error banner to show (a folder is missing), if any."""
    back: bool
    """Every folder is back after one went missing: hide the banner and say so."""
    mode_changed: bool
    """The status line's watch mode changed (the banner and the status line change together)."""


class Watching:
    """One watcher over the open folders, and the mode it is in."""

    def __init__(self, roots: Sequence[MemoryRoot], *, force_polling: bool) -> None:
        self.roots = tuple(root.path for root in roots)
        # A root of a few top-level files is watched without its subfolders.
        deep = {root.path for root in roots if watches_subfolders(root)}
        self.watcher: RootWatcher | RootsWatcher = watch_roots(
            self.roots, force_polling=force_polling, shallow=frozenset(self.roots) - deep
        )
        self.mode = WatchMode.WATCHING
        self.unwatched: tuple[tuple[Path, str], ...] = ()
        """Folders that cannot be watched (and why): checked at an interval instead."""

    @property
    def last_error(self) -> str | None:
        """Why watching failed or fell back (for the warnings view), if it did."""
        return self.watcher.last_error

    def warnings(self) -> list[tuple[str, str]]:
        """(where, problem) rows for the warnings view: why watching failed or fell back, and
        each folder that cannot be watched."""
        rows = [("watcher", self.last_error)] if self.last_error else []
        interval = self.watcher.root_check_ms
        rows += [
            (str(folder), status.unwatched_reason(why, interval))
            for folder, why in self.watcher.unwatched
        ]
        return rows

    def read(self, batch: WatchBatch) -> WatchStep:
        """Take in one batch: the new mode, and what the screen must show for it."""
        previous, self.mode = self.mode, batch.mode
        self.unwatched = batch.unwatched
        missing = batch.missing or (self.roots if batch.mode is WatchMode.ROOT_MISSING else ())
        banner = None
        if batch.mode is WatchMode.ROOT_MISSING:
            banner = status.root_missing(", ".join(str(path) for path in missing))
        back = banner is None and previous is WatchMode.ROOT_MISSING
        return WatchStep(missing, banner, back, batch.mode is not previous)

    def ended(self) -> None:
        """The batches stopped coming (the watcher or its worker ended)."""
        self.mode = WatchMode.OFF

    def stop(self) -> None:
        """Stop watching (the screen closes, or another folder is opened)."""
        self.watcher.stop()
        self.mode = WatchMode.OFF
