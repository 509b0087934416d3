"""What filters a memory has: its sources, tags, roles and newest date (the query box offers
them as its placeholder). Read from the index's columns, so a warm start makes no entry for it
(walking 50,000 entries made every one of them, ~30 MB and ~0.5 s of CPU)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain, compress

import numpy as np
from msgspec import Struct

from memtui.core.model import Entry, Source
from memtui.core.search.arrays import BoolArray, IntArray
from memtui.core.search.slots import SOURCE_ORDER, columns_and_rest


class Facets(Struct, frozen=True):
    sources: frozenset[Source]
    tags: Counter[str]
    roles: Counter[str]
    newest: dt.date | None


def facets_of(entries: Iterable[Entry]) -> Facets:
    """The facets of `entries`, one at a time."""
    chosen = list(entries)
    dates = [entry.date for entry in chosen if entry.date is not None]
    return Facets(
        frozenset(entry.source for entry in chosen),
        Counter(chain.from_iterable(entry.tags for entry in chosen)),
        Counter(entry.role for entry in chosen if entry.role),
        max(dates, default=None),
    )


def live_facets(
    entries: Sequence[Entry], alive: BoolArray, source_code: IntArray, date_ordinal: IntArray
) -> Facets:
    """The facets of the live slots, from the per-slot arrays and the entries' columns."""
    live = np.flatnonzero(alive)
    ordinals = date_ordinal[live]
    dated = ordinals[ordinals >= 0]
    live_flags = alive.tolist()
    return Facets(
        frozenset(SOURCE_ORDER[code] for code in set(source_code[live].tolist())),
        Counter(chain.from_iterable(compress(_tags(entries), live_flags))),
        Counter(role for role in compress(_roles(entries), live_flags) if role),
        dt.date.fromordinal(int(dated.max())) if len(dated) else None,
    )


def _tags(entries: Sequence[Entry]) -> list[tuple[str, ...]]:
    rows, rest = columns_and_rest(entries)
    return (rows.tags() if rows else []) + [entry.tags for entry in rest]


def _roles(entries: Sequence[Entry]) -> list[str | None]:
    rows, rest = columns_and_rest(entries)
    return (rows.roles() if rows else []) + [entry.role for entry in rest]
