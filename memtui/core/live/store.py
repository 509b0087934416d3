"""The loaded corpus: scan a root, window daily notes by date, apply file changes incrementally.

What is read from disk, and how safely, is `core.reading.walk`; this module decides what is loaded.

* A hinted file is re-read when its (mtime, size, inode) changed, or when it changed so recently
  that a same-size rewrite within the file system's timestamp granularity could hide (git's
  "racy" rule); folder hints re-read only files whose signature changed.
* The date window (`core.live.window`) hides old daily notes without reading them;
  `hidden_by_window` counts their entries lazily, on first use, with the parser's split alone
  (`count_entries`: no entries are built).

Every mutation builds new immutable snapshots (`core.live.snapshot`) and swaps them in, so readers
on other threads always see a consistent version (the engine serialises `apply_changes`/`set_window`
itself). A snapshot's next version shares its base and layers the change on top, and the known
paths live in sorted indexes, so a batch of hints costs the hints and the files they name, not
the corpus.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path

from memtui.core.cache.records import CachedFile
from memtui.core.live.change_set import change_set
from memtui.core.live.file_record import (
    FileRecord,
    cached_file,
    entries_chars,
    file_chars,
    in_window,
    remembers,
)
from memtui.core.live.file_spool import FileSpool, TableWritten
from memtui.core.live.snapshot import PathIndex, Snapshot
from memtui.core.live.window import entry_in_window, window_cutoff
from memtui.core.model import ChangeSet, Entry, Skipped, Source
from memtui.core.reading.walk import (
    MAX_FILES,
    Scan,
    content_digest,
    file_signature,
    is_racy,
    read_bytes,
    read_entries,
    read_text,
    relative_path,
    scan_root,
    scan_scope,
)

NO_FILES: Snapshot[str, FileRecord] = Snapshot(weigh=file_chars)
NO_PATHS: Snapshot[str, Sequence[Entry]] = Snapshot(weigh=entries_chars)
"""Empty snapshots of the records that hold entries, weighed by their text, so a big file
that goes away is not kept by a snapshot's base (see `core.live.snapshot`)."""


