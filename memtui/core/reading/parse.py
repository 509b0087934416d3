"""Decoded text of one memory file -> its entries, exactly as a user reads their own memory.

One Markdown-aware routine serves every layout (the README section "Memory layouts it reads"
lists them). Decisions:

* **Source.** Any `MEMORY.md`/`memory.md` is long-term (Claude Code keeps it in `.claude/memory/`,
  templates in sub-folders). Daily notes are named by day — `YYYY-MM-DD[-slug]`,
  `YYYY_MM_DD[_slug]`, `YYYYMMDD` (picoclaw's `YYYYMM/YYYYMMDD.md`) — anywhere under the root;
  `HISTORY.md` is daily too. Everything else is a note. A Basic Memory note named
  `2026-04-17 - some title.md` is a *dated note*, not a daily note: it is a curated topic the user
  expects to keep seeing, so it gets the filename date but is never hidden by the window.
* **Role** is the file stem of notes (`activeContext`, `shared`, `build` …), None otherwise.
* **Structure.** ATX headings outside fenced code split the file (`\\##`, `#tag` and `#` lines
  inside fences are not headings; closing `#`s are trimmed). The first heading is the file's
  *title* when it is an H1 on the first content line; it is not an entry. The split level is the
  shallowest heading level after the title, ignoring later H1s — so an H1 pasted mid-file (LLM
  output in a transcript) starts a new entry without swallowing the H2 sections around it.
  Deeper headings stay inside their entry; `heading_path` keeps the whole chain.
* **Text before the first split heading** (the preamble) becomes an entry when it has content,
  titled by the file title. A file without split headings is one entry — or, for daily notes,
  one entry per `---`-separated block; `HISTORY.md` (or a heading-less file that opens with a
  `[YYYY-MM-DD …]` line) gives one entry per line-leading bracket timestamp. A bracket in the
  middle of a line stays in the entry it is in, so entries never share a line.
* **Repeating cycles.** When the first section's heading recurs and other headings recur with
  it (Roo's `## Decision` / `## Rationale` / `## Implementation Details` logs), each cycle is one
  entry titled by its first heading and first line (`Decision — Use Postgres`). Other headings
  repeated within a file get the same ` — first line` suffix so results can be told apart.
* **Huge sections.** A section longer than 150 lines that has sub-headings is split at its
  shallowest sub-heading level (its intro stays an entry): a 400-line `## Implementation Details`
  holding sixteen `### Decision` logs is sixteen things to find, not one.
* **Ranges.** Each entry runs from its heading to the line before the next split heading, minus
  trailing blank lines and `---` rules. Ranges are 1-based, inclusive, in the original file.
* **Dates.** A daily note's day is its filename (headings there only give the time of day:
  `## 09:14:00 UTC`, `(20:28 UTC)`, a `- 时间：09:23` line, else the session time in the file
  name `-1425` or in its `# Session: … 08:23:00 UTC` title). Elsewhere an entry is dated by a date
  in its heading, else a timestamp first line (`_2026-11-02 14:30_`, `* [2025-04-01 17:54:50] …`),
  else frontmatter `date`/`created`, else a dated filename. Impossible dates are ignored.
* **Limits.** Headings are capped at 300 characters and a file at 5,000 entries (the rest is
  folded into the last one, with a warning). All display text passes through `sanitize.visible`.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field

from memtui.core.model import DateOrigin, Entry, Source
from memtui.core.reading.frontmatter import Frontmatter, read_frontmatter
from memtui.core.sanitize import visible

MAX_SECTIONS = 5000
MAX_HEADING_CHARS = 300
MAX_DERIVED_TITLE_CHARS = 80
LARGE_SECTION_LINES = 150
MARKDOWN_SUFFIXES = (".md", ".markdown")

_STRUCTURE = re.compile(  # matched against "\n" + text: a literal first char is fast to find
    r"\n(?:"
    r"(?P<heading> {0,3}(?P<hashes>#{1,6})(?P<heading_text>(?:[ \t][^\n]*)?))"
    r"|(?P<fence>[ \t]*(?:`{3,}|~{3,})[^\n]*)"
    r"|(?P<rule> {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}))"
    r"|(?P<bracket>\[\d{4}-\d{2}-\d{2}[^\n]*)"
    r")(?=\n|\Z)"
)
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_FENCE_OPEN = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)")
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
_BRACKET = re.compile(r"\[(\d{4})-(\d{2})-(\d{2})(?:[ T]([01]?\d|2[0-3]):([0-5]\d))?[^\]\n]*\]?")
_TITLE_MARKERS = re.compile(r"^(?:[#>\\\s]|[-*+](?=\s)|\d+[.)]\s)+")
"""Block markers before a derived title: headings, quotes, bullets, numbers, escapes."""
_EMPHASIS = re.compile(
    r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])"
    r"|(?<![_\w])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![_\w])"
)
"""Bold and italic pairs, unwrapped in a derived title (`**SEALED** — …` → `SEALED — …`).
Backticks stay: `code` is shown as code."""
_CODE_SPAN = re.compile(r"(`+[^`]*`+)")
_RULE_LINE = re.compile(r" {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})")
TABLE_DELIMITER = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*")
"""A Markdown table's delimiter row (`|---|:--:|`); the UI's renderer uses it too, so what is a
table for a title is a table on screen."""
_DAILY_DASH = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[-_.]([\w.-]*))?")
_DAILY_UNDERSCORE = re.compile(r"(\d{4})_(\d{2})_(\d{2})(?:[_-]([\w.-]*))?")
_DAILY_COMPACT = re.compile(r"(\d{4})(\d{2})(\d{2})")
_DATED_NOTE = re.compile(r"(\d{4})-(\d{2})-(\d{2})\s")
_HHMM = re.compile(r"([01]\d|2[0-3])([0-5]\d)")
_CYCLE_STAMP = re.compile(
    r"^\[?\d{4}-\d{2}-\d{2}[^\]\s]*(?:\s\d{1,2}:\d{2}(?::\d{2})?)?\]?\s*[-–—:]?\s*"
)


@dataclass(frozen=True, slots=True)
class FileKind:
    """What a file's path alone says: source, role, filename date/time, history layout."""

    source: Source
    role: str | None = None
    date: dt.date | None = None
    time: dt.time | None = None
    history: bool = False
    warning: str | None = None
    """Why the name looks dated but gives no date (e.g. `2026-02-30.md`), for every entry."""


