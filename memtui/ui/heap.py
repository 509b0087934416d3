"""Keep the cyclic garbage collector's full collections off the keystroke path."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

FULL_GC_EVERY = 100
"""Full collections after this many middle-generation ones (Python's default is 10)."""


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
        if enabled:
            gc.enable()


def settle_heap() -> None:
    """Freeze what is alive now out of the GC's reach and make full collections rarer.

    A full collection walks every tracked object: with a loaded folder and Textual's render
    caches that is a 15–50 ms pause (100+ ms on a busy machine) landing on a random keystroke,
    which made the keystroke p95. Everything alive now (store, index) is frozen out of the
    GC's reach — entries and index arrays hold no cycles, so this leaks nothing and refcounting
    still frees them — and full collections run a tenth as often. The main screen calls this
    after the paint that follows new long-lived data (a load, applied changes).
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_GC_EVERY)
