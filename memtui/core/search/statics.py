"""What a score depends on besides the query: settings, and per-slot query-independent factors.

`Settings` holds the normalised weights, half-life, config and session boosts. `StaticFactors`
holds one array per slot for each input of recency, source and position, the multiplier, and
the tie-break keys; the formulas that turn them into factor values are in `core.search.scoring`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase

import numpy as np

from memtui.core.model import Entry, Multiplier, Source, multiplier_product
from memtui.core.search.arrays import BoolArray, FloatArray, IntArray
from memtui.core.search.scoring import position_score, recency_values
from memtui.core.settings.config import FACTOR_NAMES, Config, normalise_weights

SOURCE_CODES = {Source.LONG_TERM: 0, Source.DAILY: 1, Source.NOTE: 2}
"""Sources as small integers, for the per-slot `source_code` array and source filters."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything besides the index that a score depends on."""

    config: Config
    weights: Mapping[str, float]
    half_life_days: float
    session_boosts: Mapping[str, float]
    today_ordinal: int


def make_settings(
    config: Config,
    *,
    today_ordinal: int,
    weights: Mapping[str, float] | None = None,
    half_life_days: float | None = None,
    session_boosts: Mapping[str, float] | None = None,
) -> Settings:
    """Settings with weights normalised to sum to 1."""
    merged = dict(config.weights)
    if weights:
        merged.update(weights)
    for name in FACTOR_NAMES:
        merged.setdefault(name, 0.0)
    normalised, _ = normalise_weights({name: merged[name] for name in FACTOR_NAMES})
    return Settings(
        config=config,
        weights=normalised,
        half_life_days=config.half_life_days if half_life_days is None else half_life_days,
        session_boosts=dict(session_boosts or {}),
        today_ordinal=today_ordinal,
    )


@dataclass(frozen=True, slots=True)
class StaticFactors:
    """Per-slot arrays that do not depend on the query (replaced, never mutated)."""

    ages: FloatArray
    """Age in days; NaN when undated."""
    evergreen: BoolArray
    recency: FloatArray
    source: FloatArray
    priority: IntArray
    position: FloatArray
    multiplier: FloatArray
    source_code: IntArray
    date_ordinal: IntArray
    """Date as an ordinal, -1 when undated."""
    when: IntArray
    """Seconds key for 'newest first', -1 when undated."""
    line: IntArray


def position_rank(entry: Entry) -> tuple[int, int, str]:
    """(r, n, wording): r counts entries from the favoured end of a file of n entries (the
    start of long-term files and notes, the newest end of a daily note)."""
    count = max(entry.count, 1)
    index = min(max(entry.position, 0), count - 1)
    if entry.source is Source.DAILY:
        return count - 1 - index, count, "from the newest"
    return index, count, "from the top"


def position_value(entry: Entry) -> float:
    r, n, _ = position_rank(entry)
    return position_score(r, n)


def glob_matches(pattern: str, entry: Entry) -> bool:
    """Config boost patterns: `tag:GLOB` against tags, else a glob on the path or file name."""
    if pattern.startswith("tag:"):
        wanted = pattern[4:].casefold()
        return any(fnmatchcase(tag.casefold(), wanted) for tag in entry.tags)
    if fnmatchcase(entry.path, pattern):
        return True
    return "/" not in pattern and fnmatchcase(entry.file_name, pattern)


def entry_multipliers(entry: Entry, settings: Settings) -> tuple[Multiplier, ...]:
    """Config boosts that fire, then the session boost; their product is the slot's multiplier."""
    fired = [
        Multiplier(name="boost", reason=f"config boost {boost.pattern!r}", factor=boost.factor)
        for boost in settings.config.boosts
        if glob_matches(boost.pattern, entry)
    ]
    session = settings.session_boosts.get(entry.qualified_path)
    if session is not None:
        fired.append(
            Multiplier(
                name="session", reason=f"session boost on {entry.qualified_path}", factor=session
            )
        )
    return tuple(fired)


def compute_statics(entries: list[Entry], settings: Settings) -> StaticFactors:
    """Per-slot static arrays, gathered into plain lists first (numpy item writes are slow)."""
    n = len(entries)
    ordinals = [-1 if entry.date is None else entry.date.toordinal() for entry in entries]
    seconds = [
        0
        if (time_of_day := entry.time) is None
        else (time_of_day.hour * 3600 + time_of_day.minute * 60 + time_of_day.second)
        for entry in entries
    ]
    sources = [entry.source for entry in entries]
    lines = [entry.line_start for entry in entries]
    by_place: dict[tuple[Source, int, int], float] = {}
    """Position values by (source, position, count): a file's entries repeat the same few."""
    positions: list[float] = []
    for entry in entries:
        place = (entry.source, entry.position, entry.count)
        value = by_place.get(place)
        if value is None:
            value = by_place[place] = position_value(entry)
        positions.append(value)
    date_ordinal = np.asarray(ordinals, dtype=np.int64).reshape(n)
    dated = date_ordinal >= 0
    ages = np.where(dated, np.maximum(0, settings.today_ordinal - date_ordinal), np.nan)
    when = np.where(dated, date_ordinal * 86400 + np.asarray(seconds, dtype=np.int64), -1)
    priorities = settings.config.source_priority
    priority = np.asarray(
        [priorities.get(source.value, 0) for source in sources], dtype=np.int64
    ).reshape(n)
    source_code = np.asarray([SOURCE_CODES[source] for source in sources], dtype=np.int64).reshape(
        n
    )
    evergreen = (
        np.asarray([source is Source.LONG_TERM for source in sources], dtype=bool).reshape(n)
        & settings.config.evergreen_long_term
    )
    multiplier = np.ones(n)
    if settings.config.boosts or settings.session_boosts:
        multiplier = np.asarray(
            [multiplier_product(entry_multipliers(entry, settings)) for entry in entries],
            dtype=np.float64,
        ).reshape(n)
    return StaticFactors(
        ages=ages,
        evergreen=evergreen,
        recency=recency_values(ages, evergreen, settings.half_life_days),
        source=priority / 100.0,
        priority=priority,
        position=np.asarray(positions, dtype=np.float64).reshape(n),
        multiplier=multiplier,
        source_code=source_code,
        date_ordinal=date_ordinal,
        when=when,
        line=np.asarray(lines, dtype=np.int64).reshape(n),
    )


def concat_statics(old: StaticFactors, new: StaticFactors) -> StaticFactors:
    return StaticFactors(
        *(
            np.concatenate([getattr(old, name), getattr(new, name)])
            for name in StaticFactors.__slots__
        )
    )
