"""Beyond the load line: entries an agent does not see at session start.

Agents load only the head of their long-term files: Claude Code the first 200 lines / 25 KB of
`MEMORY.md`, OpenClaw its bootstrap files (`AGENTS.md`, `MEMORY.md` …) up to 20,000 characters.
The rules are `[[health.load_line]]` in the config (`core.health.settings`). A file a rule
matches is read again (only those files, read-only, like the store reads them) so bytes and
characters are counted on the text itself, with `\\n` line ends. An entry *starts beyond* the
line when its first line is not loaded at all, and is *partly* beyond when the line falls
inside it.
"""

from __future__ import annotations

import bisect
import fnmatch
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate
from pathlib import Path
from typing import Protocol

from msgspec import Struct

from memtui.core.health.model import Check, Finding, LoadCut
from memtui.core.health.settings import LoadLine
from memtui.core.model import Entry, qualified_path
from memtui.core.reading.text import split_lines
from memtui.core.reading.walk import read_text


class Lines(Protocol):
    """What the load-line check reads of an entry: an `Entry`, or its `EntryLines`."""

    @property
    def id(self) -> str: ...

    @property
    def root(self) -> str: ...

    @property
    def path(self) -> str: ...

    @property
    def qualified_path(self) -> str: ...

    @property
    def line_start(self) -> int: ...

    @property
    def line_end(self) -> int: ...


class EntryLines(Struct, frozen=True):
    """An entry's place in its file, without its text: the main screen's check after every
    load keeps these for a large MEMORY.md, not its entries (a warm start makes none)."""

    id: str
    root: str
    path: str
    line_start: int
    line_end: int

    @classmethod
    def of(cls, entry: Entry) -> EntryLines:
        return cls(entry.id, entry.root, entry.path, entry.line_start, entry.line_end)

    @property
    def qualified_path(self) -> str:
        return qualified_path(self.root, self.path)


def applies(rule: LoadLine, path: str) -> bool:
    """A glob with a '/' matches the relative path, one without the file name (case matters:
    agents look for `MEMORY.md`, not `memory.md`)."""
    return _matches(_patterns(rule), path)


def _matches(patterns: tuple[re.Pattern[str] | None, re.Pattern[str] | None], path: str) -> bool:
    """`applies` for a rule's `_patterns`."""
    names, paths = patterns
    return bool(
        (names is not None and names.match(path.rsplit("/", 1)[-1]))
        or (paths is not None and paths.match(path))
    )


@functools.lru_cache(maxsize=64)
def _patterns(rule: LoadLine) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """A rule's globs as one pattern for names and one for paths, compiled once: thousands of
    daily notes each ran every glob through `fnmatch` (the load-line check runs after every
    load and change)."""
    names = [fnmatch.translate(glob) for glob in rule.files if "/" not in glob]
    paths = [fnmatch.translate(glob) for glob in rule.files if "/" in glob]
    return (
        re.compile("|".join(names)) if names else None,
        re.compile("|".join(paths)) if paths else None,
    )


def read_texts(
    places: Iterable[tuple[str, str]], root_of: Mapping[str, Path], rules: Sequence[LoadLine]
) -> dict[str, str]:
    """Qualified path -> text of every file of `places` ((root label, path) of each entry)
    some rule applies to (`root_of` maps a root label to its folder; unreadable files are
    left out)."""
    files = {qualified_path(label, path): (label, path) for label, path in places}
    patterns = [_patterns(rule) for rule in rules]  # once: a rule hashes all its fields
    texts = {}
    for qualified, (label, path) in sorted(files.items()):
        if not any(_matches(rule, path) for rule in patterns):
            continue
        loaded = read_text(root_of[label], path)
        if not isinstance(loaded, str):
            texts[qualified] = loaded[0].text
    return texts


class _Offsets(Struct, frozen=True):
    """Where each line starts, in characters and UTF-8 bytes (index 0 is line 1)."""

    chars: list[int]
    bytes: list[int]
    total_chars: int
    total_bytes: int

    @classmethod
    def of(cls, text: str) -> _Offsets:
        """The offsets of `text`'s lines; in ASCII text (most memory) bytes are characters."""
        lines = split_lines(text)
        chars = list(accumulate((len(line) + 1 for line in lines), initial=0))
        raw = (
            chars
            if text.isascii()
            else list(
                accumulate(
                    (len(line.encode("utf-8", "surrogatepass")) + 1 for line in lines), initial=0
                )
            )
        )
        return cls(chars[:-1], raw[:-1], chars[-1], raw[-1])

    def last_loaded(self, starts: list[int], total: int, limit: int) -> tuple[int, bool]:
        """(last line with a loaded character, whether all of it is loaded) for a prefix of
        `limit` units."""
        line = bisect.bisect_left(starts, limit)  # lines starting before the limit
        end = starts[line] if line < len(starts) else total
        return line, end <= limit