_ASCII_CONTROLS = tuple(chr(code) for code in (*range(0x09), *range(0x0B, 0x20), 0x7F))
"""Every ASCII character `visible` rewrites (newline and tab are kept)."""


def _display_safe(text: str) -> str:
    """`visible(text)`, without its regex scan when the text is ASCII with no control character.

    That is the usual file, and a few `str.__contains__` scans are ~10× cheaper than the regex.
    """
    if text.isascii() and not any(control in text for control in _ASCII_CONTROLS):
        return text
    return visible(text)


def is_markdown(name: str) -> bool:
    return name.lower().endswith(MARKDOWN_SUFFIXES)


def _stem(name: str) -> str:
    lower = name.lower()
    for suffix in MARKDOWN_SUFFIXES:
        if lower.endswith(suffix):
            return name[: -len(suffix)]
    return name


@functools.lru_cache(maxsize=1024)
def _make_date(year: str, month: str, day: str) -> dt.date | None:
    """Cached: a day recurs across entries, and one shared object per day saves memory."""
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def _make_time(hour: str | None, minute: str | None, second: str | None = None) -> dt.time | None:
    if hour is None or minute is None:
        return None
    try:
        return dt.time(int(hour), int(minute), int(second or 0))
    except ValueError:
        return None


def classify(rel_path: str) -> FileKind:
    """Source, role and filename date of a file, from its relative path only."""
    name = rel_path.rsplit("/", 1)[-1]
    stem = _stem(name)
    lowered = stem.lower()
    if lowered == "memory":
        return FileKind(Source.LONG_TERM)
    if lowered == "history":
        return FileKind(Source.DAILY, history=True)
    for pattern in (_DAILY_DASH, _DAILY_UNDERSCORE, _DAILY_COMPACT):
        match = pattern.fullmatch(stem)
        if match:
            groups = match.groups()
            slug = groups[3] if len(groups) > 3 else None
            time_match = _HHMM.fullmatch(slug) if slug else None
            file_time = _make_time(*time_match.groups()) if time_match else None
            date = _make_date(*groups[:3])
            return FileKind(
                Source.DAILY,
                date=date,
                time=file_time,
                warning=None if date else _impossible_date(*groups[:3]),
            )
    dated = _DATED_NOTE.match(stem)
    if dated:
        date = _make_date(*dated.groups())
        return FileKind(
            Source.NOTE,
            role=stem,
            date=date,
            warning=None if date else _impossible_date(*dated.groups()),
        )
    return FileKind(Source.NOTE, role=stem)


