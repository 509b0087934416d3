"""What a score depends on besides the query: settings, and per-slot query-independent factors.

`Settings` holds the normalised weights, half-life, config and session boosts. `StaticFactors`
holds one array per slot for each input of recency, source and position, the multiplier, and
the tie-break keys; the formulas that turn them into factor values are in `core.search.scoring`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fnmatch import fnmatchcase
from itertools import chain

import numpy as np
from msgspec import Struct

from memtui.core.model import Entry, Multiplier, Source, multiplier_product
from memtui.core.search.arrays import BoolArray, FloatArray, IntArray, distinct_rows
from memtui.core.search.scoring import position_score, recency_values
from memtui.core.search.slots import (
    SOURCE_CODES,
    SOURCE_ORDER,
    PlaceColumns,
    columns_and_rest,
    join_places,
)
from memtui.core.settings.config import FACTOR_NAMES, Config, normalise_weights


class Settings(Struct, frozen=True):
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


class StaticFactors(Struct, frozen=True):
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
    return place_rank(entry.source, entry.position, entry.count)


def place_rank(source: Source, position: int, count: int) -> tuple[int, int, str]:
    """`position_rank` from the entry's source, position and count alone."""
    count = max(count, 1)
    index = min(max(position, 0), count - 1)
    if source is Source.DAILY:
        return count - 1 - index, count, "from the newest"
    return index, count, "from the top"


def glob_matches(pattern: str, path: str, tags: tuple[str, ...]) -> bool:
    """Config boost patterns: `tag:GLOB` against tags, else a glob on the path or file name."""
    if pattern.startswith("tag:"):
        wanted = pattern[4:].casefold()
        return any(fnmatchcase(tag.casefold(), wanted) for tag in tags)
    if fnmatchcase(path, pattern):
        return True
    return "/" not in pattern and fnmatchcase(path.rsplit("/", 1)[-1], pattern)


def entry_multipliers(entry: Entry, settings: Settings) -> tuple[Multiplier, ...]:
    """Config boosts that fire, then the session boost; their product is the slot's multiplier."""
    return multipliers_of(entry.path, entry.tags, entry.qualified_path, settings)


def multipliers_of(
    path: str, tags: tuple[str, ...], qualified_path: str, settings: Settings
) -> tuple[Multiplier, ...]:
    """`entry_multipliers` from what they read of the entry: its paths and tags."""
    fired = [
        Multiplier(name="boost", reason=f"config boost {boost.pattern!r}", factor=boost.factor)
        for boost in settings.config.boosts
        if glob_matches(boost.pattern, path, tags)
    ]
    session = settings.session_boosts.get(qualified_path)
    if session is not None:
        fired.append(
            Multiplier(name="session", reason=f"session boost on {qualified_path}", factor=session)
        )
    return tuple(fired)


def place_columns(entries: Sequence[Entry]) -> PlaceColumns:
    """What the static factors read of each entry: from the columns where the entries are
    held as columns, else one entry at a time."""
    rows, rest = columns_and_rest(entries)
    own = _entry_places(rest)
    return own if rows is None else join_places([rows.places(), own])


def _entry_places(entries: Sequence[Entry]) -> PlaceColumns:
    return PlaceColumns(
        date_ordinal=np.fromiter(
            (-1 if entry.date is None else entry.date.toordinal() for entry in entries),
            np.int64,
            len(entries),
        ),
        seconds=np.fromiter(
            (
                0
                if (time_of_day := entry.time) is None
                else (time_of_day.hour * 3600 + time_of_day.minute * 60 + time_of_day.second)
                for entry in entries
            ),
            np.int64,
            len(entries),
        ),
        source_code=np.fromiter(
            (SOURCE_CODES[entry.source] for entry in entries), np.int64, len(entries)
        ),
        line_start=np.fromiter((entry.line_start for entry in entries), np.int64, len(entries)),
        position=np.fromiter((entry.position for entry in entries), np.int64, len(entries)),
        count=np.fromiter((entry.count for entry in entries), np.int64, len(entries)),
    )


def _boost_inputs(entries: Sequence[Entry]) -> Iterable[tuple[str, tuple[str, ...], str]]:
    """(path, tags, qualified path) per entry, from the columns where there are columns."""
    rows, rest = columns_and_rest(entries)
    own = ((entry.path, entry.tags, entry.qualified_path) for entry in rest)
    if rows is None:
        return own
    return chain(zip(rows.paths(), rows.tags(), rows.qualified_paths(), strict=True), own)


def compute_statics(entries: Sequence[Entry], settings: Settings) -> StaticFactors:
    """Per-slot static arrays. Files repeat a few places (source, position, count) and boost
    inputs, so each distinct one is valued once, by the same functions an explanation uses."""
    n = len(entries)
    places = place_columns(entries)
    date_ordinal = places.date_ordinal
    dated = date_ordinal >= 0
    ages = np.where(dated, np.maximum(0, settings.today_ordinal - date_ordinal), np.nan)
    when = np.where(dated, date_ordinal * 86400 + places.seconds, -1)
    code = places.source_code
    priorities = settings.config.source_priority
    priority = np.asarray(
        [priorities.get(source.value, 0) for source in SOURCE_ORDER], dtype=np.int64
    )[code]
    evergreen = (code == SOURCE_CODES[Source.LONG_TERM]) & settings.config.evergreen_long_term
    places_of, place_number = distinct_rows(code, places.position, places.count)
    place_values = np.fromiter(
        (
            position_score(*place_rank(SOURCE_ORDER[source], position, count)[:2])
            for source, position, count in places_of
        ),
        np.float64,
        len(places_of),
    )
    multiplier = np.ones(n)
    if settings.config.boosts or settings.session_boosts:
        by_inputs: dict[tuple[str, tuple[str, ...], str], float] = {}
        products: list[float] = []
        for inputs in _boost_inputs(entries):
            product = by_inputs.get(inputs)
            if product is None:
                product = by_inputs[inputs] = multiplier_product(multipliers_of(*inputs, settings))
            products.append(product)
        multiplier = np.asarray(products, dtype=np.float64).reshape(n)
    return StaticFactors(
        ages=ages,
        evergreen=evergreen,
        recency=recency_values(ages, evergreen, settings.half_life_days),
        source=priority / 100.0,
        priority=priority,
        position=place_values[place_number],
        multiplier=multiplier,
        source_code=code,
        date_ordinal=date_ordinal,
        when=when,
        line=places.line_start,
    )


def concat_statics(old: StaticFactors, new: StaticFactors) -> StaticFactors:
    return StaticFactors(
        *(
            np.concatenate([getattr(old, name), getattr(new, name)])
            for name in StaticFactors.__struct_fields__
        )
    )
