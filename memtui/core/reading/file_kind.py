"""What a memory file is, from its path alone: long-term, a daily note or a note, and its date.

Any `MEMORY.md`/`memory.md` is long-term (Claude Code keeps it in `.claude/memory/`, templates in
sub-folders). Daily notes are named by day — `YYYY-MM-DD[-slug]`, `YYYY_MM_DD[_slug]`, `YYYYMMDD`
(picoclaw's `YYYYMM/YYYYMMDD.md`) — anywhere under the root; `HISTORY.md` is daily too. Everything
else is a note, whose *role* is its file stem (`activeContext`, `shared`, `build` …). A Basic
Memory note named `2026-04-17 - some title.md` is a *dated note*, not a daily note: it is a
curated topic the user expects to keep seeing, so it gets the filename date but is never hidden
by the window.
"""

from __future__ import annotations

import datetime as dt
import re

from msgspec import Struct

from memtui.core.model import Source
from memtui.core.reading.dates import make_date, make_time

MARKDOWN_SUFFIXES = (".md", ".markdown")

_DAILY_DASH = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[-_.](.*))?", re.DOTALL)
_DAILY_UNDERSCORE = re.compile(r"(\d{4})_(\d{2})_(\d{2})(?:[_-](.*))?", re.DOTALL)
_DAILY_COMPACT = re.compile(r"(\d{4})(\d{2})(\d{2})")
_DATED_NOTE = re.compile(r"(\d{4})-(\d{2})-(\d{2})\s")
_HHMM = re.compile(r"([01]\d|2[0-3])([0-5]\d)")


class FileKind(Struct, frozen=True):
    """What a file's path alone says: source, role, filename date/time, history layout."""

    source: Source
    role: str | None = None
    date: dt.date | None = None
    time: dt.time | None = None
    history: bool = False
    warning: str | None = None
    """Why the name looks dated but gives no date (e.g. `2026-02-30.md`), for every entry."""


def is_markdown(name: str) -> bool:
    return name.lower().endswith(MARKDOWN_SUFFIXES)


def stem(name: str) -> str:
    """The file name without its Markdown suffix (any case)."""
    lower = name.lower()
    for suffix in MARKDOWN_SUFFIXES:
        if lower.endswith(suffix):
            return name[: -len(suffix)]
    return name


def classify(rel_path: str) -> FileKind:
    """Source, role and filename date of a file, from its relative path only."""
    name_stem = stem(rel_path.rsplit("/", 1)[-1])
    lowered = name_stem.lower()
    if lowered == "memory":
        return FileKind(Source.LONG_TERM)
    if lowered == "history":
        return FileKind(Source.DAILY, history=True)
    for pattern in (_DAILY_DASH, _DAILY_UNDERSCORE, _DAILY_COMPACT):
        match = pattern.fullmatch(name_stem)
        if match:
            groups = match.groups()
            slug = groups[3] if len(groups) > 3 else None
            time_match = _HHMM.fullmatch(slug) if slug else None
            file_time = make_time(*time_match.groups()) if time_match else None
            date = make_date(*groups[:3])
            return FileKind(
                Source.DAILY,
                date=date,
                time=file_time,
                warning=None if date else _impossible_date(*groups[:3]),
            )
    dated = _DATED_NOTE.match(name_stem)
    if dated:
        date = make_date(*dated.groups())
        return FileKind(
            Source.NOTE,
            role=name_stem,
            date=date,
            warning=None if date else _impossible_date(*dated.groups()),
        )
    return FileKind(Source.NOTE, role=name_stem)


def _impossible_date(year: str, month: str, day: str) -> str:
    return f"the file name's date {year}-{month}-{day} is not a real day; entries are undated"
