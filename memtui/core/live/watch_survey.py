"""Which folders under a root can be watched, found before each watch session.

One folder that cannot be listed (`chmod 000`) stops the native watcher's recursive walk part
way, silently: changes in the folders it never reached are never reported, even with
`ignore_permission_denied`. So before watching, the watcher walks the folders itself, the way
the store scans them (symlinked and ignored folders are not entered, at most MAX_DEPTH levels),
and when one cannot be listed it watches every listable folder on its own instead, and checks
the others at an interval until they can be read.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from msgspec import Struct

from memtui.core.reading.walk import IGNORED_FOLDERS, MAX_DEPTH


def folder_problem(folder: Path) -> str | None:
    """Why `folder` cannot be listed (for the warnings view), or None when it can."""
    try:
        with os.scandir(folder):
            pass
    except PermissionError:
        return "permission denied"
    except FileNotFoundError:
        return None  # gone: the next change or survey says so
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


class Survey(Struct, frozen=True):
    """The folders under a root: those that can be watched, and those that cannot (why)."""

    listable: tuple[Path, ...]
    unlistable: tuple[tuple[Path, str], ...]


def survey_folders(
    root: Path, problem: Callable[[Path], str | None] = folder_problem, deep: bool = True
) -> Survey:
    """Walk the root's folders with an explicit stack, sorting out those that cannot be listed;
    not `deep`: the root alone."""
    listable: list[Path] = []
    unlistable: list[tuple[Path, str]] = []
    stack = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        why = problem(folder)
        if why is not None:
            unlistable.append((folder, why))
            continue
        try:
            with os.scandir(folder) as iterator:
                items = list(iterator)
        except OSError as exc:  # changed between the two looks
            unlistable.append((folder, exc.strerror or str(exc)))
            continue
        listable.append(folder)
        for item in items if deep else ():
            try:
                is_folder = stat.S_ISDIR(item.stat(follow_symlinks=False).st_mode)
            except OSError:
                continue
            if is_folder and item.name not in IGNORED_FOLDERS and depth < MAX_DEPTH:
                stack.append((Path(item.path), depth + 1))
    return Survey(tuple(sorted(listable)), tuple(sorted(unlistable)))
