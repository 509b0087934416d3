"""Memory is given back: nothing live keeps the entries of removed or replaced content.

Release is proven by structure, never by RSS: what a live object (an engine, an index, a
snapshot) can reach is walked with `gc.get_referents`, and the entries of a file that went
away must not be among it. The soak that reports RSS is `scripts/soak_memory.py`.
"""

from __future__ import annotations

import datetime as dt
import gc
import shutil
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_rank import make_entry

from memtui.core.live import snapshot as snapshot_module
from memtui.core.live.engine import Engine
from memtui.core.live.snapshot import Snapshot
from memtui.core.model import Entry
from memtui.core.search import index as index_module
from memtui.core.search.index import Index
from memtui.core.search.segment import EMPTY_SEGMENT, Segment
from memtui.core.settings.config import Config

TODAY = dt.date(2026, 11, 23)
GIANT_WORDS = 20_000
"""Words in the giant entry: far above the (lowered) thresholds below."""


def reachable(root: object) -> Iterator[object]:
    """Every object `root` reaches through references, code and modules left out."""
    seen = {id(root)}
    stack = [root]
    while stack:
        item = stack.pop()
        yield item
        for referent in gc.get_referents(item):
            if id(referent) in seen or isinstance(
                referent, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
            ):
                continue
            seen.add(id(referent))
            stack.append(referent)


def reachable_entries(root: object, path: str) -> list[Entry]:
    return [item for item in reachable(root) if isinstance(item, Entry) and item.path == path]


def giant_body(marker: str) -> str:
    return " ".join(f"{marker}{number % 997}" for number in range(GIANT_WORDS))


@pytest.fixture
def low_thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thresholds a few thousand characters high, so a test-sized giant crosses them."""
    monkeypatch.setattr(index_module, "COMPACT_MIN_DEAD_CHARS", 5_000)
    monkeypatch.setattr(snapshot_module, "COMPACT_MIN_HIDDEN_WEIGHT", 5_000)


# --- the index ---------------------------------------------------------------------------------


def small_index() -> Index:
    index = Index()
    index.rebuild(
        [
            make_entry("a.md", "Deploy", "deploy checklist", line=1),
            make_entry("b.md", "Depot", "the depot", line=1),
        ]
    )
    return index


@pytest.mark.parametrize("after", ["removed", "replaced"])
def test_one_huge_dead_entry_is_compacted_away(low_thresholds: None, after: str) -> None:
    """Dead slots counted alone never compacted a single huge entry (1 dead < 1000)."""
    index = small_index()
    index.replace_paths({"giant.md": [make_entry("giant.md", "Giant", giant_body("g"))]})
    assert index.live_count == 3
    replacement = [make_entry("giant.md", "Small", "small now")] if after == "replaced" else []
    index.replace_paths({"giant.md": replacement})
    assert index.slot_count == index.live_count == 2 + len(replacement)
    assert index.dead_chars == 0
    assert all(len(entry.body) < 100 for entry in reachable_entries(index, "giant.md"))


def test_small_changes_stay_in_the_delta(low_thresholds: None) -> None:
    """Compaction is amortised: dead text below the live text does not trigger it."""
    index = Index()
    index.rebuild(
        [make_entry("big.md", "Big", giant_body("b")), make_entry("b.md", "Depot", "the depot")]
    )
    generation = index.generation
    for body in ("one", "two", "three"):
        index.replace_paths({"b.md": [make_entry("b.md", "Depot", body)]})
    assert index.generation == generation
    assert index.slot_count == 5 and index.dead_chars > 0


def test_compaction_keeps_no_cache_of_the_old_main_segment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fuzzy buckets and prefix sums were kept per main segment until the next lookup, so the
    segment of a removed giant (all its postings) outlived the compaction."""
    monkeypatch.setattr(index_module, "COMPACT_MIN_DEAD", 0)
    index = Index()
    index.rebuild(
        [
            make_entry("giant.md", "Giant", giant_body("g")),
            make_entry("a.md", "Deploy", "deploy checklist"),
            make_entry("b.md", "Depot", "the depot"),
        ]
    )
    index.prepare_fuzzy()
    index.prepare_prefixes()
    index.fuzzy_words("gaint")
    generation = index.generation
    index.replace_paths({"giant.md": [], "a.md": []})  # 2 dead, 1 live: compacted
    assert index.generation > generation
    segments = [item for item in reachable(index) if isinstance(item, Segment)]
    assert {id(segment) for segment in segments} <= {
        id(index.main),
        id(index.delta),
        id(EMPTY_SEGMENT),
    }


