"""The Markdown structure of a text: headings, code fences, rules and bracket lines, one pass.

The parser splits a file at what this finds, and the entry view (`ui.markdown`) draws with the
same line tests, so what splits a file is what looks like a heading on screen. Rules:

* An ATX heading is up to 3 spaces, 1–6 `#`s, then a space or tab (or nothing): `#tag` and
  `\\##` are not headings. Closing `#`s are trimmed.
* A code fence opens with 3+ backticks or tildes after any indent (fences inside list items are
  indented); a backtick fence whose info string holds a backtick is inline code, not a fence. It
  closes on a line of at least as many of the same character and nothing else. Nothing inside a
  fence is structure.
* A rule is 3+ `-`, `*` or `_` (spaces between them allowed), up to 3 spaces in.
* A bracket line starts with `[YYYY-MM-DD`: HISTORY.md's timestamped entries.
"""

from __future__ import annotations

import re

from msgspec import Struct

MAX_HEADING_CHARS = 300

_HEADING = r" {0,3}(?P<hashes>#{1,6})(?P<heading_text>(?:[ \t][^\n]*)?)"
_FENCE = r"[ \t]*(?P<marker>`{3,}|~{3,})(?P<info>[^\n]*)"
_RULE = r" {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})"
_BRACKET = r"\[\d{4}-\d{2}-\d{2}[^\n]*"

_STRUCTURE = re.compile(  # matched against "\n" + text: a literal first char is fast to find
    r"\n(?:"
    rf"(?P<heading>{_HEADING})"
    rf"|(?P<fence>{_FENCE})"
    rf"|(?P<rule>{_RULE})"
    rf"|(?P<bracket>{_BRACKET})"
    r")(?=\n|\Z)"
)
_HEADING_LINE = re.compile(_HEADING)
_FENCE_LINE = re.compile(_FENCE)
_RULE_LINE = re.compile(_RULE)
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")

TABLE_DELIMITER = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*")
"""A Markdown table's delimiter row (`|---|:--:|`); the UI's renderer uses it too, so what is a
table for a title is a table on screen."""


class Fence(Struct, frozen=True):
    """An open code fence: what closes it, and the info string after the opening marker."""

    char: str
    length: int
    info: str

    def closes(self, line: str) -> bool:
        """Whether `line` ends this fence: at least as many of its character and nothing else."""
        stripped = line.strip()
        return (
            bool(stripped)
            and stripped[0] == self.char
            and len(stripped) >= self.length
            and stripped == self.char * len(stripped)
            and _FENCE_LINE.fullmatch(line) is not None
        )


def fence_opening(line: str) -> Fence | None:
    """The fence `line` opens, or None (a backtick run with a backtick after it is inline code)."""
    found = _FENCE_LINE.fullmatch(line)
    if found is None:
        return None
    marker, info = found.group("marker"), found.group("info")
    if marker[0] == "`" and "`" in info:
        return None
    return Fence(marker[0], len(marker), info)


def is_fence_line(line: str) -> bool:
    """Whether `line` looks like a fence marker at all (opening or closing)."""
    return _FENCE_LINE.fullmatch(line) is not None


def is_rule(line: str) -> bool:
    return _RULE_LINE.fullmatch(line) is not None


def heading_line(line: str) -> tuple[int, str] | None:
    """An ATX heading's level and text (closing `#`s trimmed, never capped), or None."""
    found = _HEADING_LINE.fullmatch(line)
    if found is None:
        return None
    return len(found.group("hashes")), _trimmed_heading(found.group("heading_text"))


def _trimmed_heading(raw: str) -> str:
    text = raw.strip()
    if "#" in text:  # closing hashes are rare: skip the regex otherwise
        text = _CLOSING_HASHES.sub("", text).strip()
    return text


def _capped_heading(raw: str) -> str:
    text = _trimmed_heading(raw)
    if len(text) > MAX_HEADING_CHARS:
        text = text[: MAX_HEADING_CHARS - 1] + "…"
    return text


class Heading(Struct):
    line: int
    """0-based line index."""
    level: int
    text: str
    """Closing `#`s trimmed, capped at MAX_HEADING_CHARS."""


class Structure(Struct):
    headings: list[Heading]
    rules: set[int]
    """0-based indices of rule lines."""
    brackets: list[int]
    """0-based indices of lines that start with a `[YYYY-MM-DD` timestamp."""


def scan(text: str, first_line: int) -> Structure:
    """One regex pass from `first_line` (0-based): headings, rules and bracket lines outside
    fenced code."""
    headings: list[Heading] = []
    rules: set[int] = set()
    brackets: list[int] = []
    fence: Fence | None = None
    line = 0
    last = 0
    count = text.count
    for match in _STRUCTURE.finditer("\n" + text):
        position = match.start()  # == the line's start offset in `text`
        line += count("\n", last, position)
        last = position
        if line < first_line:
            continue
        kind = match.lastgroup
        value = match.group(kind or 0)
        if fence is not None:
            if kind == "fence" and fence.closes(value):
                fence = None
            continue
        if kind == "fence":
            fence = fence_opening(value)
        elif kind == "heading":
            level = len(match.group("hashes"))
            headings.append(Heading(line, level, _capped_heading(match.group("heading_text"))))
        elif kind == "rule":
            rules.add(line)
        elif kind == "bracket":
            brackets.append(line)
    return Structure(headings, rules, brackets)
