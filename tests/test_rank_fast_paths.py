"""Shortcuts of the keystroke path give exactly what the plain computation gives: cached per-term
tf sums (heavy short prefixes) equal one sum over all postings bit for bit, before and after
per-file updates; the sampled top-k threshold equals a full partition."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_rank import make_entry

from memtui.core.model import Entry
from memtui.core.search import index as index_module
from memtui.core.search.expansion import Expansion
from memtui.core.search.hits import top_threshold
from memtui.core.search.index import Index

WORDS = ("alpha", "alpine", "ab", "beta", "bet", "bar", "banana", "cache", "cab", "deploy")


def plain_sum(expansion: Expansion, slot_count: int) -> np.ndarray:
    return np.bincount(expansion.docs, weights=expansion.posting_tf(), minlength=slot_count)


def entries_from(bodies: list[list[str]], prefix: str) -> list[Entry]:
    return [
        make_entry(f"{prefix}{at % 3}.md", "t", " ".join(body), position=at)
        for at, body in enumerate(bodies)
    ]


bodies_strategy = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), min_size=1, max_size=12
)


@settings(max_examples=30, deadline=None)
@given(bodies=bodies_strategy, changed=bodies_strategy, warm=st.booleans())
def test_cached_sums_equal_the_plain_sum(
    bodies: list[list[str]], changed: list[list[str]], warm: bool
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(index_module, "FREQUENCY_CACHE_MIN_POSTINGS", 1)
        index = Index()
        index.rebuild(entries_from(bodies, "notes/"))
        if warm:
            index.prepare_prefixes()
        replacement = entries_from(changed, "notes/")
        for round_ in range(2):
            for term, prefix in [
                ("a", True),
                ("b", True),
                ("ba", True),
                ("bet", False),
                ("ca", True),
                ("alpha", True),
            ]:
                expansion = index.expand(term, prefix=prefix)
                got = index.term_frequencies(expansion, (term, prefix))
                assert got.tobytes() == plain_sum(expansion, index.slot_count).tobytes()
            if round_ == 0:
                index.replace_paths(
                    {"notes/0.md": [e for e in replacement if e.path == "notes/0.md"]}
                )


def test_posting_tf_ranges_are_slices_of_the_whole() -> None:
    index = Index()
    index.rebuild(entries_from([["alpha", "alpine", "ab"], ["alpha", "ab", "ab"]], "n/"))
    expansion = index.expand("a", prefix=True)
    whole = expansion.posting_tf()
    for begin in range(len(whole) + 1):
        for end in range(begin, len(whole) + 1):
            assert expansion.posting_tf(begin, end).tolist() == whole[begin:end].tolist()


@settings(max_examples=40, deadline=None)
@given(
    scores=st.lists(
        st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0]) | st.floats(0, 1),
        min_size=1,
        max_size=3000,
    ),
    limit=st.integers(1, 60),
    period=st.sampled_from([1, 7, 8, 14]),
)
def test_top_threshold_equals_a_full_partition(
    scores: list[float], limit: int, period: int
) -> None:
    values = np.asarray(scores)
    values[::period] += 1.0  # periodic layouts must not fool the sample
    limit = min(limit, len(values))
    expected = np.partition(values, len(values) - limit)[len(values) - limit]
    assert top_threshold(values, limit) == expected
