"""Bundled demo memory (package data), dated relative to today when it is materialised.

The templates under `workspace/` are the agent workspace of a fictional developer; `web-bank/`
is the Cline memory bank of her web app and `web-app/` its repository (Claude Code's CLAUDE.md
with an `@` import), more roots for `memtui --demo --all`. Every
`{{D-n}}` / `{{D+n}}` in a file name or file text becomes the ISO date `today ∓ n days`, so the
30-day window always shows most of it and hides the oldest notes. The result is written once per
`today` (and template version) into a cache folder — `$XDG_CACHE_HOME/memtui/demo`, else a
per-user temp folder — never inside the installed package, and the folder is returned.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import shutil
import tempfile
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from memtui.core.settings.xdg import xdg_set

_PLACEHOLDER = re.compile(r"\{\{D([+-])(\d{1,4})\}\}")
_TEMPLATE_FOLDER = "workspace"
DEMO_ROOTS = (
    ("demo", _TEMPLATE_FOLDER, ""),
    ("web-bank", "web-bank", "memory-bank"),
    ("web-claudemd", "web-app", "claude-md"),
)
"""(label, template folder, kind) of every demo root; the first is what `--demo` opens. The
web app's repository holds a CLAUDE.md that imports one file, and a README that is not memory."""


def _templates(folder_name: str = _TEMPLATE_FOLDER) -> list[tuple[str, str]]:
    """(relative path, text) of every template file of one demo root, in a stable order."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[str, Traversable]] = [("", resources.files(__name__) / folder_name)]
    while stack:
        prefix, folder = stack.pop()
        for item in folder.iterdir():
            relative = f"{prefix}{item.name}"
            if item.is_dir():
                stack.append((relative + "/", item))
            elif item.name.endswith(".md"):
                found.append((relative, item.read_text(encoding="utf-8")))
    return sorted(found)


def fill_dates(text: str, today: dt.date) -> str:
    """Replace `{{D-n}}` / `{{D+n}}` with ISO dates relative to `today`."""

    def shifted(match: re.Match[str]) -> str:
        days = int(match.group(2))
        offset = dt.timedelta(days=days if match.group(1) == "+" else -days)
        return (today + offset).isoformat()

    return _PLACEHOLDER.sub(shifted, text)


def _cache_base() -> Path:
    xdg = xdg_set("XDG_CACHE_HOME")
    if xdg is not None:
        return xdg / "memtui" / "demo"
    user = getattr(os, "getuid", lambda: 0)()
    return Path(tempfile.gettempdir()) / f"memtui-demo-{user}"


def materialise_demo(today: dt.date, folder_name: str = _TEMPLATE_FOLDER) -> Path:
    """Write one demo root for `today` into the cache (once) and return its folder."""
    templates = _templates(folder_name)
    digest = hashlib.sha256()
    for relative, text in templates:
        digest.update(relative.encode() + b"\0" + text.encode() + b"\0")
    base = _cache_base()
    base.mkdir(parents=True, exist_ok=True, mode=0o700)
    if hasattr(os, "getuid") and base.stat().st_uid != os.getuid():
        base = Path(tempfile.mkdtemp(prefix="memtui-demo-"))  # someone else's folder: never trust
    suffix = "" if folder_name == _TEMPLATE_FOLDER else f"-{folder_name}"
    target = base / f"{today.isoformat()}-{digest.hexdigest()[:12]}{suffix}"
    if target.is_dir():
        return target
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=base))
    try:
        for relative, text in templates:
            destination = staging / fill_dates(relative, today)
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_text(fill_dates(text, today), encoding="utf-8")
        try:
            staging.rename(target)
        except OSError:
            if not target.is_dir():
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target


def materialise_demo_roots(today: dt.date) -> list[tuple[str, Path, str]]:
    """(label, folder, kind) of every demo root for `today`, the workspace first."""
    return [(label, materialise_demo(today, folder), kind) for label, folder, kind in DEMO_ROOTS]
