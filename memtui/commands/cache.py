"""`memtui cache`: what the start-up cache holds (which roots, how big); `--clear` removes it.

The cache lives in `$XDG_CACHE_HOME/memtui/` (`~/.cache/memtui/`), one file per memory root and
date window, the MAX_ROOTS most recently used files kept. Removing it is always safe: the next
start reads the memory folders again and writes it anew. Exit code 0.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import Any, TextIO

from memtui.commands.common import dump_json
from memtui.core.cache.folder import CachedRootInfo, CacheFolder
from memtui.core.live.roots import tilde
from memtui.core.plural import plural
from memtui.core.sanitize import one_line, undecodable_bytes_visible


def run_cache(args: argparse.Namespace, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    folder = CacheFolder()
    where = one_line(undecodable_bytes_visible(tilde(folder.folder)), 300)
    if args.clear:
        removed, freed = folder.clear()
        if args.json:
            dump_json(
                {"folder": str(folder.folder), "removed": removed, "freed_bytes": freed}, stream
            )
        else:
            print(
                f"Removed {removed} cache file{'' if removed == 1 else 's'}"
                f" ({human_size(freed)}) from {where}.",
                file=stream,
            )
        return 0
    items = folder.listing()
    leftovers = folder.leftovers()
    total = sum(item.size for item in (*items, *leftovers))
    if args.json:
        dump_json(
            {
                "folder": str(folder.folder),
                "max_roots": folder.keep,
                "unreadable": folder.unreadable(),
                "total_bytes": total,
                "roots": [_row(item) for item in items],
                "unfinished_writes": [
                    {"file": item.file.name, "bytes": item.size} for item in leftovers
                ],
            },
            stream,
        )
        return 0
    roots = len({item.root or item.file for item in items})
    files = f" in {plural(len(items), 'file')}" if len(items) != roots else ""
    print(
        f"memtui cache · {where} · {plural(roots, 'root')}{files} · "
        f"{human_size(total)} (the {folder.keep} most recently used files are kept)",
        file=stream,
    )
    now = dt.datetime.now().timestamp()
    for item in items:
        shown = (
            one_line(undecodable_bytes_visible(tilde(item.root)), 200)
            if item.root
            else (f"(unreadable: {one_line(item.problem or '', 200)})")
        )
        note = (
            f" ({plural(item.entries, 'entry', 'entries')}{_window(item.days)})"
            if item.root
            else ""
        )
        if item.root and item.problem:
            note += f", {one_line(item.problem, 100)}: rebuilt on its next start"
        print(
            f"  {human_size(item.size):>9}  {ago(now - item.used):>12}  {shown}{note}", file=stream
        )
    problem = folder.unreadable()
    if problem:
        print(f"  (the folder cannot be read: {one_line(problem, 100)})", file=stream)
    elif not items:
        print("  (empty: memtui writes it after it has loaded a memory folder)", file=stream)
    for item in leftovers:
        print(
            f"  {human_size(item.size):>9}  {ago(now - item.used):>12}  "
            f"{one_line(item.file.name, 100)}: a write that did not finish (its memtui was "
            "killed); removed on the next start",
            file=stream,
        )
    return 0


def _row(item: CachedRootInfo) -> dict[str, Any]:
    return {
        "root": item.root or None,
        "bytes": item.size,
        "entries": item.entries,
        "days": item.days,
        "last_used": dt.datetime.fromtimestamp(item.used, dt.UTC).isoformat(timespec="seconds"),
        "problem": item.problem,
    }


def _window(days: int | None) -> str:
    """`, all dates` or `, last 30 days`: the date window a file was written for."""
    if days is None:
        return ""
    return ", all dates" if days == 0 else f", last {plural(days, 'day')}"


def human_size(size: int) -> str:
    """`812 bytes`, `4.2 KB`, `37 KB`, `1.4 MB`: never `0.0 MB` for a small cache (decimal
    units, three significant figures at most)."""
    if size < 1000:
        return f"{size} byte{'' if size == 1 else 's'}"
    value, unit = size / 1e9, "GB"
    if size < 999_500:
        value, unit = size / 1e3, "KB"
    elif size < 999_500_000:
        value, unit = size / 1e6, "MB"
    return f"{value:.1f} {unit}" if value < 9.95 else f"{value:.0f} {unit}"


def ago(seconds: float) -> str:
    """`just now`, `5 min ago`, `3 h ago`, `2 days ago`."""
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    days = int(seconds // 86400)
    return f"{days} day{'' if days == 1 else 's'} ago"
