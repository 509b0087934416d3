"""Names for the numpy array types the index and the ranker pass around (type hints), the one
way to join parts of an array, to find its runs, and to gather values by slot."""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
HashArray = npt.NDArray[np.uint64]
BoolArray = npt.NDArray[np.bool_]
SmallArray = npt.NDArray[np.int32]
"""Word ids and slots in postings: int32 halves the memory of millions of postings."""
CountArray = npt.NDArray[np.integer[Any]]
"""Occurrence counts: uint8, wider only when some entry repeats a word more often."""
SlotArray = npt.NDArray[np.integer[Any]]
"""Slots of a segment's postings: uint16 below 65,536 slots, else int32."""
ScalarT = TypeVar("ScalarT", bound=np.generic)


def joined(parts: list[npt.NDArray[ScalarT]]) -> npt.NDArray[ScalarT]:
    """The parts as one array; a single part as it is (no copy)."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def gather(
    values: npt.NDArray[ScalarT], slots: IntArray, out: npt.NDArray[ScalarT] | None = None
) -> npt.NDArray[ScalarT]:
    """`values[slots]` for ascending `slots` (as `flatnonzero` gives them: the ranker's
    candidates). numpy's default `take` checks every index and then copies through a buffer
    when given `out`; "clip" mode skips both, which halved the cost of each 40,000-slot gather
    of a keystroke at 50k entries (91 to 45 µs). Checking the two ends keeps an out-of-range
    slot an IndexError rather than a value clipped from the last slot."""
    if len(slots) and (slots[0] < 0 or slots[-1] >= len(values)):
        raise IndexError(f"slots {slots[0]}..{slots[-1]} outside {len(values)} values")
    return np.take(values, slots, out=out, mode="clip")


def run_starts(values: npt.NDArray[Any]) -> IntArray:
    """Where each run of equal consecutive values starts (0 first, unless `values` is empty).
    The boundaries are one bool per value, written in place: over the health checks' ~4
    million pairs a concatenated copy was another 4 MB at a time."""
    boundary = np.ones(len(values), dtype=bool)
    np.not_equal(values[1:], values[:-1], out=boundary[1:])
    return np.flatnonzero(boundary)


def distinct_rows(*columns: IntArray) -> tuple[list[tuple[int, ...]], IntArray]:
    """The distinct rows of equal-length integer columns, and each row's number among them.
    One combined key through `np.unique` (~3 ms over 50,000 rows); rows too wide for one
    int64 key go through `np.unique(axis=0)`, which sorts row views (~80 ms)."""
    ranges = [
        (int(column.min()), int(column.max())) if len(column) else (0, 0) for column in columns
    ]
    width = 1
    for low, high in ranges:
        width *= high - low + 1
    if width >= 2**62:
        rows, inverse = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
        return [tuple(row) for row in rows.tolist()], inverse.reshape(-1)
    key = np.zeros(len(columns[0]), dtype=np.int64)
    for column, (low, high) in zip(columns, ranges, strict=True):
        key = key * (high - low + 1) + (column - low)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    picked = [column[first].tolist() for column in columns]
    return list(zip(*picked, strict=True)), inverse.reshape(-1)
