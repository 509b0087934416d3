"""`core.search.arrays.gather`: numpy's unchecked take, with its ends still checked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.core.search.arrays import gather


@settings(deadline=None)
@given(
    values=st.lists(st.floats(allow_nan=False), min_size=1, max_size=60),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), max_size=60),
)
def test_gather_is_indexing_for_ascending_slots(values: list[float], picks: list[int]) -> None:
    array = np.array(values)
    slots = np.array(sorted({pick % len(values) for pick in picks}), dtype=np.int64)
    out = np.full(len(slots), -1.0)
    expected = array[slots]
    assert gather(array, slots).tolist() == expected.tolist()
    assert gather(array, slots, out) is out
    assert out.tolist() == expected.tolist()


@pytest.mark.parametrize("slots", [[0, 5], [-1, 2], [3, 4, 9]])
def test_gather_refuses_slots_outside_the_values(slots: list[int]) -> None:
    with pytest.raises(IndexError):
        gather(np.arange(5, dtype=np.float64), np.array(slots, dtype=np.int64))


def test_gather_of_no_slots_is_empty() -> None:
    assert gather(np.arange(3.0), np.zeros(0, dtype=np.int64)).tolist() == []
