"""How much memory a folder holds, cheaply: for choosing a root before loading one.

`memtui roots` and the start screen show, per candidate folder, its Markdown files, its entries
and the day it was last written. Counting uses the store's own scan (`walk.scan_root`, same
skips and limits) and the parser's split without building entries (`parse.count_entries`, the
path the date window uses for the notes it hides), so the count is what a load would show with
every date in the window, at a fraction of the cost. A survey stops reading after
SURVEY_MAX_FILES files and says so.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from msgspec import Struct

from memtui.core.reading.parse import count_entries
from memtui.core.reading.walk import read_text, scan_root

SURVEY_MAX_FILES = 5_000
"""Files read per survey; a larger folder reports a lower bound."""


class Survey(Struct, frozen=True):
    files: int
    """Markdown files found (skipped ones excluded)."""
    entries: int
    """Entries in the files read (every date)."""
    newest: dt.date | None
    """The local day its most recently modified Markdown file was written; None when empty."""
    complete: bool = True
    """False when only the first SURVEY_MAX_FILES files were read (`entries` is a lower bound)."""


def survey(root: Path, only: tuple[str, ...] = ()) -> Survey:
    """Count the files and entries under `root` (or the `only` files and folders in it)
    without building entries; never writes."""
    if not root.is_dir():
        return Survey(0, 0, None)
    found = scan_root(root, only).found
    newest_ns = max((info.st_mtime_ns for info in found.values()), default=None)
    entries = 0
    for path in sorted(found)[:SURVEY_MAX_FILES]:
        loaded = read_text(root, path)
        if not isinstance(loaded, str):
            entries += count_entries(path, loaded[0].text)
    newest = None if newest_ns is None else dt.datetime.fromtimestamp(newest_ns / 1e9).date()
    return Survey(len(found), entries, newest, complete=len(found) <= SURVEY_MAX_FILES)
