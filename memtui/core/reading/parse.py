"""Decoded text of one memory file -> its entries, exactly as a user reads their own memory.

One Markdown-aware routine serves every layout (docs/ranking.md, "Memory layouts it reads",
lists them). What the path says is `file_kind`, the Markdown structure `structure`, dates
`dates` and titles of heading-less blocks `titles`; this module cuts the file into entries:

* **Title.** The first heading is the file's *title* when it is an H1 on the first content line;
  it is not an entry. The split level is the shallowest heading level after the title, ignoring
  later H1s — so an H1 pasted mid-file (LLM output in a transcript) starts a new entry without
  swallowing the H2 sections around it. Deeper headings stay inside their entry; `heading_path`
  keeps the whole chain.
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
* **Limits.** Headings are capped at 300 characters and a file at 5,000 entries (the rest is
  folded into the last one, with a warning). All display text passes through `sanitize.visible`.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter

from msgspec import Struct, field

from memtui.core.digest import blake2b
from memtui.core.model import Entry, Source
from memtui.core.reading.dates import (
    BRACKET_STAMP,
    FileDating,
    When,
    frontmatter_when,
    heading_time,
)
from memtui.core.reading.file_kind import classify, stem
from memtui.core.reading.frontmatter import Frontmatter, read_frontmatter
from memtui.core.reading.structure import Heading, Structure, scan
from memtui.core.reading.titles import capped, clean_title, derived_title, summarised
from memtui.core.sanitize import visible

MAX_SECTIONS = 5000
LARGE_SECTION_LINES = 150

_ASCII_CONTROLS = tuple(chr(code) for code in (*range(0x09), *range(0x0B, 0x20), 0x7F))
"""Every ASCII character `visible` rewrites (newline and tab are kept)."""


def _display_safe(text: str) -> str:
    """`visible(text)`, without its regex scan when the text is ASCII with no control character.

    That is the usual file, and a few `str.__contains__` scans are ~10× cheaper than the regex.
    """
    if text.isascii() and not any(control in text for control in _ASCII_CONTROLS):
        return text
    return visible(text)


def entry_id(path: str, heading_path: tuple[str, ...], occurrence: int) -> str:
    """Stable id: same path, heading path and occurrence of that heading path -> same id."""
    parts = (path, str(len(heading_path)), "\x1f".join(heading_path), str(occurrence))
    key = "\x00".join(parts)
    return blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


GEMINI_MEMORIES = "Gemini Added Memories"


class _Segment(Struct):
    """One future entry, in 0-based inclusive line indices."""

    start: int
    body_start: int
    end: int
    heading_path: tuple[str, ...]
    title: str
    heading: Heading | None = None
    bracket: re.Match[str] | None = None
    grouped: bool = False
    warnings: list[str] = field(default_factory=list)


def _is_blank(line: str) -> bool:
    return not line.strip()


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
        file_date, file_time = frontmatter_when(self.frontmatter)
        self.dating = FileDating(
            self.lines,
            daily=self.kind.source is Source.DAILY,
            name_date=self.kind.date,
            name_time=self.kind.time,
            frontmatter_date=file_date,
            frontmatter_time=file_time,
        )

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
            or stem(self.path.rsplit("/", 1)[-1])
        )

    def parse(self) -> list[Entry]:
        return self._entries(self.segments())

    def segments(self) -> list[_Segment]:
        """The file's future entries as line ranges (the costly per-entry work is not done)."""
        lines = self.lines
        body_first = self.frontmatter.body_start
        last = len(lines) - 1
        structure = scan(self.text, body_first)
        headings = structure.headings
        rules = structure.rules
        first_content = next(
            (i for i in range(body_first, len(lines)) if not _is_blank(lines[i])), None
        )
        if first_content is None:
            return []
        title: Heading | None = None
        if headings and headings[0].level == 1 and headings[0].line == first_content:
            title = headings[0]
            self.dating.title_time = heading_time(title.text)
        rest = headings[1:] if title else headings
        splitters: list[Heading] = []
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
                elif self._saved_memories(section):
                    segments.extend(self._bullets(section))
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

    def _opens_with_bracket(self, structure: Structure, start: int, rules: set[int]) -> bool:
        first = self._skip_blank(start, len(self.lines) - 1, rules)
        return bool(structure.brackets) and structure.brackets[0] == first

    def _preamble(self, title: Heading | None, start: int, end: int, rules: set[int]) -> _Segment:
        end = self._trim_end(start, end, rules) if end >= start else end
        if title:
            end = max(end, title.line)
            return _Segment(title.line, start, end, (title.text,), title.text, title)
        start = self._skip_blank(start, end, rules)
        derived = self._fallback_title() if self.frontmatter.fields else ""
        name = derived or derived_title(self.lines, start, end) or self._fallback_title()
        return _Segment(start, start, end, (), name)

    def _sections(
        self, headings: list[Heading], splitters: list[Heading], last: int, rules: set[int]
    ) -> list[_Segment]:
        segments: list[_Segment] = []
        chain: list[Heading] = []
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
        return summarised(segment.title, self.lines, segment.body_start, segment.end)

    def _distinguish_duplicates(self, segments: list[_Segment]) -> None:
        counts = Counter(s.title for s in segments if s.heading is not None and not s.grouped)
        for segment in segments:
            if segment.heading is not None and not segment.grouped and counts[segment.title] > 1:
                segment.title = self._summarised(segment)

    def _refine(
        self, section: _Segment, headings: list[Heading], rules: set[int]
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

    def _saved_memories(self, section: _Segment) -> bool:
        """Gemini CLI's `save_memory` appends bullets under this heading of a GEMINI.md."""
        return section.title == GEMINI_MEMORIES and self.path.rsplit("/", 1)[-1] == "GEMINI.md"

    def _bullets(self, section: _Segment) -> list[_Segment]:
        """One entry per top-level bullet (its indented continuation lines included)."""
        starts = [
            line
            for line in range(section.body_start, section.end + 1)
            if self.lines[line].startswith(("- ", "* "))
        ]
        if not starts:
            return [section]
        segments: list[_Segment] = []
        for position, line in enumerate(starts):
            stop = starts[position + 1] - 1 if position + 1 < len(starts) else section.end
            end = line
            for following in range(line + 1, stop + 1):
                if self.lines[following].strip():
                    end = following
            title = capped(clean_title(self.lines[line][2:])) or section.title
            segments.append(_Segment(line, line, end, section.heading_path, title))
        return segments

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
                title = derived_title(self.lines, first, end) or self._fallback_title()
                segments.append(_Segment(first, first, end, title_path, title))
            block_start = cut + 1
        return segments

    def _history(
        self, structure: Structure, title: Heading | None, start: int, last: int, rules: set[int]
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
            match = BRACKET_STAMP.match(self.lines[line])
            stamp = match.group() if match else self.lines[line][:40]
            rest = self.lines[line][len(stamp) :]
            text = capped(clean_title(rest) or stamp)
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

    def _when(self, segment: _Segment) -> When:
        heading_text = segment.heading.text if segment.heading else ""
        return self.dating.when(heading_text, segment.bracket, segment.body_start, segment.end)

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
                    heading_level=0 if segment.heading is None else segment.heading.level,
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
