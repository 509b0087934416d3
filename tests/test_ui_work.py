"""The main screen's pieces that need no screen: boost steps, search generations, which
entries a hand-off takes, and what a watcher's batch means for the screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ui_fakes import make_entry, make_hit

from memtui.core.live.roots import MemoryRoot
from memtui.core.live.tuning import MAX_SESSION_BOOST
from memtui.core.live.watch import WatchBatch, WatchMode
from memtui.core.model import Hit
from memtui.ui.hand_off_flow import wanted_ids
from memtui.ui.handoff import Purpose
from memtui.ui.marks import Marks
from memtui.ui.search_work import BOOST_STEP, SearchRequests, next_boost
from memtui.ui.watching import Watching


@pytest.mark.parametrize(
    ("current", "direction", "expected"),
    [
        (1.0, 1, BOOST_STEP),
        (1.0, -1, 1 / BOOST_STEP),
        (BOOST_STEP, -1, None),  # back at 1: no boost at all
        (1 / BOOST_STEP, 1, None),
        (MAX_SESSION_BOOST, 1, MAX_SESSION_BOOST),  # kept within the bound
        (1 / MAX_SESSION_BOOST, -1, 1 / MAX_SESSION_BOOST),
        (9.0, 1, MAX_SESSION_BOOST),
    ],
)
def test_next_boost(current: float, direction: int, expected: float | None) -> None:
    result = next_boost(current, direction)
    assert result == (None if expected is None else pytest.approx(expected))


@given(st.integers(min_value=-12, max_value=12), st.sampled_from([1, -1]))
def test_a_boost_stays_within_its_bounds_and_one_step_back_undoes_it(
    steps: int, direction: int
) -> None:
    current = BOOST_STEP**steps
    if not 1 / MAX_SESSION_BOOST <= current <= MAX_SESSION_BOOST:
        return
    after = next_boost(current, direction)
    factor = 1.0 if after is None else after
    assert 1 / MAX_SESSION_BOOST - 1e-9 <= factor <= MAX_SESSION_BOOST + 1e-9
    back = next_boost(factor, -direction)
    clamped = factor in (pytest.approx(MAX_SESSION_BOOST), pytest.approx(1 / MAX_SESSION_BOOST))
    if not clamped:
        assert (1.0 if back is None else back) == pytest.approx(current)


def test_the_newest_search_outdates_every_earlier_one() -> None:
    requests = SearchRequests()
    first, second = requests.next(), requests.next()
    assert second > first
    assert requests.outdated(first) and not requests.outdated(second)
    requests.mark_painted(second)
    requests.mark_painted(first)  # a late paint never moves it back
    assert requests.painted == second


def hit(index: int) -> Hit:
    return make_hit(index + 1, make_entry(index, f"entry {index}", "body"))


@pytest.mark.parametrize("purpose", list(Purpose))
def test_marked_entries_go_first_in_marking_order(purpose: Purpose) -> None:
    marks = Marks()
    marks.toggle(hit(2).entry)
    marks.toggle(hit(0).entry)
    assert wanted_ids(purpose, "all", marks, hit(1)) == ["e2", "e0"]


@pytest.mark.parametrize(
    ("purpose", "mode", "expected"),
    [
        (Purpose.MARKDOWN, "", ["e1"]),
        (Purpose.CITATIONS, "all", ["e1"]),
        (Purpose.PICK, "selected", ["e1"]),
        (Purpose.PICK, "all", None),  # `pick --multi` with nothing marked: every result
    ],
)
def test_nothing_marked_takes_the_selected_entry(
    purpose: Purpose, mode: str, expected: list[str] | None
) -> None:
    assert wanted_ids(purpose, mode, Marks(), hit(1)) == expected  # type: ignore[arg-type]


def test_nothing_marked_or_selected_takes_nothing() -> None:
    assert wanted_ids(Purpose.MARKDOWN, "", Marks(), None) == []


def test_a_missing_folder_shows_the_banner_and_its_return_hides_it(tmp_path: Path) -> None:
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    watching = Watching([MemoryRoot("alpha", alpha), MemoryRoot("beta", beta)], force_polling=True)
    gone = watching.read(WatchBatch(frozenset(), WatchMode.ROOT_MISSING, missing=(beta,)))
    assert gone.missing == (beta,) and gone.banner is not None and str(beta) in gone.banner
    assert gone.mode_changed and not gone.back
    still = watching.read(WatchBatch(frozenset(), WatchMode.ROOT_MISSING))
    assert still.missing == (alpha, beta)  # no list given: every open folder
    assert not still.mode_changed
    back = watching.read(WatchBatch(frozenset({alpha / "x.md"}), WatchMode.WATCHING))
    assert back.back and back.banner is None and back.mode_changed and back.missing == ()
    watching.stop()
    assert watching.mode is WatchMode.OFF
