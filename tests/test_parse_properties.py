"""Invariants of parsing, on arbitrary input: never raise, ranges inside the file, no overlaps,
and the cheap entry count always agrees with the parse."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.core.reading.parse import _display_safe, count_entries, parse_file
from memtui.core.reading.text import BinaryFile, decode, line_count
from memtui.core.sanitize import visible

PATHS = st.sampled_from(
    ["MEMORY.md", "memory/2026-11-20.md", "HISTORY.md", "notes/topic.md", "2026-02-30.md"]
)
MARKDOWNISH = st.lists(
    st.sampled_from(
        [
            "# Title",
            "## Section",
            "### Sub",
            "##",
            "\\## esc",
            "```",
            "~~~",
            "---",
            "***",
            "[2026-11-20 10:00] entry",
            "[2026-02-30] bad",
            "_2026-11-02 14:30_",
            "- 时间：09:23",
            "",
            " ",
            "text",
            "name: x",
            "tags: [a, b]",
            "a: &x 1",
            "k: [[[",
            "\r",
            "\u2028",
            "\x1b]52;c;AA\x07",
            "\ufeff",
            "## 09:14:00 UTC",
            "# Daily Note - 2026-11-20",
        ]
    )
    | st.text(max_size=20),
    max_size=40,
).map("\n".join)


def check_invariants(path: str, text: str) -> None:
    entries = parse_file(path, text)
    total = line_count(text)
    previous_end = 0
    for position, entry in enumerate(entries):
        assert 1 <= entry.line_start <= entry.line_end <= total
        assert entry.line_start > previous_end
        previous_end = entry.line_end
        assert (entry.position, entry.count) == (position, len(entries))
        assert "\x1b" not in entry.title + entry.body + "".join(entry.heading_path)
    assert len({entry.id for entry in entries}) == len(entries)
    assert count_entries(path, text) == len(entries)  # the window's cheap count agrees


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATHS, MARKDOWNISH)
def test_markdownish_text(path: str, text: str) -> None:
    check_invariants(path, text)


@settings(max_examples=100, deadline=None)
@given(PATHS, st.text())
def test_arbitrary_text(path: str, text: str) -> None:
    check_invariants(path, text)


@settings(max_examples=100, deadline=None)
@given(PATHS, st.binary(max_size=400))
def test_arbitrary_bytes(path: str, data: bytes) -> None:
    try:
        decoded = decode(data)
    except BinaryFile:
        return
    check_invariants(path, decoded.text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x7F)) | st.text())
def test_the_ascii_fast_path_equals_visible(text: str) -> None:
    assert _display_safe(text) == visible(text)
