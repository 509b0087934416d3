"""Keep the cyclic garbage collector's full collections off the keystroke path, and give memory
back to the OS once it is freed (`core.live.allocator`)."""

from __future__ import annotations

import contextvars
import gc
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

from memtui.core.live.allocator import give_back_memory
from memtui.ui.textual_private import forget_styles_caches

T = TypeVar("T")

FULL_GC_EVERY = 100
"""Full collections after this many middle-generation ones (Python's default is 10)."""

YOUNG_GC_EVERY = 20_000
"""Young collections after this many new container objects (Python's default is 700). A
keystroke's frame makes thousands (segments, strips, hits): at 700 most keystrokes paid
collections, ~4 ms at p95 on the 50k bench. `collect_after_paint` collects them between
keystrokes instead, so the collector itself only runs on a keystroke that makes more than this."""

COLLECT_AFTER_PAINT = 2000
"""Young objects from which a paint is followed by a collection (`collect_after_paint`)."""

RELEASE_ATTEMPTS = 5
"""Settles that unfreeze everything to free a closed screen's engine (see `release_later`)."""

RELEASE_RETRY_S = 1.0
"""How often the app settles on its own while a closed screen's engine waits to be freed."""

_releasing: tuple[weakref.ref[object], int] | None = None
"""What `release_later` waits to see freed, and the attempts left."""


@contextmanager
def loading() -> Iterator[None]:
    """Load with the cyclic collector off, then freeze what was loaded out of its reach.

    Loading 50,000 entries allocates a few hundred thousand objects and frees no cycles:
    collections during the load only re-scan the growing corpus (~10% of a cold load), and the
    first full collection after it (`settle_heap`, after the next paint) took a few hundred
    milliseconds on the first keystrokes of a warm start. Freezing before the collector comes
    back means no collection ever walks the corpus; what the event loop made meanwhile is
    frozen too, as `settle_heap` would do a moment later.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        _pace_collections()
        if enabled:
            gc.enable()


def settle_heap() -> None:
    """Collect what the UI let go of, give the freed memory back and make full collections rarer.

    A full collection walks every tracked object: with a loaded folder and Textual's render
    caches that was a 15–50 ms pause (100+ ms on a busy machine) landing on a random keystroke.
    The corpus is frozen out of the GC's reach by `loading`, so this walks what the UI made, and
    full collections run a tenth as often (young ones a seventh as often, `YOUNG_GC_EVERY`).
    Nothing is frozen here: widgets, messages and timers hold cycles, and one frozen while
    alive is never collected after it dies (freezing at every applied change leaked what the
    UI had at that moment). The main screen calls this after the paint that follows new
    long-lived data (a load, applied changes).
    """
    global _releasing
    releasing = _releasing
    if releasing is not None:
        gc.unfreeze()
    forget_styles_caches()
    gc.collect()
    if releasing is not None:
        gc.freeze()  # the corpus loaded since, out of the collector's reach again
        owner, attempts = releasing
        _releasing = None if owner() is None or attempts <= 1 else (owner, attempts - 1)
    give_back_memory()
    _pace_collections()


def collect_after_paint() -> None:
    """Collect what the last keystrokes made, right after their results were painted.

    At 50k a young collection took 1–9 ms and a middle one up to 30 ms (Textual's segments and
    strips, the search's word lists), and they landed on whichever keystroke crossed the
    threshold: about one in fifteen, the bench's p95. Run after the paint, they fall in the
    time the user takes to press the next key. A generation is collected with the younger
    ones when its own collector would run at its next turn.
    """
    young, middle, old = gc.get_count()
    if young < COLLECT_AFTER_PAINT or not gc.isenabled():
        return
    _, middle_every, old_every = gc.get_threshold()
    if middle + 1 < middle_every:
        gc.collect(0)
    elif old + 1 < old_every:
        gc.collect(1)
    else:
        gc.collect(2)


def _pace_collections() -> None:
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(YOUNG_GC_EVERY, middle, FULL_GC_EVERY)


def release_later(owner: object) -> None:
    """`owner` (a closed screen's engine, when another memory folder is opened) was frozen with
    its load and would stay in memory for good. It cannot be freed now: its screen is still
    referenced for a while (by a worker still saving its cache, finished workers' contexts), and
    the next load freezes whatever is alive again. So the next settles, after the new folder's
    load, unfreeze and collect everything until `owner` is gone (a few at most). The app also
    settles every `RELEASE_RETRY_S` while `release_pending()`, so the old folder is freed
    without waiting for a file change."""
    global _releasing
    _releasing = (weakref.ref(owner), RELEASE_ATTEMPTS)


def release_pending() -> bool:
    """A closed screen's engine still waits to be freed, and settles are left to try."""
    return _releasing is not None


class FreshContextExecutor(ThreadPoolExecutor):
    """The event loop's default executor, which Textual's thread workers run in: each task
    runs in a context of its own instead of its pool thread's.

    Textual sets `active_worker` in the pool thread's context and never resets it, so an idle
    pool thread kept its last worker alive, and with it the worker's node and arguments: after
    switching memory folders, the closed folder's whole engine (a main screen's `save_cache`),
    its hits (the results list's `ctrl+a`) or a health report, for as long as that thread stayed
    idle (found as a flaky test). A fresh context per task is what a new thread starts with,
    and it goes with the task."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return super().submit(contextvars.Context().run, fn, *args, **kwargs)
