"""`renumbered` (a warm start joining several roots' segments, a save cutting the live index per
root) makes exactly the segment a fresh build makes of the same entries in the new slot order,
however many postings it renumbers per step."""

from __future__ import annotations

import random

import numpy as np
import pytest

from memtui.core.search import segment_merge
from memtui.core.search.segment import Segment, build_segment

WORDS = [f"w{at}" for at in range(40)]
Document = tuple[list[str], list[str]]


def documents(rng: random.Random, count: int) -> list[Document]:
    return [
        (
            rng.sample(WORDS, rng.randint(0, 3)),
            [rng.choice(WORDS) for _ in range(rng.randint(0, 8))],
        )
        for _ in range(count)
    ]


def assert_same(got: Segment, expected: Segment) -> None:
    assert got.words == expected.words
    for name in ("word_lengths", "ptr", "docs", "heading", "body"):
        mine, theirs = getattr(got, name), getattr(expected, name)
        assert mine.dtype == theirs.dtype, name
        assert np.array_equal(mine, theirs), name


@pytest.mark.parametrize("chunk", [1, 2, 7, segment_merge.CHUNK_POSTINGS])
@pytest.mark.parametrize("seed", range(40))
def test_renumbered_is_a_fresh_build_in_the_new_order(
    chunk: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(segment_merge, "CHUNK_POSTINGS", chunk)
    rng = random.Random(seed)
    parts_docs = [documents(rng, rng.randint(0, 25)) for _ in range(rng.randint(1, 3))]
    kept = [(at, number) for at, docs in enumerate(parts_docs) for number in range(len(docs))]
    kept = [item for item in kept if rng.random() > 0.3]  # the rest are dropped
    rng.shuffle(kept)
    new_slot = {item: slot for slot, item in enumerate(kept)}
    parts = []
    for at, docs in enumerate(parts_docs):
        segment = build_segment((slot, *doc) for slot, doc in enumerate(docs))
        mapping = np.array([new_slot.get((at, slot), -1) for slot in range(len(docs))], np.int64)
        parts.append((segment, mapping))
    expected = build_segment(
        (slot, *parts_docs[at][number]) for slot, (at, number) in enumerate(kept)
    )
    assert_same(segment_merge.renumbered(parts, len(kept)), expected)


def test_nothing_to_renumber() -> None:
    segment = segment_merge.renumbered([], 0)
    assert segment.words == [] and segment.ptr.tolist() == [0] and len(segment.docs) == 0
