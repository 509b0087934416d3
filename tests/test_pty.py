"""The real `memtui` in a pseudo-terminal over the hostile corpus: what reaches the terminal.

The app is driven like a user (type a query, move through the results, quit with ctrl+q) and
everything it writes is captured. Textual writes its own escape sequences, so the assertions
look for the payload-specific byte strings planted in the corpus (the clipboard text after
OSC 52, the title after OSC 0/2, the hyperlink URL after OSC 8, DCS/APC bodies, C1 codes, RIS),
and for the visible forms (`␛`) that prove the hostile entries were actually on screen.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from pty_terminal import CLEAR_QUERY, CTRL_Q, DOWN, Terminal

from memtui.bench import hostile


@pytest.fixture(scope="module")
def corpus(hostile_corpus: hostile.HostileFactory) -> hostile.HostileCorpus:
    return hostile_corpus(200)


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
        sys.executable,
        "-m",
        "memtui",
        str(corpus.root),
        "--no-watch",
        "--today",
        "2026-11-21",
        "--days",
        "0",
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
