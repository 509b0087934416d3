"""The date window: which daily notes, and which HISTORY.md entries, a store loads.

Daily notes dated before `today - days` are hidden (0 = no window). A daily note is judged by
its file name's date without being read; `HISTORY.md` is one long append-only daily log, so its
entries are judged one by one. Long-term files, notes and undated daily notes always load.
"""

from __future__ import annotations

import datetime as dt

from memtui.core.model import Entry, Source
from memtui.core.reading.dates import days_before
from memtui.core.reading.file_kind import FileKind


def window_cutoff(days: int, today: dt.date) -> dt.date | None:
    """The first day inside a window of `days` before `today`; None for no window (0)."""
    return None if days <= 0 else days_before(today, days)


def file_in_window(kind: FileKind, cutoff: dt.date | None) -> bool:
    return (
        cutoff is None
        or kind.source is not Source.DAILY
        or kind.date is None
        or kind.date >= cutoff
    )


def entry_in_window(entry: Entry, cutoff: dt.date) -> bool:
    return entry.source is not Source.DAILY or entry.date is None or entry.date >= cutoff
