"""Titles for entries that have no heading of their own: the first line of prose, made readable.

A heading-less block (a daily note's `---` block, a HISTORY.md line, a preamble) is titled by its
first line of prose with block markers dropped and bold/italic unwrapped; never by a table row, a
rule, a code fence or the code inside one. Sections that share a heading get ` — first line` so
results can be told apart (`Decision — Use Postgres`).
"""

from __future__ import annotations

import re

from memtui.core.reading.structure import TABLE_DELIMITER, is_fence_line, is_rule

MAX_DERIVED_TITLE_CHARS = 80

_TITLE_MARKERS = re.compile(r"^(?:[#>\\\s]|[-*+](?=\s)|\d+[.)]\s)+")
"""Block markers before a derived title: headings, quotes, bullets, numbers, escapes."""
_EMPHASIS = re.compile(
    r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])"
    r"|(?<![_\w])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![_\w])"
)
"""Bold and italic pairs, unwrapped in a derived title (`**SEALED** — …` → `SEALED — …`).
Backticks stay: `code` is shown as code."""
_CODE_SPAN = re.compile(r"(`+[^`]*`+)")
_CYCLE_STAMP = re.compile(
    r"^\[?\d{4}-\d{2}-\d{2}[^\]\s]*(?:\s\d{1,2}:\d{2}(?::\d{2})?)?\]?\s*[-–—:]?\s*"
)


def capped(title: str) -> str:
    if len(title) > MAX_DERIVED_TITLE_CHARS:
        return title[: MAX_DERIVED_TITLE_CHARS - 1] + "…"
    return title


def clean_title(line: str) -> str:
    """A line as a title: block markers dropped, bold and italic unwrapped, stray `*`/`_`
    at the ends trimmed (backticks kept, for the UI to show as code)."""
    pieces = _CODE_SPAN.split(_TITLE_MARKERS.sub("", line))
    unwrapped = "".join(  # odd pieces are code spans, left as they are
        piece if index % 2 else _EMPHASIS.sub(lambda m: m[2] or m[3] or m[4], piece)
        for index, piece in enumerate(pieces)
    )
    return unwrapped.strip().strip("*_").strip()


def _is_table_line(lines: list[str], index: int, end: int) -> bool:
    """A Markdown table's row or delimiter (`| a | b |`, `|---|:--|`, or a header row without
    outer pipes that a delimiter row follows)."""
    line = lines[index]
    if "|" not in line and "-" not in line:
        return False
    stripped = line.strip()
    if stripped.startswith("|") or ("|" in stripped and TABLE_DELIMITER.fullmatch(stripped)):
        return True
    following = lines[index + 1] if index < end else ""
    return "|" in stripped and "|" in following and bool(TABLE_DELIMITER.fullmatch(following))


def derived_title(lines: list[str], start: int, end: int) -> str:
    """A title for a heading-less block of `lines[start..end]`: its first line of prose, without
    Markdown markers.

    Never a table row, a rule, a code fence or the code inside one: those say nothing as a
    title (`Verdict — | | |`), so the first prose words after them are used instead.
    """
    fenced = table = False
    for index in range(start, min(end, start + 50) + 1):
        line = lines[index]
        if is_fence_line(line):
            fenced = not fenced
            continue
        table = ("|" in line and table) or _is_table_line(lines, index, end)
        if fenced or table or is_rule(line):
            continue
        cleaned = clean_title(line)
        if cleaned:
            return capped(cleaned)
    return ""


def summarised(title: str, lines: list[str], body_start: int, end: int) -> str:
    """`Title — first body line`, to tell apart sections that share a heading."""
    if end < body_start:
        return title
    first_line = derived_title(lines, body_start, end)
    summary = _CYCLE_STAMP.sub("", first_line).strip()
    return f"{title} — {summary}" if summary else title
