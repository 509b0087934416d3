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
from itertools import chain

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


def _build_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x20):
        if chr(code) in "\n\t":
            continue
        table[code] = chr(0x2400 + code)  # ␀ … ␟, ESC → ␛
    table[0x7F] = "␡"
    for code in range(0x80, 0xA0):
        table[code] = f"<U+{code:04X}>"
    for char in _BIDI_AND_INVISIBLE:
        table[ord(char)] = f"<U+{ord(char):04X}>"
    for first, last in _INVISIBLE_RANGES:
        for code in range(first, last + 1):
            table[code] = f"<U+{code:04X}>"
    for code in range(_ESCAPED_BYTE_FIRST, _ESCAPED_BYTE_LAST + 1):
        table[code] = f"\\x{code - 0xDC00:02x}"
    return table


def _unsafe_pattern() -> re.Pattern[str]:
    """Every character the table replaces: the ranges as ranges, the rest one by one (looked up
    in a set: testing each of the table's 2,271 codes against the ranges cost a start ~2 ms)."""
    ranged = set(chain.from_iterable(range(first, last + 1) for first, last in _INVISIBLE_RANGES))
    singles = "".join(re.escape(chr(code)) for code in _VISIBLE_TABLE if code not in ranged)
    ranges = "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in _INVISIBLE_RANGES)
    return re.compile(f"[{singles}{ranges}]")


_VISIBLE_TABLE = _build_table()
_UNSAFE = _unsafe_pattern()


def visible(text: str) -> str:
    """Return `text` with every control, escape and bidi character made visible.

    Idempotent, keeps `\\n` and `\\t`, and never shortens or reorders printable text.
    """
    if not _UNSAFE.search(text):
        return text
    return text.translate(_VISIBLE_TABLE)


def undecodable_bytes_visible(text: str) -> str:
    """Only the undecodable bytes of a file name as `\\xNN` (for JSON, which escapes the rest)."""
    if not _ESCAPED_BYTES.search(text):
        return text
    return _ESCAPED_BYTES.sub(lambda match: _VISIBLE_TABLE[ord(match.group())], text)


def has_unsafe(text: str) -> bool:
    """True when `visible()` would change `text`."""
    return _UNSAFE.search(text) is not None


def one_line(text: str, limit: int = 200) -> str:
    """A visible single-line rendering (titles, paths, notices), capped at `limit` characters."""
    flat = visible(text).replace("\n", " ").replace("\t", " ")
    if len(flat) > limit:
        return flat[: limit - 1] + "…"
    return flat


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
