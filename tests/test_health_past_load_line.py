"""`past_load_line`: which entries the main screen badges, on a real MEMORY.md of 12 lines
under a 6-line rule (before, straddling, after the line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cache_helpers import cached_engine, fresh_engine

from memtui.core.cache.entry_table import TableView
from memtui.core.health.check import load_line_cuts
from memtui.core.health.load_line import _Offsets, past_load_line
from memtui.core.health.settings import LoadLine
from memtui.core.model import Entry, Source

RULE = LoadLine(files=("MEMORY.md",), agent="Agent", lines=6)


def entry(start: int, end: int, path: str = "MEMORY.md") -> Entry:
    return Entry(
        id=f"{path}:{start}",
        path=path,
        source=Source.LONG_TERM,
        title="t",
        heading_path=("t",),
        body="b",
        line_start=start,
        line_end=end,
        date=None,
    )


@pytest.mark.parametrize(
    ("start", "end", "past"),
    [
        (1, 4, False),  # loaded whole
        (1, 6, False),  # ends on the last loaded line
        (5, 9, True),  # the line falls inside it
        (7, 12, True),  # starts past it
    ],
)
def test_an_entry_is_past_the_line_when_any_of_it_is_not_loaded(
    tmp_path: Path, start: int, end: int, past: bool
) -> None:
    (tmp_path / "MEMORY.md").write_text("".join(f"line {n}\n" for n in range(1, 13)))
    cuts = past_load_line([entry(start, end)], {"": tmp_path}, (RULE,))
    assert (f"MEMORY.md:{start}" in cuts) is past
    if past:
        assert [(cut.agent, cut.last_line) for cut in cuts[f"MEMORY.md:{start}"]] == [("Agent", 6)]


def test_files_no_rule_applies_to_are_not_read(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("".join(f"line {n}\n" for n in range(1, 13)))
    assert past_load_line([entry(7, 12, "notes.md")], {"": tmp_path}, (RULE,)) == {}


def test_a_warm_start_checks_its_load_lines_from_the_cached_columns(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "MEMORY.md").write_text(
        "".join(f"## Topic {n}\n\n" + "a line\n" * 8 for n in range(40)), "utf-8"
    )
    cached_engine(root).save_cache()
    warm = cached_engine(root)
    (view,) = warm.stores[0].loaded_files().values()
    assert isinstance(view, TableView)
    cuts = load_line_cuts(warm)
    assert cuts and cuts == load_line_cuts(fresh_engine(root))


@pytest.mark.parametrize(
    "text",
    ["", "one line", "a\nb\n", "a\r\nb\r\n\n", "\n\n", "café\n€ 😀\nend", "bad \udcff byte\nx"],
)
def test_line_offsets_count_characters_and_utf8_bytes(text: str) -> None:
    """ASCII text takes a shortcut (its bytes are its characters); the counts are the same."""
    offsets = _Offsets.of(text)
    lines = text.split("\n")[: -1 if text.endswith("\n") else None] if text else []
    chars = bytes_ = 0
    for number, line in enumerate(lines):
        assert (offsets.chars[number], offsets.bytes[number]) == (chars, bytes_)
        chars += len(line) + 1
        bytes_ += len(line.encode("utf-8", "surrogatepass")) + 1
    assert (len(offsets.chars), offsets.total_chars, offsets.total_bytes) == (
        len(lines),
        chars,
        bytes_,
    )
