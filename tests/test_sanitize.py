"""The one place hostile characters become visible: every category, and the invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.bench import hostile
from memtui.core.sanitize import cap_lines, has_unsafe, one_line, visible


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]52;c;aGk=\x07", "␛]52;c;aGk=␇"),
        ("\x1b[2J", "␛[2J"),
        ("\x1bc", "␛c"),
        ("\x1bPq\x1b\\", "␛Pq␛\\"),
        ("\x9b31m", "<U+009B>31m"),
        ("\x9d0;t\x9c", "<U+009D>0;t<U+009C>"),
        ("a\x7fb", "a␡b"),
        ("\x00\x08\r", "␀␈␍"),
        ("\u202eexe.txt", "<U+202E>exe.txt"),
        ("\u2066x\u2069", "<U+2066>x<U+2069>"),
        ("zero\u200bwidth", "zero<U+200B>width"),
        ("line\u2028sep", "line<U+2028>sep"),
        ("tag\U000e0041\U000e0042", "tag<U+E0041><U+E0042>"),
        ("lone \ud800", "lone <U+D800>"),
        ("\ufeffbom", "<U+FEFF>bom"),
    ],
)
def test_hostile_characters_become_visible(raw: str, shown: str) -> None:
    assert has_unsafe(raw)
    assert visible(raw) == shown
    assert not has_unsafe(visible(raw))


@pytest.mark.parametrize(
    "text", ["plain", "tabs\tand\nnewlines", "Ünïcödé 中文 Кириллица 😀", "[bold]markup[/]", ""]
)
def test_safe_text_is_untouched(text: str) -> None:
    assert not has_unsafe(text)
    assert visible(text) is text


@pytest.mark.parametrize("name", sorted(hostile.ESCAPE_PAYLOADS))
def test_every_planted_payload_is_neutralised(name: str) -> None:
    shown = visible(hostile.ESCAPE_PAYLOADS[name])
    assert not has_unsafe(shown)
    assert "\x1b" not in shown


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_visible_is_safe_idempotent_and_keeps_lines(text: str) -> None:
    shown = visible(text)
    assert not has_unsafe(shown)
    assert visible(shown) == shown
    assert shown.count("\n") == text.count("\n")
    assert has_unsafe(text) == (shown != text)
    shown.encode("utf-8")  # never a lone surrogate left to crash the terminal writer


@settings(max_examples=200, deadline=None)
@given(st.text(), st.integers(min_value=2, max_value=300))
def test_one_line_is_one_safe_capped_line(text: str, limit: int) -> None:
    line = one_line(text, limit)
    assert "\n" not in line and "\t" not in line
    assert not has_unsafe(line)
    assert len(line) <= limit


def test_cap_lines_caps_each_line_and_keeps_the_count() -> None:
    text = "short\n" + "x" * 5_000 + "\nend"
    capped = cap_lines(text, width=100)
    lines = capped.split("\n")
    assert len(lines) == 3
    assert lines[0] == "short" and lines[2] == "end"
    assert lines[1].startswith("x" * 100) and "4,900 more chars" in lines[1]
    assert cap_lines("tiny", width=100) == "tiny"
