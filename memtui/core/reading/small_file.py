"""Files memtui reads besides memory (config, history, transcripts), opened as memory files are.

Each of these paths can hold anything: a FIFO (opening it would block a worker for good), a
symlink to `/dev/zero` or `/dev/urandom` (endless), a huge file, a name longer than the file
system allows. So, as the memory walker does: the path is stat-ed first, only a regular file is
opened (a symlink is followed, dotfiles are linked, but its target must be a regular file), it is
opened with `O_NONBLOCK` and `fstat`-ed again (it may have been swapped meanwhile), and at most
`limit` bytes are read. Every refusal is an `Unreadable` with a reason for a warning.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_CHUNK = 256 * 1024


class Unreadable(OSError):
    """A file that was not read; `str()` says why, in words for a warning."""


def _regular(info: os.stat_result) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise Unreadable("not a regular file (a FIFO, socket, device or folder): not read")


def read_up_to(descriptor: int, count: int, chunk: int = _CHUNK) -> bytes:
    """At most `count` bytes from an open file, read `chunk` at a time: a size the file claims
    never allocates more than it holds."""
    pieces: list[bytes] = []
    remaining = count
    while remaining > 0:
        piece = os.read(descriptor, min(chunk, remaining))
        if not piece:
            break
        pieces.append(piece)
        remaining -= len(piece)
    return b"".join(pieces)


def open_regular(path: Path) -> int:
    """A descriptor of the regular file at `path`, opened without blocking: a FIFO put in its
    place raises `Unreadable` instead of hanging until something writes to it."""
    descriptor = os.open(path, _OPEN_FLAGS)
    try:
        _regular(os.fstat(descriptor))
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def read_small_file(path: Path, limit: int, *, truncate: bool = False) -> bytes:
    """At most `limit` bytes of the regular file at `path`.

    A longer file raises `Unreadable`, or with `truncate` gives its first `limit` bytes. A
    missing file raises `FileNotFoundError` (or `NotADirectoryError` when a parent is a file):
    callers usually treat it as empty.
    """
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise
    except OSError as exc:
        raise Unreadable(f"not readable ({exc.strerror or exc})") from None
    _regular(info)
    if info.st_size > limit and not truncate:
        raise Unreadable(f"{info.st_size:,} bytes, more than the {limit:,} read: not read")
    try:
        descriptor = open_regular(path)
    except (FileNotFoundError, Unreadable):
        raise
    except OSError as exc:
        raise Unreadable(f"not readable ({exc.strerror or exc})") from None
    try:
        data = read_up_to(descriptor, limit + 1)
    except OSError as exc:
        raise Unreadable(f"not readable ({exc.strerror or exc})") from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        if not truncate:
            raise Unreadable(f"more than {limit:,} bytes: not read")
        data = data[:limit]
    return data
