"""The shared tokenizer: casefold + NFKC words, short technical terms kept, CJK as grams."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.core.search import tokenize
from memtui.core.search.tokenize import (
    TEXT_SEPARATOR,
    batch_spaced_tokens,
    batch_tokens,
    count_phrase,
    is_cjk,
    match_spans,
    phrase_key,
    tokens,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Deploy the S3 bucket", ["deploy", "the", "s3", "bucket"]),
        ("CI/CD and DB, UI", ["ci", "cd", "and", "db", "ui"]),
        ("snake_case-words", ["snake", "case", "words"]),
        ("ＤＢ ﬁx", ["db", "fix"]),
        ("STRASSE Straße", ["strasse", "strasse"]),
        ("v2.1 — 42%", ["v2", "1", "42"]),
        ("", []),
        ("数据", ["数", "据", "数据"]),
        ("数据库 db", ["数", "据", "库", "数据", "据库", "db"]),
        ("메모리", ["메", "모", "리", "메모", "모리"]),
        ("v2版本", ["v2", "版", "本", "版本"]),
        ("Привет мир", ["привет", "мир"]),
        # pasted terminal output: an escape sequence separates words, raw or shown as ␛
        ("\u241b[31mERROR\u241b[0m: on \u241b[1;4mnode18\u241b[0m", ["error", "on", "node18"]),
        ("\x1b[31mERROR\x1b[0m ok", ["error", "ok"]),
        ("␛ alone, ␛[ unfinished", ["alone", "unfinished"]),
    ],
)
def test_document_tokens(text: str, expected: list[str]) -> None:
    assert tokens(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("数据库", ["数据", "据库"]),
        ("中", ["中"]),
        ("deploy 数据", ["deploy", "数据"]),
        ("カタカナ", ["カタ", "タカ", "カナ"]),
    ],
)
def test_query_tokens_use_bigrams(text: str, expected: list[str]) -> None:
    assert tokens(text, query=True) == expected


@pytest.mark.parametrize(("token", "expected"), [("数据", True), ("deploy", False), ("ア", True)])
def test_is_cjk(token: str, expected: bool) -> None:
    assert is_cjk(token) is expected


@pytest.mark.parametrize(
    ("phrase", "document", "count"),
    [
        ("flaky login", "Fixed the flaky login test. FLAKY  login again", 2),
        ("flaky login", "flaky logins", 0),
        ("数据库", "使用数据库迁移", 1),
        ("", "anything", 0),
    ],
)
def test_count_phrase(phrase: str, document: str, count: int) -> None:
    assert count_phrase(phrase_key(phrase), phrase_key(document)) == count


def test_match_spans_map_back_to_original_text() -> None:
    text = "Use 数据库 for the DB deploy; ＤＢ too"
    spans = match_spans(text, tokens("数据库 db", query=True))
    assert [text[start:end] for start, end in spans] == ["数据库", "DB", "ＤＢ"]
    assert match_spans(text, []) == []


def test_ascii_text_never_compiles_the_cjk_pattern() -> None:
    """Its ranges take milliseconds to compile: a start that meets only ASCII skips them."""
    tokenize._cjk_run.cache_clear()
    tokens("Deploy the S3 bucket", query=True)
    batch_tokens(["Deploy the S3 bucket", "CI/CD"])
    match_spans("Deploy the S3 bucket — v2", ["deploy"])
    assert not is_cjk("deploy")
    assert tokenize._cjk_run.cache_info().currsize == 0
    assert is_cjk("数据")


TEXTS = st.lists(
    st.one_of(
        st.text(alphabet="abcXYZz019 _-.\n\x01", max_size=30),
        st.lists(
            st.sampled_from(["\x1b[31m", "\u241b[0;1m", "Ab", "9", " ", "[", "\x1b"]), max_size=8
        ).map("".join),
        st.text(max_size=30),
        st.sampled_from(["数据库 v2版本", "Ｚürich ﬁle", "ÀÉ ß İstanbul", "Z", "\x01", ""]),
    ),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(texts=TEXTS)
def test_batch_tokens_equal_per_text_tokens(texts: list[str]) -> None:
    """The index's one-pass tokenizer yields exactly each text's tokens, then the separator."""
    expected = [token for text in texts for token in [*tokens(text), TEXT_SEPARATOR]]
    assert batch_tokens(texts) == expected


@settings(max_examples=150, deadline=None)
@given(texts=TEXTS)
def test_batch_spaced_tokens_split_into_each_text_s_tokens(texts: list[str]) -> None:
    """The near-duplicate check's texts: each text's tokens, whitespace between."""
    assert [text.split() for text in batch_spaced_tokens(texts)] == [tokens(t) for t in texts]


@settings(max_examples=150, deadline=None)
@given(texts=TEXTS)
def test_batch_spaced_tokens_give_a_text_the_same_string_in_any_batch(texts: list[str]) -> None:
    """Its hash keys the near-duplicate scores kept between runs, whatever else is scored."""
    assert batch_spaced_tokens(texts) == [batch_spaced_tokens([text])[0] for text in texts]


@pytest.mark.parametrize("text", ["Z", "ZZ top", "Ｚ", "\x01", "a\x01b"])
def test_separator_never_comes_from_text(text: str) -> None:
    assert TEXT_SEPARATOR not in tokens(text)


@pytest.mark.parametrize(
    ("text", "query", "marked"),
    [
        ("my cafe\u0301 order", "café", "cafe\u0301"),  # decomposed (NFD), as macOS may write
        ("my café order", "cafe\u0301", "café"),
        ("naïve résumé", "resume", ""),  # accents are not folded: no match, nothing marked
    ],
)
def test_a_match_in_decomposed_text_is_marked_whole(text: str, query: str, marked: str) -> None:
    """QA: `rank café` found an NFD `café` (the tokenizer composes first) but marked nothing."""
    spans = match_spans(text, tokens(query, query=True))
    assert [text[start:end] for start, end in spans] == ([marked] if marked else [])


def test_a_word_behind_an_escape_sequence_is_marked_alone() -> None:
    """QA: `ERROR` in pasted coloured output (`␛[31mERROR`) could not be found or marked."""
    text = "log: \u241b[31mERROR\u241b[0m and \u241b[1mnode18\u241b[0m"
    spans = match_spans(text, tokens("error node18", query=True))
    assert [text[start:end] for start, end in spans] == ["ERROR", "node18"]
