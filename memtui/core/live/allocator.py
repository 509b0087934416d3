"""glibc's allocator, told to give memory back: freed memory otherwise stays resident, and the
app's peak memory is what a person sees in `top`. No-ops where glibc is not the allocator."""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable


def _glibc(name: str) -> Callable[..., int] | None:
    """A glibc allocator function, or None elsewhere (macOS, musl, Windows)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function: Callable[..., int] = getattr(ctypes.CDLL("libc.so.6"), name)
    except (OSError, AttributeError):
        return None
    return function


_MALLOC_TRIM = _glibc("malloc_trim")
_MALLOPT = _glibc("mallopt")
_M_ARENA_MAX = -8
"""glibc's mallopt parameter for the most malloc arenas (malloc.h)."""


def share_one_malloc_arena() -> None:
    """Make every thread allocate from glibc's main arena. A file change is parsed and indexed
    in a worker thread, and each thread got its own arena (up to 8 per core), whose freed
    chunks interleave with the few that stay: after the soak's 10 MB file was removed, ~10 MB
    more stayed resident than with one arena. The GIL already serialises nearly every
    allocation, so one arena costs no contention. Call before the app starts its threads."""
    if _MALLOPT is not None:
        _MALLOPT(_M_ARENA_MAX, 1)


def give_back_memory() -> None:
    """Return the C heap's free pages to the OS. glibc keeps them: after a big array is freed its
    mmap threshold rises, so later big arrays (a file's postings, read buffers) come from the
    heap, and freeing them leaves the heap resident (a removed 10 MB file kept ~60 MB)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
