"""Open the user's editor at an entry's line, with the app suspended while it runs."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textual.app import App, SuspendNotSupported

from memtui.core.sanitize import one_line
from memtui.ui import widths
from memtui.ui.terminal import running_on_the_terminal

SIGNAL_CHECK_S = 0.1
"""How often the wait for the editor lets signal handlers run."""


class EditorSettingError(ValueError):
    """`$VISUAL` or `$EDITOR` is not a command a shell could read (an unbalanced quote)."""


def chosen_editor(environ: Mapping[str, str] = os.environ) -> tuple[str, str]:
    """(the variable it came from, the command): `$VISUAL`, else `$EDITOR`, else vi."""
    for variable in ("VISUAL", "EDITOR"):
        if environ.get(variable):
            return f"${variable}", environ[variable]
    return "the default", "vi"


def editor_command(path: Path, line: int, environ: Mapping[str, str] = os.environ) -> list[str]:
    """The chosen editor (split like a shell would) at `+line` of `path`."""
    variable, chosen = chosen_editor(environ)
    try:
        words = shlex.split(chosen)
    except ValueError as exc:  # `vim "`: shlex's "No closing quotation"
        raise EditorSettingError(
            f"{variable} cannot be read as a command ({str(exc).lower()}): "
            f"{one_line(chosen, widths.LABEL)}"
        ) from None
    if not words:
        raise EditorSettingError(f"{variable} holds no command")
    return [*words, f"+{line}", str(path)]


def open_editor(app: App[Any], path: Path, line: int) -> bool:
    """Run the editor on `path` at `line`; False (after telling the user why) if it could not.

    An editor that is not there is found out before the app is suspended: `App.suspend` resumes
    only when its block ends normally, so an exception out of it left the terminal blank and
    the app deaf to every key. Any other failure to start is caught inside the block for the
    same reason. An editor that ran and failed is reported; the file is reloaded anyway."""
    try:
        command = editor_command(path, line)
    except EditorSettingError as exc:
        app.notify(f"Could not run the editor: {exc}", severity="error", markup=False)
        return False
    editor = one_line(os.path.basename(command[0]), widths.LABEL)  # the program, not its path
    if shutil.which(command[0]) is None:
        app.notify(
            f"Could not run {editor}: not found, or not executable (set $VISUAL or $EDITOR)",
            severity="error",
            markup=False,
        )
        return False
    failure: OSError | None = None
    status = 0
    try:
        with app.suspend():
            try:
                status = run_awake(command)
            except OSError as exc:
                failure = exc
    except SuspendNotSupported:
        app.notify("Cannot open an editor from here.", severity="warning", markup=False)
        return False
    if failure is not None:
        app.notify(f"Could not run {editor}: {failure}", severity="error", markup=False)
        return False
    if status != 0:
        app.notify(f"{editor} {how_it_ended(status)}", severity="warning", markup=False)
    return True


def how_it_ended(status: int) -> str:
    """An editor's failed exit in words: a negative status is the signal that ended it."""
    if status > 0:
        return f"exited with status {status}"
    try:
        return f"was ended by {signal.Signals(-status).name}"
    except ValueError:
        return f"was ended by signal {-status}"


def run_awake(command: list[str]) -> int:
    """Run `command` to its end, on the terminal, and return its exit status, letting signal
    handlers run while it does.

    Python runs a handler on the main thread, and the kernel may hand a signal to any thread: a
    terminal's hangup went to a worker, and the main thread, blocked in `waitpid` for the
    editor, never woke to run it. memtui then lived as long as the editor, past the terminal
    it was on. A wait that times out now and then runs the handler, which passes the hangup
    on (`ui.terminal.running_on_the_terminal`)."""
    with subprocess.Popen(command) as process, running_on_the_terminal(process.pid):
        while True:
            try:
                return process.wait(SIGNAL_CHECK_S)
            except subprocess.TimeoutExpired:
                continue
