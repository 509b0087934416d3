"""The inverted index: sorted-id prefix ranges, variants, fuzzy typos, per-file updates."""

from __future__ import annotations

import numpy as np
import pytest
from reference_rank import make_entry

from memtui.core.model import MatchKind
from memtui.core.search import expansion as expansion_module
from memtui.core.search import index as index_module
from memtui.core.search import segment as segment_module
from memtui.core.search.expansion import variant_stem
from memtui.core.search.fields import entry_tokens
from memtui.core.search.index import Index
from memtui.core.search.segment import build_segment

WORDS = ["deploy", "deployed", "deployment", "depot", "staging", "kubernetes", "ci", "数据"]


def small_index() -> Index:
    index = Index()
    index.rebuild(
        [
            make_entry("a.md", "Deploy checklist", "deploy deploy ci staging", position=0, count=2),
            make_entry("a.md", "Other", "deployment of kubernetes", position=1, count=2, line=9),
            make_entry("b.md", "Depot", "the depot deployed 数据库", line=1),
        ]
    )
    return index


def test_segment_prefix_range_is_contiguous() -> None:
    segment = build_segment([(0, [], WORDS), (1, ["deploy"], ["ci"])])
    lo, hi = segment.id_range("depl")
    assert segment.words[lo:hi] == ["deploy", "deployed", "deployment"]
    assert segment.id_range("zzz")[0] == segment.id_range("zzz")[1]
    word_id = segment.word_id("deploy")
    assert word_id is not None
    start, end = segment.ptr[word_id], segment.ptr[word_id + 1]
    assert segment.docs[start:end].tolist() == [0, 1]
    assert segment.heading[start:end].tolist() == [0, 1]
    assert segment.body[start:end].tolist() == [1, 0]
    assert segment.word_id("nope") is None


def test_empty_segment() -> None:
    segment = build_segment([])
    assert segment.words == [] and segment.id_range("a") == (0, 0)


@pytest.mark.parametrize(
    ("term", "stem"),
    [
        ("deployment", "deploy"),
        ("deploying", "deploy"),
        ("configuration", "configur"),
        ("tests", "test"),
        ("ci", None),
        ("uses", None),
        ("deploy", None),
    ],
)
def test_variant_stem(term: str, stem: str | None) -> None:
    assert variant_stem(term) == stem


def test_expand_exact_prefix_variant() -> None:
    index = small_index()
    expansion = index.expand("deploy", prefix=True)
    credits = dict(zip(expansion.words, expansion.word_credits.tolist(), strict=True))
    assert credits["deploy"] == 1.0
    assert 0.6 < credits["deployment"] < credits["deployed"] < 1.0
    assert expansion.kind("deploy") is MatchKind.EXACT
    assert expansion.kind("deployed") is MatchKind.PREFIX
    variant = index.expand("deployments", prefix=True)
    assert dict(zip(variant.words, variant.word_credits.tolist(), strict=True))["deploy"] == 0.7
    assert variant.kind("deploy") is MatchKind.VARIANT
    assert variant.kind("deployed") is MatchKind.VARIANT
    assert variant.kind("deployment") is MatchKind.VARIANT
    assert index.expand("deploym", prefix=True).kind("deployment") is MatchKind.PREFIX
    exact_only = index.expand("ci", prefix=False)
    assert exact_only.words == ["ci"]


def test_fuzzy_catches_transpositions_only_without_real_matches() -> None:
    index = small_index()
    typo = index.expand("kubernetse", prefix=True)
    assert typo.words == ["kubernetes"]
    assert typo.kind("kubernetes") is MatchKind.FUZZY
    assert typo.word_credits[0] == pytest.approx(0.8 * 0.9)
    assert index.expand("depo", prefix=True).fuzzy == {}
    assert len(index.expand("xyzq", prefix=True).docs) == 0


def test_cjk_terms_match_exactly() -> None:
    index = small_index()
    assert index.expand("数据", prefix=True).words == ["数据"]
    assert index.expand("数", prefix=True).words == ["数"]


def test_replace_paths_marks_old_slots_dead_and_indexes_new_ones() -> None:
    index = small_index()
    assert index.live_count == 3
    index.replace_paths({"b.md": [make_entry("b.md", "Depot", "rollback plan")], "a.md": []})
    assert index.live_count == 1
    assert index.document_frequency("depot") == 1
    assert index.document_frequency("deploy") == 0
    assert index.document_frequency("rollback") == 1
    live = np.flatnonzero(index.alive).tolist()
    assert sorted(index.entries[slot].path for slot in live) == ["b.md"]


