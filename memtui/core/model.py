"""Plain, frozen data shared by every layer: what an entry is, what was skipped, what changed.

Nothing here imports Textual or Rich: the UI, the CLI and the tests all read these.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from enum import StrEnum
from typing import NoReturn

from msgspec import Struct, field


class Source(StrEnum):
    """Where an entry lives, which drives the source-priority factor."""

    LONG_TERM = "long_term"
    DAILY = "daily"
    NOTE = "note"


class DateOrigin(StrEnum):
    """Where an entry's date came from, so the UI can say why it is dated."""

    FILENAME = "filename"
    HEADING = "heading"
    TIMESTAMP_LINE = "timestamp_line"
    FRONTMATTER = "frontmatter"
    BRACKET = "bracket"
    NONE = "none"


def qualified_path(root: str, path: str) -> str:
    """`root/path` when `root` labels one of several open roots, else `path` (see
    `Entry.qualified_path`)."""
    return f"{root}/{path}" if root else path


class _Located:
    """What an entry and its head both say from their fields: the file key, when, file name."""

    __slots__ = ()
    root: str
    path: str
    date: dt.date | None
    time: dt.time | None

    @property
    def qualified_path(self) -> str:
        """`root/path` when several roots are open, else `path`: one file's key across roots
        (labels never hold a `/`), so two roots' `MEMORY.md` stay two files."""
        return qualified_path(self.root, self.path)

    @property
    def when(self) -> dt.datetime | None:
        """Date and time combined (midnight when only the day is known)."""
        if self.date is None:
            return None
        return dt.datetime.combine(self.date, self.time or dt.time())

    @property
    def file_name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


class Entry(_Located, Struct, frozen=True, weakref=True):
    """One searchable unit of memory: a section, a block, a history paragraph or a whole file.

    `line_start`/`line_end` are 1-based and inclusive in the original file, counting only
    `\\n` (after CRLF/CR normalisation) so an editor opened at `line_start` lands on it.
    """

    id: str
    path: str
    """Path relative to the root, POSIX separators."""
    source: Source
    title: str
    heading_path: tuple[str, ...]
    body: str
    line_start: int
    line_end: int
    date: dt.date | None = None
    time: dt.time | None = None
    date_origin: DateOrigin = DateOrigin.NONE
    position: int = 0
    """0-based index of this entry among its file's entries."""
    count: int = 1
    """How many entries its file has."""
    role: str | None = None
    tags: tuple[str, ...] = ()
    metadata: tuple[tuple[str, str], ...] = ()
    """Frontmatter fields (name, description, type, title …) flattened to strings."""
    warnings: tuple[str, ...] = ()
    """Visible problems: invalid UTF-8, truncated, bad frontmatter …"""
    root: str = ""
    """Label of the memory folder the entry came from when several are open ('' with one)."""
    heading_level: int = 0
    """The level of the heading line that starts it (`###`: 3); 0 when no heading does."""

    @property
    def text_chars(self) -> int:
        """Characters of text the entry holds: what its removal gives back, roughly (the
        index and the store compact by it, so one huge replaced entry is not kept)."""
        return len(self.body) + len(self.title)

    def meta(self, key: str) -> str | None:
        for name, value in self.metadata:
            if name == key:
                return value
        return None


class EntryHead(_Located, Struct, frozen=True):
    """An entry without its text or metadata: what `memtui list` shows of each. A cached
    entry's text stays in the cache file until an `Entry` is made, so a listing made from the
    columns reads none of it (`core.live.heads`)."""

    id: str
    path: str
    source: Source
    title: str
    heading_path: tuple[str, ...]
    line_start: int
    line_end: int
    date: dt.date | None
    time: dt.time | None
    date_origin: DateOrigin
    role: str | None
    tags: tuple[str, ...]
    warnings: tuple[str, ...]
    root: str

    @classmethod
    def of(cls, entry: Entry) -> EntryHead:
        return cls(
            entry.id,
            entry.path,
            entry.source,
            entry.title,
            entry.heading_path,
            entry.line_start,
            entry.line_end,
            entry.date,
            entry.time,
            entry.date_origin,
            entry.role,
            entry.tags,
            entry.warnings,
            entry.root,
        )


