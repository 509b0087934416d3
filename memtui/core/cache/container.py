"""One cache file: a JSON header, then named sections, each checked by length and CRC-32.

A section holds JSON, raw UTF-8 text or one numpy array in `.npy` format. Nothing is ever
unpickled: JSON is data, and an array section is read with numpy's own header parser and
`allow_pickle=False` semantics (an object dtype is refused), so a cache file cannot run code.

Files are written to a temporary name in the same folder and renamed over the old one, so a
reader (another memtui, started meanwhile) sees the old file or the new one, never half of
either. No fsync: a file torn by a power cut fails its checks and is rebuilt, which is cheaper
than syncing every write of what is only a cache.

A cache file is untrusted input like any other: every length it claims is checked against the
file's size before anything is allocated (a claimed size never allocates more than the file
holds), and JSON nested deeper than the parser's recursion limit is damage, not a crash.
"""

from __future__ import annotations

import io
import json
import os
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
from msgspec import Struct
from msgspec import json as msgspec_json

from memtui.core.reading.small_file import Unreadable, open_regular

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MAGIC = b"memtui-cache\n"
_LENGTH = struct.Struct("<Q")
T = TypeVar("T")
MAX_HEADER_BYTES = 1 << 20
SECTION_ALIGN = 64
"""Sections start on 64-byte boundaries (array data stays aligned for numpy)."""
TEMPORARY_PREFIX, TEMPORARY_SUFFIX = ".tmp-", ".part"


class CacheCorrupt(ValueError):
    """The file is not a complete, intact cache: the message says what is wrong."""


Piece = bytes | memoryview
"""Bytes to write; an array's data is written straight from its memory, never copied."""


class Section(Struct, frozen=True):
    """A named section about to be written: its bytes come in pieces (written one by one, so a
    large cache is never joined into one string)."""

    name: str
    pieces: Iterable[Piece]


def json_section(name: str, value: Any) -> Section:
    return Section(name, [json.dumps(value, separators=(",", ":")).encode("ascii")])


def array_section(name: str, array: npt.NDArray[Any]) -> Section:
    """An array in `.npy` format (numpy's header, then the raw data)."""
    import numpy as np  # here: `memtui cache` reads headers only, and never loads numpy

    if array.dtype.hasobject:
        raise ValueError(f"{name}: object arrays are never cached")
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, np.lib.format.header_data_from_array_1_0(array))
    return Section(name, [buffer.getvalue(), np.ascontiguousarray(array).data.cast("B")])


