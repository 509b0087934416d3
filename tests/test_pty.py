"""The real `memtui` in a pseudo-terminal over the hostile corpus: what reaches the terminal.

The app is driven like a user (type a query, move through the results, quit with ctrl+q) and
everything it writes is captured. Textual writes its own escape sequences, so the assertions
look for the payload-specific byte strings planted in the corpus (the clipboard text after
OSC 52, the title after OSC 0/2, the hyperlink URL after OSC 8, DCS/APC bodies, C1 codes, RIS),
and for the visible forms (`␛`) that prove the hostile entries were actually on screen.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memtui.bench import hostile

UP_TO = 60.0
"""An upper bound for the app to react, not a performance expectation."""
DOWN = b"\x1b[B"
CTRL_Q = b"\x11"
CLEAR_QUERY = b"\x15"  # ctrl+u: the query input deletes everything left of the cursor


@pytest.fixture(scope="module")
def corpus(hostile_corpus: hostile.HostileFactory) -> hostile.HostileCorpus:
    return hostile_corpus(200)


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
        raise AssertionError("memtui did not exit after ctrl+q")

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


def test_hostile_corpus_never_reaches_the_terminal_raw(
    corpus: hostile.HostileCorpus, tmp_path: Path
) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "LANG": "C.UTF-8",
    }
    argv = [
        sys.executable, "-m", "memtui", str(corpus.root),
        "--no-watch", "--today", "2026-11-21", "--days", "0",
    ]
    terminal = Terminal(argv, env, (120, 36))
    try:
        # The first paint that shows a hostile entry (every one carries an escape payload).
        terminal.read_until(lambda: "␛".encode() in terminal.output)
        terminal.settle()
        for query in ("payload", "markup", "named"):
            terminal.press(query.encode())
            terminal.press(DOWN, times=8)
            terminal.press(CLEAR_QUERY)
        terminal.press(CTRL_Q)
        exit_code = terminal.wait_exit()
    finally:
        terminal.close()

    written = bytes(terminal.output)
    assert exit_code == 0
    assert "␛".encode() in written and b"HOSTILE" in written  # the payload entries were shown
    for name, signature in corpus.terminal_signatures.items():
        assert signature not in written, f"{name} payload reached the terminal"
    assert b"\x1bc" not in written, "RIS (full terminal reset) reached the terminal"
    assert b"\x1b]8;;https://evil.example" not in written, "a content link became a hyperlink"
    assert b"\x1b]8;;file:" not in written
    for c1 in range(0x80, 0xA0):
        assert chr(c1).encode() not in written, f"C1 U+{c1:04X} reached the terminal"