def cut_of(
    rule: LoadLine, text: str, root: str = "", path: str = "", offsets: _Offsets | None = None
) -> LoadCut | None:
    """Where `rule` stops reading `text` (whose `offsets` may be given), or None when it
    reads the whole file."""
    offsets = offsets or _Offsets.of(text)
    file_lines = len(offsets.chars)
    candidates = []
    if rule.lines is not None:
        candidates.append((min(rule.lines, file_lines), True))
    if rule.bytes is not None:
        candidates.append(offsets.last_loaded(offsets.bytes, offsets.total_bytes, rule.bytes))
    if rule.chars is not None:
        candidates.append(offsets.last_loaded(offsets.chars, offsets.total_chars, rule.chars))
    last, whole = min(candidates, key=lambda cut: (cut[0], cut[1]))
    if last >= file_lines and whole:
        return None
    return LoadCut(root, path, rule.agent, rule.describe(), last, whole, file_lines)


def find_beyond_load_line(
    entries: Iterable[Entry], texts: Mapping[str, str], rules: Sequence[LoadLine]
) -> tuple[list[Finding], list[LoadCut]]:
    """Entries that start (or run) past a load line, per file in path order, and the cuts
    (`texts` and the cuts' paths are qualified paths: `root/path` when several roots are open)."""
    by_path: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.qualified_path in texts:
            by_path.setdefault(entry.qualified_path, []).append(entry)
    findings: list[Finding] = []
    cuts: list[LoadCut] = []
    for group, path in enumerate(sorted(by_path)):
        first = by_path[path][0]
        file_cuts: list[LoadCut] = []
        whole: list[LoadLine] = []
        offsets = _Offsets.of(texts[path])
        for rule in rules:
            if applies(rule, first.path):
                cut = cut_of(rule, texts[path], first.root, first.path, offsets)
                if cut is None:
                    whole.append(rule)
                else:
                    file_cuts.append(cut)
        cuts.extend(file_cuts)
        for entry in sorted(by_path[path], key=lambda entry: entry.line_start):
            finding = _finding(entry, file_cuts, whole, group)
            if finding is not None:
                findings.append(finding)
    return findings, cuts


def cuts_past(entry: Lines, cuts: Iterable[LoadCut]) -> tuple[LoadCut, ...]:
    """The cuts of `entry`'s own file that it starts or runs past, the earliest first (what
    the main screen's badge and drawn line show)."""
    return tuple(
        sorted(
            (
                cut
                for cut in cuts
                if cut.qualified_path == entry.qualified_path and _loaded(entry, cut)
            ),
            key=lambda cut: cut.last_line,
        )
    )


def past_load_line(
    entries: Iterable[Lines], root_of: Mapping[str, Path], rules: Sequence[LoadLine]
) -> dict[str, tuple[LoadCut, ...]]:
    """Entry id -> the cuts it starts or runs past, for every entry past some load line (only
    this check: it reads just the files a rule applies to, so it is cheap to run again).

    The main screen runs it after every load and change, in a thread beside the first
    keystrokes, so it builds no findings (their reasons are for the health view) and matches
    each file's lines once: 142 -> ~40 ms at 50,000 entries."""
    by_path: dict[str, list[Lines]] = {}
    for entry in entries:
        by_path.setdefault(entry.qualified_path, []).append(entry)
    past: dict[str, tuple[LoadCut, ...]] = {}
    for path in sorted(by_path):
        first = by_path[path][0]
        applying = [rule for rule in rules if applies(rule, first.path)]
        if not applying:
            continue
        loaded = read_text(root_of[first.root], first.path)
        if isinstance(loaded, str):
            continue  # unreadable now: no line to draw
        text = loaded[0].text
        offsets = _Offsets.of(text)
        cuts = [
            cut
            for rule in applying
            if (cut := cut_of(rule, text, first.root, first.path, offsets)) is not None
        ]
        if not cuts:
            continue
        for entry in by_path[path]:
            crossed = cuts_past(entry, cuts)
            if crossed:
                past[entry.id] = crossed
    return past


def _loaded(entry: Lines, cut: LoadCut) -> str:
    """'beyond', 'partly' or '' (fully loaded) for one entry under one cut."""
    if entry.line_start > cut.last_line or (
        entry.line_start == cut.last_line and not cut.whole_line
    ):
        return "beyond"
    if entry.line_end > cut.last_line or (not cut.whole_line and entry.line_end == cut.last_line):
        return "partly"
    return ""


def _finding(
    entry: Entry, cuts: list[LoadCut], whole: list[LoadLine], group: int
) -> Finding | None:
    hits = [(cut, state) for cut in cuts if (state := _loaded(entry, cut))]
    if not hits:
        return None
    partly = all(state == "partly" for _, state in hits)
    first = min(hits, key=lambda hit: hit[0].last_line)[0]
    where = (
        f"lines {entry.line_start}–{entry.line_end} run past"
        if partly
        else f"starts at line {entry.line_start}, past"
    )
    reasons = [
        f"{cut.agent} stops after line {cut.last_line}"
        f"{'' if cut.whole_line else ' (partly)'} ({cut.limits})"
        for cut, _ in hits
    ]
    missed = [cut.agent for cut in cuts if cut not in [hit[0] for hit in hits]]
    reasons += [f"{agent} loads it" for agent in missed]
    reasons += [f"{rule.agent} loads the whole file ({rule.describe()})" for rule in whole]
    return Finding(
        Check.LOAD_LINE,
        entry,
        f"{where} the load line: {'; '.join(reasons)}",
        group,
        details=(
            ("agent", first.agent),
            ("last_loaded_line", first.last_line),
            ("limits", first.limits),
            ("partly", partly),
            ("agents", tuple(cut.agent for cut, _ in hits)),
        ),
    )