def _impossible_date(year: str, month: str, day: str) -> str:
    return f"the file name's date {year}-{month}-{day} is not a real day; entries are undated"


def entry_id(path: str, heading_path: tuple[str, ...], occurrence: int) -> str:
    """Stable id: same path, heading path and occurrence of that heading path -> same id."""
    parts = (path, str(len(heading_path)), "\x1f".join(heading_path), str(occurrence))
    key = "\x00".join(parts)
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


@dataclass(slots=True)
class _Heading:
    line: int
    """0-based line index."""
    level: int
    text: str


@dataclass(slots=True)
class _Segment:
    """One future entry, in 0-based inclusive line indices."""

    start: int
    body_start: int
    end: int
    heading_path: tuple[str, ...]
    title: str
    heading: _Heading | None = None
    bracket: re.Match[str] | None = None
    grouped: bool = False
    warnings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Structure:
    headings: list[_Heading]
    rules: set[int]
    brackets: list[int]


def _heading_text(raw: str) -> str:
    text = raw.strip()
    if "#" in text:  # closing hashes are rare: skip the regex otherwise
        text = _CLOSING_HASHES.sub("", text).strip()
    if len(text) > MAX_HEADING_CHARS:
        text = text[: MAX_HEADING_CHARS - 1] + "…"
    return text


def _scan(text: str, first_line: int) -> _Structure:
    """One regex pass: headings, rules and bracket lines outside fenced code."""
    headings: list[_Heading] = []
    rules: set[int] = set()
    brackets: list[int] = []
    fence_char = ""
    fence_len = 0
    line = 0
    last = 0
    count = text.count
    for match in _STRUCTURE.finditer("\n" + text):
        position = match.start()  # == the line's start offset in `text`
        line += count("\n", last, position)
        last = position
        if line < first_line:
            continue
        kind = match.lastgroup
        value = match.group(kind or 0)
        if fence_char:
            stripped = value.strip()
            if (
                kind == "fence"
                and stripped[0] == fence_char
                and len(stripped) >= fence_len
                and stripped == fence_char * len(stripped)
            ):
                fence_char = ""
            continue
        if kind == "fence":
            opened = _FENCE_OPEN.match(value)
            if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
                fence_char = opened.group(1)[0]
                fence_len = len(opened.group(1))
        elif kind == "heading":
            level = len(match.group("hashes"))
            headings.append(_Heading(line, level, _heading_text(match.group("heading_text"))))
        elif kind == "rule":
            rules.add(line)
        elif kind == "bracket":
            brackets.append(line)
    return _Structure(headings, rules, brackets)


def _is_blank(line: str) -> bool:
    return not line.strip()


def _clean_title(line: str) -> str:
    """A line as a title: block markers dropped, bold and italic unwrapped, stray `*`/`_`
    at the ends trimmed (backticks kept, for the UI to show as code)."""
    pieces = _CODE_SPAN.split(_TITLE_MARKERS.sub("", line))
    unwrapped = "".join(  # odd pieces are code spans, left as they are
        piece if index % 2 else _EMPHASIS.sub(lambda m: m[2] or m[3] or m[4], piece)
        for index, piece in enumerate(pieces)
    )
    return unwrapped.strip().strip("*_").strip()


def _is_table_line(lines: list[str], index: int, end: int) -> bool:
    """A Markdown table's row or delimiter (`| a | b |`, `|---|:--|`, or a header row without
    outer pipes that a delimiter row follows)."""
    line = lines[index]
    if "|" not in line and "-" not in line:
        return False
    stripped = line.strip()
    if stripped.startswith("|") or ("|" in stripped and TABLE_DELIMITER.fullmatch(stripped)):
        return True
    following = lines[index + 1] if index < end else ""
    return "|" in stripped and "|" in following and bool(TABLE_DELIMITER.fullmatch(following))