UNREADABLE_REASONS = ("not readable", "folder not readable", "cannot stat")
"""How the reasons of `core.reading.walk` begin when the system refused a path memtui meant to
read (permissions, I/O errors)."""


class Skipped(Struct, frozen=True):
    """A path the store did not load, and why (shown in `list --json` and the UI)."""

    path: str
    reason: str

    @property
    def unreadable(self) -> bool:
        """The system refused to read it: memory lost to the search, which the headless
        commands report like grep does, unlike what memtui passes over by rule (tooling
        folders, symlinks it does not follow, FIFOs, binary files)."""
        return self.reason.startswith(UNREADABLE_REASONS)


class ChangeSet(Struct, frozen=True):
    """What one batch of file changes did to the corpus, by entry id."""

    added: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()
    updated: frozenset[str] = frozenset()
    paths: tuple[str, ...] = ()
    """Relative paths whose entries changed, for notices like 'MEMORY.md: 2 entries added'."""
    per_path: tuple[tuple[str, int, int, int], ...] = field(default=())
    """(path, added, removed, updated) counts, one row per changed path; `updated` counts
    the entries whose text changed (an append also moves the others' place in the file,
    which `updated` above includes and the index needs, but a person would not call an
    update)."""

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.updated)


# --- ranking results -------------------------------------------------------------------------
# Produced by the ranker (`core.search.rank`, `core.search.ranked_hits`), read by the CLI and UI.
# The explanation is built by the same code that computes the score, so
# `Explanation.score == Hit.score` always.


def qualified_changes(label: str, changes: ChangeSet) -> ChangeSet:
    """A root's `changes` with its paths as `Entry.qualified_path`s (unchanged with one root)."""
    if not label or not changes.paths:
        return changes
    prefix = f"{label}/"
    return ChangeSet(
        added=changes.added,
        removed=changes.removed,
        updated=changes.updated,
        paths=tuple(prefix + path for path in changes.paths),
        per_path=tuple((prefix + row[0], *row[1:]) for row in changes.per_path),
    )


class MatchKind(StrEnum):
    """How a query term met a document token: the label the explanation shows for it."""

    EXACT = "exact"
    PREFIX = "prefix"
    """The token starts with the term (`depl` -> `deployment`)."""
    VARIANT = "variant"
    """The token shares the term's stem, the term minus a common suffix
    (`deployment` -> `deploy`, `deployed`)."""
    FUZZY = "fuzzy"
    """A typo: the token is within a small edit distance of the term."""
    PHRASE = "phrase"


class TokenMatch(Struct, frozen=True):
    """One document token a query term matched, and how."""

    token: str
    kind: MatchKind
    similarity: float
    """The credit the match earned: 1.0 for exact, below for prefix, variant and fuzzy."""
    heading_count: int
    body_count: int


class TermMatch(Struct, frozen=True):
    """A query term's contribution to relevance, with every number that went into it."""

    term: str
    weight: float
    """Rarity weight (idf-like) of the term."""
    score: float
    """This term's un-normalised relevance contribution."""
    matches: tuple[TokenMatch, ...]


class Factor(Struct, frozen=True):
    """One row of the breakdown: raw input -> value in [0, 1] × weight = contribution."""

    name: str
    raw: str
    """Human-readable input, e.g. 'age 12 d, half-life 30 d'."""
    value: float
    weight: float
    contribution: float


class Multiplier(Struct, frozen=True):
    """A boost or penalty that fired, e.g. a config glob or a session boost."""

    name: str
    reason: str
    factor: float


