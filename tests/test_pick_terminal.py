"""`memtui pick` draws on the controlling terminal, like fzf: at the terminal's size, following
its resizes, whatever stdin, stdout and stderr are; only the choice reaches stdout.

Textual takes the size from stdout; with stdout a file it drew at 80x24 in any window. Here
stdin is /dev/null and stdout and stderr are files, and the window is neither 80x24 nor what it
becomes after a resize. The row it draws its key footer on (`ESC [ row ; col H`) shows the
size it uses.
"""

from __future__ import annotations

import fcntl
import os
import re
import struct
import sys
import termios
from pathlib import Path

from pty_terminal import Terminal

CURSOR_ROW = re.compile(rb"\x1b\[(\d+);\d+H")
CITATION = re.compile(r"^memory/\S+\.md:\d+\S*\d+ \(.+, daily\)$")


def footer_row(output: bytes | bytearray) -> int | None:
    """The row the key footer (its last words: `^p palette`) was last drawn on."""
    end = output.rfind(b"palette")
    rows = CURSOR_ROW.findall(output, 0, end) if end >= 0 else []
    return int(rows[-1]) if rows else None


def resize(terminal: Terminal, columns: int, rows: int) -> None:
    """What a window manager does: the kernel then sends SIGWINCH to the program."""
    fcntl.ioctl(terminal.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def test_pick_fills_the_real_window_whatever_stdout_is(tmp_path: Path) -> None:
    out, err = tmp_path / "out.md", tmp_path / "err.txt"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "OUT": str(out),
        "ERR": str(err),
    }
    memtui = [sys.executable, "-m", "memtui", "pick", "--demo", "-q", "deploy", "--no-watch"]
    shell = 'exec "$@" < /dev/null > "$OUT" 2> "$ERR"'
    terminal = Terminal(["/bin/sh", "-c", shell, "sh", *memtui], env, (150, 40))
    try:
        terminal.read_until(lambda: b"matches" in terminal.output)
        terminal.settle()
        assert footer_row(terminal.output) == 40  # the last row: the app fills the window
        resized_at = len(terminal.output)
        resize(terminal, 110, 30)
        terminal.read_until(lambda: footer_row(terminal.output[resized_at:]) == 30)
        terminal.settle()
        terminal.press(b"\r")
        code = terminal.wait_exit()
    finally:
        terminal.close()
    assert code == 0
    lines = out.read_text().splitlines()
    assert CITATION.match(lines[0]), lines[:3]
    assert "\x1b" not in out.read_text()
    assert err.read_text() == ""