def write_container(path: Path, header: dict[str, Any], sections: Iterable[Section]) -> int:
    """Write header and sections to `path` atomically; returns the file's size in bytes."""
    import tempfile  # here: a warm start writes no cache, and tempfile loads shutil (~3 ms)

    # The writer's pid in the name: a later start can tell a dead writer's leftover from a
    # file another running memtui is still writing.
    handle, temporary = tempfile.mkstemp(
        dir=path.parent, prefix=f"{TEMPORARY_PREFIX}{os.getpid()}-", suffix=TEMPORARY_SUFFIX
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            table = _write_sections(stream, sections)
            header_bytes = json.dumps({**header, "sections": table}, separators=(",", ":")).encode(
                "ascii"
            )
            if len(header_bytes) > MAX_HEADER_BYTES:
                raise ValueError("cache header too large")
            stream.write(header_bytes)
            stream.write(_LENGTH.pack(len(header_bytes)))
            stream.write(MAGIC)
            size = stream.tell()
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
        return size
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _write_sections(stream: io.BufferedWriter, sections: Iterable[Section]) -> list[Any]:
    """Sections from the start of the file; the header goes last (after the data it
    describes), found from the trailer, so nothing is held back while writing."""
    table: list[Any] = []
    stream.write(MAGIC)
    for section in sections:
        padding = -stream.tell() % SECTION_ALIGN
        stream.write(b"\0" * padding)
        offset = stream.tell()
        checksum = 0
        for piece in section.pieces:
            checksum = zlib.crc32(piece, checksum)
            stream.write(piece)
        table.append([section.name, offset, stream.tell() - offset, checksum])
    return table


def _loads(data: bytes) -> Any:
    """JSON from a cache file; nesting too deep for the parser is a ValueError like any other
    damage (a header of 200,000 brackets raised RecursionError and locked the app out).

    msgspec's decoder first: it reads the 50,000-entry cache's columns in ~19 ms against the
    json module's ~31 ms. It is the stricter of the two (lone surrogates, which a non-UTF-8
    file name is held as, NaN, numbers past 64 bits): what it refuses, the json module reads
    as before, so both give the same values for whatever they both accept."""
    try:
        try:
            return msgspec_json.decode(data)
        except msgspec.DecodeError:
            return json.loads(data)
    except RecursionError:
        raise ValueError("nested too deeply") from None


class Container:
    """An open cache file: its header, and sections read (and checked) one at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._stream = os.fdopen(open_regular(path), "rb")
        except Unreadable as exc:
            raise CacheCorrupt(str(exc)) from None
        except FileNotFoundError:
            raise  # gone since it was listed (another process's write evicted it): a plain miss
        except OSError as exc:
            raise CacheCorrupt(f"cannot open ({exc.strerror or exc})") from None
        try:
            self.header, self._sections = self._read_header()
        except BaseException:
            self._stream.close()
            raise

    def __enter__(self) -> Container:
        return self

    def __exit__(self, *_: object) -> None:
        self._stream.close()

    def _read_header(self) -> tuple[dict[str, Any], dict[str, tuple[int, int, int]]]:
        stream = self._stream
        size = os.fstat(stream.fileno()).st_size
        trailer = len(MAGIC) + _LENGTH.size
        if size < len(MAGIC) + trailer or stream.read(len(MAGIC)) != MAGIC:
            raise CacheCorrupt("not a memtui cache file (or truncated)")
        stream.seek(size - trailer)
        (length,) = _LENGTH.unpack(stream.read(_LENGTH.size))
        if stream.read(len(MAGIC)) != MAGIC:
            raise CacheCorrupt("truncated (no trailer)")
        start = size - trailer - length
        if length > MAX_HEADER_BYTES or start < len(MAGIC):
            raise CacheCorrupt("damaged header length")
        stream.seek(start)
        try:
            header = _loads(stream.read(length))
            sections = {
                name: (int(offset), int(count), int(crc))
                for name, offset, count, crc in header["sections"]
            }
        except (ValueError, KeyError, TypeError) as exc:
            raise CacheCorrupt(f"damaged header ({exc})") from None
        if not isinstance(header, dict):
            raise CacheCorrupt("damaged header")
        for name, (offset, count, _) in sections.items():
            if offset < len(MAGIC) or count < 0 or offset + count > start:
                raise CacheCorrupt(f"section {name} lies outside the file")
        return header, sections

    def kept_section(self, name: str) -> tuple[int, int, int]:
        """(a descriptor of this file that stays open after the container closes, the
        section's offset, its length): for reading parts of a section later, when they are
        asked for. The descriptor is this file even once another write replaced it by name."""
        offset, count, _ = self._location(name)
        return os.dup(self._stream.fileno()), offset, count

    def has(self, name: str) -> bool:
        return name in self._sections

    def size(self, name: str) -> int:
        """How many bytes a section holds."""
        return self._location(name)[1]

    def raw(self, name: str) -> bytes:
        """One section's bytes, checked against its length and CRC-32."""
        (data,) = self.pieces(name, [self.size(name)])
        return data

    def pieces(self, name: str, sizes: Iterable[int]) -> Iterator[bytes]:
        """A section's bytes in consecutive pieces of `sizes` bytes, which must add up to the
        section: a large section is decoded piece by piece instead of being held whole twice
        (raw and decoded). Raises CacheCorrupt after the last piece if the checksum fails, so
        a caller keeps nothing it decoded unless the whole section is intact."""
        offset, count, checksum = self._location(name)
        self._stream.seek(offset)
        crc = 0
        left = count
        for size in sizes:
            if not 0 <= size <= left:
                raise CacheCorrupt(f"section {name} is shorter than its pieces")
            piece = self._read(size)
            if len(piece) != size:
                raise CacheCorrupt(f"section {name} truncated")
            crc = zlib.crc32(piece, crc)
            left -= size
            yield piece
        if left or crc != checksum:
            raise CacheCorrupt(f"section {name} damaged (checksum)")

    def _read(self, size: int) -> bytes:
        """`size` bytes, at most what the file held when its header was read (every section
        was checked to lie inside it, and every piece inside its section): one read, no
        copy. A file cut short meanwhile gives fewer bytes, which the caller refuses."""
        return self._stream.read(size)

    def _location(self, name: str) -> tuple[int, int, int]:
        """(offset, length, CRC-32) of a section."""
        if name not in self._sections:
            raise CacheCorrupt(f"section {name} missing")
        return self._sections[name]

    def json(self, name: str) -> Any:
        data = self.raw(name)
        try:
            return _loads(data)
        except ValueError as exc:
            raise CacheCorrupt(f"section {name} is not JSON ({exc})") from None

    def typed(self, name: str, kind: type[T]) -> T:
        """A JSON section decoded as `kind`, checked against it while it is decoded (in C: a
        Python loop checking 8,630 file records was a third of reading them)."""
        data = self.raw(name)
        try:
            return msgspec_json.decode(data, type=kind)
        except msgspec.ValidationError as exc:
            raise CacheCorrupt(f"section {name} is damaged ({exc})") from None
        except msgspec.DecodeError:
            pass  # what only the json module reads (see `_loads`)
        try:
            return msgspec.convert(_loads(data), kind)
        except (ValueError, msgspec.ValidationError) as exc:
            raise CacheCorrupt(f"section {name} is damaged ({exc})") from None

    def array(self, name: str, check: Callable[[np.dtype[Any]], bool]) -> npt.NDArray[Any]:
        """A one-dimensional array section (read-only, sharing the section's bytes); `check`
        says whether its dtype is one this section may hold."""
        import numpy as np  # here: `memtui cache` reads headers only, and never loads numpy

        data = self.raw(name)
        stream = io.BytesIO(data)
        try:
            version = np.lib.format.read_magic(stream)
            if version != (1, 0):
                raise ValueError(f"npy version {version}")
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
        except ValueError as exc:
            raise CacheCorrupt(f"section {name} is not an array ({exc})") from None
        if dtype.hasobject or fortran or len(shape) != 1 or not check(dtype):
            raise CacheCorrupt(f"section {name} holds an unexpected array ({dtype}, {shape})")
        offset = stream.tell()
        if len(data) - offset != shape[0] * dtype.itemsize:
            raise CacheCorrupt(f"section {name} has the wrong length")
        return np.frombuffer(data, dtype=dtype, count=shape[0], offset=offset)
