"""Postings are stored as narrow as their values allow (uint16 slots, uint8 counts; while
building, one byte per slot within its batch), and widened when a value does not fit: the
postings read back are the same either way."""

from __future__ import annotations

import numpy as np

from memtui.core.search.segment import SMALL_SLOTS, Segment, build_segment


def postings(segment: Segment, word: str) -> list[tuple[int, int, int]]:
    at = segment.word_id(word)
    assert at is not None
    start, end = segment.ptr[at], segment.ptr[at + 1]
    return [
        (int(slot), int(heading), int(body))
        for slot, heading, body in zip(
            segment.docs[start:end],
            segment.heading[start:end],
            segment.body[start:end],
            strict=True,
        )
    ]


def test_small_values_stay_narrow() -> None:
    segment = build_segment([(0, ["deploy"], ["deploy", "canary"]), (7, [], ["canary"] * 3)])
    dtypes = (segment.docs.dtype, segment.heading.dtype, segment.body.dtype)
    assert dtypes == (np.dtype(np.uint16), np.dtype(np.uint8), np.dtype(np.uint8))
    assert postings(segment, "deploy") == [(0, 1, 1)]
    assert postings(segment, "canary") == [(0, 0, 1), (7, 0, 3)]


def test_slots_past_a_byte_within_one_batch_widen() -> None:
    segment = build_segment([(0, ["a"], []), (255, ["a"], []), (300, [], ["a"])])
    assert segment.docs.dtype == np.uint16
    assert postings(segment, "a") == [(0, 1, 0), (255, 1, 0), (300, 0, 1)]


def test_large_slots_and_counts_widen() -> None:
    high = SMALL_SLOTS + 5
    segment = build_segment([(3, ["w"] * 300, ["x"]), (high, [], ["w"] * 70_000)])
    assert segment.docs.dtype == np.int32
    assert segment.heading.dtype == np.uint16 and segment.body.dtype == np.int32
    assert postings(segment, "w") == [(3, 300, 0), (high, 0, 70_000)]
    assert postings(segment, "x") == [(3, 0, 1)]


def test_a_vocabulary_past_65535_words_widens_the_word_ids() -> None:
    words = [f"w{number:06d}" for number in range(70_000)]
    segment = build_segment([(0, [], words[:35_000]), (1, [], [*words[35_000:], "w000001"])])
    assert segment.words == words
    assert postings(segment, "w069999") == [(1, 0, 1)]
    assert postings(segment, "w000001") == [(0, 0, 1), (1, 0, 1)]
