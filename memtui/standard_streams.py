"""The three standard streams at the border with the caller's shell: closed ones, and output
that cannot be written.

A caller may start memtui with a standard stream closed (`memtui rank x 2>&-`, `>&-`, `<&-`).
Python then sets `sys.stderr` (or `sys.stdout`) to None, and `print(file=None)` writes to
stdout instead: a note meant for stderr landed inside `--json` output. Worse, the next file
memtui opens takes the free descriptor, so anything written to "stderr" (by memtui or by a
program it starts) would go into that file. Each closed descriptor is therefore opened on the
null device before anything else runs. A closed stdout is then an error for a command whose
output is the point (like `ls >&-`): "cannot write the output", exit 2.

Output that fails to be written (a full disk, `> /dev/full`, a closed terminal) raises
`OutputError`, so the CLI says so in one line and exits 2 instead of printing a traceback, or
exiting 1, which `rank` uses for "no results". A reader that leaves (`| head`) is still a
`BrokenPipeError`, which the CLI ends quietly with 141.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

STANDARD_FDS = (0, 1, 2)


class OutputError(OSError):
    """Writing stdout failed for a reason other than the reader leaving."""


class _CheckedOutput(io.FileIO):
    """Standard output's file, whose write errors are `OutputError`s (EPIPE stays a
    `BrokenPipeError`)."""

    def write(self, data: ReadableBuffer, /) -> int:
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror) from None


def plug_closed() -> bool:
    """Open each closed standard descriptor on the null device (and give Python a stream for
    it); whether stdout was closed."""
    closed = [fd for fd in STANDARD_FDS if not _is_open(fd)]
    for fd in closed:
        null_device_on(fd)
    for fd in closed:
        # `sys.__stdin__` too: Textual's driver takes its fileno, and it was None (`memtui <&-`
        # ended at once, exit 1).
        name = ("stdin", "stdout", "stderr")[fd]
        mode, errors = ("r", "strict") if fd == 0 else ("w", "backslashreplace")
        stream = open(fd, mode, encoding="utf-8", errors=errors, closefd=False)  # noqa: SIM115
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
    return 1 in closed


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError as exc:
        return exc.errno != errno.EBADF
    return True


def check_stdout() -> None:
    """Make `sys.stdout` raise `OutputError` when a write fails, buffered (also under
    `python -u` or PYTHONUNBUFFERED=1, where a raw stdout dropped the rest of a text write the
    OS took only in part, without an error), with the encoding and line buffering it had."""
    stdout = sys.stdout
    if not isinstance(stdout, io.TextIOWrapper):
        return  # replaced by a test or a host program: theirs to check
    stdout.flush()
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(_CheckedOutput(stdout.fileno(), "w", closefd=False)),
        encoding=stdout.encoding,
        errors=stdout.errors,
        line_buffering=stdout.line_buffering,
    )


def silence_stdout() -> None:
    """Point stdout at the null device, so that what is still buffered in it cannot fail
    again when Python flushes it on the way out."""
    null_device_on(1)


def null_device_on(fd: int) -> None:
    """Make descriptor `fd` the null device, whether it is open or closed now."""
    null = os.open(os.devnull, os.O_RDWR)
    if null != fd:  # a closed `fd` is usually the lowest free number, so `null` itself
        os.dup2(null, fd)
        os.close(null)
