"""`core.search.arrays`: `gather` (numpy's unchecked take, with its ends still checked) and
`distinct_rows` (rows valued once)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.core.search.arrays import distinct_rows, gather


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


row_columns = st.integers(min_value=1, max_value=4).flatmap(
    lambda width: st.lists(
        st.tuples(*[st.integers(min_value=-(2**40), max_value=2**40)] * width), max_size=40
    )
)


@settings(deadline=None)
@given(rows=row_columns, repeat=st.integers(min_value=1, max_value=3))
def test_distinct_rows_numbers_each_row_by_its_distinct_value(
    rows: list[tuple[int, ...]], repeat: int
) -> None:
    rows = rows * repeat
    width = len(rows[0]) if rows else 2
    columns = [np.array([row[at] for row in rows], dtype=np.int64) for at in range(width)]
    distinct, number = distinct_rows(*columns)
    assert sorted(distinct) == sorted(set(rows))
    assert [distinct[at] for at in number.tolist()] == rows


def test_distinct_rows_of_wide_values_take_the_row_sort() -> None:
    """Three columns spanning 2**40 each overflow one int64 key: the fallback gives the same."""
    big = np.array([0, 2**40, 0, 2**40], dtype=np.int64)
    distinct, number = distinct_rows(big, big, np.array([1, 2, 1, 3], dtype=np.int64))
    assert [distinct[at] for at in number.tolist()] == [
        (0, 0, 1),
        (2**40, 2**40, 2),
        (0, 0, 1),
        (2**40, 2**40, 3),
    ]
