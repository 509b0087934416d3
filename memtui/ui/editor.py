"""Open the user's editor at an entry's line, with the app suspended while it runs."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textual.app import App, SuspendNotSupported

from memtui.core.sanitize import one_line
from memtui.ui import widths


def chosen_editor(environ: Mapping[str, str] = os.environ) -> str:
    """`$VISUAL`, else `$EDITOR`, else vi."""
    return environ.get("VISUAL") or environ.get("EDITOR") or "vi"


def editor_command(path: Path, line: int, environ: Mapping[str, str] = os.environ) -> list[str]:
    """The chosen editor (split like a shell would) at `+line` of `path`."""
    return [*shlex.split(chosen_editor(environ)), f"+{line}", str(path)]


def open_editor(app: App[Any], path: Path, line: int) -> bool:
    """Run the editor on `path` at `line`; False (after telling the user why) if it could not."""
    command = editor_command(path, line)
    try:
        with app.suspend():
            subprocess.run(command, check=False)
    except SuspendNotSupported:
        app.notify("Cannot open an editor from here.", severity="warning", markup=False)
        return False
    except OSError as exc:
        app.notify(
            f"Could not run {one_line(chosen_editor(), widths.LABEL)}: {exc}",
            severity="error",
            markup=False,
        )
        return False
    return True
