"""Newest search wins: a slow search that finishes late never paints over a newer one.

The engine is a stand-in whose search for one query blocks until the test releases it, so the
order is fixed: the slow search starts, a newer query is typed and painted, then the slow one
finishes. Whether it ends with a result or a query error, the screen must keep the newer one.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.message import Message
from ui_fakes import FakeEngine, make_entry
from ui_helpers import SIZE, app_over, rows, wait_loaded, wait_until

from memtui.core.model import Entry, RankResult
from memtui.core.search.query import QueryError
from memtui.ui import messages
from memtui.ui.widgets.results import ResultsList

SLOW, FAST = "alpha", "beta"
PLANS = [make_entry(0, "alpha plan", "alpha steps"), make_entry(1, "beta plan", "beta steps")]
"""One entry each query finds."""
STEPS_AFTER = 30
"""Event-loop turns (of at least 10 ms) the newer result must survive once the slow one is
back: far more than the microseconds between a worker's search returning and its post."""


class SlowEngine(FakeEngine):
    """Searches for SLOW wait for `release`; with `fail`, they then raise a QueryError."""

    def __init__(self, root: Path, entries: list[Entry], *, fail: bool) -> None:
        super().__init__(root, entries)
        self.fail = fail
        self.started = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()

    def search(self, query: str, *, limit: int | None = None) -> RankResult:
        if query != SLOW:
            return super().search(query, limit=limit)
        self.started.set()
        try:
            assert self.release.wait(timeout=30), "the test never released the slow search"
            if self.fail:
                raise QueryError("the slow query went wrong")
            return super().search(query, limit=limit)
        finally:
            self.finished.set()


@pytest.mark.parametrize("fail", [False, True], ids=["slow-result", "slow-query-error"])
async def test_a_slow_search_never_paints_over_a_newer_one(tmp_path: Path, fail: bool) -> None:
    engine = SlowEngine(
        tmp_path,
        PLANS,
        fail=fail,
    )
    app = app_over(engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)

        def shows_fast() -> bool:
            result = screen.result
            return (
                result is not None
                and result.query == FAST
                and app.painted_generation >= screen.generation
                and not screen.detail_pending
                and not screen.query_error
            )

        def assert_shows_fast() -> None:
            listed = rows(app)
            assert len(listed) == 1 and "beta plan" in listed[0], listed
            assert screen.result is not None and screen.result.query == FAST
            assert "1 match" in str(app.screen.query_one("#query-status").render())
            assert not screen.query_error and not app.screen.query_one("#banner").display
            pane = screen.pane
            assert pane.hit is not None and pane.hit.entry.title == "beta plan"

        screen.set_query(SLOW)
        await wait_until(pilot, engine.started.is_set)
        screen.set_query(FAST)
        await wait_until(pilot, shows_fast)
        assert_shows_fast()

        engine.release.set()
        await wait_until(pilot, engine.finished.is_set)
        for _ in range(STEPS_AFTER):  # the slow worker posts, if at all, right after its search
            await pilot.pause(0.01)
            assert_shows_fast()


@pytest.mark.parametrize("late", ["result", "query-error"])
async def test_the_screen_drops_a_late_message_of_an_older_search(
    tmp_path: Path, late: str
) -> None:
    """The worker drops an outdated search itself, but one posted just before a newer request
    still arrives after it: the screen's handlers must drop it too. The same message with the
    newest generation is shown, so the drop is the generation check and nothing else."""
    engine = FakeEngine(tmp_path, PLANS)
    app = app_over(engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)

        def late_message(generation: int) -> Message:
            if late == "result":
                return messages.SearchDone(generation, engine.search(SLOW), None)
            return messages.SearchFailed(generation, "a late query error")

        def shows_the_newest() -> bool:
            listed = rows(app)
            return len(listed) == 1 and "beta plan" in listed[0] and not screen.query_error

        screen.set_query(FAST)
        await wait_until(pilot, shows_the_newest)
        await wait_until(pilot, lambda: app.painted_generation >= screen.generation > 1)
        screen.post_message(late_message(screen.generation - 1))
        for _ in range(STEPS_AFTER):
            await pilot.pause(0.01)
            assert shows_the_newest(), rows(app)

        screen.post_message(late_message(screen.generation))
        await wait_until(pilot, lambda: not shows_the_newest())


async def test_the_panes_are_pending_until_the_selection_of_new_hits_arrives(
    tmp_path: Path,
) -> None:
    """New hits are listed, and the list's selection of them reaches the panes a message
    later: the list may paint in between (it did, on a loaded CI host). Until the selection
    arrives the panes still show the earlier one, and must say so."""
    engine = FakeEngine(tmp_path, PLANS)
    app = app_over(engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        pane = screen.pane
        await wait_until(pilot, lambda: pane.hit is not None and not screen.detail_pending)
        before = pane.hit
        pane.defer_next(True)
        screen.query_one(ResultsList).set_hits(engine.search(FAST).hits, keep_id=None)
        assert screen.detail_pending and pane.hit is before
        await wait_until(pilot, lambda: not screen.detail_pending)
        assert pane.hit is not None and pane.hit.entry.title == "beta plan"
