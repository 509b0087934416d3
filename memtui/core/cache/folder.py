"""Where cache files live: one per memory root in `$XDG_CACHE_HOME/memtui/`, at most MAX_ROOTS.

A root's file is named by a hash of its real path, and its header repeats that path and the
format version, so a file of another version or (by a hash collision) another folder is
recognised and rebuilt. Reading a root's file marks it recently used (its mtime); after each
write the least recently used files beyond MAX_ROOTS are removed. A write killed half way
(`kill -9`) leaves a `.tmp-<pid>-….part` file: the next start removes it once no process has
that pid, and `memtui cache` lists it until then. Two memtui instances may
read and write the same folder at once: files are replaced by rename, and a file that vanishes
under a reader is simply missing.

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

MAX_ROOTS = 10
"""Cache files kept: the most recently used roots."""
SUFFIX = ".cache"
STALE_TEMPORARY_S = 3600
"""A temporary file this old was left by a writer that died, whatever its name says."""


def default_cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memtui"


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

    def file_for(self, root: Path, only: tuple[str, ...] = ()) -> Path:
        real = os.fsencode(_root_key(root, only))
        return self.folder / (blake2b(real, digest_size=16).hexdigest() + SUFFIX)

    def refusal(self, root: Path) -> str | None:
        """Why `root` is not cached (the cache folder lies inside it), or None."""
        if _inside(os.path.realpath(self.folder), os.path.realpath(root)):
            return (
                f"not cached: the cache folder {self.folder} is inside the memory folder "
                f"{root}, and memtui never writes there"
            )
        return None

    def read(
        self, root: Path, label: str, only: tuple[str, ...] = ()
    ) -> tuple[RootSnapshot | None, str | None]:
        """The snapshot cached for `root` (entries labelled `label`), or None; the second value
        says why an existing file was not used (it is rebuilt on the next write)."""
        path = self.file_for(root, only)
        try:
            if not path.exists():
                return None, None
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
                from memtui.core.cache.codec import decode  # numpy: not for `memtui cache`

                snapshot = decode(container, label)
        except CacheCorrupt as exc:
            return None, f"cache of {root} ignored and rebuilt: {exc}"
        except OSError as exc:
            return None, f"cache of {root} ignored: {exc.strerror or exc}"
        except Exception as exc:  # an untrusted file: whatever reading it raised, it is damage
            return None, f"cache of {root} ignored and rebuilt: {type(exc).__name__}: {exc}"
        with contextlib.suppress(OSError):  # still usable; only the recently-used order suffers
            os.utime(path)
        return snapshot, None

    def write(
        self, root: Path, label: str, snapshot: RootSnapshot, only: tuple[str, ...] = ()
    ) -> int:
        """Cache `snapshot` for `root` (atomically); returns the file's size. Raises OSError."""
        from memtui.core.cache.codec import encode  # numpy: not for `memtui cache`

        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        header = {
            "format": FORMAT_VERSION,
            "code": code_fingerprint(),
            "code_files": code_signature(),
            "root": _root_key(root, only),
            "label": label,
            "written": time.time(),
            "entries": sum(len(file.entries or ()) for file in snapshot.files),
            "files": len(snapshot.files),
        }
        size = write_container(self.file_for(root, only), header, encode(snapshot))
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
                    )
                )
            except Exception as exc:  # an untrusted file: anything it raises is damage
                problem = str(exc) if isinstance(exc, CacheCorrupt) else type(exc).__name__
                found.append(
                    CachedRootInfo(path, info.st_size, info.st_mtime, None, problem=problem)
                )
        return sorted(found, key=lambda item: -item.used)

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
