"""What is cached for one memory root: each file's stat and entries, and the word index.

These are plain immutable values: the store hands out its records, the engine its index arrays,
a writer thread encodes them (`core.cache.codec`), and a later start decodes them and seeds the
store and the index with whatever still matches the disk.
"""

from __future__ import annotations

import datetime as dt
import os
from functools import cache
from typing import TYPE_CHECKING

from msgspec import Struct

from memtui import __version__
from memtui.core.digest import blake2b

if TYPE_CHECKING:  # names for the fields only: `memtui cache` reads the records without them
    from collections.abc import Sequence

    from memtui.core.model import Entry
    from memtui.core.reading.walk import Signature
    from memtui.core.search.arrays import FloatArray, HashArray
    from memtui.core.search.segment import Segment

FORMAT_VERSION = 9
"""Bumped whenever what is cached, or how, changes: a cache of another version is rebuilt.
That includes the parser giving other entries for the same file (2: derived titles skip
tables, rules and code, and unwrap bold/italic; 3: bodies end at byte offsets, so they are
decoded a piece at a time; 4: a file's signature holds its ctime; 5: each piece of bodies has
its own checksum, so a body is read when its entry is made; 6: heading paths are ids into one
list of distinct headings; 7: a file's secrets scan, once `health` ran it; 8: each entry's text
and topic hashes; 9: 16 bodies a piece, not 64). Code changes are also caught without a bump:
see `code_fingerprint`."""


_CORE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
"""The folder of `memtui.core`, whose sources decide what a cache holds."""


@cache
def _core_sources() -> tuple[str, ...]:
    """The core's Python files, relative to `_CORE` with `/`, sorted: walked once for both
    `code_signature` and `code_fingerprint` (a write and a start whose stat differs need
    both). Raises OSError."""
    return tuple(
        sorted(  # os.walk and string slices: Path.rglob, relative_to or relpath cost 1-2 ms
            "/".join([*folder[len(_CORE) :].split(os.sep)[1:], name])
            for folder, _, names in os.walk(_CORE, onerror=_raise)
            for name in names
            if name.endswith(".py")
        )
    )


def _raise(error: OSError) -> None:
    raise error


@cache
def code_fingerprint() -> str:
    """A hash of the core's source: parsing, tokenizing and index building all live there, so
    a cache written by other code (an upgrade, a development checkout) is rebuilt even when
    nobody remembered to bump FORMAT_VERSION. Without readable sources (a frozen build), the
    package version stands in. Reading the ~80 files costs ~5 ms: a start tries
    `code_signature` first."""
    digest = blake2b(digest_size=12)
    try:
        for name in _core_sources():
            digest.update(name.encode())
            with open(os.path.join(_CORE, name), "rb") as source:
                digest.update(source.read())
    except OSError:
        return f"version {__version__}"
    return digest.hexdigest()


@cache
def code_signature() -> str:
    """Where the core's sources are and each one's size, times and inode, hashed: what a start
    checks first (~0.5 ms), as the store checks a memory file. A cache with this signature was
    written by these very files; with another (a source touched, or the same code installed
    elsewhere), it is still used when `code_fingerprint`, its content, matches."""
    digest = blake2b(_CORE.encode("utf-8", "surrogateescape"), digest_size=12)
    try:
        for name in _core_sources():
            info = os.lstat(os.path.join(_CORE, name))
            stamp = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
            digest.update(f"{name} {stamp}\n".encode())
    except OSError:
        return f"version {__version__}"
    return digest.hexdigest()


class CachedFile(Struct, frozen=True):
    """One Markdown file as the store last saw it."""

    path: str
    """Root-relative POSIX path."""
    signature: Signature
    """(mtime_ns, size, inode) when it was read: the file is reused only if its stat still says
    exactly this."""
    digest: str | None
    """Content hash, kept when the file had been modified so recently when it was read that a
    rewrite of equal size within the same timestamp tick could hide behind an unchanged stat;
    such a file is reused only if its content still hashes to this."""
    entries: Sequence[Entry] | None
    """Every entry of the file, in file order; None while it was left unread (a daily note
    outside the date window)."""
    count: int | None = None
    """For an unread file, how many entries it holds, once counted (the date window's
    'hidden' figure)."""
    secrets: FileSecrets | None = None
    """What the secrets scan found in `entries`, once `health` scanned them: a file unchanged
    since is not scanned again (the scan was ~0.5 s of CPU at 50,000 entries)."""


FileSecrets = tuple[tuple[int, tuple[tuple[str, int], ...]], ...]
"""What the secrets scan found in a file's entries: (first line, ((kind, count), …)) of each
entry where masking fires, by line; () when it fires nowhere."""


class CachedIndex(Struct, frozen=True):
    """The word index over a root's loaded entries, exactly as `build_main_segment` made it."""

    slots: Sequence[Entry]
    """The entry of each slot, in slot order (each one is also in its file's `entries`)."""
    segment: Segment
    lengths: FloatArray
    """Token count per slot."""
    whole_files: bool = False
    """The slots are every cached file's `entries`, file after file (the codec found them to
    be the whole decoded table in order): a file's slots are then its `entries` themselves."""


class PairScores(Struct, frozen=True):
    """Near-duplicate scores kept between `health` runs: each candidate pair scored, by the
    hashes of its two texts (a pair whose texts did not change has the same score)."""

    scorer: str
    """What scored them (rapidfuzz's version, the scorer, the threshold): scores made another
    way are not these."""
    left: HashArray
    right: HashArray
    score: FloatArray
    """Per pair, its similarity; 0 below the threshold."""


class PairMemo:
    """The pair scores a run started from, and whether a run replaced them since (a cache
    write then writes them). Handed to the health checks with the entries (`EntryTerms`)."""

    def __init__(self, scores: PairScores | None = None) -> None:
        self.scores = scores
        self.changed = False

    def keep(self, scores: PairScores) -> None:
        """Keep `scores` (one run's candidates: what is kept never outgrows them)."""
        old = self.scores
        if old is None or not (
            old.scorer == scores.scorer
            and old.left.tobytes() == scores.left.tobytes()
            and old.right.tobytes() == scores.right.tobytes()
            and old.score.tobytes() == scores.score.tobytes()
        ):
            self.scores, self.changed = scores, True


class RootSnapshot(Struct, frozen=True):
    """Everything cached for one root."""

    files: tuple[CachedFile, ...]
    index: CachedIndex | None
    """None when the index was not cached with the files (it is then built as usual)."""
    pairs: PairScores | None = None
    """The near-duplicate scores of the last `health` (of every root open then)."""
    unread_before: dt.date | None = None
    """The first day of the date window the files were last checked under: a file left unread
    (its `entries` None) is a daily note dated before it, so under a window that starts no
    earlier it is still hidden without its path being classified again. None: no window, or
    an older cache that did not say."""
