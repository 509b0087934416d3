"""What memtui hands on to a person, a shell or an agent: citations and quoted entries.

One home for the formats that the TUI copies (`y`/`Y`) and `memtui pick` prints:

- a citation, `path:start-end` (`path:start` for a one-line entry), with a plain hyphen that
  editors, `grep -n`-style tools and `file:line` links read;
- Markdown, per entry a line `path:start-end (date, source)`, a blank line, then the entry as
  a block quote; entries are separated by a blank line.

Everything from disk passes through `sanitize.visible` here, so what is handed on holds no
control character or escape sequence except newline and tab, in the same visible form the UI
shows. Secrets are masked by the caller, which knows whether the user revealed them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from msgspec import Struct

from memtui.core.live.roots import tilde
from memtui.core.model import Entry, EntryHead
from memtui.core.sanitize import one_line, visible

if TYPE_CHECKING:
    from memtui.core.live.engine import Engine

MAX_PATH_CHARS = 4096
"""A path longer than any file system allows is cut (`one_line` needs a cap)."""


class Cited(Struct, frozen=True):
    """One entry to hand on: where its citation points and its text as handed on."""

    where: str
    """The path the citation names (relative to the root, or the file's own path)."""
    entry: Entry
    text: str
    """The entry as shown and copied, secrets already masked unless revealed."""


def iso_date(entry: Entry | EntryHead) -> str | None:
    """ISO-8601 date, with the time of day when it is known (JSON); None when undated."""
    when = entry.when
    if when is None:
        return None
    return when.date().isoformat() if entry.time is None else when.isoformat(timespec="minutes")


UNDATED = "undated"


def date_label(entry: Entry | EntryHead) -> str:
    """`2026-11-20 14:30`, `2026-11-20` or `undated`: `iso_date` for people."""
    iso = iso_date(entry)
    return UNDATED if iso is None else iso.replace("T", " ")


def cited_path(engine: Engine, entry: Entry) -> str:
    """The path a citation names: relative to the root with one root open; with several, the
    file's own path (a root's label is not a folder anyone can open)."""
    return tilde(engine.file_of(entry)) if engine.several_roots else entry.path


def citation(where: str, entry: Entry) -> str:
    """`path:start-end`, the whole line range (`path:start` when the entry is one line)."""
    path = one_line(where, MAX_PATH_CHARS)
    if entry.line_end > entry.line_start:
        return f"{path}:{entry.line_start}-{entry.line_end}"
    return f"{path}:{entry.line_start}"


def citation_line(where: str, entry: Entry) -> str:
    """`path:start-end (date, source)`: the line above a quoted entry."""
    return f"{citation(where, entry)} ({date_label(entry)}, {entry.source.value})"


def block_quote(text: str) -> str:
    """`text` as a Markdown block quote (`> ` on every line, `>` on blank ones)."""
    return "\n".join(
        f"> {line}" if line.strip() else ">" for line in visible(text).strip("\n").split("\n")
    )


def markdown(items: Iterable[Cited]) -> str:
    """Each entry under its citation line, quoted; entries separated by a blank line."""
    return "\n\n".join(
        f"{citation_line(item.where, item.entry)}\n\n{block_quote(item.text)}" for item in items
    )


def citations(items: Iterable[Cited]) -> str:
    """One `path:start-end` citation per line."""
    return "\n".join(citation(item.where, item.entry) for item in items)
