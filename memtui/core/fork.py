"""Run a piece of CPU-bound work in a forked child while this process does another piece.

Building the index of a large folder is pure Python over the entries already in memory, so the
GIL keeps it on one core; a forked child inherits those entries without copying or pickling
them and hands back only its result, as bytes over a pipe. Used only where fork is safe and
cheap (Linux, two cores or more), and only for work that touches nothing but memory: the child
blocks every signal, never writes to the terminal and leaves with `os._exit`, so neither the
app's handlers nor its `atexit` hooks run in it. When anything goes wrong the caller gets None
and does the work itself, so the result never depends on whether the child succeeded.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import struct
import sys
import time
from collections.abc import Callable

CHILD_TIMEOUT_S = 60.0
"""A child that has not answered by then is killed and its work done here instead."""
_LENGTH = struct.Struct("<Q")


def can_fork() -> bool:
    """Fork is available, safe for this use (glibc), and there is a second core to run on."""
    return sys.platform.startswith("linux") and (os.cpu_count() or 1) >= 2


def start_in_child(work: Callable[[], bytes]) -> Callable[[], bytearray | None] | None:
    """Start `work` in a forked child; returns a function that waits for its bytes (None if
    the child failed), or None when no child could be started."""
    try:
        reader, writer = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the child: do the work, hand it back, leave without running anything else
        status = 1
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
            os.close(reader)
            payload = work()
            _write_all(writer, _LENGTH.pack(len(payload)) + payload)
            status = 0
        finally:
            os._exit(status)
    os.close(writer)
    return lambda: _collect(pid, reader)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]


def _collect(pid: int, reader: int) -> bytearray | None:
    """The child's bytes, or None (it failed, or was killed after CHILD_TIMEOUT_S). Read in
    place into one buffer: the index's part is ~13 MB at 50,000 entries, and every copy of it
    adds to the app's peak memory."""
    deadline = time.monotonic() + CHILD_TIMEOUT_S
    header = bytearray(_LENGTH.size)
    payload: bytearray | None = None
    filled = 0
    try:
        while True:
            target = header if payload is None else payload
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([reader], [], [], remaining)[0]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                return None
            got = os.readv(reader, [memoryview(target)[filled:]]) if filled < len(target) else 0
            if got == 0:
                break
            filled += got
            if payload is None and filled == len(header):
                payload, filled = bytearray(_LENGTH.unpack(header)[0]), 0
    finally:
        os.close(reader)
        _, status = os.waitpid(pid, 0)
    if status != 0 or payload is None or filled != len(payload):
        return None
    return payload