def _derived_title(lines: list[str], start: int, end: int) -> str:
    """A title for a heading-less block: its first line of prose, without Markdown markers.

    Never a table row, a rule, a code fence or the code inside one: those say nothing as a
    title (`Verdict — | | |`), so the first prose words after them are used instead.
    """
    fenced = table = False
    for index in range(start, min(end, start + 50) + 1):
        line = lines[index]
        if _FENCE_OPEN.fullmatch(line):
            fenced = not fenced
            continue
        table = ("|" in line and table) or _is_table_line(lines, index, end)
        if fenced or table or _RULE_LINE.fullmatch(line):
            continue
        cleaned = _clean_title(line)
        if cleaned:
            if len(cleaned) > MAX_DERIVED_TITLE_CHARS:
                cleaned = cleaned[: MAX_DERIVED_TITLE_CHARS - 1] + "…"
            return cleaned
    return ""


class _FileParser:
    """Parses one file; holds the shared state so helpers stay small."""

    def __init__(self, rel_path: str, text: str, warnings: tuple[str, ...], root: str = "") -> None:
        self.path = rel_path
        self.root = root
        self.kind = classify(rel_path)
        text = _display_safe(text)  # every line-derived string is display-safe, lines kept
        self.lines = text.split("\n")
        if text.endswith("\n"):
            self.lines.pop()
        self.text = text
        self.file_warnings = warnings
        self.frontmatter: Frontmatter = read_frontmatter(self.lines)
        self.file_date, self.file_time = self._frontmatter_when()
        self.title_time: dt.time | None = None
        """Time of day in the file's H1 (`# Session: 2026-11-18 08:23:00 UTC`)."""

    def _frontmatter_when(self) -> tuple[dt.date | None, dt.time | None]:
        for key in ("date", "created", "created_at"):
            value = self.frontmatter.get(key)
            if value:
                match = _TIMESTAMP_LINE.match(value)
                if match:
                    return _make_date(*match.groups()[:3]), _make_time(*match.groups()[3:])
        return None, None

    # The three helpers below inline "a rule or a blank line" (`i in rules or not
    # lines[i].strip()`): they run for every section of every file.

    def _has_content(self, start: int, end: int, rules: set[int]) -> bool:
        lines = self.lines
        return any(i not in rules and lines[i].strip() for i in range(start, end + 1))

    def _trim_end(self, start: int, end: int, rules: set[int]) -> int:
        lines = self.lines
        while end > start and (end in rules or not lines[end].strip()):
            end -= 1
        return end

    def _skip_blank(self, start: int, end: int, rules: set[int]) -> int:
        lines = self.lines
        while start < end and (start in rules or not lines[start].strip()):
            start += 1
        return start

    def _fallback_title(self) -> str:
        return (
            self.frontmatter.get("title")
            or self.frontmatter.get("name")
            or _stem(self.path.rsplit("/", 1)[-1])
        )

    def parse(self) -> list[Entry]:
        return self._entries(self.segments())

    def segments(self) -> list[_Segment]:
        """The file's future entries as line ranges (the costly per-entry work is not done)."""
        lines = self.lines
        body_first = self.frontmatter.body_start
        last = len(lines) - 1
        structure = _scan(self.text, body_first)
        headings = structure.headings
        rules = structure.rules
        first_content = next(
            (i for i in range(body_first, len(lines)) if not _is_blank(lines[i])), None
        )
        if first_content is None:
            return []
        title: _Heading | None = None
        if headings and headings[0].level == 1 and headings[0].line == first_content:
            title = headings[0]
            self.title_time = self._heading_time(title.text)
        rest = headings[1:] if title else headings
        splitters: list[_Heading] = []
        if rest:
            deeper = [h.level for h in rest if h.level > 1]
            split_level = min(deeper) if title and deeper else min(h.level for h in rest)
            splitters = [h for h in rest if h.level <= split_level]

        segments: list[_Segment] = []
        region_start = title.line + 1 if title else body_first
        region_end = splitters[0].line - 1 if splitters else last
        title_path = (title.text,) if title else ()
        if splitters:
            if self._has_content(region_start, region_end, rules):
                segments.append(self._preamble(title, region_start, region_end, rules))
            for section in self._group_cycles(self._sections(headings, splitters, last, rules)):
                if section.grouped:
                    segments.append(section)
                else:
                    segments.extend(self._refine(section, headings, rules))
        elif self.kind.history or self._opens_with_bracket(structure, region_start, rules):
            segments.extend(self._history(structure, title, region_start, last, rules))
        elif self.kind.source is Source.DAILY and any(r >= region_start for r in rules):
            segments.extend(self._blocks(title_path, region_start, last, rules))
        elif self._has_content(region_start, last, rules) or title:
            segments.append(self._preamble(title, region_start, last, rules))
        self._distinguish_duplicates(segments)
        return self._fold(segments)

    def _opens_with_bracket(self, structure: _Structure, start: int, rules: set[int]) -> bool:
        first = self._skip_blank(start, len(self.lines) - 1, rules)
        return bool(structure.brackets) and structure.brackets[0] == first

    def _preamble(self, title: _Heading | None, start: int, end: int, rules: set[int]) -> _Segment:
        end = self._trim_end(start, end, rules) if end >= start else end
        if title:
            end = max(end, title.line)
            return _Segment(title.line, start, end, (title.text,), title.text, title)
        start = self._skip_blank(start, end, rules)
        derived = self._fallback_title() if self.frontmatter.fields else ""
        name = derived or _derived_title(self.lines, start, end) or self._fallback_title()
        return _Segment(start, start, end, (), name)

    def _sections(
        self, headings: list[_Heading], splitters: list[_Heading], last: int, rules: set[int]
    ) -> list[_Segment]:
        segments: list[_Segment] = []
        chain: list[_Heading] = []
        split_index = 0
        for heading in headings:
            while chain and chain[-1].level >= heading.level:
                chain.pop()
            chain.append(heading)
            if split_index < len(splitters) and heading is splitters[split_index]:
                split_index += 1
                following = splitters[split_index] if split_index < len(splitters) else None
                next_line = following.line - 1 if following else last
                end = self._trim_end(heading.line, next_line, rules)
                path = tuple([h.text for h in chain])
                segments.append(
                    _Segment(heading.line, heading.line + 1, end, path, heading.text, heading)
                )
        return segments

    def _group_cycles(self, sections: list[_Segment]) -> list[_Segment]:
        """Roo-style logs repeat `## Decision` / `## Rationale` / … : one entry per cycle."""
        if len(sections) < 4:
            return sections
        lead = sections[0].title
        counts = Counter(section.title for section in sections)
        if counts[lead] < 2 or not any(n >= 2 for t, n in counts.items() if t != lead):
            return sections
        groups: list[list[_Segment]] = []
        for section in sections:
            if section.title == lead or not groups:
                groups.append([section])
            else:
                groups[-1].append(section)
        merged: list[_Segment] = []
        for group in groups:
            first = group[0]
            merged.append(
                _Segment(
                    first.start,
                    first.body_start,
                    group[-1].end,
                    first.heading_path,
                    self._summarised(first),
                    first.heading,
                    grouped=True,
                )
            )
        return merged

    def _summarised(self, segment: _Segment) -> str:
        """`Title — first body line`, to tell apart sections that share a heading."""
        if segment.end < segment.body_start:
            return segment.title
        first_line = _derived_title(self.lines, segment.body_start, segment.end)
        summary = _CYCLE_STAMP.sub("", first_line).strip()
        return f"{segment.title} — {summary}" if summary else segment.title

    def _distinguish_duplicates(self, segments: list[_Segment]) -> None:
        counts = Counter(s.title for s in segments if s.heading is not None and not s.grouped)
        for segment in segments:
            if segment.heading is not None and not segment.grouped and counts[segment.title] > 1:
                segment.title = self._summarised(segment)

    def _refine(
        self, section: _Segment, headings: list[_Heading], rules: set[int]
    ) -> list[_Segment]:
        """Split a huge section at its shallowest sub-heading level, recursively."""
        if section.end - section.start + 1 <= LARGE_SECTION_LINES or section.heading is None:
            return [section]
        lo = bisect.bisect_right([h.line for h in headings], section.start)
        inner = [h for h in headings[lo:] if h.line <= section.end]
        if not inner:
            return [section]
        child_level = min(h.level for h in inner)
        children = [h for h in inner if h.level == child_level]
        intro_end = self._trim_end(section.start, children[0].line - 1, rules)
        parts = [
            _Segment(
                section.start,
                section.body_start,
                intro_end,
                section.heading_path,
                section.title,
                section.heading,
            )
        ]
        for index, child in enumerate(children):
            stop = children[index + 1].line - 1 if index + 1 < len(children) else section.end
            part = _Segment(
                child.line,
                child.line + 1,
                self._trim_end(child.line, stop, rules),
                (*section.heading_path, child.text),
                child.text,
                child,
            )
            parts.extend(self._refine(part, headings, rules))
        return parts

    def _blocks(
        self, title_path: tuple[str, ...], start: int, last: int, rules: set[int]
    ) -> list[_Segment]:
        """Daily notes without split headings: one entry per `---`-separated block."""
        segments: list[_Segment] = []
        cuts = [*sorted(r for r in rules if r >= start), last + 1]
        block_start = start
        for cut in cuts:
            block_end = cut - 1
            if block_end >= block_start and self._has_content(block_start, block_end, rules):
                first = self._skip_blank(block_start, block_end, rules)
                end = self._trim_end(first, block_end, rules)
                title = _derived_title(self.lines, first, end) or self._fallback_title()
                segments.append(_Segment(first, first, end, title_path, title))
            block_start = cut + 1
        return segments

    def _history(
        self, structure: _Structure, title: _Heading | None, start: int, last: int, rules: set[int]
    ) -> list[_Segment]:
        """HISTORY.md: one entry per line-leading `[YYYY-MM-DD …]` timestamp."""
        segments: list[_Segment] = []
        brackets = [b for b in structure.brackets if b >= start]
        title_path = (title.text,) if title else ()
        first_bracket = brackets[0] if brackets else last + 1
        if self._has_content(start, first_bracket - 1, rules) or (title and not brackets):
            segments.append(self._preamble(title, start, first_bracket - 1, rules))
        for position, line in enumerate(brackets):
            next_line = brackets[position + 1] - 1 if position + 1 < len(brackets) else last
            end = self._trim_end(line, next_line, rules)
            match = _BRACKET.match(self.lines[line])
            stamp = match.group() if match else self.lines[line][:40]
            rest = self.lines[line][len(stamp) :]
            text = _clean_title(rest) or stamp
            if len(text) > MAX_DERIVED_TITLE_CHARS:
                text = text[: MAX_DERIVED_TITLE_CHARS - 1] + "…"
            segments.append(_Segment(line, line, end, (*title_path, stamp), text, bracket=match))
        return segments

    def _fold(self, segments: list[_Segment]) -> list[_Segment]:
        if len(segments) <= MAX_SECTIONS:
            return segments
        kept = segments[: MAX_SECTIONS - 1]
        tail = segments[MAX_SECTIONS - 1]
        folded = len(segments) - MAX_SECTIONS
        tail.end = segments[-1].end
        tail.warnings.append(
            f"{folded:,} more sections folded into this entry (limit {MAX_SECTIONS:,} per file)"
        )
        kept.append(tail)
        return kept

    def _when(self, segment: _Segment) -> tuple[dt.date | None, dt.time | None, DateOrigin]:
        """Date, time and where they came from; each source is looked at only when needed."""
        kind = self.kind
        if segment.bracket is not None:
            groups = segment.bracket.groups()
            day = _make_date(*groups[:3])
            if day:
                return day, _make_time(groups[3], groups[4]), DateOrigin.BRACKET
        heading_text = segment.heading.text if segment.heading else ""
        heading_time = self._heading_time(heading_text)
        daily_day = kind.date if kind.source is Source.DAILY else None
        if daily_day and heading_time:
            return daily_day, heading_time, DateOrigin.FILENAME
        body_line = self._first_body_line(segment)
        stamp = _TIMESTAMP_LINE.match(body_line) if body_line is not None else None
        line_time = _make_time(*stamp.groups()[3:]) if stamp else None
        if daily_day:
            time_of_day = line_time or self._labelled_time(segment) or kind.time
            return daily_day, time_of_day or self.title_time, DateOrigin.FILENAME
        heading_day = self._heading_date(heading_text)
        if heading_day:
            return heading_day, heading_time or line_time, DateOrigin.HEADING
        if stamp:
            day = _make_date(*stamp.groups()[:3])
            if day:
                return day, line_time, DateOrigin.TIMESTAMP_LINE
        if self.file_date:
            return self.file_date, self.file_time, DateOrigin.FRONTMATTER
        if kind.date:
            return kind.date, kind.time, DateOrigin.FILENAME
        return None, None, DateOrigin.NONE

    @staticmethod
    def _heading_date(text: str) -> dt.date | None:
        for match in _DATE_IN_TEXT.finditer(text):
            groups = match.groups()
            day = (
                _make_date(groups[0], groups[2], groups[3])
                if groups[0]
                else _make_date(*groups[4:])
            )
            if day:
                return day
        return None

    @staticmethod
    def _heading_time(text: str) -> dt.time | None:
        match = _TIME_IN_TEXT.search(text)
        return _make_time(*match.groups()) if match else None

    def _first_body_line(self, segment: _Segment) -> str | None:
        for index in range(segment.body_start, min(segment.end, segment.body_start + 5) + 1):
            if not _is_blank(self.lines[index]):
                return self.lines[index]
        return None

    def _labelled_time(self, segment: _Segment) -> dt.time | None:
        for index in range(segment.body_start, min(segment.end, segment.body_start + 6) + 1):
            match = _TIME_LINE.match(self.lines[index])
            if match:
                return _make_time(*match.groups())
        return None

    def _entries(self, segments: list[_Segment]) -> list[Entry]:
        kind = self.kind
        fm = self.frontmatter
        metadata = tuple((visible(k), visible(v)) for k, v in fm.fields)
        tags = tuple(visible(tag) for tag in fm.tags)
        role = visible(kind.role) if kind.role else None
        base_warnings = self.file_warnings + fm.warnings
        if kind.warning:
            base_warnings += (kind.warning,)
        occurrences: dict[tuple[str, ...], int] = {}
        entries: list[Entry] = []
        count = len(segments)
        for position, segment in enumerate(segments):
            path = segment.heading_path
            occurrence = occurrences.get(path, 0)
            occurrences[path] = occurrence + 1
            body_start = segment.body_start
            while body_start <= segment.end and _is_blank(self.lines[body_start]):
                body_start += 1
            day, time_of_day, origin = self._when(segment)
            entries.append(
                Entry(
                    id=entry_id(
                        f"{self.root}/{self.path}" if self.root else self.path, path, occurrence
                    ),
                    path=self.path,
                    source=kind.source,
                    title=visible(segment.title) or "(untitled)",
                    heading_path=path,
                    body="\n".join(self.lines[body_start : segment.end + 1]),
                    line_start=segment.start + 1,
                    line_end=segment.end + 1,
                    date=day,
                    time=time_of_day if day else None,
                    date_origin=origin,
                    position=position,
                    count=count,
                    role=role,
                    tags=tags,
                    metadata=metadata,
                    warnings=base_warnings + tuple(segment.warnings),
                    root=self.root,
                )
            )
        return entries


def parse_file(
    rel_path: str, text: str, *, warnings: tuple[str, ...] = (), root: str = ""
) -> list[Entry]:
    """Split one decoded file into entries (pure: no IO). `rel_path` is POSIX, root-relative;
    `root` labels the entries (and keys their ids) when several roots are open."""
    return _FileParser(rel_path, text, warnings, root).parse()


def count_entries(rel_path: str, text: str) -> int:
    """How many entries `parse_file` would make of this text, without building them.

    The date window counts the entries of old daily notes it hides; this is the same split,
    minus dates, bodies, ids and titles.
    """
    return len(_FileParser(rel_path, text, ()).segments())
