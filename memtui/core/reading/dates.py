"""When an entry was written: the dating rules, from the file's name down to its first line.

A daily note's day is its filename (headings there only give the time of day: `## 09:14:00 UTC`,
`(20:28 UTC)`, a `- 时间：09:23` line, else the session time in the file name `-1425` or in its
`# Session: … 08:23:00 UTC` title). Elsewhere an entry is dated by a date in its heading, else a
timestamp first line (`_2026-11-02 14:30_`, `* [2025-04-01 17:54:50] …`), else frontmatter
`date`/`created`, else a dated filename. HISTORY.md's bracket lines date their own entries.
Impossible dates are ignored.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import TYPE_CHECKING

from msgspec import Struct

from memtui.core.model import DateOrigin

if TYPE_CHECKING:  # a name only: a warm start loads no frontmatter reader
    from memtui.core.reading.frontmatter import Frontmatter

_DATE_IN_TEXT = re.compile(
    r"(?<!\d)(\d{4})([-./])(\d{2})\2(\d{2})(?!\d)|(\d{4})年(\d{1,2})月(\d{1,2})日"
)
_TIME_IN_TEXT = re.compile(r"(?<![\d:])([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?![\d:])")
_TIMESTAMP_LINE = re.compile(
    r"[\s>*_\-]*\[?(\d{4})-(\d{2})-(\d{2})(?:[ T]([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?)?"
)
_TIME_LINE = re.compile(
    r"\s*(?:[-*+]\s*)?(?:\*\*)?(?:时间|時間|time|Time|TIME)(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*"
    r"([01]?\d|2[0-3]):([0-5]\d)"
)


def days_before(day: dt.date, days: int) -> dt.date:
    """`day` minus `days`, or the first day there is when that reaches before year 1: a
    `--days 100000000` window, or `--today 0001-01-02`, holds every note instead of crashing."""
    if days >= day.toordinal():
        return dt.date.min
    return day - dt.timedelta(days=days)


BRACKET_STAMP = re.compile(
    r"\[(\d{4})-(\d{2})-(\d{2})(?:[ T]([01]?\d|2[0-3]):([0-5]\d))?[^\]\n]*\]?"
)
"""A HISTORY.md line's leading `[YYYY-MM-DD HH:MM …]`: its day, time and the stamp to show."""


@functools.lru_cache(maxsize=1024)
def make_date(year: str, month: str, day: str) -> dt.date | None:
    """Cached: a day recurs across entries, and one shared object per day saves memory."""
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def make_time(hour: str | None, minute: str | None, second: str | None = None) -> dt.time | None:
    if hour is None or minute is None:
        return None
    try:
        return dt.time(int(hour), int(minute), int(second or 0))
    except ValueError:
        return None


def heading_date(text: str) -> dt.date | None:
    """The first real date in a heading: `2026-03-18`, `2026/03/18`, `2026年3月18日` …"""
    for match in _DATE_IN_TEXT.finditer(text):
        groups = match.groups()
        day = make_date(groups[0], groups[2], groups[3]) if groups[0] else make_date(*groups[4:])
        if day:
            return day
    return None


def heading_time(text: str) -> dt.time | None:
    match = _TIME_IN_TEXT.search(text)
    return make_time(*match.groups()) if match else None


def frontmatter_when(frontmatter: Frontmatter) -> tuple[dt.date | None, dt.time | None]:
    """The day and time in frontmatter `date`, `created` or `created_at`, the first one given."""
    for key in ("date", "created", "created_at"):
        value = frontmatter.get(key)
        if value:
            match = _TIMESTAMP_LINE.match(value)
            if match:
                return make_date(*match.groups()[:3]), make_time(*match.groups()[3:])
    return None, None


When = tuple[dt.date | None, dt.time | None, DateOrigin]


class FileDating(Struct):
    """The dating rules applied to one file's entries: what its name, frontmatter and title say."""

    lines: list[str]
    daily: bool
    """A daily note: its filename's day dates every entry."""
    name_date: dt.date | None
    name_time: dt.time | None
    frontmatter_date: dt.date | None
    frontmatter_time: dt.time | None
    title_time: dt.time | None = None
    """Time of day in the file's H1 (`# Session: 2026-11-18 08:23:00 UTC`)."""

    def when(
        self, heading_text: str, bracket: re.Match[str] | None, body_start: int, end: int
    ) -> When:
        """Date, time and where they came from; each source is looked at only when needed.

        `bracket` is the BRACKET_STAMP match of a HISTORY.md entry; the body runs from
        `body_start` to `end` (0-based, inclusive).
        """
        if bracket is not None:
            groups = bracket.groups()
            day = make_date(*groups[:3])
            if day:
                return day, make_time(groups[3], groups[4]), DateOrigin.BRACKET
        time_in_heading = heading_time(heading_text)
        daily_day = self.name_date if self.daily else None
        if daily_day and time_in_heading:
            return daily_day, time_in_heading, DateOrigin.FILENAME
        body_line = self._first_body_line(body_start, end)
        stamp = _TIMESTAMP_LINE.match(body_line) if body_line is not None else None
        line_time = make_time(*stamp.groups()[3:]) if stamp else None
        if daily_day:
            time_of_day = line_time or self._labelled_time(body_start, end) or self.name_time
            return daily_day, time_of_day or self.title_time, DateOrigin.FILENAME
        day_in_heading = heading_date(heading_text)
        if day_in_heading:
            return day_in_heading, time_in_heading or line_time, DateOrigin.HEADING
        if stamp:
            day = make_date(*stamp.groups()[:3])
            if day:
                return day, line_time, DateOrigin.TIMESTAMP_LINE
        if self.frontmatter_date:
            return self.frontmatter_date, self.frontmatter_time, DateOrigin.FRONTMATTER
        if self.name_date:
            return self.name_date, self.name_time, DateOrigin.FILENAME
        return None, None, DateOrigin.NONE

    def _first_body_line(self, body_start: int, end: int) -> str | None:
        for index in range(body_start, min(end, body_start + 5) + 1):
            if self.lines[index].strip():
                return self.lines[index]
        return None

    def _labelled_time(self, body_start: int, end: int) -> dt.time | None:
        for index in range(body_start, min(end, body_start + 6) + 1):
            match = _TIME_LINE.match(self.lines[index])
            if match:
                return make_time(*match.groups())
        return None
