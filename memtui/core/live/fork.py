"""Run work in a forked child: a piece of CPU-bound work while this process does another
piece (`start_in_child`), or work only a later process needs, in a detached child (`run_detached`).

Building the index of a large folder is pure Python over the entries already in memory, so the
GIL keeps it on one core; a forked child inherits those entries without copying or pickling
them and hands back only its result, as pieces of bytes over a pipe. Used only where fork is
safe and cheap (Linux, two cores or more), and only for work that touches nothing but memory:
the child blocks every signal, never writes to the terminal and leaves with `os._exit`, so
neither the app's handlers nor its `atexit` hooks run in it. When anything goes wrong the
caller gets None and does the work itself, so the result never depends on whether the child
succeeded.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import struct
import sys
import time
from collections.abc import Callable, Sequence

CHILD_TIMEOUT_S = 60.0
"""A child that has not answered by then is killed and its work done here instead."""
_LENGTH = struct.Struct("<Q")


def can_fork() -> bool:
    """Fork is available, safe for this use (glibc), and there is a second core to run on."""
    return sys.platform.startswith("linux") and (os.cpu_count() or 1) >= 2


def start_in_child(work: Callable[[], Sequence[bytes | memoryview]]) -> Child | None:
    """Start `work` in a forked child: the child's handle, or None when none could be started."""
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
            pieces = work()
            sizes = (len(pieces), *(memoryview(piece).nbytes for piece in pieces))
            header = b"".join(_LENGTH.pack(size) for size in sizes)
            for data in (header, *pieces):
                _write_all(writer, data)
            status = 0
        finally:
            os._exit(status)
    os.close(writer)
    return Child(pid, reader)


class Child:
    """A child `start_in_child` started. Called, it waits for the pieces of bytes the work
    returned (None if the child failed, or was killed after CHILD_TIMEOUT_S); either way, or
    when stopped, the child is reaped, once."""

    def __init__(self, pid: int, reader: int) -> None:
        self._pid = pid
        self._reader = reader
        self._reaped = False

    def __call__(self) -> list[bytearray] | None:
        if self._reaped:
            return None
        deadline = time.monotonic() + CHILD_TIMEOUT_S
        try:
            pieces = _read_pieces(self._reader, deadline, self._pid)
        finally:
            status = self._reap()
        return pieces if status == 0 else None

    def done(self) -> bool:
        """The child has finished its work (it is handing back the result, or it left): a
        call now waits only for the bytes."""
        return self._reaped or bool(select.select([self._reader], [], [], 0)[0])

    def stop(self) -> None:
        """Its result is not wanted: kill the child and reap it."""
        if not self._reaped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            self._reap()

    def _reap(self) -> int:
        self._reaped = True
        os.close(self._reader)
        return os.waitpid(self._pid, 0)[1]


def _write_all(descriptor: int, data: bytes | memoryview) -> None:
    view = memoryview(data).cast("B")
    while view:
        view = view[os.write(descriptor, view) :]


def _read_pieces(reader: int, deadline: float, pid: int) -> list[bytearray] | None:
    """Each piece read in place into a buffer of its own, so the caller can free one as soon
    as it has used it: the index's part is ~10 MB at 50,000 entries, and every byte of it held
    twice adds to the app's peak memory."""
    count = _read_into(reader, bytearray(_LENGTH.size), deadline, pid)
    if count is None:
        return None
    sizes = _read_into(reader, bytearray(_LENGTH.size * _LENGTH.unpack(count)[0]), deadline, pid)
    if sizes is None:
        return None
    pieces = []
    for (size,) in _LENGTH.iter_unpack(sizes):
        piece = _read_into(reader, bytearray(size), deadline, pid)
        if piece is None:
            return None
        pieces.append(piece)
    return pieces if _at_end(reader, deadline, pid) else None


def _read_into(reader: int, buffer: bytearray, deadline: float, pid: int) -> bytearray | None:
    """`buffer`, filled from the pipe; None if the pipe ends first or the child is late."""
    view = memoryview(buffer)
    filled = 0
    while filled < len(buffer):
        if not _readable(reader, deadline, pid):
            return None
        got = os.readv(reader, [view[filled:]])
        if got == 0:
            return None
        filled += got
    return buffer


def _at_end(reader: int, deadline: float, pid: int) -> bool:
    """The child wrote nothing past what it announced."""
    return _readable(reader, deadline, pid) and os.read(reader, 1) == b""


def _readable(reader: int, deadline: float, pid: int) -> bool:
    """Wait for the pipe; past the deadline the child is killed and this says False."""
    remaining = deadline - time.monotonic()
    if remaining > 0 and select.select([reader], [], [], remaining)[0]:
        return True
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    return False


def run_detached(work: Callable[[], object]) -> bool:
    """Run `work` in a grandchild that outlives this process and is waited for by no one.

    For work whose result only a later process reads (a command's cache write): the command
    exits at once instead of waiting for it. The grandchild has a session of its own (a ctrl+c
    or a closed terminal meant for the command does not cut it short) and /dev/null as its
    standard streams (a shell reading the command's output through a pipe sees the end of it
    when the command exits); the child between them leaves at once, so a long-lived caller
    (the bench, the tests) keeps no zombie. False when no child could be started: the caller
    does the work itself.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        pid = os.fork()
    except OSError:
        return False
    if pid == 0:
        status = 1
        try:
            os.setsid()
            if os.fork() == 0:
                _streams_to_null()
                work()
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    return status == 0


def _streams_to_null() -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for stream in (0, 1, 2):
        os.dup2(null, stream)
    if null > 2:
        os.close(null)
