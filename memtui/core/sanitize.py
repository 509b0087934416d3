"""Make hostile text safe to show: the one place control characters become visible.

Memory files are written by agents and pasted transcripts. Rich and Textual pass ESC, other C0
controls and C1 codes straight to the terminal, so an OSC 52 sequence in a file could write the
user's clipboard. Everything that reaches a screen or a terminal goes through `visible()` first:
ESC becomes `␛` (so no escape sequence can start), other C0 controls become their Unicode
control pictures, and C1 controls, DEL, bidi overrides and other invisible format characters
become `<U+XXXX>`. Newlines and tabs are kept.

A file name that is not UTF-8 reaches Python with each undecodable byte as a lone surrogate
(U+DC80–U+DCFF, PEP 383); it is shown as the byte it stands for, `caf\\xe9.md`, in the UI, the
clipboard and every output (JSON included), so one path reads the same everywhere and nothing
tries to encode a surrogate (which raises, or writes invalid UTF-8).
"""

from __future__ import annotations

import re
from functools import cache

_BIDI_AND_INVISIBLE = (
    "\u200b\u200c\u200d\u200e\u200f"  # zero-width space/joiners, LRM/RLM
    "\u202a\u202b\u202c\u202d\u202e"  # bidi embeddings and overrides
    "\u2066\u2067\u2068\u2069"  # bidi isolates
    "\u2028\u2029"  # line/paragraph separators (would split lines in some views)
    "\u061c\ufeff"  # Arabic letter mark, stray BOM / zero-width no-break space
    "\u2060\u2061\u2062\u2063\u2064"  # word joiner, invisible operators
    "\u206a\u206b\u206c\u206d\u206e\u206f"  # deprecated format controls
    "\ufff9\ufffa\ufffb"  # interlinear annotation controls
)
_INVISIBLE_RANGES = (
    (0xE0000, 0xE007F),  # tag characters: invisible "ASCII smuggling" in prompts and notes
    (0xD800, 0xDFFF),  # lone surrogates: cannot even be encoded for the terminal
)


_ESCAPED_BYTE_FIRST, _ESCAPED_BYTE_LAST = 0xDC80, 0xDCFF
"""Lone surrogates that `os.fsdecode` uses for undecodable bytes 0x80–0xFF."""
_ESCAPED_BYTES = re.compile("[\udc80-\udcff]")

_UNSAFE_RANGES = (
    (0x00, 0x08),  # C0 controls but tab and newline
    (0x0B, 0x1F),
    (0x7F, 0x9F),  # DEL and the C1 controls
    *((ord(char), ord(char)) for char in _BIDI_AND_INVISIBLE),
    *_INVISIBLE_RANGES,  # the escaped bytes lie among the surrogates
)
"""Every character `visible()` replaces, as inclusive ranges of code points."""


def _shown(code: int) -> str:
    """What a character of `_UNSAFE_RANGES` is shown as."""
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟, ESC → ␛
    if code == 0x7F:
        return "␡"
    if _ESCAPED_BYTE_FIRST <= code <= _ESCAPED_BYTE_LAST:
        return f"\\x{code - 0xDC00:02x}"
    return f"<U+{code:04X}>"


@cache
def _visible_table() -> dict[int, str]:
    """The translation table, made the first time text needs it: its 2,271 strings cost every
    command's start ~1.5 ms, and most output holds no unsafe character."""
    return {code: _shown(code) for first, last in _UNSAFE_RANGES for code in range(first, last + 1)}


_UNSAFE = re.compile(
    "[" + "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in _UNSAFE_RANGES) + "]"
)


def visible(text: str) -> str:
    """Return `text` with every control, escape and bidi character made visible.

    Idempotent, keeps `\\n` and `\\t`, and never shortens or reorders printable text.
    """
    if not _UNSAFE.search(text):
        return text
    return text.translate(_visible_table())


def undecodable_bytes_visible(text: str) -> str:
    """Only the undecodable bytes of a file name as `\\xNN` (for JSON, which escapes the rest)."""
    if not _ESCAPED_BYTES.search(text):
        return text
    return _ESCAPED_BYTES.sub(lambda match: _shown(ord(match.group())), text)


def has_unsafe(text: str) -> bool:
    """True when `visible()` would change `text`."""
    return _UNSAFE.search(text) is not None


def one_line(text: str, limit: int = 200) -> str:
    """A visible single-line rendering (titles, paths, notices), capped at `limit` characters."""
    flat = visible(text).replace("\n", " ").replace("\t", " ")
    if len(flat) > limit:
        return flat[: limit - 1] + "…"
    return flat


def quoted(text: str, limit: int = 200) -> str:
    """`one_line(text)` in single quotes: a query echoed as it was typed (`repr` doubled each
    backslash, and switched to double quotes around an apostrophe)."""
    return f"'{one_line(text, limit)}'"


def middle_cut(text: str, limit: int) -> str:
    """`one_line(text)` cut in the middle when longer than `limit` (paths: the folder's own name
    at the end is what tells two apart)."""
    flat = one_line(text, 8 * len(text) + limit)
    if len(flat) <= limit:
        return flat
    head = (limit - 1) // 3
    return flat[:head] + "…" + flat[len(flat) - (limit - 1 - head) :]


def cap_lines(text: str, width: int = 2000) -> str:
    """Cap every line at `width` characters so one 20 MB line cannot stall a view."""
    if len(text) <= width:
        return text
    lines = text.split("\n")
    return "\n".join(
        line if len(line) <= width else f"{line[:width]}… [{len(line) - width:,} more chars]"
        for line in lines
    )
