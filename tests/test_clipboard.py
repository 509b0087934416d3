"""Copying that tells the truth: `y`/`Y` hand the text to the system clipboard tool that fits
the session (stand-in `wl-copy`/`xclip`/… scripts here) and to the terminal as OSC 52, and the
notice names the route that took it; a tool that fails or hangs is a notice, never a crash;
`[clipboard]` chooses or turns off routes; the text handed on holds no control character."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest
from pty_terminal import CTRL_Q, Terminal
from textual.pilot import Pilot
from ui_helpers import build_app, type_query, wait_loaded, wait_until, write

from memtui.core.sanitize import has_unsafe
from memtui.core.settings.clipboard import ClipboardSettings
from memtui.core.settings.config import ConfigError, parse_config
from memtui.ui import clipboard
from memtui.ui.app import MemtuiApp
from memtui.ui.clipboard import KNOWN, Tool, detected, notice, run_tool
from memtui.ui.textual_private import notices

DETECT = clipboard.system_tool
"""The real detection (the conftest replaces it in every test, so no test reaches the
developer's own clipboard)."""

STAND_IN = """#!/bin/sh
printf '%s\\n' "$0 $*" >> "$CLIP_LOG"
cat > "$CLIP_OUT"
"""
FAILING = """#!/bin/sh
cat > /dev/null
echo "Error: Can't open display: (null)" >&2
exit 1
"""
HANGING = "#!/bin/sh\nexec sleep 5\n"
SERVING = """#!/bin/sh
cat > "$CLIP_OUT"
sleep 3 &
"""
"""Like xclip and wl-copy: it stays behind (holding stdout and stderr) to serve the clipboard."""


def stand_in(folder: Path, name: str, script: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(script)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of stand-in clipboard tools first on PATH; what they got goes to clip.out."""
    folder = tmp_path / "bin"
    for name in KNOWN:
        stand_in(folder, name, STAND_IN)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("CLIP_OUT", str(tmp_path / "clip.out"))
    monkeypatch.setenv("CLIP_LOG", str(tmp_path / "clip.log"))
    return folder


@pytest.mark.parametrize(
    ("env", "platform", "wsl", "installed", "expected"),
    [
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False, {"wl-copy", "xclip"}, "wl-copy"),
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, "linux", False, {"xclip"}, "xclip"),
        ({"DISPLAY": ":0"}, "linux", False, {"wl-copy", "xclip", "xsel"}, "xclip"),
        ({"DISPLAY": "localhost:10.0"}, "linux", False, {"xsel"}, "xsel"),
        ({}, "darwin", False, {"pbcopy"}, "pbcopy"),
        ({}, "linux", True, {"clip.exe"}, "clip.exe"),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True, {"wl-copy", "clip.exe"}, "wl-copy"),
        ({}, "linux", False, set(KNOWN), None),  # plain SSH, a console: no system clipboard
        ({"DISPLAY": ":0"}, "linux", False, set(), None),  # X11 without a tool
    ],
)
def test_the_tool_that_fits_the_session(
    env: dict[str, str], platform: str, wsl: bool, installed: set[str], expected: str | None
) -> None:
    def which(name: str) -> str | None:
        return f"/usr/bin/{name}" if name in installed else None

    tool = detected(env, platform, wsl, which)
    assert (tool.name if tool else None) == expected


@pytest.mark.parametrize(
    ("tool", "problem", "osc52", "expected", "warning"),
    [
        (KNOWN["wl-copy"], None, True, "Copied 2 entries · wl-copy", False),
        (KNOWN["xclip"], None, False, "Copied 2 entries · xclip", False),
        (
            None,
            None,
            True,
            "Sent 2 entries to the terminal clipboard (OSC 52): your terminal may ignore it",
            False,
        ),
        (None, None, False, "Nothing copied: [clipboard] turns every route off", True),
        (
            KNOWN["xclip"],
            "exit 1: Error: Can't open display",
            True,
            "Not copied by xclip (exit 1: Error: Can't open display); sent to the terminal "
            "clipboard (OSC 52): your terminal may ignore it",
            True,
        ),
        (
            KNOWN["wl-copy"],
            "did not finish within 2 s",
            False,
            "Not copied by wl-copy (did not finish within 2 s)",
            True,
        ),
    ],
)
def test_the_notice_names_the_route(
    tool: Tool | None, problem: str | None, osc52: bool, expected: str, warning: bool
) -> None:
    assert notice("Copied 2 entries", tool, problem, osc52) == (expected, warning)


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ({}, ClipboardSettings()),
        ({"tool": "off"}, ClipboardSettings("off", True)),
        ({"tool": "xsel", "osc52": False}, ClipboardSettings("xsel", False)),
        (
            {"tool": ["tmux", "load-buffer", "-"]},
            ClipboardSettings(("tmux", "load-buffer", "-"), True),
        ),
    ],
)
def test_clipboard_settings(table: dict[str, Any], expected: ClipboardSettings) -> None:
    config, warnings = parse_config({"clipboard": table})
    assert config.clipboard == expected
    assert warnings == []


@pytest.mark.parametrize(
    "table",
    [
        {"tool": "xclip -selection clipboard"},  # a command is a list, never a shell line
        {"tool": []},
        {"tool": ["xclip", 3]},
        {"tool": ["xclip", "a\0b"]},
        {"osc52": "yes"},
        "wl-copy",
    ],
)
def test_bad_clipboard_settings_name_the_key(table: Any) -> None:
    with pytest.raises(ConfigError, match="clipboard"):
        parse_config({"clipboard": table})


def test_an_unknown_clipboard_key_is_a_warning() -> None:
    _, warnings = parse_config({"clipboard": {"tool": "auto", "primary": True}})
    assert any("clipboard.primary" in warning for warning in warnings)


def test_a_tool_gets_the_text_on_stdin_without_a_shell(tools: Path, tmp_path: Path) -> None:
    text = "quote ' and $(touch pwned) `id` stay text\n"
    assert run_tool(KNOWN["xclip"], text) is None
    assert (tmp_path / "clip.out").read_text() == text
    assert (tmp_path / "clip.log").read_text().split()[1:] == ["-selection", "clipboard", "-in"]
    assert not (tmp_path / "pwned").exists()


def test_clip_exe_gets_utf16(tools: Path, tmp_path: Path) -> None:
    assert run_tool(KNOWN["clip.exe"], "café ✓") is None
    assert (tmp_path / "clip.out").read_bytes().decode("utf-16") == "café ✓"


def test_a_tool_that_stays_behind_is_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = stand_in(tmp_path / "bin", "serving", SERVING)
    monkeypatch.setenv("CLIP_OUT", str(tmp_path / "clip.out"))
    assert run_tool(Tool("serving", (str(tool),)), "kept") is None
    assert (tmp_path / "clip.out").read_text() == "kept"


@pytest.mark.parametrize(
    ("script", "problem"),
    [
        (FAILING, "exit 1: Error: Can't open display: (null)"),
        (HANGING, "did not finish within 2 s"),
        (None, "No such file or directory"),
    ],
    ids=["fails", "hangs", "missing"],
)
def test_a_tool_that_fails_says_how(tmp_path: Path, script: str | None, problem: str) -> None:
    path = tmp_path / "bin" / "tool"
    if script is not None:
        stand_in(tmp_path / "bin", "tool", script)
    assert run_tool(Tool("tool", (str(path),)), "text") == problem


def copying_app(root: Path, config: str) -> MemtuiApp:
    write(
        root / "MEMORY.md", "# Memory\n\n## Deploy checklist\n\nCI green \x1b]0;T\x07 then tag.\n"
    )
    config_path = write(root.parent / "config.toml", config)
    return build_app(str(root), "--config", str(config_path))


async def copy_first(pilot: Pilot[Any], app: MemtuiApp, key: str = "y") -> None:
    await wait_loaded(pilot, app)
    await type_query(pilot, app, "deploy")
    await pilot.press("tab", key)


async def test_y_reaches_the_detected_tool_and_says_so(
    tools: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clipboard, "system_tool", DETECT)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    app = copying_app(tmp_path / "memory", "")
    async with app.run_test() as pilot:
        await copy_first(pilot, app)
        await wait_until(pilot, lambda: any("wl-copy" in toast for toast in notices(app)))
    assert "Copied 1 entry · wl-copy" in notices(app)
    handed = (tmp_path / "clip.out").read_text()
    assert handed == app.clipboard  # the same text went to OSC 52
    assert "Deploy checklist" in handed and "␛" in handed and not has_unsafe(handed)


async def test_a_failing_tool_is_a_warning_and_osc52_still_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing = stand_in(tmp_path / "bin", "xclip", FAILING)
    monkeypatch.setenv("PATH", f"{failing.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    app = copying_app(tmp_path / "memory", '[clipboard]\ntool = "xclip"\n')
    async with app.run_test() as pilot:
        await copy_first(pilot, app, "Y")
        await wait_until(pilot, lambda: any("xclip" in toast for toast in notices(app)))
        assert app.is_running
    assert any(
        toast.startswith("Not copied by xclip (exit 1: Error: Can't open display")
        and "OSC 52" in toast
        for toast in notices(app)
    )
    assert app.clipboard.startswith("MEMORY.md:")


async def test_every_route_off_copies_nothing_and_says_so(tools: Path, tmp_path: Path) -> None:
    app = copying_app(tmp_path / "memory", '[clipboard]\ntool = "off"\nosc52 = false\n')
    async with app.run_test() as pilot:
        await copy_first(pilot, app)
        await wait_until(pilot, lambda: any("Nothing copied" in toast for toast in notices(app)))
    assert app.clipboard == ""
    assert not (tmp_path / "clip.out").exists()


def test_in_a_real_terminal_y_reaches_the_stand_in(tools: Path, tmp_path: Path) -> None:
    """The done-when: a terminal that ignores OSC 52, stand-in wl-copy/xclip on PATH."""
    root = tmp_path / "memory"
    write(root / "MEMORY.md", "# Memory\n\n## Deploy checklist\n\nCI green, then tag.\n")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "DISPLAY": ":0",
        "CLIP_OUT": os.environ["CLIP_OUT"],
        "CLIP_LOG": os.environ["CLIP_LOG"],
    }
    argv = [sys.executable, "-m", "memtui", str(root), "--no-watch", "-q", "deploy"]
    terminal = Terminal(argv, env, (110, 30))
    try:
        terminal.read_until(lambda: b"1 match" in terminal.output)
        terminal.settle()
        tabbed = len(terminal.output)
        terminal.press(b"\t")  # to the results, whose footer offers "space Mark"
        terminal.read_until(lambda: b"Mark" in terminal.output[tabbed:])
        copied_at = len(terminal.output)
        terminal.press(b"y")
        terminal.read_until(lambda: b"xclip" in terminal.output[copied_at:])
        terminal.press(CTRL_Q)
        code = terminal.wait_exit()
    finally:
        terminal.close()
    assert code == 0
    assert b"Copied 1 entry" in terminal.output[copied_at:]
    assert "## Deploy checklist" in (tmp_path / "clip.out").read_text()
