"""The two-process index build (`core.search.segment`, `core.live.fork`): the same segment
as a one-process build, whatever the child does, and no child left behind."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np
import pytest
from reference_rank import make_entry

from memtui.core.live import fork
from memtui.core.model import Entry
from memtui.core.search import segment as segment_module
from memtui.core.search.segment import Segment, build_main_segment

pytestmark = pytest.mark.skipif(not fork.can_fork(), reason="two-process builds need fork")

ARRAYS = ("word_lengths", "ptr", "docs", "heading", "body")


def corpus() -> list[Entry]:
    """Entries over several files whose later ones bring words the earlier lack, counts past
    uint8 (widened on the way) and CJK, in many small batches."""
    entries = []
    for number in range(300):
        body = f"deploy step{number % 37} café 数据库 " + "spam " * (300 if number == 250 else 1)
        entries.append(
            make_entry(
                f"notes/file{number // 10}.md",
                f"Title {number % 11}",
                body,
                position=number % 10,
                count=10,
                line=1 + 5 * (number % 10),
            )
        )
    return entries


def same(left: tuple[Segment, np.ndarray], right: tuple[Segment, np.ndarray]) -> None:
    assert left[0].words == right[0].words
    for name in ARRAYS:
        one, two = getattr(left[0], name), getattr(right[0], name)
        assert one.dtype == two.dtype and np.array_equal(one, two), name
    assert left[1].dtype == right[1].dtype and np.array_equal(left[1], right[1])


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segment_module, "BUILD_BATCH", 16)


@pytest.mark.parametrize("share", [0.1, 0.5, 0.9])
def test_two_processes_build_the_one_process_segment(
    small_batches: None, share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(segment_module, "PARENT_SHARE", share)
    entries = corpus()
    same(
        build_main_segment(entries, two_processes=True),
        build_main_segment(entries, two_processes=False),
    )


@pytest.mark.parametrize(
    "child",
    [
        pytest.param(lambda work: None, id="no child could start"),
        pytest.param(lambda work: lambda: None, id="the child failed"),
    ],
)
def test_without_the_child_its_part_is_built_here(
    small_batches: None, child: Callable[..., object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(segment_module, "start_in_child", child)
    entries = corpus()
    same(
        build_main_segment(entries, two_processes=True),
        build_main_segment(entries, two_processes=False),
    )


def children() -> set[int]:
    """Pids of this process's children still in the process table (zombies included)."""
    mine = str(os.getpid())
    found = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == mine:
                found.add(int(name))
    return found


def test_a_child_hands_back_its_pieces_and_is_reaped() -> None:
    before = children()
    pieces: list[bytes | memoryview] = [
        b"x" * 3_000_000,
        b"",
        np.arange(5, dtype=np.int32).data.cast("B"),
    ]
    waiting = fork.start_in_child(lambda: pieces)  # past a pipe's buffer, and an empty piece
    assert waiting is not None
    assert waiting() == [
        bytearray(b"x" * 3_000_000),
        bytearray(),
        bytearray(np.arange(5, dtype=np.int32).tobytes()),
    ]
    assert children() == before


def failing() -> list[bytes]:
    raise RuntimeError("boom")


def test_a_child_that_fails_gives_none() -> None:
    waiting = fork.start_in_child(failing)
    assert waiting is not None and waiting() is None


def hanging() -> list[bytes]:
    time.sleep(60)
    return [b"late"]


def test_a_child_that_hangs_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fork, "CHILD_TIMEOUT_S", 0.2)
    before = children()
    waiting = fork.start_in_child(hanging)
    assert waiting is not None
    started = time.monotonic()
    assert waiting() is None
    assert time.monotonic() - started < 30  # killed, not waited out
    assert children() == before


def test_large_folders_use_two_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[object] = []

    def record(work: object) -> None:
        started.append(work)

    monkeypatch.setattr(segment_module, "start_in_child", record)
    monkeypatch.setattr(segment_module, "TWO_PROCESS_MIN_ENTRIES", 200)
    monkeypatch.setattr(segment_module, "BUILD_BATCH", 16)
    build_main_segment(corpus()[:150])
    assert not started
    build_main_segment(corpus())
    assert len(started) == 1
