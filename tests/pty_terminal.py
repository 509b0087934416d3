"""A child process on a pseudo-terminal, driven like a person at a terminal (for pty tests)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import termios
import time
from collections.abc import Callable

UP_TO = 60.0
"""An upper bound for the app to react, not a performance expectation."""
DOWN = b"\x1b[B"
CTRL_Q = b"\x11"
CTRL_Z = b"\x1a"
CLEAR_QUERY = b"\x15"  # ctrl+u: the query input deletes everything left of the cursor
TERMINAL_RESTORED = (b"\x1b[?1049l", b"\x1b[?1000l", b"\x1b[?25h")
"""Alternate screen off, mouse reporting off, cursor shown: what a sane exit writes."""


class Terminal:
    """A child process on a pseudo-terminal, and everything it wrote."""

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int]) -> None:
        self.output = bytearray()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become memtui
            os.execve(argv[0], argv, env)
        columns, rows = size
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.status: int | None = None

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        self.output.extend(data)
        return bool(data)

    def read_until(self, condition: Callable[[], bool]) -> None:
        deadline = time.monotonic() + UP_TO
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError("the app never reached the expected state")
            self._read(0.05)

    def settle(self) -> None:
        """Read until the app has been quiet for a moment (it has painted the last key)."""
        deadline = time.monotonic() + UP_TO
        while self._read(0.08) and time.monotonic() < deadline:
            pass

    def press(self, keys: bytes, times: int = 1) -> None:
        for _ in range(times):
            os.write(self.fd, keys)
            self.settle()

    def wait_exit(self) -> int:
        deadline = time.monotonic() + UP_TO
        while time.monotonic() < deadline:
            self._read(0.05)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        raise AssertionError("the program did not exit")

    def hang_up(self) -> None:
        """Close the terminal under the program, as closing a window or killing a tmux session
        does: the kernel sends it SIGHUP (and SIGCONT), and its terminal is gone."""
        os.close(self.fd)
        self.fd = -1

    def gone_within(self, seconds: float) -> bool:
        """Whether the program ended within `seconds` (a bound for liveness, not a timing)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
                return True
            time.sleep(0.02)
        return False

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        if self.fd >= 0:
            os.close(self.fd)
