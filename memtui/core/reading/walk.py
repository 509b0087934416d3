"""The safe file-system side of the store: what a scan finds under a root, and reading a file.

Nothing here reads outside the root. Scanning uses an explicit stack (a 1,200-level tree cannot
raise RecursionError) capped at 64 levels. Decisions:

* Only `.md` / `.markdown` files are memory; other files are skipped silently.
* Folders that hold tooling rather than memory (`.git`, `node_modules`, `.venv` … see
  `IGNORED_FOLDERS`) are not entered and are listed as skipped. Other hidden folders are scanned:
  Claude Code keeps its memory in `.claude/memory/`.
* Symlinks: a symlinked file is read only when its target is a regular file inside the root;
  symlinked folders are never followed (inside the root they would duplicate or loop, outside
  it they leave the root). FIFOs, sockets and devices are never opened: everything is
  `lstat`-ed first, opened with `O_NONBLOCK` and `fstat`-ed again before reading.
* At most MAX_FILES Markdown files are loaded per scan; the rest are counted and reported.
* A file is read up to 4 MiB; a longer one keeps what was read and its last entry says so.
* A file's signature is (mtime, size, inode, ctime); one modified within RACY_WINDOW_NS could
  hide a same-size rewrite within the file system's timestamp granularity (git's "racy" rule).
  The ctime is what `touch -r` and sync tools that restore an mtime cannot set back: any write,
  chmod, rename or restored mtime moves it, so a same-size rewrite with its mtime restored is
  seen on the next warm start. It cannot catch a change that moves no inode time (writing the
  block device underneath, a file system that keeps no ctime), nor a cache forged by someone who
  can write the user's 0700 cache folder (they can read the ctime too: the cache is trusted as
  far as that folder is). It also moves on changes that are not ones (chmod, a hard link),
  which cost only a re-read.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path

from msgspec import Struct
from msgspec.structs import replace

from memtui.core.digest import blake2b
from memtui.core.model import Entry
from memtui.core.reading.file_kind import is_markdown
from memtui.core.reading.small_file import read_up_to
from memtui.core.reading.text import BinaryFile, Decoded, complete_utf8_prefix, decode

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64
MAX_FILES = 20_000
IGNORED_FOLDERS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".jj",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        ".nox",
        ".idea",
        ".vscode",
        ".obsidian",
        ".trash",
        ".Trash",
        "site-packages",
    }
)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_READ_CHUNK = 1024 * 1024
RACY_WINDOW_NS = 3_000_000_000
"""A hinted file whose stat signature is unchanged is re-read only if modified this recently."""

Signature = tuple[int, int, int, int]
"""(mtime_ns, size, inode, ctime_ns)."""


class Scan(Struct):
    """What one scan found: Markdown files by root-relative path, and paths skipped (why)."""

    found: dict[str, os.stat_result]
    skipped: dict[str, str]
    overflow: int = 0
    """Markdown files beyond MAX_FILES, not loaded."""


def file_signature(info: os.stat_result) -> Signature:
    return (info.st_mtime_ns, info.st_size, info.st_ino, info.st_ctime_ns)


def is_racy(signature: Signature) -> bool:
    """Modified so recently that a same-size rewrite could share its mtime (git's racy check)."""
    return abs(time.time_ns() - signature[0]) < RACY_WINDOW_NS


def relative_path(root: Path, hint: str | Path) -> str | None:
    """A hint as a root-relative POSIX path ('' = the root), or None when outside the root."""
    candidate = Path(hint)
    if not candidate.is_absolute():
        candidate = root / candidate
    for base in (root.absolute(), Path(os.path.realpath(root))):
        try:
            relative = Path(os.path.normpath(candidate.absolute())).relative_to(base)
        except ValueError:
            continue
        text = relative.as_posix()
        return "" if text == "." else text
    return None


def scan_scope(
    root: Path, scope: str, only: tuple[str, ...] = (), *, every_link: bool = False
) -> Scan:
    """What is on disk at one hinted path: a file, a folder to rescan, or nothing (`only`: the
    root's own limits, which say what the rest of its scan reads; `every_link`: read every
    symlink to a file inside the root, even one whose target is read under its own name)."""
    scan = Scan({}, {})
    parts = scope.split("/")
    if len(parts) - 1 > MAX_DEPTH or any(part in IGNORED_FOLDERS for part in parts[:-1]):
        return scan
    for depth in range(1, len(parts)):
        try:
            if not stat.S_ISDIR(os.lstat(root.joinpath(*parts[:depth])).st_mode):
                return scan
        except OSError:
            return scan
    target = root.joinpath(*parts)
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
            return walk_tree(root, scope, only=only, every_link=every_link)
        return scan
    _examine(root, scope, str(target), info, scan, only, every_link)
    return scan


def walk_tree(
    root: Path,
    start: str,
    *,
    descend: bool = True,
    only: tuple[str, ...] = (),
    every_link: bool = False,
) -> Scan:
    """Scan a folder subtree with an explicit stack (no recursion); with `descend` False the
    folder's own files only (its subfolders are neither scanned nor recorded)."""
    scan = Scan({}, {})
    stack = [(start, start.count("/") + 1 if start else 0)]
    while stack:
        folder, depth = stack.pop()
        absolute = str(root / folder) if folder else str(root)
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
                if not descend:
                    continue
                if item.name in IGNORED_FOLDERS:
                    scan.skipped[path] = f"ignored folder ({item.name})"
                elif depth + 1 > MAX_DEPTH:
                    scan.skipped[path] = f"deeper than {MAX_DEPTH} folders (not scanned)"
                else:
                    stack.append((path, depth + 1))
            else:
                # Not descending, the scan cannot tell what it would read elsewhere: every link
                # to a file inside the root is read.
                _examine(root, path, item.path, info, scan, only, every_link or not descend)
    return scan


def scan_only(root: Path, only: tuple[str, ...], *, every_link: bool = False) -> Scan:
    """What a root limited to some files and folders holds: each scanned as a watcher's hint
    is (`scan_scope`: lstat first, no symlinked folders, ignored folders skipped), one cap."""
    scan = Scan({}, {})
    for scope in only:
        part = scan_scope(root, scope, only, every_link=every_link)
        for path, info in part.found.items():
            _add_found(path, info, scan)
        scan.skipped.update(part.skipped)
        scan.overflow += part.overflow
    return scan


def scan_root(root: Path, only: tuple[str, ...] = (), *, every_link: bool = False) -> Scan:
    """What a whole root holds: its folder walked, or only the files and folders it names.

    A symlink to a file the scan reads under its own name is skipped (its entries would come
    twice), unless `every_link`: what an agent loads at start reads both names."""
    if only:
        return scan_only(root, only, every_link=every_link)
    return walk_tree(root, "", every_link=every_link)


def _examine(
    root: Path,
    path: str,
    absolute: str,
    info: os.stat_result,
    scan: Scan,
    only: tuple[str, ...],
    every_link: bool,
) -> None:
    """Decide about one non-folder path: a loadable file, a recorded skip, or nothing."""
    name = path.rsplit("/", 1)[-1]
    markdown = is_markdown(name)
    if stat.S_ISLNK(info.st_mode):
        _examine_link(root, path, absolute, markdown, scan, only, every_link)
    elif stat.S_ISREG(info.st_mode):
        if markdown:
            _add_found(path, info, scan)
    elif markdown:
        scan.skipped[path] = "not a regular file (FIFO, socket or device): never opened"


def _examine_link(
    root: Path,
    path: str,
    absolute: str,
    markdown: bool,
    scan: Scan,
    only: tuple[str, ...],
    every_link: bool,
) -> None:
    """A symlink: followed to a Markdown file inside the root that the scan does not read
    under its own name, or to one anywhere when the link is a file the root names (an agent
    loads `~/.claude/CLAUDE.md -> ~/dotfiles/CLAUDE.md` by that name, so its text is what the
    agent sees); otherwise skipped, with the reason."""
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
    real_root = os.path.realpath(root)
    inside = target == real_root or target.startswith(real_root.rstrip(os.sep) + os.sep)
    if stat.S_ISDIR(target_info.st_mode):
        scan.skipped[path] = (
            "symlinked folder not followed (it would duplicate or loop)"
            if inside
            else "symlink leaves the memory folder (not followed)"
        )
    elif not markdown:
        return
    elif not stat.S_ISREG(target_info.st_mode):
        scan.skipped[path] = "symlink to a FIFO, socket or device: never opened"
    elif not inside and path not in only:
        scan.skipped[path] = "symlink leaves the memory folder (not followed)"
    elif inside and not every_link and (own := _walked_as(target, real_root, only)) is not None:
        scan.skipped[path] = f"symlink to {own}, read under its own name"
    else:
        _add_found(path, target_info, scan)


def _walked_as(target: str, real_root: str, only: tuple[str, ...]) -> str | None:
    """The root-relative path the scan reads `target` by, if it reads it at all: a symlink
    to it (`memory/MEMORY.md -> ../MEMORY.md`, `CLAUDE.md -> AGENTS.md`) would give every
    entry twice. None for a target the scan passes over (an ignored or too deep folder, a file
    outside the root's `only`), which the link then brings in."""
    own = os.path.relpath(target, real_root).replace(os.sep, "/")
    parts = own.split("/")
    if not is_markdown(parts[-1]) or len(parts) - 1 > MAX_DEPTH:
        return None
    if any(part in IGNORED_FOLDERS for part in parts[:-1]):
        return None
    if only and not any(own == scope or own.startswith(f"{scope}/") for scope in only):
        return None
    return own


def _add_found(path: str, info: os.stat_result, scan: Scan) -> None:
    if len(scan.found) >= MAX_FILES:
        scan.overflow += 1
    else:
        scan.found[path] = info


def content_digest(data: bytes) -> str:
    """What a file's bytes hash to: proves a file unchanged when its stat cannot."""
    return blake2b(data, digest_size=16).hexdigest()


def read_entries(
    root: Path, path: str, label: str = "", *, fingerprint: bool = False
) -> tuple[tuple[Entry, ...], str | None] | str:
    """Read, decode and parse one file (entries labelled `label`), with the content digest of
    what was read when `fingerprint` is asked; a string is the reason it was skipped."""
    raw = read_bytes(root, path)
    if isinstance(raw, str):
        return raw
    data, size = raw
    digest = content_digest(data) if fingerprint else None
    try:
        decoded = decode(data)
    except BinaryFile as exc:
        return str(exc)
    from memtui.core.reading.parse import parse_file  # here: a warm start parses no file

    entries = parse_file(path, decoded.text, warnings=decoded.warnings, root=label)
    if size > MAX_FILE_BYTES and entries:
        notice = (
            f"truncated: the file is {size:,} bytes; only the first "
            f"{MAX_FILE_BYTES // (1024 * 1024)} MiB are loaded"
        )
        entries[-1] = replace(entries[-1], warnings=(*entries[-1].warnings, notice))
    return tuple(entries), digest


def read_text(root: Path, path: str) -> tuple[Decoded, int] | str:
    """One file's decoded text (capped) and its size; a string is the reason it was skipped."""
    raw = read_bytes(root, path)
    if isinstance(raw, str):
        return raw
    try:
        return decode(raw[0]), raw[1]
    except BinaryFile as exc:
        return str(exc)


def read_bytes(root: Path, path: str) -> tuple[bytes, int] | str:
    """One file's bytes, capped at MAX_FILE_BYTES (cut on a character boundary), and its size;
    a string is the reason it was not read."""
    absolute = os.path.join(root, path)  # a str join: pathlib costs more than the read
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
        data = read_up_to(descriptor, MAX_FILE_BYTES + 1, _READ_CHUNK)
    except OSError as exc:
        return f"not readable ({exc.strerror or exc})"
    finally:
        os.close(descriptor)
    size = len(data)
    if size > MAX_FILE_BYTES:
        size = max(info.st_size, size)
        data = data[:MAX_FILE_BYTES]
        data = (
            data[: len(data) // 2 * 2]
            if data[:2] in (b"\xff\xfe", b"\xfe\xff")
            else (complete_utf8_prefix(data))
        )
    return data, size
