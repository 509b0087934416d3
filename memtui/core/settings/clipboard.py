"""The `[clipboard]` config table: where `y` and `Y` hand the copied text.

```toml
[clipboard]
tool = "auto"   # the system clipboard: "auto" (wl-copy, xclip, xsel, pbcopy or clip.exe,
                # whichever this system has), one of those names, a command given as a list
                # (["tmux", "load-buffer", "-"]: run without a shell, text on its stdin), or "off"
osc52 = true    # also send the text to the terminal (OSC 52); false turns that off
```
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import Struct

TOOLS = ("wl-copy", "xclip", "xsel", "pbcopy", "clip.exe")
"""The system clipboard tools memtui knows how to run (see `ui.clipboard`)."""

MAX_COMMAND_PARTS = 32


class ClipboardSettings(Struct, frozen=True):
    """The `[clipboard]` table: the tool `y` and `Y` copy with, and whether OSC 52 is sent too."""

    tool: str | tuple[str, ...] = "auto"
    """"auto", "off", a name in TOOLS, or a command line (argv) of the user's own."""
    osc52: bool = True
    """Also write the text to the terminal as OSC 52, which many terminals ignore."""


def parse_clipboard(
    table: Any, fail: Callable[[str, str], Exception], warn: Callable[[str], None]
) -> ClipboardSettings:
    """Validate `[clipboard]`; `fail(key, problem)` builds the error, `warn` notes unknown keys."""
    if not isinstance(table, dict):
        raise fail("clipboard", 'expected a table like [clipboard] tool = "auto"')
    settings = ClipboardSettings()
    for key, value in table.items():
        if key == "tool":
            settings = ClipboardSettings(_tool(value, fail), settings.osc52)
        elif key == "osc52":
            if not isinstance(value, bool):
                raise fail("clipboard.osc52", f"expected true or false, got {value!r}")
            settings = ClipboardSettings(settings.tool, value)
        else:
            warn(f"clipboard.{key}: unknown key ignored")
    return settings


def _tool(value: Any, fail: Callable[[str, str], Exception]) -> str | tuple[str, ...]:
    if isinstance(value, str) and value in ("auto", "off", *TOOLS):
        return value
    if (
        isinstance(value, list)
        and 0 < len(value) <= MAX_COMMAND_PARTS
        and all(isinstance(part, str) and part and "\0" not in part for part in value)
    ):
        return tuple(value)
    names = ", ".join(f'"{name}"' for name in TOOLS)
    raise fail(
        "clipboard.tool",
        f'expected "auto", "off", one of {names}, or a command as a list of strings, got {value!r}',
    )
