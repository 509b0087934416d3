"""What changed between two versions of a store's loaded files, as a person would say it: entries
added, removed and rewritten, file by file (`ChangeSet`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memtui.core.model import ChangeSet, Entry


def change_set(
    before: Mapping[str, Sequence[Entry]], after: Mapping[str, Sequence[Entry]], paths: set[str]
) -> ChangeSet:
    """The change of `paths` from `before` to `after` (path -> loaded entries)."""
    added: set[str] = set()
    removed: set[str] = set()
    updated: set[str] = set()
    rows: list[tuple[str, int, int, int]] = []
    for path in sorted(paths):
        old = {entry.id: entry for entry in before.get(path, ())}
        new = {entry.id: entry for entry in after.get(path, ())}
        path_added = new.keys() - old.keys()
        path_removed = old.keys() - new.keys()
        path_updated = {key for key in new.keys() & old.keys() if new[key] != old[key]}
        rewritten = sum(_text_changed(old[key], new[key]) for key in path_updated)
        if path_added or path_removed or rewritten:
            rows.append((path, len(path_added), len(path_removed), rewritten))
            added |= path_added
            removed |= path_removed
            updated |= path_updated
    return ChangeSet(
        added=frozenset(added),
        removed=frozenset(removed),
        updated=frozenset(updated),
        paths=tuple(row[0] for row in rows),
        per_path=tuple(rows),
    )


def _text_changed(old: Entry, new: Entry) -> bool:
    """Whether a person would call the entry changed: its words, not only its place in the
    file (an append moves the count every entry of the file carries)."""
    return (old.title, old.heading_path, old.body, old.role, old.tags, old.metadata) != (
        new.title,
        new.heading_path,
        new.body,
        new.role,
        new.tags,
        new.metadata,
    )