def test_compaction_renumbers_slots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_module, "COMPACT_MIN_DEAD", 0)
    index = small_index()
    generation = index.generation
    for body in ("one", "two", "three", "four"):
        index.replace_paths({"b.md": [make_entry("b.md", "Depot", body)]})
    assert index.generation > generation
    assert index.slot_count == index.live_count == 3
    assert index.document_frequency("four") == 1


@pytest.mark.parametrize("batch", [1, 2, 512])
def test_batched_rebuild_equals_per_entry_tokens(
    batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Load tokenizes entries in batches; the segment must equal one built from entry_tokens."""
    monkeypatch.setattr(segment_module, "BUILD_BATCH", batch)
    entries = [
        make_entry(
            "notes/activeContext.md",
            "Deploy Ｚ checklist",
            "deploy deploy — ci, staging",
            position=0,
            count=3,
            tags=("Ops",),
        ),
        make_entry(
            "notes/activeContext.md",
            "数据库 v2版本",
            "Café naïve ﬁle \x01 Z",
            position=1,
            count=3,
            line=9,
            parents=("Notes", "数据库 v2版本"),
        ),
        make_entry("notes/activeContext.md", "", "", position=2, count=3, line=20),
        make_entry("b.md", "Depot", "the depot deployed 数据库 again and again", line=1),
    ]
    index = Index()
    index.rebuild(entries)
    per_entry = [entry_tokens(entry) for entry in entries]
    expected = build_segment(
        [(slot, heading, body) for slot, (heading, body) in enumerate(per_entry)]
    )
    assert index.main.words == expected.words
    for name in ("ptr", "docs", "heading", "body"):
        assert getattr(index.main, name).tolist() == getattr(expected, name).tolist(), name
    assert index.lengths.tolist() == [float(len(h) + len(b)) for h, b in per_entry]


def test_counts_beyond_uint16_widen_the_count_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counts are stored as uint16 until one overflows; later batches widen them, losslessly."""
    monkeypatch.setattr(segment_module, "BUILD_BATCH", 1)
    index = Index()
    index.rebuild(
        [
            make_entry("a.md", "Spam", "spam once", line=1),
            make_entry("b.md", "Flood", "spam " * 70_000, line=1),
        ]
    )
    word_id = index.main.word_id("spam")
    assert word_id is not None
    start, end = index.main.ptr[word_id], index.main.ptr[word_id + 1]
    assert index.main.body[start:end].tolist() == [1, 70_000]
    assert index.main.heading[start:end].tolist() == [1, 0]
    assert index.main.body.dtype == np.int32


def test_the_expansion_cache_keeps_recent_terms_within_its_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Typing keeps the newest expansions only while their arrays fit EXPANSION_CACHE_BYTES
    (the newest always); a term expanded again is the same, and a hit makes it the newest."""
    index = small_index()
    sizes = {term: index.expand(term, prefix=True).nbytes for term in ("de", "ci", "st")}
    monkeypatch.setattr(expansion_module, "EXPANSION_CACHE_BYTES", sizes["de"] + sizes["ci"])
    index = small_index()
    first = index.expand("de", prefix=True)
    index.expand("ci", prefix=True)
    assert index.expand("de", prefix=True) is first  # kept, and now the newest
    index.expand("st", prefix=True)  # over the bytes: the oldest ("ci") goes
    assert index.expand("de", prefix=True) is first
    again = index.expand("ci", prefix=True)
    assert again is not first and again.words == ["ci"]
    monkeypatch.setattr(expansion_module, "EXPANSION_CACHE_BYTES", 0)
    index.expand("kub", prefix=True)
    assert index.expand("kub", prefix=True).words == ["kubernetes"]  # the newest stays


def test_preparing_prefixes_fills_the_cache_typing_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Prepared after some typing (the app waits for a pause), the prefix sums go into the
    cache the keystrokes filled, never beyond its size, keeping what was summed already."""
    monkeypatch.setattr(index_module, "FREQUENCY_CACHE_MIN_POSTINGS", 1)
    monkeypatch.setattr(index_module, "FREQUENCY_CACHE_SIZE", 3)
    index = small_index()
    typed = index.expand("k", prefix=True)
    summed = index.term_frequencies(typed, ("k", True))
    index.prepare_prefixes()
    cache = index._main_cache()
    assert len(cache) == 3 and cache[("k", True)] is summed
    fresh = small_index()
    fresh.prepare_prefixes()
    assert len(fresh._main_cache()) == 3
    for key, frequencies in cache.items():
        expansion = fresh.expand(key[0], prefix=True)
        assert np.array_equal(frequencies, fresh.term_frequencies(expansion, key))
