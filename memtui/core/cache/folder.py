"""Where cache files live: one per memory root and date window in `$XDG_CACHE_HOME/memtui/`, at
most MAX_ROOTS files.

A root's file is named by a hash of its real path and its date window, and its header repeats
both and the format version, so a file of another version or (by a hash collision) another
folder or window is recognised and rebuilt. Each window has its own file because what a window
holds differs: a narrower one drops notes, a wider one needs an index over more entries (built
afresh, ~3 s at 50,000), so one file rewritten by whichever window ran last made a script that
alternates (`rank` every turn, `health --days 0` now and then) pay that on every switch. A
window without a file of its own starts from the widest other window's file of that root.

Reading a file marks it recently used (its mtime); after each write the least recently used
files beyond MAX_ROOTS are removed. A write killed half way (`kill -9`) leaves a
`.tmp-<pid>-….part` file: the next start removes it once no process has that pid, and
`memtui cache` lists it until then. Two memtui instances may read and write the same folder at
once: files are replaced by rename, and a file that vanishes under a reader is simply missing.

The cache folder is never inside a memory root (memtui never writes there): a root that holds
it is not cached, and says why.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from msgspec import Struct

from memtui.core.cache.container import (
    TEMPORARY_PREFIX,
    TEMPORARY_SUFFIX,
    CacheCorrupt,
    Container,
    write_container,
)
from memtui.core.cache.records import (
    FORMAT_VERSION,
    RootSnapshot,
    code_fingerprint,
    code_signature,
)
from memtui.core.digest import blake2b
from memtui.core.settings.xdg import cache_home

MAX_ROOTS = 16
"""Cache files kept, the most recently used: a root read with two date windows has two."""
SUFFIX = ".cache"
STALE_TEMPORARY_S = 3600
"""A temporary file this old was left by a writer that died, whatever its name says."""


def default_cache_folder() -> Path:
    return cache_home() / "memtui"


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class CachedRootInfo(Struct, frozen=True):
    """One cache file, as `memtui cache` lists it."""

    file: Path
    size: int
    used: float
    """When it was last read or written (seconds since the epoch)."""
    root: str | None
    """The memory folder it caches; None when the file is unreadable."""
    entries: int = 0
    problem: str | None = None
    days: int | None = None
    """The date window it was written for (0: all dates); None when unreadable."""


def _root_key(root: Path, only: tuple[str, ...]) -> str:
    """What names a root's cache: its real path, and the files it is limited to, if any
    (a repository's CLAUDE.md set and its `MEMORY.md` are two roots at one path)."""
    real = os.path.realpath(root)
    return f"{real} [{', '.join(only)}]" if only else real


class CacheFolder:
    """The cache files of every root, in one folder."""

    def __init__(self, folder: Path | None = None, *, keep: int = MAX_ROOTS) -> None:
        self.folder = folder if folder is not None else default_cache_folder()
        self.keep = keep

    def file_for(self, root: Path, only: tuple[str, ...] = (), days: int = 0) -> Path:
        """The file of `root` read with a window of `days` (0: all dates)."""
        named = os.fsencode(f"{_root_key(root, only)}\0{days}")
        return self.folder / (blake2b(named, digest_size=16).hexdigest() + SUFFIX)

    def refusal(self, root: Path) -> str | None:
        """Why `root` is not cached (the cache folder lies inside it), or None."""
        if _inside(os.path.realpath(self.folder), os.path.realpath(root)):
            return (
                f"not cached: the cache folder {self.folder} is inside the memory folder "
                f"{root}, and memtui never writes there"
            )
        return None

    def read(
        self, root: Path, label: str, only: tuple[str, ...] = (), days: int = 0
    ) -> tuple[RootSnapshot | None, str | None]:
        """The snapshot cached for `root` (entries labelled `label`) read with a window of
        `days`, or None; the second value says why an existing file was not used (it is
        rebuilt on the next write). Without a file for this window, the widest other window's
        file of the root is read: the store drops or adds what the windows differ by."""
        path = self.file_for(root, only, days)
        try:
            if not path.exists():
                other, days = self._other_window(_root_key(root, only))
                if other is None:
                    return None, None
                path = other
            with Container(path) as container:
                header = container.header
                if header.get("format") != FORMAT_VERSION:
                    raise CacheCorrupt(
                        f"written by another memtui version (format {header.get('format')!r}, "
                        f"this one reads {FORMAT_VERSION})"
                    )
                same_files = header.get("code_files") == code_signature()
                if not same_files and header.get("code") != code_fingerprint():
                    raise CacheCorrupt(
                        "written by another build of memtui (its parser or index may differ)"
                    )
                if header.get("root") != _root_key(root, only):
                    raise CacheCorrupt("it belongs to another folder")
                if _window(header.get("days")) != days:
                    raise CacheCorrupt("it was written for another date window")
                from memtui.core.cache.codec import decode  # numpy: not for `memtui cache`

                snapshot = decode(container, label)
        except CacheCorrupt as exc:
            return None, f"cache of {root} ignored and rebuilt: {exc}"
        except FileNotFoundError:
            return None, None  # evicted between the check and the open: no cache, no problem
        except OSError as exc:
            return None, f"cache of {root} ignored: {exc.strerror or exc}"
        except Exception as exc:  # an untrusted file: whatever reading it raised, it is damage
            return None, f"cache of {root} ignored and rebuilt: {type(exc).__name__}: {exc}"
        with contextlib.suppress(OSError):  # still usable; only the recently-used order suffers
            os.utime(path)
        return snapshot, None

    def write(
        self,
        root: Path,
        label: str,
        snapshot: RootSnapshot,
        only: tuple[str, ...] = (),
        days: int = 0,
    ) -> int:
        """Cache `snapshot` for `root` read with a window of `days` (atomically); returns the
        file's size. Raises OSError."""
        from memtui.core.cache.codec import encode  # numpy: not for `memtui cache`

        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        header = {
            "format": FORMAT_VERSION,
            "code": code_fingerprint(),
            "code_files": code_signature(),
            "root": _root_key(root, only),
            "days": days,
            "unread_before": (
                None if snapshot.unread_before is None else snapshot.unread_before.isoformat()
            ),
            "label": label,
            "written": time.time(),
            "entries": sum(len(file.entries or ()) for file in snapshot.files),
            "files": len(snapshot.files),
        }
        size = write_container(self.file_for(root, only, days), header, encode(snapshot))
        self.prune()
        return size

    def listing(self) -> list[CachedRootInfo]:
        """Every cache file, most recently used first."""
        found: list[CachedRootInfo] = []
        for path in self._files():
            try:
                info = path.stat()
            except OSError:
                continue  # removed meanwhile
            try:
                with Container(path) as container:
                    header = container.header
                root = header.get("root")
                entries = header.get("entries")
                found.append(
                    CachedRootInfo(
                        path,
                        info.st_size,
                        info.st_mtime,
                        root if isinstance(root, str) else None,
                        entries if isinstance(entries, int) else 0,
                        None if header.get("format") == FORMAT_VERSION else "another version",
                        _window(header.get("days")),
                    )
                )
            except FileNotFoundError:
                continue  # removed meanwhile
            except Exception as exc:  # an untrusted file: anything it raises is damage
                problem = str(exc) if isinstance(exc, CacheCorrupt) else type(exc).__name__
                found.append(
                    CachedRootInfo(path, info.st_size, info.st_mtime, None, problem=problem)
                )
        return sorted(found, key=lambda item: -item.used)

    def _other_window(self, key: str) -> tuple[Path | None, int]:
        """The file of the root `key` with the widest window (all dates, else the most days),
        and that window; (None, 0) when the root has none. Reads the headers of the folder's
        files (at most MAX_ROOTS), which happens only for a window the root was never cached
        with."""
        found = [
            (item.days == 0, item.days, item.file)
            for item in self.listing()
            if item.root == key and item.days is not None and not item.problem
        ]
        if not found:
            return None, 0
        _, days, path = max(found)
        return path, days

    def leftovers(self) -> list[CachedRootInfo]:
        """Temporary files of writes that did not finish (their writer is gone)."""
        found: list[CachedRootInfo] = []
        cutoff = time.time() - STALE_TEMPORARY_S
        for path in self._temporaries():
            try:
                info = path.stat()
            except OSError:
                continue
            if info.st_mtime < cutoff or not _writer_alive(path.name):
                found.append(
                    CachedRootInfo(
                        path, info.st_size, info.st_mtime, None, problem="an unfinished write"
                    )
                )
        return found

    def remove_leftovers(self) -> int:
        """Remove the temporary files of writes that did not finish: bytes freed."""
        freed = 0
        for item in self.leftovers():
            with contextlib.suppress(OSError):
                item.file.unlink()
                freed += item.size
        return freed

    def clear(self) -> tuple[int, int]:
        """Remove every cache file (and leftover temporary file): (files, bytes) removed."""
        removed = freed = 0
        for path in [*self._files(), *self._temporaries()]:
            try:
                size = path.stat().st_size
                path.unlink()
            except OSError:
                continue
            removed += 1
            freed += size
        return removed, freed

    def prune(self) -> None:
        """Keep the `keep` most recently used files; drop temporaries of writers that died."""
        for item in self.listing()[self.keep :]:
            item.file.unlink(missing_ok=True)
        self.remove_leftovers()

    def unreadable(self) -> str | None:
        """Why the cache folder cannot be listed (it exists), or None."""
        try:
            with os.scandir(self.folder):
                return None
        except FileNotFoundError:
            return None
        except OSError as exc:
            return exc.strerror or str(exc)

    def _files(self) -> list[Path]:
        try:
            return [
                path
                for path in self.folder.iterdir()
                if path.name.endswith(SUFFIX) and not path.name.startswith(".")
            ]
        except OSError:
            return []

    def _temporaries(self) -> list[Path]:
        try:
            return [
                path
                for path in self.folder.iterdir()
                if path.name.startswith(TEMPORARY_PREFIX) and path.name.endswith(TEMPORARY_SUFFIX)
            ]
        except OSError:
            return []


def _window(days: object) -> int | None:
    """A header's date window, or None when it holds none (an older file, or damage)."""
    return days if isinstance(days, int) and not isinstance(days, bool) and days >= 0 else None


def _writer_alive(name: str) -> bool:
    """Whether the process that named this temporary file (`.tmp-<pid>-….part`) still runs;
    a name without a pid is an older memtui's, judged by age alone."""
    pid_text = name[len(TEMPORARY_PREFIX) :].split("-", 1)[0]
    if not pid_text.isdigit():
        return True
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process: alive
    return True
