"""The loaded corpus: scan a root, window daily notes by date, apply file changes incrementally.

The store only ever reads under the root. Scanning uses an explicit stack (a 1,200-level tree
cannot raise RecursionError) capped at 64 levels. Decisions:

* Only `.md` / `.markdown` files are memory; other files are skipped silently.
* Folders that hold tooling rather than memory (`.git`, `node_modules`, `.venv` … see
  `IGNORED_FOLDERS`) are not entered and are listed as skipped. Other hidden folders are scanned:
  Claude Code keeps its memory in `.claude/memory/`.
* Symlinks: a symlinked file is read only when its target is a regular file inside the root;
  symlinked folders are never followed (inside the root they would duplicate or loop, outside
  it they leave the root). FIFOs, sockets and devices are never opened: everything is
  `lstat`-ed first, opened with `O_NONBLOCK` and `fstat`-ed again before reading.
* A hinted file is re-read when its (mtime, size, inode) changed, or when it changed so recently
  that a same-size rewrite within the file system's timestamp granularity could hide (git's
  "racy" rule); folder hints re-read only files whose signature changed.
* A file is read up to 4 MiB; a longer one keeps what was read and its last entry says so.
* The window hides daily notes dated before `today - days` (0 = no window) without reading
  them; `hidden_by_window` counts their entries lazily, on first use, with the parser's split
  alone (`count_entries`: no entries are built). `HISTORY.md` is windowed per entry (it is one
  long append-only daily log). Long-term files, notes and undated daily notes always load.

Every mutation builds new immutable snapshots and swaps them in, so readers on other threads
always see a consistent version (the engine serialises `apply_changes`/`set_window` itself). A
snapshot's next version shares its base and layers the change on top, and the known paths live in
sorted indexes, so a batch of hints costs the hints and the files they name, not the corpus.
"""

from __future__ import annotations

import bisect
import datetime as dt
import errno
import os
import stat
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Generic, TypeVar

from memtui.core.model import ChangeSet, Entry, Skipped, Source
from memtui.core.parse import FileKind, classify, count_entries, is_markdown, parse_file
from memtui.core.text import BinaryFile, Decoded, complete_utf8_prefix, decode

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64
MAX_FILES = 20_000
IGNORED_FOLDERS = frozenset(
    {
        ".git", ".hg", ".svn", ".jj", "node_modules", ".venv", "venv", "__pycache__",
        ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".nox", ".idea", ".vscode",
        ".obsidian", ".trash", ".Trash", "site-packages",
    }
)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_READ_CHUNK = 1024 * 1024
RACY_WINDOW_NS = 3_000_000_000
"""A hinted file whose stat signature is unchanged is re-read only if modified this recently."""

Signature = tuple[int, int, int]
_Key = TypeVar("_Key")
_Value = TypeVar("_Value")
COMPACT_MIN_CHANGES = 1024
"""An overlay is folded into a new base once it holds this many keys (or 1/16 of the base)."""


@dataclass(slots=True)
class _File:
    signature: Signature
    kind: FileKind
    entries: tuple[Entry, ...] | None
    """Every entry of the file; None while a daily note outside the window is still unread."""
    hidden: int | None = None
    """Entries the current window hides; None until counted."""


@dataclass(slots=True)
class _Scan:
    found: dict[str, os.stat_result]
    skipped: dict[str, str]
    overflow: int = 0


