"""Where memtui keeps its own files: the XDG base directories, read as the spec says.

`$XDG_CONFIG_HOME`, `$XDG_CACHE_HOME` and `$XDG_STATE_HOME` count only when they hold an
absolute path: the spec calls a relative one invalid, to be ignored, and taken as it is it put
the cache, the history and the choices under whatever folder memtui was started in (a memory
folder, perhaps, where memtui never writes).
"""

from __future__ import annotations

import os
from pathlib import Path


def xdg_set(variable: str) -> Path | None:
    """`$variable` when it holds an absolute path, else None (unset, empty or relative)."""
    value = os.environ.get(variable, "")
    return Path(value) if os.path.isabs(value) else None


def xdg_home(variable: str, *default: str) -> Path:
    """`$variable` when it is an absolute path, else `~/<default…>` (`.cache`, `.local/state`)."""
    return xdg_set(variable) or Path.home().joinpath(*default)


def config_home() -> Path:
    return xdg_home("XDG_CONFIG_HOME", ".config")


def cache_home() -> Path:
    return xdg_home("XDG_CACHE_HOME", ".cache")


def state_home() -> Path:
    return xdg_home("XDG_STATE_HOME", ".local", "state")
