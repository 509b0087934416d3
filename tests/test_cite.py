"""What memtui hands on (core.cite): citations with the whole line range, Markdown quotes under a
citation line, and never a control character or escape sequence, whatever the path or text."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace
from ui_fakes import make_entry

from memtui.core import cite
from memtui.core.model import Source
from memtui.core.sanitize import has_unsafe

ENTRY = make_entry(1, "Deploy checklist", "1. CI green\n\n2. Tag it")


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (6, 9, "MEMORY.md:6-9"),
        (6, 6, "MEMORY.md:6"),
    ],
)
def test_a_citation_names_the_whole_line_range(start: int, end: int, expected: str) -> None:
    entry = replace(ENTRY, line_start=start, line_end=end)
    assert cite.citation("MEMORY.md", entry) == expected


@pytest.mark.parametrize(
    ("date", "time", "source", "expected"),
    [
        (dt.date(2026, 11, 20), dt.time(14, 30), Source.DAILY, "(2026-11-20 14:30, daily)"),
        (dt.date(2026, 11, 20), None, Source.NOTE, "(2026-11-20, note)"),
        (None, None, Source.LONG_TERM, "(undated, long_term)"),
    ],
)
def test_the_citation_line_gives_date_and_source(
    date: dt.date | None, time: dt.time | None, source: Source, expected: str
) -> None:
    entry = replace(ENTRY, date=date, time=time, source=source)
    span = f"a.md:{entry.line_start}-{entry.line_end}"
    assert cite.citation_line("a.md", entry) == f"{span} {expected}"


def test_markdown_quotes_each_entry_under_its_citation_line() -> None:
    first = cite.Cited(
        "MEMORY.md",
        replace(ENTRY, line_start=6, line_end=9, date=None, source=Source.LONG_TERM),
        "## Deploy\n\nstep one\n",
    )
    second = cite.Cited(
        "memory/2026-11-20.md", replace(ENTRY, line_start=3, line_end=3), "one line"
    )
    assert cite.markdown([first, second]) == (
        "MEMORY.md:6-9 (undated, long_term)\n\n> ## Deploy\n>\n> step one\n\n"
        f"memory/2026-11-20.md:3 ({ENTRY.date}, daily)\n\n> one line"
    )
    assert cite.citations([first, second]) == "MEMORY.md:6-9\nmemory/2026-11-20.md:3"


def test_hostile_names_and_text_are_handed_on_in_visible_form() -> None:
    where = "fname_esc_csi_\x1b[2J.md"
    item = cite.Cited(where, ENTRY, "title \x1b]0;pwned\x07 and \x9b31m")
    assert cite.citations([item]).startswith("fname_esc_csi_␛[2J.md:")
    quoted = cite.markdown([item])
    assert "\x1b" not in quoted and "\x9b" not in quoted and "␛]0;pwned␇" in quoted
    latin1 = cite.citation(os.fsdecode(b"caf\xe9.md"), ENTRY)
    assert latin1.startswith("caf\\xe9.md:")
    latin1.encode("utf-8")  # a lone surrogate here would raise


@given(where=st.text(), title=st.text(), body=st.text())
def test_nothing_handed_on_holds_a_control_character(where: str, title: str, body: str) -> None:
    item = cite.Cited(where, replace(ENTRY, title=title), f"## {title}\n\n{body}")
    for handed in (cite.markdown([item, item]), cite.citations([item, item])):
        assert not has_unsafe(handed)
        handed.encode("utf-8")
    assert "\n" not in cite.citation(where, ENTRY)  # one citation, one line
