"""The query language: terms, phrases, exclusions, filters, and errors the user must fix."""

from __future__ import annotations

import datetime as dt

import pytest

from memtui.core.model import Source
from memtui.core.search.query import MAX_QUERY_CHARS, QueryError, parse_query


@pytest.mark.parametrize(
    ("text", "terms", "prefix_term"),
    [
        ("deploy staging", ("deploy", "staging"), "staging"),
        ("deploy staging ", ("deploy", "staging"), None),
        ("Deploy deploy", ("deploy",), "deploy"),
        ("d", ("d",), "d"),
        ("数据库", ("数据", "据库"), "据库"),
        ('"deploy sta', ("deploy", "sta"), "sta"),
        ("", (), None),
    ],
)
def test_terms_and_prefix(text: str, terms: tuple[str, ...], prefix_term: str | None) -> None:
    query = parse_query(text)
    assert query.terms == terms
    assert query.prefix_term == prefix_term


@pytest.mark.parametrize(
    ("text", "term", "expands"),
    [
        ("ci", "ci", True),
        ("ci ", "ci", False),
        ("ci deploy", "ci", False),
        ("dep ", "dep", True),
        ("数据", "数据", True),
    ],
)
def test_which_terms_expand(text: str, term: str, expands: bool) -> None:
    assert parse_query(text).expands(term) is expands


def test_phrases_and_exclusions() -> None:
    query = parse_query('"Flaky  login" -ci -"old plan" deploy')
    assert query.phrases == ("flaky login",)
    assert query.phrase_tokens == (("flaky", "login"),)
    assert query.excluded_terms == ("ci",)
    assert query.excluded_phrases == ("old plan",)
    assert query.terms == ("deploy",)
    assert query.has_terms and query.has_filters


def test_single_word_phrase_is_a_term() -> None:
    assert parse_query('"deploy"').terms == ("deploy",)


@pytest.mark.parametrize(
    ("text", "sources"),
    [
        ("source:daily", {Source.DAILY}),
        ("source:d", {Source.DAILY}),
        ("source:long-term source:note", {Source.LONG_TERM, Source.NOTE}),
        ("SOURCE:Memory", {Source.LONG_TERM}),
    ],
)
def test_source_filter(text: str, sources: set[Source]) -> None:
    assert parse_query(text).sources == sources


def test_path_tag_and_date_filters() -> None:
    query = parse_query("file:MEMORY.md role:memory-bank/* tag:#Infra after:2026-03 before:2027")
    assert query.path_globs == ("*memory.md*", "memory-bank/*")
    assert query.tag_globs == ("infra",)
    assert query.after == dt.date(2026, 3, 1)
    assert query.before == dt.date(2027, 1, 1)
    assert not query.has_terms


def test_unknown_filter_is_searched_and_noted() -> None:
    query = parse_query("color:blue")
    assert query.terms == ("color", "blue")
    assert query.notes == ("unknown filter color: searched as words",)


def test_empty_filter_value_is_ignored_while_typing() -> None:
    assert parse_query("source:").sources == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "after:2026-13-01",
        "before:2026-02-30",
        "after:yesterday",
        "after:2026-1",
        "source:x",
        "x" * (MAX_QUERY_CHARS + 1),
    ],
)
def test_errors(text: str) -> None:
    with pytest.raises(QueryError):
        parse_query(text)
