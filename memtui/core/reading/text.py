"""Bytes from disk -> one normalised text, with the problems found on the way.

Decoding rules (memory files are written by agents and may be hostile; see the README section
"Safe with hostile files"):

* A BOM decides the encoding: UTF-8 (stripped), UTF-16 LE or BE. Without a BOM the text is UTF-8.
* A NUL byte anywhere in what was read of a file without a UTF-16 BOM means binary: `BinaryFile`
  is raised and the store skips the file with that reason (where the NUL is). Text editors never
  write NUL, and a file that holds one later on is no more memory text than one that starts so.
* Invalid UTF-8 is replaced with U+FFFD and reported as a warning the entries carry.
* CRLF becomes `\\n`. Line numbers count `\\n` only, as grep, vim and an agent's file reader
  do: a lone CR (a progress bar pasted from a terminal) stays a character of its line, shown
  visibly, or every citation after it would point past its lines. Only a file with no `\\n` at
  all has its lines end in CR (classic Mac OS), and each CR is a line break.
  `str.splitlines` is never used because it also splits on U+2028, U+0085 and friends.
"""

from __future__ import annotations

import codecs
import threading

from msgspec import Struct

_REPLACEMENT = "\ufffd"
_ERROR_HANDLER = "memtui-count-invalid"
_counter = threading.local()


class BinaryFile(ValueError):
    """The data holds a NUL byte: it is not memory text."""


class Decoded(Struct, frozen=True):
    """A file's text as memtui reads it, and what decoding had to replace (warnings)."""

    text: str
    warnings: tuple[str, ...] = ()


def _count_and_replace(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: one U+FFFD per bad byte, counted so the warning can say how many."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.end - error.start
    _counter.bad_bytes = getattr(_counter, "bad_bytes", 0) + bad
    return _REPLACEMENT * bad, error.end


codecs.register_error(_ERROR_HANDLER, _count_and_replace)


def _decode_counting(data: bytes, encoding: str) -> tuple[str, int]:
    _counter.bad_bytes = 0
    text = data.decode(encoding, errors=_ERROR_HANDLER)
    return text, int(_counter.bad_bytes)


def decode(data: bytes) -> Decoded:
    """Decode file bytes to text with `\\n` line endings; raise BinaryFile for binary data."""
    warnings: list[str] = []
    utf16 = data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE)
    nul = -1 if utf16 else data.find(b"\x00")
    if nul >= 0:
        raise BinaryFile(f"binary file (NUL byte at offset {nul:,})")
    if data.startswith(codecs.BOM_UTF8):
        text, bad = _decode_counting(data[len(codecs.BOM_UTF8) :], "utf-8")
        label = "UTF-8"
    elif utf16:
        little = data.startswith(codecs.BOM_UTF16_LE)
        payload = data[2:]
        if len(payload) % 2:
            payload = payload[:-1]
            warnings.append("invalid UTF-16: odd trailing byte dropped")
        text, bad = _decode_counting(payload, "utf-16-le" if little else "utf-16-be")
        label = "UTF-16"
    else:
        text, bad = _decode_counting(data, "utf-8")
        label = "UTF-8"
    if bad:
        warnings.append(f"invalid {label}: {bad} byte{'s' if bad != 1 else ''} replaced")
    if "\r" in text:
        text = text.replace("\r\n", "\n") if "\n" in text else text.replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    return Decoded(text=text, warnings=tuple(warnings))


def complete_utf8_prefix(data: bytes) -> bytes:
    """Drop an incomplete UTF-8 sequence at the end of a capped read (not an encoding error)."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return data
        if byte >= 0xC0:
            needed = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return data if back >= needed else data[:-back]
    return data


def split_lines(text: str) -> list[str]:
    """The file's lines, counting `\\n` only; a trailing newline does not add an empty line."""
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


def line_count(text: str) -> int:
    """How many lines an editor shows for `text` (the same count `split_lines` gives)."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)
