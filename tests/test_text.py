"""Decoding: BOMs, binary sniffing, invalid UTF-8, line endings and what counts as a line."""

from __future__ import annotations

import codecs

import pytest

from memtui.core.reading.text import (
    BinaryFile,
    complete_utf8_prefix,
    decode,
    line_count,
    split_lines,
)


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"plain\n", "plain\n"),
        (codecs.BOM_UTF8 + "# Tête\n".encode(), "# Tête\n"),
        (codecs.BOM_UTF16_LE + "# 日本\r\nx".encode("utf-16-le"), "# 日本\nx"),
        (codecs.BOM_UTF16_BE + "# Привет\n".encode("utf-16-be"), "# Привет\n"),
        (b"a\r\nb\r\n", "a\nb\n"),
        (b"a\r\nb\rc\n", "a\nb\rc\n"),  # a lone CR among LFs is no line break (grep -n)
        (b"10%\r55%\r100%\ndone\n", "10%\r55%\r100%\ndone\n"),
        (b"classic\rmac\r", "classic\nmac\n"),  # no LF at all: the lines end in CR
    ],
)
def test_decode_encodings_and_line_endings(data: bytes, text: str) -> None:
    decoded = decode(data)
    assert decoded.text == text
    assert decoded.warnings == ()


@pytest.mark.parametrize("data", [b"PK\x03\x04\x00\x00 zip", codecs.BOM_UTF8 + b"a\x00b"])
def test_nul_near_the_start_is_binary(data: bytes) -> None:
    with pytest.raises(BinaryFile, match="binary"):
        decode(data)


def test_nul_far_into_the_file_is_binary_too() -> None:
    """Not just the head: a NUL after 64 KB of text is caught, and the reason says where."""
    data = b"## Notes\n" + b"a" * 70_000 + b"\x00tail"
    with pytest.raises(BinaryFile, match=r"binary file \(NUL byte at offset 70,009\)"):
        decode(data)


def test_utf16_with_bom_is_not_binary_despite_nuls() -> None:
    assert decode(codecs.BOM_UTF16_LE + "abc".encode("utf-16-le")).text == "abc"


def test_invalid_utf8_is_replaced_and_counted() -> None:
    decoded = decode(b"ok \xff\xfe bad \xc3")
    assert decoded.text == "ok \ufffd\ufffd bad \ufffd"
    assert decoded.warnings == ("invalid UTF-8: 3 bytes replaced",)


def test_a_real_replacement_character_is_not_an_error() -> None:
    assert decode("already \ufffd here".encode()).warnings == ()


def test_line_separators_are_not_lines() -> None:
    text = decode("one\u2028still one\u0085and one\x0cstill\ntwo".encode()).text
    assert split_lines(text) == ["one\u2028still one\u0085and one\x0cstill", "two"]
    assert line_count(text) == 2


@pytest.mark.parametrize(
    ("text", "count"), [("", 0), ("a", 1), ("a\n", 1), ("a\n\n", 2), ("\n", 1), ("a\nb", 2)]
)
def test_line_count_matches_split_lines(text: str, count: int) -> None:
    assert line_count(text) == count == len(split_lines(text))


@pytest.mark.parametrize("cut", range(1, 4))
def test_complete_utf8_prefix_drops_a_cut_sequence(cut: int) -> None:
    data = "ab€".encode()  # € is 3 bytes
    clipped = data[: len(data) - 3 + cut] if cut < 3 else data
    result = complete_utf8_prefix(clipped)
    assert decode(result).warnings == ()
    assert result in (b"ab", data)
