"""The main screen's engine work as plain functions: its thread workers run them and post the
message each returns, so what a worker does can be read (and tested) without the screen.

Searches carry a generation (`SearchRequests`): the newest request wins, and a result of an
older one is dropped in the worker before it searches, after it searched, and again in the
screen's handler, so a slow search can never paint over a newer one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memtui.core.cache.folder import CacheFolder
from memtui.core.health.check import load_line_cuts
from memtui.core.live.engine import Engine
from memtui.core.live.tuning import MAX_SESSION_BOOST
from memtui.core.places.loads import root_session_chars
from memtui.core.search.query import QueryError
from memtui.core.search.ranked_hits import first_rows, position_of
from memtui.ui import messages
from memtui.ui.heap import loading
from memtui.ui.key_order import ListWaiter

if TYPE_CHECKING:
    from memtui.ui.options import AppOptions

BOOST_STEP = 1.5
"""Each + or − multiplies or divides the file's session boost by this much."""


def open_engine(options: AppOptions) -> Engine:
    """The engine on the options' root (not loaded yet); tests pass `engine_factory` instead."""
    if options.engine_factory is not None:
        return options.engine_factory(options)
    cache = CacheFolder() if options.config.cache else None
    return Engine(
        options.open_roots,
        options.config,
        today=options.today,
        days=options.days,
        cache=cache,
        prepare=False,  # the screen prepares once typing pauses (`Engine.prepare_expansions`)
    )


class SearchRequests:
    """Which search is the newest, which one the list last painted, and when it was asked."""

    def __init__(self) -> None:
        self.generation = 0
        """The newest search requested; results of older ones are dropped."""
        self.painted = 0
        """The newest search whose results the list has painted."""
        self.settled = 0
        """The newest search the list has settled on: painted, or failed (the list stays)."""
        self.waiter: ListWaiter | None = None
        """Actions on the list that wait for it to settle (`ui.key_order`), told each time."""
        self.started_at = 0.0
        """When the newest search was requested (`time.perf_counter`)."""

    def next(self) -> int:
        """A new search is requested: its generation, which outdates every earlier one."""
        self.generation += 1
        self.started_at = time.perf_counter()
        return self.generation

    def outdated(self, generation: int) -> bool:
        """A newer search was requested after `generation`: its result must not be shown."""
        return generation != self.generation

    def mark_painted(self, generation: int) -> None:
        self.painted = max(self.painted, generation)
        self.mark_settled(generation)

    def mark_settled(self, generation: int) -> None:
        self.settled = max(self.settled, generation)
        if self.waiter is not None:
            self.waiter.caught_up()

    def failed(self, generation: int) -> bool:
        """Search `generation` failed: whether it was the newest (then the list, left as it
        was, has settled on it)."""
        if self.outdated(generation):
            return False
        self.mark_settled(generation)
        return True

    def newest_settled(self) -> bool:
        """The list shows the outcome of the newest search requested."""
        return self.settled >= self.generation


def load(options: AppOptions) -> Iterator[messages.EngineLoaded | messages.EngineIndexed]:
    """Read the root, then build the index: `EngineLoaded` as soon as the files are parsed
    (browsing needs no index), `EngineIndexed` with the elapsed time once it is built.

    A broken root raises here; the worker turns that into `EngineFailed`, not a traceback."""
    started = time.perf_counter()
    engine = open_engine(options)
    with loading():
        engine.load_store(index_next=True)
    yield messages.EngineLoaded(engine, session_chars(options))
    with loading():
        engine.build_index()
    yield messages.EngineIndexed((time.perf_counter() - started) * 1000)


FIRST_ROWS = 60
"""Hits made on the worker before a search is shown when the list has no size yet; else as
many as it has rows. Making a hit's entry may read its text back from the cache file
(`core.cache.entry_table`), and its factor bar is worked out from the scoring arrays, neither
of which may happen on the event loop (both were most of a keystroke's repaint); the hits keep
what was made. Scrolling further makes the rest. Hits made beyond the rows shown were nearly
half of a keystroke's worker time in a 40-line terminal."""


@dataclass(frozen=True, slots=True)
class Search:
    """One search the list asks for: `rows` is how many rows it shows (FIRST_ROWS)."""

    generation: int
    query: str
    keep_id: str | None
    rows: int = FIRST_ROWS


def search(
    engine: Engine, asked: Search, outdated: Callable[[int], bool]
) -> messages.SearchDone | messages.SearchFailed | None:
    """Rank the query and make the hits of the list's first rows; None when a newer search
    was requested before or during this one."""
    generation, keep_id = asked.generation, asked.keep_id
    if outdated(generation):
        return None
    try:
        result = engine.search(asked.query)
    except QueryError as exc:
        return messages.SearchFailed(generation, str(exc))
    if outdated(generation):
        return None
    first = first_rows(result.hits, asked.rows)
    if keep_id is not None and all(hit.entry.id != keep_id for hit in first):
        position_of(result.hits, keep_id)
    return messages.SearchDone(generation, result, keep_id)


def load_lines(engine: Engine) -> messages.LoadLinesChecked:
    """Which loaded entries start or run past a load line: only that health check (it reads
    just the few files a rule applies to)."""
    return messages.LoadLinesChecked(load_line_cuts(engine))


def session_chars(options: AppOptions) -> int:
    """What the agent loads of the open memory at every session start, in characters (reads
    only the few files loaded at start)."""
    return sum(root_session_chars(root) for root in options.open_roots)


def apply_changes(engine: Engine, paths: list[Path]) -> messages.ChangesApplied:
    """Re-read the files at `paths` (after an edit)."""
    return messages.ChangesApplied(engine.apply_changes(paths))


def next_boost(current: float, direction: int) -> float | None:
    """A file's session boost after one + (`direction` > 0) or −: a step of BOOST_STEP, kept
    within MAX_SESSION_BOOST either way; None when it is back at 1 (no boost)."""
    factor = current * BOOST_STEP if direction > 0 else current / BOOST_STEP
    factor = max(1 / MAX_SESSION_BOOST, min(MAX_SESSION_BOOST, factor))
    return None if abs(factor - 1.0) < 1e-6 else factor