def multiplier_product(multipliers: Sequence[Multiplier]) -> float:
    """The factors multiplied in order (1 when none fired): the one product the ranker, the
    explanation and every view use, so `base × product == score` holds to the last bit."""
    total = 1.0
    for multiplier in multipliers:
        total = total * multiplier.factor
    return total


class Explanation(Struct, frozen=True):
    """Everything needed to recompute and understand one hit's score."""

    factors: tuple[Factor, ...]
    terms: tuple[TermMatch, ...]
    multipliers: tuple[Multiplier, ...]
    base: float
    """clamp01(sum of contributions)."""
    score: float
    """base × product of multipliers; above 1 when boosts lift it (never capped)."""
    notes: tuple[str, ...] = ()
    """E.g. 'unknown filter foo: treated as a term'."""
    gap_to_previous: tuple[tuple[str, float], ...] = ()
    """Per factor (and 'multipliers'), how much this hit trails the hit ranked above."""
    browse: bool = False
    """No query terms: the hit is listed newest first, not by this score."""

    def versus_previous(self) -> list[tuple[str, float]]:
        """This hit minus the one ranked above it, per factor (and 'multipliers'): negative
        where it trails. The largest differences first, without those that round to 0.000.
        What the why pane's `vs #N` row and `rank --explain` both show, so their signs agree."""
        shown = [(name, -gap) for name, gap in self.gap_to_previous if abs(gap) >= 5e-4]
        return sorted(shown, key=lambda item: -abs(item[1]))

    @property
    def multiplier(self) -> float:
        """The product of the multipliers that fired: score = base × multiplier."""
        return multiplier_product(self.multipliers)

    @property
    def arithmetic(self) -> str:
        """`base 0.913 × multipliers 1.095 = score 1.000`: the one wording every view prints, so
        the why pane, `rank --explain` and the JSON's numbers agree digit for digit."""
        return f"base {self.base:.3f} × multipliers {self.multiplier:.3f} = score {self.score:.3f}"


class Hit:
    """One ranked result: the entry, its score and why it ranked there.

    A slotted class, not a `Struct` like the other records: `LazyHit` (`core.search.ranked_hits`)
    fills in its explanation on first access, which a frozen `Struct` does not allow. Not a
    dataclass either: `dataclasses` and the compiles of a frozen class's methods were ~2.5 ms
    of every `rank`'s start. Read-only all the same: attributes are set in `__init__` only,
    and a hit compares by identity (nothing compares two hits)."""

    __slots__ = ("entry", "explanation", "rank", "score")
    rank: int
    """1-based."""
    entry: Entry
    score: float
    explanation: Explanation

    def __init__(self, rank: int, entry: Entry, score: float, explanation: Explanation) -> None:
        set_once = object.__setattr__
        set_once(self, "rank", rank)
        set_once(self, "entry", entry)
        set_once(self, "score", score)
        set_once(self, "explanation", explanation)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"a hit is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a hit is read-only: cannot delete {name!r}")

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"{name}(rank={self.rank}, score={self.score!r}, entry={self.entry.id!r})"

    @property
    def contributions(self) -> tuple[tuple[str, float], ...]:
        """(factor name, weight × value) per factor: enough to draw a row's stacked bar.

        Rankers may override this with a cheap path that skips building the full explanation.
        """
        return tuple((factor.name, factor.contribution) for factor in self.explanation.factors)


class RankResult(Struct, frozen=True):
    """A ranked answer to one query, with what is needed to explain an empty one."""

    query: str
    hits: Sequence[Hit]
    """Best first. May be lazy: a ranker can build Hit objects only when indexed, so a view that
    shows 40 rows of 50,000 matches pays for 40."""
    total_matches: int
    elapsed_ms: float
    unmatched_terms: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    """Did-you-mean words from the vocabulary."""
    hidden_by_window: int = 0
    """Daily entries outside the date window that are not loaded."""
    browse: bool = False
    """No query terms (an empty query, or filters only): every match, newest first."""
    notes: tuple[str, ...] = ()
