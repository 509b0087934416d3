"""Names for the numpy array types the index and the ranker pass around (type hints), and the
one way to join parts of an array."""

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
