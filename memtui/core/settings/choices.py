"""Which memory a folder opens by the user's choice: the picker's last choice, per folder.

Kept in `$XDG_STATE_HOME/memtui/choices.json` (else `~/.local/state/memtui/choices.json`), never
under a memory root. The file is read as hostile: capped at MAX_FILE_BYTES, anything that is
not the expected shape is ignored, at most MAX_FOLDERS folders are kept (the newest choices).
A root is named by its path and the files it is limited to (`MemoryRoot.only`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from memtui.core.live.roots import MemoryRoot, covering
from memtui.core.reading.small_file import read_small_file
from memtui.core.settings.xdg import state_home

MAX_FOLDERS = 200
MAX_ROOTS = 64
MAX_FILE_BYTES = 512 * 1024
RootKey = tuple[str, tuple[str, ...]]
"""A root as remembered: its absolute path and its `only` files."""


def default_choices_path() -> Path:
    return state_home() / "memtui" / "choices.json"


def root_key(root: MemoryRoot) -> RootKey:
    return os.path.abspath(root.path), tuple(root.only)


def _key(item: object) -> RootKey | None:
    if not isinstance(item, dict):
        return None
    path, only = item.get("path"), item.get("only", [])
    if not isinstance(path, str) or not isinstance(only, list):
        return None
    if not all(isinstance(part, str) for part in only):
        return None
    return path, tuple(only)


def read_choices(path: Path) -> dict[str, list[RootKey]]:
    """Folder -> the roots chosen there, oldest choice first; empty when unreadable."""
    try:  # a FIFO or a device there is refused, not opened (it would block or never end)
        payload = json.loads(read_small_file(path, MAX_FILE_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    folders = payload.get("folders") if isinstance(payload, dict) else None
    if not isinstance(folders, dict):
        return {}
    choices: dict[str, list[RootKey]] = {}
    for folder, roots in list(folders.items())[-MAX_FOLDERS:]:
        if isinstance(roots, list):
            keys = [key for key in map(_key, roots[:MAX_ROOTS]) if key is not None]
            if keys:
                choices[folder] = keys
    return choices


def chosen_in(path: Path, folder: Path) -> list[RootKey]:
    """The roots last chosen in `folder` (empty: no choice remembered)."""
    return read_choices(path).get(os.path.abspath(folder), [])


def remember_choice(
    path: Path, folder: Path, roots: Sequence[MemoryRoot], *, open_roots: Iterable[Path] = ()
) -> bool:
    """Store `roots` as `folder`'s choice (atomically); False when the file would lie under a
    memory root or the write failed."""
    if covering(path, [*open_roots, *(root.path for root in roots)]) is not None:
        return False
    choices = read_choices(path)
    choices.pop(os.path.abspath(folder), None)
    choices[os.path.abspath(folder)] = [root_key(root) for root in roots[:MAX_ROOTS]]
    kept = dict(list(choices.items())[-MAX_FOLDERS:])
    payload = {
        "version": 1,
        "folders": {
            folder: [{"path": key[0], "only": list(key[1])} for key in keys]
            for folder, keys in kept.items()
        },
    }
    import tempfile  # here: only a choice made in the picker writes; it costs a start ~2 ms

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(payload, stream, ensure_ascii=False)
        os.replace(temporary, path)
    except OSError:
        return False
    return True
