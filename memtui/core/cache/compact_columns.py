"""Compact columns of an entry table: those nearly all None, and heading paths as ids into
one list of distinct headings. At 50,000 entries the lists they replace were ~13 MB of a warm
start's memory (`core.cache.entry_table` holds them)."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from itertools import compress, repeat
from operator import is_not
from typing import Any, overload

import numpy as np

from memtui.core.search.arrays import IntArray

SPARSE_SHARE = 8
"""A column with values in fewer than one row in this many is kept as those values alone."""


class SparseColumn(Sequence[Any]):
    """A column that is nearly all None (titles that are not the last heading, roles, tags,
    metadata, warnings in most memory), kept as its values by row: a list of 50,000 Nones is
    0.4 MB, and a table has five such columns."""

    __slots__ = ("_length", "_values")

    def __init__(self, values: list[Any]) -> None:
        self._length = len(values)
        rows = compress(range(len(values)), map(is_not, values, repeat(None)))
        self._values = {row: values[row] for row in rows}

    def __len__(self) -> int:
        return self._length

    def given(self) -> Iterable[tuple[int, Any]]:
        """(row, value) of the rows that are not None."""
        return self._values.items()

    @overload
    def __getitem__(self, at: int) -> Any: ...

    @overload
    def __getitem__(self, at: slice) -> list[Any]: ...

    def __getitem__(self, at: int | slice) -> Any:
        if isinstance(at, slice):
            return [self._values.get(row) for row in range(*at.indices(self._length))]
        row = at + self._length if at < 0 else at
        if not 0 <= row < self._length:
            raise IndexError(at)
        return self._values.get(row)


def row_reader(column: Sequence[Any]) -> Callable[[int], Any]:
    """A function from a row (in range) to its value: for a sparse column its dict's `get`,
    without `__getitem__`'s checks (making an entry reads five such columns)."""
    if isinstance(column, SparseColumn):
        return column._values.get
    return column.__getitem__


def given_rows(column: Sequence[Any]) -> Iterable[tuple[int, Any]]:
    """(row, value) of a column's rows that are not None."""
    if isinstance(column, SparseColumn):
        return column.given()
    return compress(enumerate(column), map(is_not, column, repeat(None)))


def compact_column(values: list[Any]) -> Sequence[Any]:
    """`values`, or a `SparseColumn` of them when nearly all are None."""
    if (len(values) - values.count(None)) * SPARSE_SHARE < len(values):
        return SparseColumn(values)
    return values


class HeadingPaths:
    """Every row's heading path as ids into one list of distinct headings: a file's H1 heads
    each of its sections, and one string per occurrence was ~3.5 MB of a 50k warm start, with
    a list per row beside it."""

    __slots__ = ("ends", "ids", "strings")

    def __init__(self, strings: list[str], ids: IntArray, ends: IntArray) -> None:
        self.strings = strings
        self.ids = ids
        """The heading ids of every row, one row after the other."""
        self.ends = ends
        """Where each row's ids end in `ids`."""

    @classmethod
    def of(cls, paths: Iterable[tuple[str, ...]]) -> HeadingPaths:
        """The paths, each distinct heading numbered where first seen (ids gathered as C
        longs: as lists of Python ints, 150,000 of them at 50k, a save held ~5 MB more)."""
        number: dict[str, int] = {}
        ids = array("q")
        ends = array("q")
        for path in paths:
            ids.extend([number.setdefault(heading, len(number)) for heading in path])
            ends.append(len(ids))
        return cls(
            list(number), np.frombuffer(ids, dtype=np.int64), np.frombuffer(ends, dtype=np.int64)
        )

    def path(self, row: int) -> tuple[str, ...]:
        start = int(self.ends[row - 1]) if row else 0
        return tuple(map(self.strings.__getitem__, self.ids[start : int(self.ends[row])].tolist()))

    def paths(self, rows: range) -> list[tuple[str, ...]]:
        """`path` of each of `rows` (consecutive), their ids converted in one go."""
        base = int(self.ends[rows.start - 1]) if rows.start else 0
        ends = self.ends[rows.start : rows.stop].tolist()
        ids = self.ids[base : ends[-1] if ends else base].tolist()
        strings = self.strings.__getitem__
        paths = []
        start = 0
        for end in ends:
            stop = end - base
            paths.append(tuple(map(strings, ids[start:stop])))
            start = stop
        return paths

    def last_reader(self) -> Callable[[int], str]:
        """Row -> its last heading (the title of a row without one of its own), the arrays
        converted once: a whole view's titles by `path` per row cost ~0.15 s at 50k."""
        ends, ids, strings = self.ends.tolist(), self.ids.tolist(), self.strings
        return lambda row: strings[ids[ends[row] - 1]]

    def last_lengths(self) -> IntArray:
        """Each row's last heading's length in characters (0 for a row without headings)."""
        counts = np.diff(self.ends, prepend=0)
        lengths = np.zeros(len(self.ends), dtype=np.int64)
        headed = counts > 0
        lengths_of = np.fromiter(map(len, self.strings), np.int64, len(self.strings))
        lengths[headed] = lengths_of[self.ids[self.ends[headed] - 1]]
        return lengths
