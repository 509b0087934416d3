"""A terminal that goes away never leaves memtui behind.

The real `memtui` runs on pseudo-terminals that are closed under it at many moments (before
Python starts, loading, at first paint, typing, copying, quitting, suspended with ctrl+z) or
sent SIGTERM early, several at a time. Closing the terminal is what closing a window or
`tmux kill-session` does: the kernel sends SIGHUP and SIGCONT to the program, and every later
write fails. Each one must end; one left running fails the test (and is killed).

Why it matters: Textual's driver restarted its terminal mode on the hangup's SIGCONT, its new
writer thread died on the first write, and the event loop then blocked for good on the full
queue, ignoring SIGTERM (see `memtui.ui.terminal`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pty_terminal import CTRL_Q, CTRL_Z, Terminal

LIVENESS_S = 15.0
"""How long an ended terminal may keep memtui alive before the test calls it left behind: a
generous bound for a loaded machine (memtui itself ends within `ui.terminal.GRACE_S`)."""

DEMO = [sys.executable, "-m", "memtui", "--demo", "--no-watch", "--today", "2026-11-21"]
PICK = [sys.executable, "-m", "memtui", "pick", "--demo", "--no-watch", "--today", "2026-11-21"]
SIZE = (100, 30)
PAINTED = b"Deploy"


def at_once(terminal: Terminal) -> None:
    """Before Python has even started."""


def first_output(terminal: Terminal) -> None:
    terminal.read_until(lambda: len(terminal.output) > 0)


def alternate_screen(terminal: Terminal) -> None:
    terminal.read_until(lambda: b"\x1b[?1049h" in terminal.output)


def first_paint(terminal: Terminal) -> None:
    terminal.read_until(lambda: PAINTED in terminal.output)


def typing(terminal: Terminal) -> None:
    first_paint(terminal)
    os.write(terminal.fd, b"depl")


def copying(terminal: Terminal) -> None:
    first_paint(terminal)
    terminal.settle()
    os.write(terminal.fd, b"\ty")


def quitting(terminal: Terminal) -> None:
    first_paint(terminal)
    os.write(terminal.fd, CTRL_Q)


def suspended(terminal: Terminal) -> None:
    """ctrl+z stopped it: the hangup's SIGCONT must not start its terminal mode again."""
    first_paint(terminal)
    terminal.settle()
    os.write(terminal.fd, CTRL_Z)
    _, status = os.waitpid(terminal.pid, os.WUNTRACED)
    assert os.WIFSTOPPED(status)


Moment = Callable[[Terminal], None]
HANGUPS: list[tuple[list[str], Moment]] = [
    (DEMO, at_once),
    (DEMO, first_output),
    (DEMO, alternate_screen),
    (DEMO, first_paint),
    (DEMO, typing),
    (DEMO, copying),
    (DEMO, quitting),
    (DEMO, suspended),
    (PICK, first_paint),
    (PICK, typing),
]
TERMINATIONS: list[tuple[list[str], Moment]] = [
    (DEMO, first_output),
    (DEMO, alternate_screen),
    (PICK, typing),
]


def environment(home: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
    }


def end_at(
    home: Path, argv: list[str], moment: Moment, number: signal.Signals | None
) -> tuple[str, int | None]:
    """Run `argv`, wait for `moment`, then close its terminal (`number` None) or send it
    `number`; (what happened, its exit code) — "left behind" if it did not end."""
    terminal = Terminal(argv, environment(home), SIZE)
    try:
        moment(terminal)
        if number is None:
            terminal.hang_up()
        else:
            os.kill(terminal.pid, number)
        if not terminal.gone_within(LIVENESS_S):
            return "left behind", None
        assert terminal.status is not None
        return "ended", os.waitstatus_to_exitcode(terminal.status)
    finally:
        terminal.close()


def exit_is_expected(moment: Moment, number: signal.Signals | None, code: int | None) -> bool:
    """A signal's conventional code; a hangup's is 129 (or death by SIGHUP). Before Python
    starts any end will do, and after ctrl+q the quit may finish before the hangup lands:
    exit 0 is then the user's own clean quit."""
    if number is not None:
        return code == 128 + number
    if moment is at_once:
        return True
    return code in (129, -signal.SIGHUP) or (moment is quitting and code == 0)