class _Snapshot(Mapping[_Key, _Value], Generic[_Key, _Value]):
    """An immutable mapping whose next version shares this one's base dict plus a small overlay.

    Readers on other threads keep whatever version they were handed, and a new version costs the
    size of the change, not of the mapping (copying 50k entries touches every one of them); the
    overlay is folded into a fresh base once it grows, so lookups stay two dict probes.
    """

    __slots__ = ("_added", "_base", "_changed", "_removed")

    def __init__(
        self,
        base: dict[_Key, _Value] | None = None,
        changed: dict[_Key, _Value] | None = None,
        removed: frozenset[_Key] = frozenset(),
        added: int = 0,
    ) -> None:
        self._base: dict[_Key, _Value] = {} if base is None else base
        self._changed: dict[_Key, _Value] = changed or {}
        """Keys set since the base (they win over it); never in `_removed`."""
        self._removed = removed
        """Base keys deleted since the base."""
        self._added = added
        """How many keys of `_changed` are not in the base."""

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

    def evolve(self, assign: Mapping[_Key, _Value], delete: Iterable[_Key]) -> _Snapshot[
        _Key, _Value
    ]:
        """The next version: `delete` removed, then `assign` set."""
        base = self._base
        changed = dict(self._changed)
        removed = set(self._removed)
        added = self._added
        for key in delete:
            if key in changed:
                del changed[key]
                if key not in base:
                    added -= 1
            if key in base:
                removed.add(key)
        for key, value in assign.items():
            if key not in changed and key not in base:
                added += 1
            changed[key] = value
            removed.discard(key)
        if len(changed) + len(removed) > max(COMPACT_MIN_CHANGES, len(base) // 16):
            merged = {key: base[key] for key in base if key not in removed and key not in changed}
            merged.update(changed)
            return _Snapshot(merged)
        return _Snapshot(base, changed, frozenset(removed), added)


class _PathIndex:
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


def _signature(info: os.stat_result) -> Signature:
    return (info.st_mtime_ns, info.st_size, info.st_ino)


def _racy(signature: Signature) -> bool:
    """Modified so recently that a same-size rewrite could share its mtime (git's racy check)."""
    return abs(time.time_ns() - signature[0]) < RACY_WINDOW_NS


class Store:
    """Every entry under `root`, windowed by date; see the module docstring for the rules."""

    def __init__(self, root: Path, *, days: int = 30, today: dt.date | None = None) -> None:
        self.root = Path(root).absolute()
        self.days = days
        self.today = today or dt.date.today()
        self._files: _Snapshot[str, _File] = _Snapshot()
        self._skipped: _Snapshot[str, str] = _Snapshot()
        self._file_index = _PathIndex()
        self._skip_index = _PathIndex()
        self._by_path: _Snapshot[str, tuple[Entry, ...]] = _Snapshot()
        self._entries: _Snapshot[str, Entry] = _Snapshot()
        self._hidden: int | None = None
        self._root_missing = False

    # --- reading -----------------------------------------------------------------------------

    @property
    def entries(self) -> Mapping[str, Entry]:
        """id -> Entry for every loaded entry (a read-only view of the current snapshot)."""
        return self._entries.view()

    def entries_in(self, path: str) -> tuple[Entry, ...]:
        """One file's loaded entries, in file order."""
        return self._by_path.get(path, ())

    def paths(self) -> list[str]:
        """Relative paths of the loaded files (daily notes outside the window excluded)."""
        return sorted(path for path, record in self._files.items() if self._in_window(record))

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
                for path, record in list(self._files.items()):
                    if record.kind.source is Source.DAILY:
                        hidden += self._hidden_in(path, record, cutoff)
            self._hidden = hidden
        return self._hidden

    def _hidden_in(self, path: str, record: _File, cutoff: dt.date) -> int:
        """How many of one daily file's entries the window hides (cached on the record)."""
        if record.hidden is None:
            if self._in_window(record) and not record.kind.history:
                record.hidden = 0
            elif record.entries is None and not record.kind.history:
                record.hidden = self._count_unread(path, record)
            else:
                entries = self._parsed(path, record)
                record.hidden = sum(not self._entry_visible(entry, cutoff) for entry in entries)
        return record.hidden

    def _update_hidden(self, files_before: Mapping[str, _File], touched: set[str]) -> None:
        """Keep a known hidden count current by re-counting the touched files only.

        Recounting every file on the next search would cost the corpus; when a touched file would
        have to be read to be counted (an old daily note), the count is forgotten instead.
        """
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

    def _count_unread(self, path: str, record: _File) -> int:
        """Entries of a daily note the window hides whole: counted, not built (5× cheaper)."""
        loaded = self._read_text(path)
        if isinstance(loaded, str):
            record.entries = ()
            self._skipped = self._skipped.evolve({path: loaded}, ())
            self._skip_index.add(path)
            return 0
        return count_entries(path, loaded[0].text)

    # --- loading -----------------------------------------------------------------------------

    def load(self) -> None:
        """Scan the whole root and (re)load everything in the window."""
        self._files = _Snapshot()
        self._skipped = _Snapshot()
        self._file_index = _PathIndex()
        self._skip_index = _PathIndex()
        self._by_path = _Snapshot()
        self._entries = _Snapshot()
        self._hidden = None
        self._root_missing = not self.root.is_dir()
        if self._root_missing:
            return
        self._reconcile({"": self._walk("")}, forced=set(), touched=set())
        self._rebuild_all()

    def set_window(self, days: int) -> ChangeSet:
        """Change the window (0 = all) and load or unload daily notes accordingly."""
        before = self._by_path
        self.days = days
        self._hidden = None
        for record in self._files.values():
            record.hidden = None
        self._rebuild_all()
        return self._diff(before, set(before) | set(self._by_path))

    def apply_changes(self, paths: Iterable[str | Path]) -> ChangeSet:
        """Re-check the hinted paths against the disk (the truth) and report what changed."""
        before = self._by_path
        files_before = self._files
        touched: set[str] = set()
        if not self.root.is_dir():
            if not self._root_missing:
                touched = set(self._files)
                self._files = _Snapshot()
                self._skipped = _Snapshot()
                self._file_index = _PathIndex()
                self._skip_index = _PathIndex()
                self._root_missing = True
        elif self._root_missing:
            self._root_missing = False
            touched = set(self._files)
            self._reconcile({"": self._walk("")}, forced=set(), touched=touched)
        else:
            scopes = {rel for rel in (self._relative(hint) for hint in paths) if rel is not None}
            if "" in scopes:
                scopes = {""}
            scans = {scope: self._scan_scope(scope) for scope in sorted(scopes)}
            self._reconcile(scans, forced=scopes, touched=touched)
        if not touched:
            return ChangeSet()
        self._update_hidden(files_before, touched)
        self._rebuild(touched)
        return self._diff(before, touched)

    # --- internals: window ---------------------------------------------------------------------

    def _cutoff(self) -> dt.date | None:
        return None if self.days <= 0 else self.today - dt.timedelta(days=self.days)

    def _in_window(self, record: _File) -> bool:
        cutoff = self._cutoff()
        kind = record.kind
        return cutoff is None or kind.source is not Source.DAILY or kind.date is None or (
            kind.date >= cutoff
        )

    @staticmethod
    def _entry_visible(entry: Entry, cutoff: dt.date) -> bool:
        if entry.source is not Source.DAILY or entry.date is None:
            return True
        return entry.date >= cutoff

    def _visible(self, path: str, record: _File) -> tuple[Entry, ...]:
        if not self._in_window(record):
            return ()
        entries = self._parsed(path, record)
        cutoff = self._cutoff()
        if record.kind.history and cutoff is not None:
            return tuple(entry for entry in entries if self._entry_visible(entry, cutoff))
        return entries

    def _parsed(self, path: str, record: _File) -> tuple[Entry, ...]:
        """The file's entries, reading it now if it was left unread by the window."""
        if record.entries is None:
            result = self._read(path)
            if isinstance(result, str):
                record.entries = ()
                self._skipped = self._skipped.evolve({path: result}, ())
                self._skip_index.add(path)
            else:
                record.entries = result
        return record.entries

    def _rebuild_all(self) -> None:
        self._rebuild(set(self._by_path) | set(self._files))

    def _rebuild(self, touched: set[str]) -> None:
        paths: dict[str, tuple[Entry, ...]] = {}
        entries: dict[str, Entry] = {}
        gone: list[str] = []
        for path in touched:
            gone.extend(entry.id for entry in self._by_path.get(path, ()))
            record = self._files.get(path)
            if record is None:
                continue
            visible = self._visible(path, record)
            if visible or self._in_window(record):
                paths[path] = visible
            for entry in visible:
                entries[entry.id] = entry
        self._by_path = self._by_path.evolve(paths, touched)
        self._entries = self._entries.evolve(entries, gone)

    def _diff(self, before: Mapping[str, tuple[Entry, ...]], paths: set[str]) -> ChangeSet:
        added: set[str] = set()
        removed: set[str] = set()
        updated: set[str] = set()
        rows: list[tuple[str, int, int, int]] = []
        for path in sorted(paths):
            old = {entry.id: entry for entry in before.get(path, ())}
            new = {entry.id: entry for entry in self._by_path.get(path, ())}
            path_added = new.keys() - old.keys()
            path_removed = old.keys() - new.keys()
            path_updated = {key for key in new.keys() & old.keys() if new[key] != old[key]}
            if path_added or path_removed or path_updated:
                rows.append((path, len(path_added), len(path_removed), len(path_updated)))
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

    # --- internals: disk -----------------------------------------------------------------------

    def _relative(self, hint: str | Path) -> str | None:
        """A hint as a root-relative POSIX path ('' = the root), or None when outside the root."""
        candidate = Path(hint)
        if not candidate.is_absolute():
            candidate = self.root / candidate
        for base in (self.root.absolute(), Path(os.path.realpath(self.root))):
            try:
                relative = Path(os.path.normpath(candidate.absolute())).relative_to(base)
            except ValueError:
                continue
            text = relative.as_posix()
            return "" if text == "." else text
        return None

    def _reconcile(self, scans: dict[str, _Scan], *, forced: set[str], touched: set[str]) -> None:
        """Make the records under each scanned scope match its scan, reading new or changed files.

        The known paths each scope covers come from the sorted indexes, so a batch costs its
        hints (and the files they name), not the number of files loaded.
        """
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
        new_files: dict[str, _File] = {}
        for path in sorted(found):
            old = self._files.get(path)
            signature = _signature(found[path])
            if old is not None and old.signature == signature and not (
                path in forced and _racy(signature)
            ):
                continue
            record = _File(signature, classify(path), None)
            touched.add(path)
            if self._in_window(record):
                result = self._read(path)
                if isinstance(result, str):
                    gone.add(path)
                    new_skips[path] = result
                    continue
                record.entries = result
            new_files[path] = record
        files = self._files.evolve(new_files, gone)
        skipped = self._skipped.evolve(new_skips, covered_skips)
        if "" in scans:
            self._file_index = _PathIndex(files)
            self._skip_index = _PathIndex(skipped)
        else:
            self._sync_index(self._file_index, covered_files | found.keys(), files)
            self._sync_index(self._skip_index, covered_skips | new_skips.keys(), skipped)
        self._files = files
        self._skipped = skipped

    @staticmethod
    def _sync_index(index: _PathIndex, candidates: set[str], current: Mapping[str, object]) -> None:
        """Bring `index` in line with `current` for the paths one batch could have changed."""
        for path in candidates:
            if path in current:
                index.add(path)
            else:
                index.discard(path)

    def _scan_scope(self, scope: str) -> _Scan:
        """What is on disk at one hinted path: a file, a folder to rescan, or nothing."""
        scan = _Scan({}, {})
        parts = scope.split("/")
        if len(parts) - 1 > MAX_DEPTH or any(part in IGNORED_FOLDERS for part in parts[:-1]):
            return scan
        for depth in range(1, len(parts)):
            try:
                if not stat.S_ISDIR(os.lstat(self.root.joinpath(*parts[:depth])).st_mode):
                    return scan
            except OSError:
                return scan
        target = self.root.joinpath(*parts)
        try:
            info = os.lstat(target)
        except OSError:
            return scan
        if stat.S_ISDIR(info.st_mode):
            if parts[-1] in IGNORED_FOLDERS:
                scan.skipped[scope] = f"ignored folder ({parts[-1]})"
            elif len(parts) > MAX_DEPTH:
                scan.skipped[scope] = f"deeper than {MAX_DEPTH} folders (not scanned)"
            else:
                return self._walk(scope)
            return scan
        self._examine(scope, str(target), info, scan)
        return scan

    def _walk(self, start: str) -> _Scan:
        """Scan a folder subtree with an explicit stack (no recursion)."""
        scan = _Scan({}, {})
        stack = [(start, start.count("/") + 1 if start else 0)]
        while stack:
            folder, depth = stack.pop()
            absolute = str(self.root / folder) if folder else str(self.root)
            try:
                with os.scandir(absolute) as iterator:
                    items = list(iterator)
            except FileNotFoundError:
                continue
            except PermissionError:
                scan.skipped[folder or "."] = "folder not readable (permission denied)"
                continue
            except OSError as exc:
                scan.skipped[folder or "."] = f"folder not readable ({exc.strerror or exc})"
                continue
            for item in items:
                path = f"{folder}/{item.name}" if folder else item.name
                try:
                    info = item.stat(follow_symlinks=False)
                except OSError as exc:
                    if is_markdown(item.name):
                        scan.skipped[path] = f"cannot stat ({exc.strerror or exc})"
                    continue
                if stat.S_ISDIR(info.st_mode):
                    if item.name in IGNORED_FOLDERS:
                        scan.skipped[path] = f"ignored folder ({item.name})"
                    elif depth + 1 > MAX_DEPTH:
                        scan.skipped[path] = f"deeper than {MAX_DEPTH} folders (not scanned)"
                    else:
                        stack.append((path, depth + 1))
                else:
                    self._examine(path, item.path, info, scan)
        return scan

    def _examine(self, path: str, absolute: str, info: os.stat_result, scan: _Scan) -> None:
        """Decide about one non-folder path: a loadable file, a recorded skip, or nothing."""
        name = path.rsplit("/", 1)[-1]
        markdown = is_markdown(name)
        if stat.S_ISLNK(info.st_mode):
            self._examine_link(path, absolute, markdown, scan)
        elif stat.S_ISREG(info.st_mode):
            if markdown:
                self._add_found(path, info, scan)
        elif markdown:
            scan.skipped[path] = "not a regular file (FIFO, socket or device): never opened"

    def _examine_link(self, path: str, absolute: str, markdown: bool, scan: _Scan) -> None:
        try:
            target_info = os.stat(absolute)
        except FileNotFoundError:
            if markdown:
                scan.skipped[path] = "broken symlink"
            return
        except OSError as exc:
            if markdown or exc.errno == errno.ELOOP:
                scan.skipped[path] = f"symlink not followed ({exc.strerror or exc})"
            return
        target = os.path.realpath(absolute)
        real_root = os.path.realpath(self.root)
        inside = target == real_root or target.startswith(real_root.rstrip(os.sep) + os.sep)
        if stat.S_ISDIR(target_info.st_mode):
            scan.skipped[path] = (
                "symlinked folder not followed (it would duplicate or loop)"
                if inside
                else "symlink leaves the memory folder (not followed)"
            )
        elif not markdown:
            return
        elif not inside:
            scan.skipped[path] = "symlink leaves the memory folder (not followed)"
        elif not stat.S_ISREG(target_info.st_mode):
            scan.skipped[path] = "symlink to a FIFO, socket or device: never opened"
        else:
            self._add_found(path, target_info, scan)

    @staticmethod
    def _add_found(path: str, info: os.stat_result, scan: _Scan) -> None:
        if len(scan.found) >= MAX_FILES:
            scan.overflow += 1
        else:
            scan.found[path] = info

    def _read(self, path: str) -> tuple[Entry, ...] | str:
        """Read, decode and parse one file; a string is the reason it was skipped."""
        loaded = self._read_text(path)
        if isinstance(loaded, str):
            return loaded
        decoded, size = loaded
        entries = parse_file(path, decoded.text, warnings=decoded.warnings)
        if size > MAX_FILE_BYTES and entries:
            notice = (
                f"truncated: the file is {size:,} bytes; only the first "
                f"{MAX_FILE_BYTES // (1024 * 1024)} MiB are loaded"
            )
            entries[-1] = replace(entries[-1], warnings=(*entries[-1].warnings, notice))
        return tuple(entries)

    def _read_text(self, path: str) -> tuple[Decoded, int] | str:
        """One file's decoded text (capped) and its size; a string is the reason it was skipped."""
        absolute = os.path.join(self.root, path)  # a str join: pathlib costs more than the read
        try:
            descriptor = os.open(absolute, _OPEN_FLAGS)
        except PermissionError:
            return "not readable (permission denied)"
        except OSError as exc:
            return f"not readable ({exc.strerror or exc})"
        try:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode):
                return "not a regular file (FIFO, socket or device): never read"
            chunks: list[bytes] = []
            remaining = MAX_FILE_BYTES + 1
            while remaining > 0:
                chunk = os.read(descriptor, min(_READ_CHUNK, remaining))
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
        except OSError as exc:
            return f"not readable ({exc.strerror or exc})"
        finally:
            os.close(descriptor)
        data = b"".join(chunks)
        size = len(data)
        if size > MAX_FILE_BYTES:
            size = max(info.st_size, size)
            data = data[:MAX_FILE_BYTES]
            data = data[: len(data) // 2 * 2] if data[:2] in (b"\xff\xfe", b"\xfe\xff") else (
                complete_utf8_prefix(data)
            )
        try:
            return decode(data), size
        except BinaryFile as exc:
            return str(exc)
