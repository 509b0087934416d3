"""A cold load tokenized as it is read (`core.live.build_ahead`): the index a build after the
load makes, whatever the children do, whether or not the slots begin with the tables handed
over, and no child left behind."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import layouts
import pytest
from cache_helpers import TODAY, assert_same_engine, fresh_engine, roots_of
from test_two_process_build import children, same

from memtui.core.cache.folder import CacheFolder
from memtui.core.live import build_ahead, file_spool, fork
from memtui.core.live.engine import Engine
from memtui.core.live.roots import MemoryRoot
from memtui.core.model import Entry
from memtui.core.search import segment as segment_module
from memtui.core.search.segment import HeadStart, build_main_segment
from memtui.core.settings.config import Config

pytestmark = [
    pytest.mark.skipif(not fork.can_fork(), reason="building ahead needs fork"),
    pytest.mark.usefixtures("small_tables"),
]

TABLE_ROWS = 8


@pytest.fixture
def small_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables of a few rows and batches smaller than a table, so a small root is handed over
    in several tables, each tokenized in several batches."""
    monkeypatch.setattr(file_spool, "SPOOL_ROWS", TABLE_ROWS)
    monkeypatch.setattr(build_ahead, "MIN_BYTES", 0)
    monkeypatch.setattr(segment_module, "BUILD_BATCH", 3)


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many rows each child started by a build ahead was given."""
    given: list[int] = []
    start = fork.start_in_child

    def counted(work: Callable[[], list[bytes | memoryview]]) -> fork.Child | None:
        given.append(len(work.args[0]))  # type: ignore[attr-defined]
        return start(work)

    monkeypatch.setattr(build_ahead, "start_in_child", counted)
    return given


@pytest.fixture
def heads(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Slots each build took from its build ahead (None: it started from slot 0)."""
    taken: list[int | None] = []
    head_start = build_ahead.BuildAhead.head_start

    def recorded(self: build_ahead.BuildAhead, slots: Sequence[Entry]) -> HeadStart | None:
        head = head_start(self, slots)
        taken.append(None if head is None else head.slots)
        return head

    monkeypatch.setattr(build_ahead.BuildAhead, "head_start", recorded)
    return taken


def cold_engine(root: Path | tuple[MemoryRoot, ...], cache: Path, *, days: int = 0) -> Engine:
    engine = Engine(root, Config(), today=TODAY, days=days, cache=CacheFolder(cache))
    engine.load()
    return engine


def assert_built_as_after_the_load(engine: Engine) -> None:
    """The installed postings are those of a one-process build of the same slots."""
    index = engine._index
    built = build_main_segment(index.entries.base, two_processes=False)
    same((index.main, index.lengths[: len(index.entries.base)]), built)


def test_a_cold_load_is_tokenized_by_children_as_it_is_read(
    memory_root: Path,
    tmp_path: Path,
    forks: list[int],
    heads: list[int | None],
) -> None:
    before = children()
    engine = cold_engine(memory_root, tmp_path / "cache")
    assert len(forks) > 2 and sum(forks) == len(engine)  # every table handed over, once
    assert heads == [len(engine)]  # the build only placed the postings
    assert_built_as_after_the_load(engine)
    assert_same_engine(engine, fresh_engine(memory_root))
    assert children() == before


def test_several_roots_are_handed_over_root_by_root(
    tmp_path: Path, forks: list[int], heads: list[int | None]
) -> None:
    """`--all`: each root's spool writes its own tables, and the slots are root by root."""
    folders = [layouts.build_all(tmp_path / name) for name in ("one", "two")]
    engine = cold_engine(roots_of(*folders), tmp_path / "cache")
    assert sum(forks) == len(engine) and heads == [len(engine)]
    assert_built_as_after_the_load(engine)
    assert_same_engine(engine, fresh_engine(*folders))


def test_a_small_load_forks_nothing(
    memory_root: Path,
    tmp_path: Path,
    forks: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under MIN_BYTES of Markdown the build after the load is quick: nothing is forked."""
    size = sum(path.stat().st_size for path in memory_root.rglob("*.md"))
    monkeypatch.setattr(build_ahead, "MIN_BYTES", size + 1)
    engine = cold_engine(memory_root, tmp_path / "cache")
    assert forks == []
    assert_same_engine(engine, fresh_engine(memory_root))


def test_a_warm_start_hands_nothing_over(
    memory_root: Path, tmp_path: Path, forks: list[int]
) -> None:
    """A root read from its cache keeps cached rows first: changed files' tables are not
    where its slots begin, so tokenizing them ahead would be wasted."""
    cold_engine(memory_root, tmp_path / "cache").save_cache()
    forks.clear()
    (memory_root / "MEMORY.md").write_text("# Memory\n\n## Changed\n\nA new deploy note.\n")
    engine = cold_engine(memory_root, tmp_path / "cache")
    assert forks == []
    assert_same_engine(engine, fresh_engine(memory_root))


def test_slots_that_do_not_begin_with_the_tables_are_built_from_the_start(
    memory_root: Path,
    tmp_path: Path,
    forks: list[int],
    heads: list[int | None],
) -> None:
    """A window drops a history file's old entries from its slots, not from its table: the
    children's part no longer lines up, so the build starts from slot 0 and reaps them."""
    before = children()
    history = memory_root / "HISTORY.md"
    history.write_text(
        "".join(f"[2020-01-{day:02d}] old deploy {day}\n\n" for day in range(1, 20))
        + "[2026-11-20] recent deploy\n"
    )
    engine = cold_engine(memory_root, tmp_path / "cache", days=30)
    assert forks and heads == [None]
    assert_built_as_after_the_load(engine)
    assert_same_engine(engine, fresh_engine(memory_root, days=30))
    assert children() == before


class FailedChild:
    """A child whose work failed: done, and it gives nothing back."""

    def __call__(self) -> None:
        return None

    def done(self) -> bool:
        return True

    def stop(self) -> None:
        pass


@pytest.mark.parametrize(
    "child",
    [
        pytest.param(lambda work: None, id="no child could start"),
        pytest.param(lambda work: FailedChild(), id="a child failed"),
    ],
)
def test_without_the_children_the_build_starts_over(
    memory_root: Path,
    tmp_path: Path,
    child: Callable[..., object],
    heads: list[int | None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(build_ahead, "start_in_child", child)
    engine = cold_engine(memory_root, tmp_path / "cache")
    assert heads == [None]
    assert_built_as_after_the_load(engine)
    assert_same_engine(engine, fresh_engine(memory_root))


def test_a_second_load_stops_the_first_ones_children(
    memory_root: Path,
    tmp_path: Path,
    forks: list[int],
    heads: list[int | None],
) -> None:
    """A second load before the build (a reload) stops the first one's children; the build
    after it uses only the second's."""
    before = children()
    engine = Engine(memory_root, Config(), today=TODAY, days=0, cache=CacheFolder(tmp_path))
    engine.load_store(index_next=True)
    first = len(forks)
    engine.load_store(index_next=True)
    assert len(forks) == 2 * first
    engine.build_index()
    assert heads == [len(engine)]
    assert_built_as_after_the_load(engine)
    assert children() == before


def test_a_stopped_child_is_killed_and_reaped() -> None:
    before = children()
    child = fork.start_in_child(forever)
    assert child is not None and not child.done()
    child.stop()
    assert child() is None
    assert children() == before


def forever() -> list[bytes | memoryview]:
    while True:
        pass
