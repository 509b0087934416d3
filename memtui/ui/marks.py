"""The entries the user marked to hand on (`space` in the results), by entry id.

Pure state, no Textual: the results list draws a gutter from it and the main screen hands the
marked entries on in the order they were marked. An id survives reranks and edits of its file
(ids are stable: path, heading path and occurrence); an entry whose id left the corpus is
dropped by `drop`, which returns what it dropped so the screen can say so.
"""

from __future__ import annotations

from collections.abc import Iterable

from memtui.core.model import Entry


class Marks:
    """Marked entries in marking order: id -> the entry as it was when last seen."""

    def __init__(self) -> None:
        self._marked: dict[str, Entry] = {}

    def __len__(self) -> int:
        return len(self._marked)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._marked

    @property
    def ids(self) -> list[str]:
        """Marked ids, first marked first."""
        return list(self._marked)

    def toggle(self, entry: Entry) -> bool:
        """Mark `entry`, or unmark it if it was marked; True when it is marked now."""
        if self._marked.pop(entry.id, None) is not None:
            return False
        self._marked[entry.id] = entry
        return True

    def mark_all(self, entries: Iterable[Entry]) -> int:
        """Mark every one of `entries` (those already marked keep their place); how many
        were newly marked."""
        before = len(self._marked)
        for entry in entries:
            self._marked.setdefault(entry.id, entry)
        return len(self._marked) - before

    def clear(self) -> int:
        """Unmark everything; how many were marked."""
        count = len(self._marked)
        self._marked.clear()
        return count

    def drop(self, entry_ids: Iterable[str]) -> list[Entry]:
        """Unmark these ids (their entries left the corpus); the entries that were marked."""
        return [
            entry
            for entry_id in entry_ids
            if (entry := self._marked.pop(entry_id, None)) is not None
        ]