class Store:
    """Every entry under `root`, windowed by date; see the module docstring for the rules."""

    def __init__(
        self,
        root: Path,
        *,
        days: int = 30,
        today: dt.date | None = None,
        label: str = "",
        only: tuple[str, ...] = (),
        spool: Path | None = None,
    ) -> None:
        self.root = Path(root).absolute()
        self.spool = spool
        """Where a load spools the entries it reads as columns (`core.live.file_spool`): the
        cache folder. None keeps them in memory."""
        self.only = only
        """The root-relative files and folders loaded (`MemoryRoot.only`); empty: all of it."""
        self.label = label
        """Given to every entry (`Entry.root`) when several roots are open; '' with one."""
        self.days = days
        self.today = today or dt.date.today()
        self._files: Snapshot[str, FileRecord] = NO_FILES
        self._skipped: Snapshot[str, str] = Snapshot()
        self._file_index = PathIndex()
        self._skip_index = PathIndex()
        self._by_path: Snapshot[str, Sequence[Entry]] = NO_PATHS
        self._hidden: int | None = None
        self._root_missing = False

    # --- reading -----------------------------------------------------------------------------

    @property
    def entries(self) -> Mapping[str, Entry]:
        """id -> Entry for every loaded entry, as of the current snapshot (a warm start's are
        made from the cached columns when asked)."""
        return {entry.id: entry for entries in self._by_path.values() for entry in entries}

    def records(self) -> Mapping[str, FileRecord]:
        """Path -> what the store knows of that file (read-only: a snapshot's view)."""
        return self._files.view()

    def loaded_files(self) -> Mapping[str, Sequence[Entry]]:
        """Relative path -> its loaded entries, for every file with entries or in the window
        (a read-only view of the current snapshot)."""
        return self._by_path.view()

    def entries_in(self, path: str) -> Sequence[Entry]:
        """One file's loaded entries, in file order."""
        return self._by_path.get(path, ())

    def paths(self) -> list[str]:
        """Relative paths of the loaded files (daily notes outside the window excluded)."""
        return sorted(
            path for path, record in self._files.view().items() if self._in_window(record)
        )

    @property
    def skipped(self) -> tuple[Skipped, ...]:
        return tuple(Skipped(path, reason) for path, reason in sorted(self._skipped.items()))

    @property
    def hidden_by_window(self) -> int:
        """Daily-note entries outside the date window (their files are parsed on first use)."""
        if self._hidden is None:
            cutoff = self._cutoff()
            hidden = 0
            if cutoff is not None:
                for path, record in list(self._files.view().items()):
                    if record.outside or record.kind.source is Source.DAILY:
                        hidden += self._hidden_in(path, record, cutoff)
            self._hidden = hidden
        return self._hidden

    def _hidden_in(self, path: str, record: FileRecord, cutoff: dt.date) -> int:
        """How many of one daily file's entries the window hides (cached on the record)."""
        if record.hidden is None:
            if self._in_window(record) and not record.kind.history:
                record.hidden = 0
            elif not record.kind.history:  # the window hides the whole file
                record.hidden = (
                    self._count_unread(path, record)
                    if record.entries is None
                    else len(record.entries)
                )
            else:
                entries = self._parsed(path, record)
                record.hidden = sum(not entry_in_window(entry, cutoff) for entry in entries)
        return record.hidden

    def _update_hidden(self, files_before: Mapping[str, FileRecord], touched: set[str]) -> None:
        """Keep a known hidden count current by re-counting the touched files only (not the
        corpus); a touched file that would have to be read (an old daily note) forgets it."""
        cutoff = self._cutoff()
        if self._hidden is None or cutoff is None:
            return
        total = self._hidden
        for path in touched:
            for files, sign in ((files_before, -1), (self._files, 1)):
                record = files.get(path)
                if record is None or record.kind.source is not Source.DAILY:
                    continue
                if record.hidden is None and record.entries is None:  # unread: outside the window
                    self._hidden = None
                    return
                total += sign * self._hidden_in(path, record, cutoff)
        self._hidden = total

    def _count_unread(self, path: str, record: FileRecord) -> int:
        """Entries of a daily note the window hides whole: counted, not built (5× cheaper)."""
        loaded = read_text(self.root, path)
        if isinstance(loaded, str):
            record.entries = ()
            self._skipped = self._skipped.evolve({path: loaded}, ())
            self._skip_index.add(path)
            return 0
        from memtui.core.reading.parse import count_entries  # here: a warm start parses nothing

        return count_entries(path, loaded[0].text)

    # --- loading -----------------------------------------------------------------------------

    def load(
        self,
        seed: Iterable[CachedFile] = (),
        scan: Scan | None = None,
        written: TableWritten | None = None,
        *,
        unread_before: dt.date | None = None,
    ) -> None:
        """Scan the whole root and (re)load everything in the window. `seed` is what a cache
        remembers of the files: a file whose stat (and, where the stat is ambiguous, content
        digest) still matches keeps its cached entries; every other file is read, as without a
        seed. `scan`: the root's `scan_root` if made already; `written`: told of each table;
        `unread_before`: the seed's window start (`RootSnapshot.unread_before`)."""
        self._files = NO_FILES
        self._skipped = Snapshot()
        self._file_index = PathIndex()
        self._skip_index = PathIndex()
        self._by_path = NO_PATHS
        self._hidden = None
        self._root_missing = not self.root.is_dir()
        if self._root_missing:
            return
        scan = scan if scan is not None else scan_root(self.root, self.only)
        kept = self._still_valid(seed, scan.found, unread_before)
        self._files = Snapshot(kept, weigh=file_chars)
        spool = None if self.spool is None else FileSpool(self.spool, self.label, written)
        self._reconcile({"": scan}, forced=set(), touched=set(), spool=spool, checked=kept)
        if spool is not None:
            spool.finish()
        self._rebuild_all()

    def _still_valid(
        self,
        seed: Iterable[CachedFile],
        found: Mapping[str, os.stat_result],
        unread_before: dt.date | None,
    ) -> dict[str, FileRecord]:
        """The seeded files the disk still agrees with, as records. A file the seed left
        unread is still outside a window that starts no earlier than the seed's did."""
        cutoff = self._cutoff()
        still_hidden = cutoff is not None and unread_before is not None and cutoff >= unread_before
        records: dict[str, FileRecord] = {}
        for cached in seed:
            info = found.get(cached.path)
            if info is None or file_signature(info) != cached.signature:
                continue
            digest = cached.digest
            if digest is not None:
                raw = read_bytes(self.root, cached.path)
                if isinstance(raw, str) or content_digest(raw[0]) != digest:
                    continue
                if not is_racy(cached.signature):
                    digest = None  # proven unchanged now that its timestamp tick has passed
            record = FileRecord(cached.path, cached.signature, cached.entries, digest=digest)
            if cached.secrets is not None and cached.entries is not None:
                record.scanned = (cached.entries, cached.secrets)
            if record.entries is None and (still_hidden or not in_window(record, cutoff)):
                record.outside = True
                record.hidden = cached.count
            records[cached.path] = record
        return records

    def cache_records(self) -> tuple[CachedFile, ...]:
        """What a cache should remember of every known file (see `load`). The entry count of
        an unread file is left out while its stat is ambiguous (it has no digest)."""
        return tuple(cached_file(record) for _, record in sorted(self._files.view().items()))

    def remembered_as(self, records: Sequence[CachedFile]) -> bool:
        """Whether `cache_records()` would give `records` (in any order), without making them:
        a command asks after every run, and making 8,630 records cost more than comparing."""
        files = self._files.view()
        return len(files) == len(records) and all(
            (record := files.get(cached.path)) is not None and remembers(record, cached)
            for cached in records
        )

    def set_window(self, days: int) -> ChangeSet:
        """Change the window (0 = all) and load or unload daily notes accordingly."""
        before = self._by_path
        self.days = days
        self._hidden = None
        for record in self._files.values():
            record.hidden = None
            record.outside = False
        self._rebuild_all()
        return change_set(before, self._by_path, set(before) | set(self._by_path))

    def apply_changes(self, paths: Iterable[str | Path]) -> ChangeSet:
        """Re-check the hinted paths against the disk (the truth) and report what changed."""
        before = self._by_path
        files_before = self._files
        touched: set[str] = set()
        if not self.root.is_dir():
            if not self._root_missing:
                touched = set(self._files)
                self._files = NO_FILES
                self._skipped = Snapshot()
                self._file_index = PathIndex()
                self._skip_index = PathIndex()
                self._root_missing = True
        elif self._root_missing:
            self._root_missing = False
            touched = set(self._files)
            self._reconcile({"": scan_root(self.root, self.only)}, forced=set(), touched=touched)
        else:
            relative = (relative_path(self.root, hint) for hint in paths)
            scopes = self._within_only({rel for rel in relative if rel is not None})
            if "" in scopes:
                scans = {"": scan_root(self.root, self.only)}
            else:
                scans = {scope: scan_scope(self.root, scope, self.only) for scope in sorted(scopes)}
            self._reconcile(scans, forced=scopes, touched=touched)
        if not touched:
            return ChangeSet()
        self._update_hidden(files_before, touched)
        self._rebuild(touched)
        return change_set(before, self._by_path, touched)

    def _within_only(self, scopes: set[str]) -> set[str]:
        """The hinted scopes narrowed to what this root loads: a hint inside one of `only` is
        kept, a folder holding some of them becomes those, anything else is dropped."""
        if not self.only or not scopes:
            return scopes
        narrowed: set[str] = set()
        for scope in scopes:
            for part in self.only:
                if scope == part or scope.startswith(part + "/"):
                    narrowed.add(scope)
                elif scope == "" or part.startswith(scope + "/"):
                    narrowed.add(part)
        return narrowed

    # --- internals: window ---------------------------------------------------------------------

    def _cutoff(self) -> dt.date | None:
        return window_cutoff(self.days, self.today)

    def _in_window(self, record: FileRecord) -> bool:
        return in_window(record, self._cutoff())

    def _parsed(self, path: str, record: FileRecord) -> Sequence[Entry]:
        """The file's entries, reading it now if it was left unread by the window."""
        if record.entries is None:
            result = read_entries(
                self.root, path, self.label, fingerprint=is_racy(record.signature)
            )
            if isinstance(result, str):
                record.entries = ()
                self._skipped = self._skipped.evolve({path: result}, ())
                self._skip_index.add(path)
            else:
                record.entries, record.digest = result
        return record.entries

    def _rebuild_all(self) -> None:
        self._rebuild(set(self._by_path) | set(self._files))

    def _rebuild(self, touched: set[str]) -> None:
        """Bring the loaded entries of `touched` paths in line with their records and the
        window: a file in the window shows its entries (a history file, its dated ones in it).
        In path order, the cache's order: walking every entry then reads each piece of cached
        bodies once, not once per file."""
        files = self._files.view()
        cutoff = self._cutoff()
        paths: dict[str, Sequence[Entry]] = {}
        for path in sorted(touched):
            record = files.get(path)
            if record is None or not in_window(record, cutoff):
                continue
            entries = self._parsed(path, record)
            if cutoff is not None and record.kind.history:
                entries = tuple(entry for entry in entries if entry_in_window(entry, cutoff))
            paths[path] = entries
        self._by_path = self._by_path.evolve(paths, touched)

    # --- internals: reconciling with the disk --------------------------------------------------

    def _reconcile(
        self,
        scans: dict[str, Scan],
        *,
        forced: set[str],
        touched: set[str],
        spool: FileSpool | None = None,
        checked: Collection[str] = (),
    ) -> None:
        """Make the records under each scanned scope match its scan, reading new or changed
        files (a scope's known paths come from the sorted indexes: a batch costs its hints),
        except `checked` ones, just checked against the scans (a load's cache seeds)."""
        covered_files = {path for scope in scans for path in self._file_index.under(scope)}
        covered_skips = {path for scope in scans for path in self._skip_index.under(scope)}
        found: dict[str, os.stat_result] = {}
        for scan in scans.values():
            found.update(scan.found)
        new_skips: dict[str, str] = {}
        for scope, scan in scans.items():
            new_skips.update(scan.skipped)
            if scan.overflow:
                new_skips[scope or "."] = (
                    f"{scan.overflow:,} more Markdown files not loaded (limit {MAX_FILES:,})"
                )
        gone = covered_files - found.keys()
        touched |= gone
        new_files: dict[str, FileRecord] = {}
        known = self._files.view()
        for path in sorted(found.keys() - checked):
            old = known.get(path)
            signature = file_signature(found[path])
            if (
                old is not None
                and old.signature == signature
                and not (path in forced and is_racy(signature))
            ):
                continue
            record = FileRecord(path, signature, None)
            touched.add(path)
            record.outside = not self._in_window(record)
            if not record.outside:
                result = read_entries(self.root, path, self.label, fingerprint=is_racy(signature))
                if isinstance(result, str):
                    gone.add(path)
                    new_skips[path] = result
                    continue
                record.entries, record.digest = result
                if spool is not None:
                    spool.add(record)
            new_files[path] = record
        files = self._files.evolve(new_files, gone)
        skipped = self._skipped.evolve(new_skips, covered_skips)
        if "" in scans:
            self._file_index = PathIndex(files)
            self._skip_index = PathIndex(skipped)
        else:
            self._sync_index(self._file_index, covered_files | found.keys(), files)
            self._sync_index(self._skip_index, covered_skips | new_skips.keys(), skipped)
        self._files = files
        self._skipped = skipped

    @staticmethod
    def _sync_index(index: PathIndex, candidates: set[str], current: Mapping[str, object]) -> None:
        """Bring `index` in line with `current` for the paths one batch could have changed."""
        for path in candidates:
            if path in current:
                index.add(path)
            else:
                index.discard(path)
