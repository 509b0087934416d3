"""What every entry point needs before it can start: settings, the root, the window and today.

`load_startup` is the one place that turns command-line choices into a frozen `Startup`, so the
TUI, `rank`, `list` and `bench` open memory the same way. Root discovery: `--demo`, else ROOT,
else the current folder when it holds a `MEMORY.md`, `memory.md` or a `memory/` folder, else
`$MEMTUI_DIR`, else the first existing well-known agent workspace. Nothing found leaves `root`
as None and `searched` says where memtui looked.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path

from memtui.core.config import Config, ConfigError, load_config
from memtui.demo import materialise_demo
from memtui.errors import UsageError

WELL_KNOWN_WORKSPACES = (
    "~/.openclaw/workspace",
    "~/.miniclaw/workspace",
    "~/.nanobot/workspace",
)


@dataclass(frozen=True)
class Startup:
    """Resolved settings for one run: read once, never changed."""

    config: Config
    warnings: tuple[str, ...]
    """Config problems that did not stop the run (unknown keys, bad values replaced)."""
    today: dt.date
    days: int
    """Daily notes older than this many days are not loaded (0 = every date)."""
    root: Path | None
    """The memory folder, or None when nothing was found."""
    demo: bool
    searched: tuple[str, ...]
    """Where the root was looked for, when none was given or found (for the message)."""

    def require_root(self) -> Path:
        """The root, or a UsageError that says where memtui looked (headless commands)."""
        if self.root is None:
            places = "; ".join(self.searched)
            raise UsageError(f"no memory folder found (looked in: {places}); pass ROOT or --demo")
        return self.root


def load_startup(
    *,
    root: str | None = None,
    demo: bool = False,
    config_path: str | None = None,
    today: dt.date | None = None,
    days: int | None = None,
) -> Startup:
    """Settings from `config_path` (else the XDG file, else defaults), then root and window."""
    config, warnings = load_settings(config_path)
    effective_today = today if today is not None else dt.date.today()
    found = demo_root(effective_today) if demo else resolve_root(root)
    return Startup(
        config=config,
        warnings=tuple(warnings),
        today=effective_today,
        days=days if days is not None else config.days,
        root=found,
        demo=demo,
        searched=tuple(searched_places()) if found is None else (),
    )


def load_settings(config_path: str | None) -> tuple[Config, list[str]]:
    """The config and its warnings; a config that cannot be used is a UsageError."""
    try:
        return load_config(Path(config_path).expanduser() if config_path else None)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def demo_root(today: dt.date) -> Path:
    """The bundled demo, dated to end on `today`."""
    return materialise_demo(today)


def _holds_memory(folder: Path) -> bool:
    return (
        (folder / "MEMORY.md").is_file()
        or (folder / "memory.md").is_file()
        or (folder / "memory").is_dir()
    )


def searched_places() -> list[str]:
    """Where `resolve_root` looks without a ROOT, in order (for the 'nothing found' screen)."""
    places = [f"{Path.cwd()} (current folder: needs MEMORY.md or memory/)"]
    env = os.environ.get("MEMTUI_DIR")
    places.append(f"$MEMTUI_DIR = {env}" if env else "$MEMTUI_DIR (not set)")
    places.extend(WELL_KNOWN_WORKSPACES)
    return places


def resolve_root(explicit: str | None) -> Path | None:
    """The memory folder to open; a UsageError when an explicit ROOT is not a folder."""
    if explicit:
        root = Path(explicit).expanduser()
        if not root.is_dir():
            problem = "not a folder" if root.exists() else "no such folder"
            raise UsageError(f"{explicit}: {problem}")
        return root
    cwd = Path.cwd()
    if _holds_memory(cwd):
        return cwd
    env = os.environ.get("MEMTUI_DIR")
    if env and Path(env).expanduser().is_dir():
        return Path(env).expanduser()
    for place in WELL_KNOWN_WORKSPACES:
        candidate = Path(place).expanduser()
        if candidate.is_dir():
            return candidate
    return None