def test_closing_the_terminal_at_any_moment_leaves_nothing_behind(tmp_path: Path) -> None:
    cases: list[tuple[list[str], Moment, signal.Signals | None]]
    cases = [(argv, moment, None) for argv, moment in HANGUPS]
    cases += [(argv, moment, signal.SIGTERM) for argv, moment in TERMINATIONS]
    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(lambda case: end_at(tmp_path, *case), cases))
    problems = []
    for (argv, moment, number), (what, code) in zip(cases, outcomes, strict=True):
        case = f"{argv[3]} {moment.__name__} {number.name if number else 'hangup'}"
        if what != "ended":
            problems.append(f"{case}: {what}")
        elif not exit_is_expected(moment, number, code):
            problems.append(f"{case}: exit {code}")
    assert not problems, "\n".join(problems)


def test_pick_without_a_terminal_is_a_usage_error(tmp_path: Path) -> None:
    """No controlling terminal at all (a cron job, `setsid`): a clear message and exit 2."""
    done = subprocess.run(
        [*PICK, "-q", "deploy"],
        env=environment(tmp_path),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        start_new_session=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"no terminal" in done.stderr


EDITOR = '#!/bin/sh\necho $$ > "$0.pid"\nexec sleep 60\n'
"""An editor that keeps the terminal until a signal ends it (as `code --wait` may, past a
hangup): it writes its process id beside itself first."""


def running(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("number", [None, signal.SIGTERM], ids=["hangup", "SIGTERM"])
def test_an_editor_running_when_memtui_must_end_ends_with_it(
    tmp_path: Path, number: signal.Signals | None
) -> None:
    """The hangup went to a worker thread while the main thread waited for the editor, so
    memtui outlived its terminal for as long as the editor ran; and a SIGTERM left the editor
    behind, fighting the shell for the terminal."""
    editor = tmp_path / "editor"
    editor.write_text(EDITOR)
    editor.chmod(0o755)
    started = tmp_path / "editor.pid"
    terminal = Terminal(DEMO, {**environment(tmp_path), "EDITOR": str(editor)}, SIZE)
    editor_pid = None
    try:
        first_paint(terminal)
        terminal.settle()
        os.write(terminal.fd, b"\te")
        terminal.read_until(lambda: started.exists() and started.read_text().strip() != "")
        editor_pid = int(started.read_text())
        if number is None:
            terminal.hang_up()
        else:
            os.kill(terminal.pid, number)
        assert terminal.gone_within(LIVENESS_S), "memtui left behind"
        assert terminal.status is not None
        code = os.waitstatus_to_exitcode(terminal.status)
        assert code in ((129, -signal.SIGHUP) if number is None else (143,))
        deadline = time.monotonic() + LIVENESS_S
        while running(editor_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not running(editor_pid), "the editor left behind"
    finally:
        terminal.close()
        if editor_pid is not None and running(editor_pid):
            os.kill(editor_pid, signal.SIGKILL)


def test_ctrl_c_typed_in_the_editor_is_the_editors(tmp_path: Path) -> None:
    """While the editor has the terminal, SIGINT is the editor's key, not an end of memtui
    (as `system(3)` ignores it): the app comes back when the editor ends."""
    editor = tmp_path / "editor"
    editor.write_text(EDITOR)
    editor.chmod(0o755)
    started = tmp_path / "editor.pid"
    terminal = Terminal(DEMO, {**environment(tmp_path), "EDITOR": str(editor)}, SIZE)
    try:
        first_paint(terminal)
        terminal.settle()
        os.write(terminal.fd, b"\te")
        terminal.read_until(lambda: started.exists() and started.read_text().strip() != "")
        os.kill(terminal.pid, signal.SIGINT)
        assert not terminal.gone_within(2.0), "memtui ended on a ctrl+c meant for the editor"
        painted = len(terminal.output)
        os.kill(int(started.read_text()), signal.SIGTERM)
        terminal.read_until(lambda: PAINTED in terminal.output[painted:])
        terminal.settle()
        os.write(terminal.fd, CTRL_Q)
        assert terminal.wait_exit() == 0
    finally:
        terminal.close()
