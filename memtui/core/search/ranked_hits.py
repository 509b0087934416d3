"""The hits of a scored query, made only when read: lazy hits in rank order, the result.

A `RankContext` (`core.search.hits`) holds the arrays one query was scored with; `RankedHits`
orders the top HEAD_SIZE eagerly and makes a `LazyHit` when someone reads one, whose
explanation the context works out on first access.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from typing import overload

from memtui.core.model import Entry, Explanation, Hit, RankResult
from memtui.core.search.hits import RankContext

HEAD_SIZE = 200
"""Hits ordered eagerly per search; the rest of the order is sorted on first access beyond."""


class LazyHit(Hit):
    """A Hit whose explanation is built on first access (a keystroke ranks thousands of hits
    but the UI shows one explanation); the numbers come from the same RankContext."""

    __slots__ = ("_contributions", "_source")
    _source: tuple[RankContext, int, int | None]
    """(context, slot, slot of the hit ranked just above)."""
    _contributions: tuple[tuple[str, float], ...] | None

    def __init__(
        self,
        rank: int,
        entry: Entry,
        score: float,
        source: tuple[RankContext, int, int | None],
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "rank", rank)
        setattr_(self, "entry", entry)
        setattr_(self, "score", score)
        setattr_(self, "_source", source)
        setattr_(self, "_contributions", None)

    def __getattr__(self, name: str) -> Explanation:
        if name != "explanation":
            raise AttributeError(name)
        context, slot, previous = self._source
        explanation = context.explain(slot, previous)
        object.__setattr__(self, "explanation", explanation)
        return explanation

    @property
    def contributions(self) -> tuple[tuple[str, float], ...]:
        """The stacked-bar numbers straight from the scoring arrays (no explanation built),
        kept: a results row reads them to know whether it changed, then to draw itself."""
        if self._contributions is None:
            context, slot, _ = self._source
            object.__setattr__(self, "_contributions", context.factor_contributions(slot))
        assert self._contributions is not None
        return self._contributions


def first_rows(hits: Sequence[Hit], count: int) -> Sequence[Hit]:
    """The first `count` of `hits`, made with their bars' numbers: a results list's first
    rows, worked out off the event loop and kept by the hits. Hits that are not lazy (a
    test's list) have their numbers in their explanation already."""
    return hits.head(count) if isinstance(hits, RankedHits) else hits[:count]


KEEP_SEARCH_DEPTH = 500
"""How far down a new ranking the selected entry is looked for."""


class RankedHits(Sequence[Hit]):
    """Hits best first, built only when indexed: a one-letter query over 50k entries orders
    the top HEAD_SIZE eagerly and pays for the full sort only when someone scrolls past it."""

    __slots__ = ("_context", "_hits", "_length", "_order", "_slots")

    def __init__(self, context: RankContext, limit: int | None, *, head: int = HEAD_SIZE) -> None:
        total = len(context.candidates)
        self._context = context
        self._length = total if limit is None else max(0, min(limit, total))
        self._order = context.order(min(self._length, head))
        self._slots: list[int] = context.candidates[self._order].tolist()
        self._hits: dict[int, LazyHit] = {}

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Hit: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Hit]: ...

    def __getitem__(self, index: int | slice) -> Hit | Sequence[Hit]:
        if isinstance(index, slice):
            return tuple(self._hit(at) for at in range(*index.indices(self._length)))
        at = operator.index(index)
        if at < 0:
            at += self._length
        if not 0 <= at < self._length:
            raise IndexError("hit index out of range")
        return self._hit(at)

    def __iter__(self) -> Iterator[Hit]:
        for at in range(self._length):
            yield self._hit(at)

    def __repr__(self) -> str:
        return f"RankedHits({self._length} hits)"

    def head(self, count: int) -> tuple[Hit, ...]:
        """The first `count` hits, with their bars' numbers worked out together: what a
        results list shows first (`LazyHit.contributions`)."""
        hits = tuple(self._hit(at) for at in range(min(count, self._length)))
        waiting = [hit for hit in hits if hit._contributions is None]
        slots = [hit._source[1] for hit in waiting]
        for hit, numbers in zip(waiting, self._context.contributions_of(slots), strict=True):
            object.__setattr__(hit, "_contributions", numbers)
        return hits

    def _hit(self, at: int) -> LazyHit:
        hit = self._hits.get(at)
        if hit is None:
            if at >= len(self._slots):
                context = self._context
                full = self._length == len(context.candidates)
                self._order = context.order(None if full else self._length)
                self._slots = context.candidates[self._order].tolist()
            slot = self._slots[at]
            previous = self._slots[at - 1] if at > 0 else None
            score = float(self._context.scores[self._order[at]])
            hit = LazyHit(
                at + 1, self._context.entries[slot], score, (self._context, slot, previous)
            )
            self._hits[at] = hit
        return hit


def build_result(
    context: RankContext,
    limit: int | None,
    elapsed_ms: float,
    *,
    unmatched: tuple[str, ...],
    suggestions: tuple[str, ...],
    hidden_by_window: int,
) -> RankResult:
    return RankResult(
        query=context.query.text,
        hits=RankedHits(context, limit),
        total_matches=len(context.candidates),
        elapsed_ms=elapsed_ms,
        unmatched_terms=unmatched,
        suggestions=suggestions,
        hidden_by_window=hidden_by_window,
        browse=context.browse,
        notes=context.query.notes,
    )


def position_of(hits: Sequence[Hit], entry_id: str) -> int | None:
    """Position of `entry_id` among the first KEEP_SEARCH_DEPTH hits, or None (the hits may
    be lazy: no more are made than that)."""
    for position in range(min(len(hits), KEEP_SEARCH_DEPTH)):
        if hits[position].entry.id == entry_id:
            return position
    return None
