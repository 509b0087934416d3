"""Immutable versioned mappings and sorted path sets: the store's data structures.

Every store mutation builds new `Snapshot`s and swaps them in, so readers on other threads always
see a consistent version. A snapshot's next version shares its base and layers the change on
top, and the known paths live in sorted `PathIndex`es, so a batch of hints costs the hints and
the files they name, not the corpus.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Generic, TypeVar

_Key = TypeVar("_Key")
_Value = TypeVar("_Value")
COMPACT_MIN_CHANGES = 1024
"""An overlay is folded into a new base once it holds this many keys (or 1/16 of the base)."""
COMPACT_MIN_HIDDEN_WEIGHT = 1_000_000
"""... or once the base values it hides weigh this much (a snapshot's `weigh`): the base keeps
them reachable, and one big removed file must not stay in memory until a thousand more change."""


class Snapshot(Mapping[_Key, _Value], Generic[_Key, _Value]):
    """An immutable mapping whose next version shares this one's base dict plus a small overlay.

    Readers on other threads keep whatever version they were handed, and a new version costs the
    size of the change, not of the mapping (copying 50k entries touches every one of them); the
    overlay is folded into a fresh base once it grows, so lookups stay two dict probes.
    """

    __slots__ = ("_added", "_base", "_changed", "_hidden_weight", "_removed", "_weigh")

    def __init__(
        self,
        base: dict[_Key, _Value] | None = None,
        changed: dict[_Key, _Value] | None = None,
        removed: frozenset[_Key] = frozenset(),
        added: int = 0,
        *,
        weigh: Callable[[_Value], int] | None = None,
        hidden_weight: int = 0,
    ) -> None:
        self._base: dict[_Key, _Value] = {} if base is None else base
        self._changed: dict[_Key, _Value] = changed or {}
        """Keys set since the base (they win over it); never in `_removed`."""
        self._removed = removed
        """Base keys deleted since the base."""
        self._added = added
        """How many keys of `_changed` are not in the base."""
        self._weigh = weigh
        """What a value weighs (e.g. characters of text); None: values are not weighed."""
        self._hidden_weight = hidden_weight
        """The weight of the base values that `_changed` and `_removed` hide."""

    def __getitem__(self, key: _Key) -> _Value:
        if key in self._changed:
            return self._changed[key]
        if key in self._removed:
            raise KeyError(key)
        return self._base[key]

    def __iter__(self) -> Iterator[_Key]:
        changed, removed = self._changed, self._removed
        if not changed and not removed:
            yield from self._base
            return
        for key in self._base:
            if key not in removed and key not in changed:
                yield key
        yield from changed

    def __len__(self) -> int:
        return len(self._base) - len(self._removed) + self._added

    def view(self) -> Mapping[_Key, _Value]:
        """A read-only view for callers: the base dict itself (fast C iteration) when unchanged."""
        if not self._changed and not self._removed:
            return MappingProxyType(self._base)
        return self

    def evolve(
        self, assign: Mapping[_Key, _Value], delete: Iterable[_Key]
    ) -> Snapshot[_Key, _Value]:
        """The next version: `delete` removed, then `assign` set."""
        if not self._base and not self._changed:  # the first version: nothing to layer on
            return Snapshot(dict(assign), weigh=self._weigh)
        base = self._base
        changed = dict(self._changed)
        removed = set(self._removed)
        added = self._added
        hidden = self._hidden_weight
        weigh = self._weigh
        for key in delete:
            if key in base and weigh is not None and key not in changed and key not in removed:
                hidden += weigh(base[key])
            if key in changed:
                del changed[key]
                if key not in base:
                    added -= 1
            if key in base:
                removed.add(key)
        for key, value in assign.items():
            if key in base and weigh is not None and key not in changed and key not in removed:
                hidden += weigh(base[key])
            if key not in changed and key not in base:
                added += 1
            changed[key] = value
            removed.discard(key)
        if (
            len(changed) + len(removed) > max(COMPACT_MIN_CHANGES, len(base) // 16)
            or hidden > COMPACT_MIN_HIDDEN_WEIGHT
        ):
            merged = {key: base[key] for key in base if key not in removed and key not in changed}
            merged.update(changed)
            return Snapshot(merged, weigh=weigh)
        return Snapshot(base, changed, frozenset(removed), added, weigh=weigh, hidden_weight=hidden)


class PathIndex:
    """Relative paths kept sorted, so everything at or under one path is a single bisect range.

    This is what lets a batch of hints cost the hints rather than the corpus: the known paths a
    hint covers are found without looking at the others.
    """

    __slots__ = ("_paths",)

    def __init__(self, paths: Iterable[str] = ()) -> None:
        self._paths = sorted(set(paths))

    def add(self, path: str) -> None:
        position = bisect.bisect_left(self._paths, path)
        if position == len(self._paths) or self._paths[position] != path:
            self._paths.insert(position, path)

    def discard(self, path: str) -> None:
        position = bisect.bisect_left(self._paths, path)
        if position < len(self._paths) and self._paths[position] == path:
            del self._paths[position]

    def under(self, scope: str) -> list[str]:
        """`scope` itself (when known) and every path inside it; '' is the whole root."""
        paths = self._paths
        if not scope:
            return list(paths)
        position = bisect.bisect_left(paths, scope)
        found = [scope] if position < len(paths) and paths[position] == scope else []
        # "0" is the character after "/": [scope/, scope0) is exactly the paths below scope.
        start = bisect.bisect_left(paths, scope + "/")
        stop = bisect.bisect_left(paths, scope + "0", start)
        found.extend(paths[start:stop])
        return found
