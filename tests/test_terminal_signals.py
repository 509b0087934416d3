"""The terminal is sane after any way out: SIGTERM, SIGHUP, SIGINT, SIGQUIT, ctrl+z then fg,
and a crash.

The real `memtui` runs on a pseudo-terminal. After a signal it must write the sequences that
leave the alternate screen, turn mouse reporting off and show the cursor, then exit with
128 + the signal (SIGINT: 130, as a shell expects). ctrl+z runs under an interactive bash, as
a person's shell would (job control needs a shell: a process group without one ignores SIGTSTP).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path

import pytest
from pty_terminal import CTRL_Q, CTRL_Z, TERMINAL_RESTORED, Terminal

from memtui.cli import build_tui_parser
from memtui.commands import tui
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.main import MainScreen

SIZE = (100, 30)


def environment(home: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "PS1": "PROMPT$ ",
    }


MEMTUI = [sys.executable, "-m", "memtui", "--demo", "--no-watch", "--today", "2026-11-21"]


ENDING = [signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGQUIT]


@pytest.mark.parametrize("number", ENDING, ids=[number.name for number in ENDING])
def test_a_signal_restores_the_terminal(tmp_path: Path, number: signal.Signals) -> None:
    terminal = Terminal(MEMTUI, environment(tmp_path), SIZE)
    try:
        terminal.read_until(lambda: b"Deploy" in terminal.output)
        terminal.settle()
        before = len(terminal.output)
        os.kill(terminal.pid, number)
        code = terminal.wait_exit()
    finally:
        terminal.close()
    after = bytes(terminal.output[before:])
    assert code == 128 + number
    for sequence in TERMINAL_RESTORED:
        assert sequence in after, sequence


@pytest.mark.parametrize("key", [b"o", b"w", b"f", b"?"])
def test_a_key_typed_right_behind_q_does_not_crash_the_exit(tmp_path: Path, key: bytes) -> None:
    """QA: typing "quokka" in the results list (or `qo`, `qw`…) exited 1 with a traceback: the
    second key pushed its screen after the exit was asked for, and Textual mounts nothing then."""
    terminal = Terminal(MEMTUI, environment(tmp_path), SIZE)
    try:
        terminal.read_until(lambda: b"Deploy" in terminal.output)
        terminal.settle()
        os.write(terminal.fd, b"\t")
        terminal.settle()
        os.write(terminal.fd, b"q" + key)  # one write: both keys in one read
        code = terminal.wait_exit()
    finally:
        terminal.close()
    assert code == 0
    assert b"Traceback" not in terminal.output


def test_ctrl_z_suspends_and_fg_resumes(tmp_path: Path) -> None:
    shell = ["/bin/bash", "--norc", "--noprofile", "-i"]
    terminal = Terminal(shell, environment(tmp_path), SIZE)
    try:
        terminal.read_until(lambda: b"PROMPT$" in terminal.output)
        terminal.press(" ".join(MEMTUI).encode() + b"\r")
        terminal.read_until(lambda: b"Deploy" in terminal.output)
        terminal.settle()
        suspended_at = len(terminal.output)
        terminal.press(CTRL_Z)
        terminal.read_until(lambda: b"Stopped" in terminal.output[suspended_at:])
        stopped = bytes(terminal.output[suspended_at:])
        for sequence in TERMINAL_RESTORED:
            assert sequence in stopped, sequence
        resumed_at = len(terminal.output)
        terminal.press(b"fg\r")
        terminal.read_until(lambda: b"Deploy" in terminal.output[resumed_at:])
        assert b"\x1b[?1049h" in terminal.output[resumed_at:]  # back in its own screen
        quit_at = len(terminal.output)
        terminal.press(CTRL_Q)
        terminal.read_until(lambda: b"PROMPT$" in terminal.output[quit_at:])
        terminal.press(b"echo EXIT=$?\r")
        terminal.read_until(lambda: b"EXIT=0" in terminal.output[quit_at:])
        terminal.press(b"exit\r")
    finally:
        terminal.close()


async def test_a_crash_is_a_non_zero_exit(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unhandled error ends the app with return code 1 (not 0), and run_tui returns it."""

    def broken(self: MainScreen) -> None:
        raise RuntimeError("planted")

    monkeypatch.setattr(MainScreen, "action_next_theme", broken)
    args = build_tui_parser().parse_args(["--demo", "--no-watch", "--today", "2026-11-21"])
    app = tui.create_app(args, deterministic=True)
    with pytest.raises(RuntimeError):  # run_test re-raises what crashed the app
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("f2")
    assert app.return_code == 1


def test_run_tui_returns_the_apps_exit_code(monkeypatch: pytest.MonkeyPatch) -> None:
    class Crashed(MemtuiApp):
        def run(self, *args: object, **kwargs: object) -> None:
            self.exit(return_code=1)

    monkeypatch.setattr(tui, "MemtuiApp", Crashed)
    monkeypatch.setattr(tui, "OnTheTerminal", lambda app: contextlib.nullcontext())
    args = build_tui_parser().parse_args(["--demo", "--no-watch"])
    assert tui.run_tui(args) == 1
