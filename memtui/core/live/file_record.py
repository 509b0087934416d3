"""A file as the store knows it: its stat, its entries (read, cached or not yet read), and
what the date window hides of it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence

from msgspec import Struct

from memtui.core.cache.records import CachedFile, FileSecrets
from memtui.core.live.window import file_in_window
from memtui.core.model import Entry
from memtui.core.reading.file_kind import FileKind, classify
from memtui.core.reading.walk import Signature, is_racy


class FileRecord(Struct):
    """One file as the store knows it: its stat, its entries, what the window hides."""

    path: str
    signature: Signature
    entries: Sequence[Entry] | None
    """Every entry of the file (made on demand when they came from the cache); None while a
    daily note outside the window is still unread."""
    hidden: int | None = None
    """Entries the current window hides; None until counted."""
    digest: str | None = None
    """Content hash of what was read, when the stat could hide a same-size rewrite (see
    `core.cache.records.CachedFile.digest`)."""
    known_kind: FileKind | None = None
    outside: bool = False
    """Left unread because the date window hides it, as the store found: asking `kind` again
    classified every old daily note's path (8,630 at 50k) on each start. False until found, and
    again when the window changes."""
    scanned: tuple[Sequence[Entry], FileSecrets] | None = None
    """The secrets scan of the entries it names (see `secrets`)."""

    @property
    def kind(self) -> FileKind:
        """What the path says the file is, worked out when first asked: with no date window
        nothing asks, and classifying 8,630 paths was a tenth of a warm start's store."""
        if self.known_kind is None:
            self.known_kind = classify(self.path)
        return self.known_kind

    def secrets(self) -> FileSecrets | None:
        """What the secrets scan found in `entries`; None until they are scanned (a scan of
        entries since replaced counts for nothing)."""
        scanned = self.scanned
        return scanned[1] if scanned is not None and scanned[0] is self.entries else None


def in_window(record: FileRecord, cutoff: dt.date | None) -> bool:
    """Whether the date window starting at `cutoff` (None: no window) shows the file."""
    return cutoff is None or (not record.outside and file_in_window(record.kind, cutoff))


def entries_chars(entries: Iterable[Entry] | None) -> int:
    return sum(entry.text_chars for entry in entries or ())


def file_chars(record: FileRecord) -> int:
    return entries_chars(record.entries)


def count_kept(record: FileRecord) -> int | None:
    """The entry count a cache keeps of an unread file, unless its stat is ambiguous."""
    return record.hidden if record.entries is None and not is_racy(record.signature) else None


def cached_file(record: FileRecord) -> CachedFile:
    """What a cache remembers of the file (see `core.live.store.Store.load`)."""
    return CachedFile(
        record.path,
        record.signature,
        record.digest,
        record.entries,
        count_kept(record),
        record.secrets(),
    )


def remembers(record: FileRecord, cached: CachedFile) -> bool:
    """Whether `cached_file(record)` would give `cached`, without making it."""
    return (
        record.signature == cached.signature
        and record.digest == cached.digest
        and record.entries == cached.entries
        and count_kept(record) == cached.count
        and record.secrets() == cached.secrets
    )


LoadedFiles = Mapping[tuple[str, str], tuple[FileRecord, Sequence[Entry]]]
"""(root label, path) -> the file's record and its entries then (`Engine.entry_terms`)."""


def loaded_files(stores: Iterable[tuple[str, Mapping[str, FileRecord]]]) -> LoadedFiles:
    """Every file with entries of each (root label, its records), with the entries it has now
    (a record's entries may be replaced later: a scan of these must not count for those)."""
    return {
        (label, path): (record, record.entries)
        for label, records in stores
        for path, record in records.items()
        if record.entries
    }