def test_delta_tokens_share_one_string_per_word() -> None:
    """Half a million token strings of one changed file fragmented Python's small-object
    arenas; the delta keeps one string per distinct word."""
    index = small_index()
    index.replace_paths(
        {
            "c.md": [make_entry("c.md", "Repeat", "zebracorn " * 500)],
            "d.md": [make_entry("d.md", "Again", "zebracorn " * 300)],
        }
    )
    copies = {
        id(item) for item in reachable(index) if isinstance(item, str) and item == "zebracorn"
    }
    assert len(copies) == 1
    assert index.document_frequency("zebracorn") == 2


# --- the engine: store, index, ranker and scored queries together ---------------------------


def write_memory(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "MEMORY.md").write_text(
        "# Memory\n\n## Deploy\n\ncanary first\n\n## Team\n\nweekly sync\n", encoding="utf-8"
    )
    giant = root / "notes" / "giant.md"
    giant.parent.mkdir()
    giant.write_text(f"# Giant\n\n{giant_body('g')}\n", encoding="utf-8")
    return giant


def replace_root(root: Path) -> None:
    """Swap the folder for one holding 4 entries, as a sync tool or `git checkout` does."""
    shutil.rmtree(root)
    root.mkdir()
    (root / "MEMORY.md").write_text(
        "".join(f"## Entry {number}\n\nbody {number}\n\n" for number in range(4)), encoding="utf-8"
    )


@pytest.mark.parametrize("after", ["removed", "replaced", "root replaced"])
def test_the_engine_keeps_no_entry_of_content_that_went_away(
    low_thresholds: None,
    tmp_path: Path,
    after: str,
) -> None:
    root = tmp_path / "memory"
    giant = write_memory(root)
    engine = Engine(root, Config(), today=TODAY, days=0)
    engine.load()
    for query in ("g1", "g", "deploy g17", '"g3 g4"', "gaint"):
        result = engine.search(query)
        if result.hits:
            engine.explain(result.hits[0].entry.id, query)
    assert any(len(entry.body) > 10_000 for entry in reachable_entries(engine, "notes/giant.md"))
    if after == "removed":
        giant.unlink()
    elif after == "replaced":
        giant.write_text("# Giant\n\nsmall now\n", encoding="utf-8")
    else:
        replace_root(root)
    engine.apply_changes([root if after == "root replaced" else giant])
    assert engine.search("g").total_matches == (1 if after == "replaced" else 0)
    assert len(engine) == {"removed": 2, "replaced": 3, "root replaced": 4}[after]
    assert all(len(entry.body) < 100 for entry in reachable_entries(engine, "notes/giant.md"))


# --- the store's snapshots ---------------------------------------------------------------------


class Weighted:
    """A value with a weight and an identity (ints are shared, so they cannot be traced)."""

    def __init__(self, weight: int) -> None:
        self.weight = weight


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.dictionaries(st.integers(0, 30), st.integers(0, 400_000), max_size=8),
            st.sets(st.integers(0, 30), max_size=8),
        ),
        max_size=30,
    )
)
def test_a_snapshot_hides_little_weight(steps: list[tuple[dict[int, int], set[int]]]) -> None:
    """Each version equals the dict it models, and the replaced or removed values it still
    reaches (through the shared base) never weigh more than the limit."""
    snapshot: Snapshot[int, Weighted] = Snapshot(weigh=lambda value: value.weight)
    model: dict[int, Weighted] = {}
    for assign, delete in steps:
        boxed = {key: Weighted(weight) for key, weight in assign.items()}
        snapshot = snapshot.evolve(boxed, delete)
        for key in delete:
            model.pop(key, None)
        model.update(boxed)
        assert dict(snapshot.items()) == model
        live = {id(value) for value in model.values()}
        hidden = sum(
            item.weight
            for item in reachable(snapshot)
            if isinstance(item, Weighted) and id(item) not in live
        )
        assert hidden <= snapshot_module.COMPACT_MIN_HIDDEN_WEIGHT
