"""The memory folders one engine has open: a path and a short, unique label each.

With one root nothing changes: entries keep an empty `Entry.root`, so their ids, paths and
JSON are what they always were. With several, every entry carries its root's label, which
also prefixes its `qualified_path` (`label/relative/path.md`) and its id, so two roots that
both hold `MEMORY.md` stay two files with distinct entries. A label is what the results list
shows and what `root:` matches besides the path, so it is short and holds no `/`, `:`,
quote or space (it must be typable as a filter value and must not fake a path separator).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from msgspec import Struct

MAX_LABEL_CHARS = 24
_NOT_IN_LABEL = re.compile(r"[\s/\\:\"'\x00-\x1f\x7f-\x9f]+")
_GENERIC_NAMES = frozenset({"memory", "memory-bank", "workspace", ".claude", "memories", ""})
"""Folder names that say nothing about whose memory it is: the label uses the parent's name."""


class MemoryRoot(Struct, frozen=True):
    """One open memory folder, or a set of memory files inside one."""

    label: str
    path: Path
    only: tuple[str, ...] = ()
    """Root-relative files or folders this root is limited to; empty: the whole folder. A
    repository's memory is its memory files, never its README, docs or source."""
    kind: str = ""
    """Whose layout it is, when discovery found it (`core.places.table.PLACES`): it says what
    the agent loads at session start (`core.places.loads`); '' for a folder given by hand."""


def clean_label(text: str) -> str:
    """`text` made into a label: no separators, quotes, spaces or controls; short; not empty."""
    cleaned = _NOT_IN_LABEL.sub("-", text).strip("-.") or "root"
    return cleaned[:MAX_LABEL_CHARS]


def folder_label(path: Path) -> str:
    """A label for a folder with no better name: its own name, or its parent's when its own is
    generic (`~/proj/memory-bank` -> `proj`, `~/.openclaw/workspace` -> `openclaw`)."""
    parts = [part for part in Path(os.path.abspath(path)).parts if part not in ("/", "")]
    for part in reversed(parts):
        if part not in _GENERIC_NAMES:
            return clean_label(part.lstrip("."))
    return "root"


def distinct_labels(labels: Sequence[str]) -> list[str]:
    """The labels made unique in order: a repeated `proj` becomes `proj-2`, `proj-3` …"""
    seen: set[str] = set()
    result: list[str] = []
    for label in labels:
        base = clean_label(label)
        candidate, number = base, 1
        while candidate in seen:
            number += 1
            suffix = f"-{number}"
            candidate = base[: MAX_LABEL_CHARS - len(suffix)] + suffix
        seen.add(candidate)
        result.append(candidate)
    return result


def make_roots(named: Iterable[tuple[str, Path]]) -> tuple[MemoryRoot, ...]:
    """Roots from (preferred label, path) pairs: labels made unique, order kept."""
    pairs = list(named)
    labels = distinct_labels([label for label, _ in pairs])
    return tuple(MemoryRoot(label, path) for label, (_, path) in zip(labels, pairs, strict=True))


def covering(path: Path, others: Iterable[Path]) -> Path | None:
    """The first of `others` that is `path` or holds it (by real path), or None.

    Opening a folder and a folder inside it would load the inner files twice.
    """
    real = os.path.realpath(path)
    for other in others:
        outer = os.path.realpath(other)
        if real == outer or real.startswith(outer.rstrip(os.sep) + os.sep):
            return other
    return None


def scopes(root: MemoryRoot) -> list[Path]:
    """The files and folders `root` loads from: its `only` entries, or its whole folder."""
    return [root.path / part for part in root.only] if root.only else [root.path]


def covers(outer: MemoryRoot, inner: MemoryRoot) -> bool:
    """Whether opening `outer` already loads everything `inner` would (by real path)."""
    held = scopes(outer)
    return all(covering(scope, held) is not None for scope in scopes(inner))


def watches_subfolders(root: MemoryRoot) -> bool:
    """Whether watching `root` needs its subfolders: not for a few files at its top (a
    `CLAUDE.md` in the home folder must not make memtui watch the whole home folder)."""
    return not root.only or any("/" in part or (root.path / part).is_dir() for part in root.only)


def match_targets(root: MemoryRoot) -> tuple[str, ...]:
    """What a `root:` glob is matched against, casefolded: the label, the absolute path and
    the path with `~` for the home folder (so `root:~/work/*` works)."""
    absolute = os.path.abspath(root.path)
    home = os.path.expanduser("~")
    targets = [root.label, absolute]
    if home not in ("", "/") and absolute.startswith(home.rstrip("/") + "/"):
        targets.append("~" + absolute[len(home.rstrip("/")) :])
    return tuple(target.casefold() for target in targets)


def tilde(path: Path | str) -> str:
    """`path` with the home folder written `~` (for showing, never for opening)."""
    home = str(Path.home())
    text = str(path)
    if home not in ("", "/") and (text == home or text.startswith(home.rstrip("/") + "/")):
        return "~" + text[len(home.rstrip("/")) :]
    return text


def shown_root(path: Path, only: tuple[str, ...]) -> str:
    """A root as `memtui roots` names it: its folder, and the files of a set of files (two
    roots may share a folder: a workspace, and the CLAUDE.md set beside it)."""
    files = f" ({', '.join(only)})" if only else ""
    return tilde(path) + files


def engine_roots(root: Path | Sequence[MemoryRoot]) -> tuple[MemoryRoot, ...]:
    """An engine's roots: one folder (labelled by its name), or roots with distinct labels."""
    if isinstance(root, Path):
        return (MemoryRoot(folder_label(root), root),)
    roots = tuple(root)
    labels = [item.label for item in roots]
    if not roots or len(set(labels)) != len(labels):
        raise ValueError(f"an engine needs one or more roots with distinct labels, got {labels}")
    return roots
