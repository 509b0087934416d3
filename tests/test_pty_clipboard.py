"""`Y` on an entry whose file name is not UTF-8, in a real terminal: no crash, a clean exit, and
an OSC 52 clipboard payload that holds the name's visible form and no control character."""

from __future__ import annotations

import base64
import os
import re
import sys
from pathlib import Path

from pty_terminal import CTRL_Q, Terminal

OSC52 = re.compile(rb"\x1b\]52;c;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)")


def test_citing_a_latin1_file_name_copies_its_visible_form(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    (root / os.fsdecode(b"caf\xe9.md")).write_bytes(b"## Cafe hours\nThe cafe opens at eight.\n")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "s"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
    }
    argv = [sys.executable, "-m", "memtui", str(root), "--no-watch", "--days", "0"]
    terminal = Terminal(argv, env, (100, 30))
    try:
        terminal.read_until(lambda: b"Cafe" in terminal.output)
        terminal.settle()
        terminal.press(b"caf")
        terminal.press(b"\t")
        terminal.press(b"Y")
        terminal.read_until(lambda: OSC52.search(terminal.output) is not None)
        terminal.press(CTRL_Q)
        code = terminal.wait_exit()
    finally:
        terminal.close()
    assert code == 0
    match = OSC52.search(bytes(terminal.output))
    assert match is not None
    copied = base64.b64decode(match.group(1)).decode("utf-8")
    assert copied.startswith("caf\\xe9.md:1")
    assert not any(ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 for char in copied)
