"""The live entries the health checks read (`core.health.entries`): every column and body the
same as the entry made from it, on warm and cold loads, after changes, over two roots; and the
normalised texts duplicates compare the same as tokenizing each entry alone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from cache_helpers import cached_engine, fresh_engine
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.core.health import dated, duplicates
from memtui.core.health.duplicates import normalised_texts
from memtui.core.live.engine import Engine
from memtui.core.search import entry_keys
from memtui.core.search.tokenize import tokens


def _change_files(root: Path) -> None:
    daily = root / "memory/2026-11-20.md"
    daily.write_text(daily.read_text() + "\n## 22:00 — Deploy again\n\nDeployment of v2.2.\n")
    (root / "notes/loose.md").unlink()
    (root / "notes/new.md").write_text("# New\n\n## Invoice 数据 deploy\n\nÉtat café ﬁx.\n")


def _warm(*roots: Path) -> Engine:
    cached_engine(*roots).save_cache()
    return cached_engine(*roots)


def _warm_then_changed(root: Path) -> Engine:
    engine = _warm(root)
    _change_files(root)
    engine.apply_changes([root / "memory/2026-11-20.md", root / "notes/loose.md"])
    engine.apply_changes([root / "notes/new.md"])
    return engine


def _changed_then_warm(root: Path) -> Engine:
    cached_engine(root).save_cache()
    _change_files(root)
    return cached_engine(root)  # the changed files read over the cached table


def _two_roots_warm(root: Path) -> Engine:
    other = root.parent / "other"
    (other / "memory").mkdir(parents=True)
    (other / "MEMORY.md").write_text("# Memory\n\n## Deploy\n\nDeploys go out on Fridays.\n")
    (other / "memory/2026-11-19.md").write_text("# Notes\n\n## 08:00 — Deploy\n\nShipped.\n")
    return _warm(root, other)


ENGINES = {
    "cold": fresh_engine,
    "warm": _warm,
    "warm, then files changed (dead slots, a delta)": _warm_then_changed,
    "files changed since the cache was written": _changed_then_warm,
    "two roots, warm": _two_roots_warm,
}


@pytest.mark.parametrize("make", ENGINES.values(), ids=list(ENGINES))
def test_columns_and_bodies_are_the_entries_own(
    make: Callable[[Path], Engine], memory_root: Path
) -> None:
    engine = make(memory_root)
    live = engine.entry_terms().entries
    made = [live[index] for index in range(len(live))]
    assert sorted(entry.id for entry in made) == sorted(
        entry.id for entry in engine.loaded_entries()
    )
    assert live.titles == [entry.title for entry in made]
    assert live.roots == [entry.root for entry in made]
    assert live.paths == [entry.path for entry in made]
    assert live.qualified_paths == [entry.qualified_path for entry in made]
    assert live.line_start == [entry.line_start for entry in made]
    assert live.date_ordinal.tolist() == [
        -1 if entry.date is None else entry.date.toordinal() for entry in made
    ]
    assert [live.body(index) for index in range(len(live))] == [entry.body for entry in made]
    assert live[-1] == made[-1] and live[1:3] == made[1:3]
    with pytest.raises(IndexError):
        live.body(len(live))


@pytest.mark.parametrize("make", ENGINES.values(), ids=list(ENGINES))
def test_key_columns_are_the_entries_own(make: Callable[[Path], Engine], memory_root: Path) -> None:
    """Kept (a warm table's column) or worked out (a cold load's, a changed file's), each
    entry's text and topic hash is that of its own title and body."""
    live = make(memory_root).entry_terms().entries
    made = [live[index] for index in range(len(live))]
    worked_out: list[int] = []

    def text_hashes_of(rows: list[int]) -> np.ndarray:
        worked_out.extend(rows)
        return entry_keys.text_hashes((live.titles[row], live.body(row)) for row in rows)

    def topic_hashes_of(rows: list[int]) -> np.ndarray:
        return entry_keys.topic_hashes([live.titles[row] for row in rows])

    everyone = list(range(len(live)))
    texts = live.keys("text_hash", text_hashes_of, everyone)
    topics = live.keys("topic_hash", topic_hashes_of, everyone)
    assert texts.tolist() == [entry_keys.text_hash(entry.title, entry.body) for entry in made]
    assert topics.tolist() == entry_keys.topic_hashes([entry.title for entry in made]).tolist()
    assert (len(worked_out) == len(live)) == (make is fresh_engine)
    assert (worked_out == []) == (make in (_warm, _two_roots_warm))
    assert live.keys("text_hash", text_hashes_of, [2, 0]).tolist() == texts[[2, 0]].tolist()


@pytest.mark.parametrize(
    ("title", "key"), [("Deploy target (2026-10-02)", "deploy target"), ("2026-11-18 09:30", "")]
)
def test_a_topic_hash_is_its_key_s(title: str, key: str) -> None:
    """Titles of one topic share a hash; a title with no topic has NO_TOPIC."""
    (hashed,) = entry_keys.topic_hashes([title]).tolist()
    (again,) = entry_keys.topic_hashes([key.title() if key else title]).tolist()
    assert entry_keys.topic_keys([title]) == [key]
    assert hashed == again and (hashed == entry_keys.NO_TOPIC) == (not key)


def test_a_warm_start_makes_no_entry_for_the_columns(memory_root: Path, made: list[int]) -> None:
    engine = _warm(memory_root)
    made.clear()
    live = engine.entry_terms().entries
    assert live.titles and live.date_ordinal.size and live.body(0) is not None
    assert made == []


@pytest.mark.parametrize("batch", [1, 3, 1000])
@pytest.mark.parametrize(
    "make", [fresh_engine, _warm, _changed_then_warm], ids=["cold", "warm", "changed"]
)
def test_normalised_texts_tokenize_each_entry_alone(
    make: Callable[[Path], Engine],
    batch: int,
    memory_root: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(duplicates, "TEXT_BATCH", batch)
    engine = make(memory_root)
    live = engine.entry_terms().entries
    picked = list(range(len(live)))[::-2]
    texts = normalised_texts(live, picked + picked[:3])
    assert list(texts) == sorted(picked)
    for index in picked:
        entry = live[index]
        assert texts[index].split() == tokens(f"{entry.title}\n{entry.body}")


TITLES = {  # what `topic_key` gave each title alone before titles were tokenized in batches
    "Deploy target (2026-10-02)": "deploy target",
    "Deploy target": "deploy target",
    "Session: 2026-11-18 09:30 UTC": "",
    "Monday 2026-11-16": "",
    "Tasks": "tasks",
    "ok": "",
    "": "",
    "Ｆｕｌｌwidth Ｔitle 3": "fullwidth title",
    "数据库 迁移": "",
    "数据库迁移 plan": "数 据 库 迁 移 数据 据库 库迁 迁移 plan",
    "İstanbul ＡＢＣ 2026": "i stanbul abc",
    "Redis v7 upgrade — 12 nodes": "redis upgrade nodes",
    "bad \x01 separator": "bad separator",
}


@pytest.mark.parametrize("batch", [1, 2, 5000])
def test_topic_keys_drop_dates_and_numbers_from_each_title(
    batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(entry_keys, "TITLE_BATCH", batch)
    assert entry_keys.topic_keys(list(TITLES)) == list(TITLES.values())
    assert entry_keys.topic_keys([]) == []


def _topic_key_alone(title: str) -> str:
    """`topic_keys` of one title, as it reads: a word at a time."""
    words = tokens(title)
    kept = [
        w for w in words if w not in entry_keys._CALENDAR and entry_keys._DIGIT.search(w) is None
    ]
    if not kept or max(map(len, kept)) < 3:
        return ""
    if len(kept) == 1 and len(words) - len(kept) > len(kept):
        return ""
    return " ".join(kept)


_TITLE_WORDS = ["Deploy", "db", "2026-11-18", "09:30", "UTC", "may", "v7", "ab", "数据库", "É", "x"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.lists(st.sampled_from(_TITLE_WORDS), max_size=5).map(" ".join),
            st.text(max_size=12),
        ),
        max_size=12,
    ),
    st.integers(1, 4),
)
def test_topic_keys_are_each_title_s_own(titles: list[str], batch: int) -> None:
    """The batched keys (counted in numpy, cut from one joined string) are what each title
    alone gives, in any batch size."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(entry_keys, "TITLE_BATCH", batch)
        assert entry_keys.topic_keys(titles) == [_topic_key_alone(title) for title in titles]


@pytest.mark.parametrize("make", ENGINES.values(), ids=list(ENGINES))
def test_newest_mentions_are_the_same_in_any_pair_order(
    make: Callable[[Path], Engine], memory_root: Path
) -> None:
    """Each word's newest mention: over runs of the index's word order (`reduceat`) as over
    the pairs shuffled (`maximum.at`), and as counted one pair at a time."""
    import numpy as np
    from msgspec.structs import replace

    terms = make(memory_root).entry_terms()
    ordinals = np.arange(5, 5 + len(terms.entries), dtype=np.int32)[::-1].copy()
    expected = [0] * len(terms.words)
    for owner, word in zip(terms.owners.tolist(), terms.word_ids.tolist(), strict=True):
        expected[word] = max(expected[word], int(ordinals[owner]))
    shuffled = np.random.default_rng(7).permutation(len(terms.owners))
    mixed = replace(terms, owners=terms.owners[shuffled], word_ids=terms.word_ids[shuffled])
    assert dated._newest_mention(terms, ordinals).tolist() == expected
    assert dated._newest_mention(mixed, ordinals).tolist() == expected


@settings(max_examples=150, deadline=None)
@given(
    ids=st.lists(st.integers(0, 9), max_size=40),
    values=st.lists(st.integers(-5, 5), min_size=10, max_size=10),
)
def test_by_word_is_the_gather_in_any_pair_order(ids: list[int], values: list[int]) -> None:
    """One value per run of equal word ids, repeated: the same as indexing, whether the ids
    come in the index's runs or in any other order."""
    import numpy as np

    from memtui.core.search.terms import by_word

    word_ids = np.asarray(ids, dtype=np.int32)
    per_word = np.asarray(values, dtype=np.int64)
    assert by_word(per_word, word_ids).tolist() == per_word[word_ids].tolist()
    assert by_word(per_word, np.sort(word_ids)).tolist() == per_word[np.sort(word_ids)].tolist()
