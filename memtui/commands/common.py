"""What every entry point needs before it can start: settings, the root, the window and today.

`resolve_root` follows DESIGN §1: `--demo`, else ROOT, else the current folder when it holds a
`MEMORY.md` or a `memory/` folder, else `$MEMTUI_DIR`, else the first existing well-known agent
workspace. `None` means nothing was found; the caller explains, using `searched_places()`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from memtui.cli import UsageError
from memtui.core.config import Config, ConfigError, load_config
from memtui.core.secrets import mask_secrets

_JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]"
)
"""Characters json.dumps(ensure_ascii=False) leaves raw but a terminal must never receive."""

WELL_KNOWN_WORKSPACES = (
    "~/.openclaw/workspace",
    "~/.miniclaw/workspace",
    "~/.nanobot/workspace",
)


def load_settings(args: argparse.Namespace) -> tuple[Config, list[str]]:
    """The config from `--config`, else the XDG file, else defaults, plus its warnings."""
    explicit = getattr(args, "config", None)
    try:
        return load_config(Path(explicit).expanduser() if explicit else None)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def effective_today(args: argparse.Namespace) -> dt.date:
    today = getattr(args, "today", None)
    return today if isinstance(today, dt.date) else dt.date.today()


def effective_days(args: argparse.Namespace, config: Config) -> int:
    days = getattr(args, "days", None)
    return days if isinstance(days, int) else config.days


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


def resolve_root(args: argparse.Namespace, today: dt.date) -> Path | None:
    """The memory folder to open; raises UsageError when an explicit ROOT is not a folder."""
    if getattr(args, "demo", False):
        from memtui.demo import materialise_demo

        return materialise_demo(today)
    explicit = getattr(args, "root", None)
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


def require_root(args: argparse.Namespace, today: dt.date) -> Path:
    """`resolve_root`, or a UsageError that says where memtui looked (headless commands)."""
    root = resolve_root(args, today)
    if root is None:
        places = "; ".join(searched_places())
        raise UsageError(f"no memory folder found (looked in: {places}); pass ROOT or --demo")
    return root


def secret_masker(args: argparse.Namespace, config: Config) -> Callable[[str], str]:
    """What printed file text goes through: masked unless --reveal-secrets or config says no."""
    if getattr(args, "reveal_secrets", False) or not config.mask_secrets:
        return lambda text: text
    return lambda text: mask_secrets(text)[0]


def dump_json(payload: Any, stream: TextIO) -> None:
    """Write JSON that keeps CJK readable but escapes DEL, C1 and bidi controls as `\\uXXXX`.

    Those characters can only occur inside JSON strings, so escaping them keeps the same value.
    """
    text = json.dumps(payload, ensure_ascii=False, indent=2)
    stream.write(_JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text))
    stream.write("\n")
