"""Copying that tells the truth: the text goes to the system clipboard when there is one
(wl-copy, xclip, xsel, pbcopy, clip.exe) and to the terminal as OSC 52, and the notice names
the route that took it, or says that OSC 52 is all there was and the terminal may ignore it.

The tool runs without a shell, the text on its stdin, in a session of its own (wl-copy and
xclip stay behind to serve the clipboard, and must outlive a closed terminal), for at most
TOOL_TIMEOUT_S; failing or hanging is a notice, never a crash. The text handed on has its
control characters made visible first, as in the UI (`core.sanitize.visible`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.app import App

from memtui.core.sanitize import one_line, visible
from memtui.core.settings.clipboard import ClipboardSettings
from memtui.ui import widths

TOOL_TIMEOUT_S = 2.0
"""A clipboard tool that has not finished by then is stopped, and the notice says so."""

OSC52_ONLY = "your terminal may ignore it"


@dataclass(frozen=True, slots=True)
class Tool:
    """A command that takes text on stdin and puts it on the system clipboard."""

    name: str
    argv: tuple[str, ...]
    encoding: str = "utf-8"


KNOWN: dict[str, Tool] = {
    "wl-copy": Tool("wl-copy", ("wl-copy", "--type", "text/plain;charset=utf-8")),
    "xclip": Tool("xclip", ("xclip", "-selection", "clipboard", "-in")),
    "xsel": Tool("xsel", ("xsel", "--clipboard", "--input")),
    "pbcopy": Tool("pbcopy", ("pbcopy",)),
    # clip.exe reads UTF-16 when the text starts with its byte order mark, else the code page.
    "clip.exe": Tool("clip.exe", ("clip.exe",), encoding="utf-16"),
}


def is_wsl() -> bool:
    """Windows Subsystem for Linux, where clip.exe reaches the Windows clipboard."""
    if os.environ.get("WSL_DISTRO_NAME"):
        return True
    try:
        return "microsoft" in Path("/proc/version").read_text(errors="replace").lower()
    except OSError:
        return False


def detected(
    env: Mapping[str, str],
    platform: str,
    wsl: bool,
    which: Callable[[str], str | None] = shutil.which,
) -> Tool | None:
    """The system clipboard tool that fits this session, if one is installed: pbcopy on
    macOS; wl-copy under Wayland, xclip or xsel under X11 (also over SSH with X forwarding);
    clip.exe under WSL. None: no system clipboard reachable from here."""
    wanted: list[str] = []
    if platform == "darwin":
        wanted.append("pbcopy")
    if env.get("WAYLAND_DISPLAY"):
        wanted.append("wl-copy")
    if env.get("DISPLAY"):
        wanted += ["xclip", "xsel"]
    if wsl:
        wanted.append("clip.exe")
    for name in wanted:
        if which(name):
            return KNOWN[name]
    return None


def system_tool() -> Tool | None:
    """The tool detected for this session (the tests replace it: never the developer's)."""
    return detected(os.environ, sys.platform, is_wsl())


def chosen_tool(settings: ClipboardSettings) -> Tool | None:
    """The tool `[clipboard] tool` asks for: detected ("auto"), named, a command, or none."""
    if settings.tool == "off":
        return None
    if settings.tool == "auto":
        return system_tool()
    if isinstance(settings.tool, tuple):
        return Tool(Path(settings.tool[0]).name, settings.tool)
    return KNOWN[settings.tool]


def run_tool(tool: Tool, text: str) -> str | None:
    """Hand `text` to `tool`; None when it took it, else what went wrong, in a few words.

    stdout and stderr are not pipes: a tool that stays behind to serve the clipboard holds
    them open, and waiting for their end would wait for the next copy anywhere."""
    with tempfile.TemporaryFile() as errors:
        try:
            done = subprocess.run(
                tool.argv,
                input=text.encode(tool.encoding, errors="replace"),
                stdout=subprocess.DEVNULL,
                stderr=errors,
                timeout=TOOL_TIMEOUT_S,
                start_new_session=True,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return f"did not finish within {TOOL_TIMEOUT_S:g} s"
        except OSError as exc:
            return exc.strerror or str(exc)
        if done.returncode == 0:
            return None
        errors.seek(0)
        said = errors.read(2000).decode("utf-8", errors="replace").strip()
        first = said.splitlines()[0] if said else ""
        return f"exit {done.returncode}" + (f": {first}" if first else "")


def notice(copied: str, tool: Tool | None, problem: str | None, osc52: bool) -> tuple[str, bool]:
    """What to tell the user, and whether it is a warning. `copied` says what was copied
    ("Copied 2 entries"); the notice adds the route that took it."""
    if tool is not None and problem is None:
        return f"{copied} · {tool.name}", False
    if tool is None:
        if not osc52:
            return "Nothing copied: [clipboard] turns every route off", True
        sent = copied.replace("Copied", "Sent", 1)
        return f"{sent} to the terminal clipboard (OSC 52): {OSC52_ONLY}", False
    failed = f"Not copied by {tool.name} ({problem})"
    if osc52:
        return f"{failed}; sent to the terminal clipboard (OSC 52): {OSC52_ONLY}", True
    return failed, True


def copy(app: App[Any], text: str, copied: str, settings: ClipboardSettings) -> None:
    """Hand `text` on by every route `settings` allows, then say which took it (the tool runs
    in a thread worker: it may take up to TOOL_TIMEOUT_S)."""
    text = visible(text)
    if settings.osc52:
        app.copy_to_clipboard(text)
    tool = chosen_tool(settings)

    def hand_on() -> None:
        problem = None if tool is None else run_tool(tool, text)
        message, warning = notice(copied, tool, problem, settings.osc52)
        app.notify(
            one_line(message, widths.NOTICE),
            severity="warning" if warning else "information",
            timeout=5 if warning else 3,
            markup=False,
        )

    app.run_worker(hand_on, thread=True, group="clipboard", name="copy")
