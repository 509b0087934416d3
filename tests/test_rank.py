"""Ranking semantics, one rule per test: relevance, factors, multipliers, filters, tie-breaks."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from reference_rank import make_entry

from memtui.core.live.engine import Engine
from memtui.core.model import Entry, Explanation, MatchKind, RankResult, Source
from memtui.core.settings.config import Boost, Config

TODAY = dt.date(2026, 6, 1)
FILLER = "alpha beta gamma delta epsilon zeta eta theta"


def engine(entries: list[Entry], config: Config | None = None) -> Engine:
    built = Engine(Path("/nonexistent-memtui-root"), config or Config(), today=TODAY, days=0)
    built.load_entries(entries)
    return built


def factor(explanation: Explanation, name: str) -> float:
    return next(f.value for f in explanation.factors if f.name == name)


def relevance_by_path(result: RankResult) -> dict[str, float]:
    return {hit.entry.path: factor(hit.explanation, "relevance") for hit in result.hits}


def same_static(path: str, title: str, body: str) -> Entry:
    return make_entry(path, title, f"{body} {FILLER}")


def test_exact_beats_prefix_and_closer_prefix_beats_longer() -> None:
    result = engine(
        [
            same_static("exact.md", "x", "deploy"),
            same_static("near.md", "x", "deploys"),
            same_static("far.md", "x", "deployment"),
        ]
    ).search("deploy")
    relevance = relevance_by_path(result)
    assert relevance["exact.md"] > relevance["near.md"] > relevance["far.md"] > 0
    assert [h.entry.path for h in result.hits] == ["exact.md", "near.md", "far.md"]


def test_typo_matches_fuzzily_with_similarity() -> None:
    hit = engine([same_static("k.md", "x", "kubernetes")]).search("kubernetse").hits[0]
    match = hit.explanation.terms[0].matches[0]
    assert (match.token, match.kind) == ("kubernetes", MatchKind.FUZZY)
    assert match.similarity == pytest.approx(0.72)


def test_heading_counts_double() -> None:
    result = engine(
        [same_static("heading.md", "Rollback", "plan"), same_static("body.md", "Plan", "rollback")]
    ).search("rollback")
    assert [h.entry.path for h in result.hits] == ["heading.md", "body.md"]
    match = result.hits[0].explanation.terms[0].matches[0]
    assert (match.heading_count, match.body_count) == (1, 0)


def test_rare_terms_weigh_more() -> None:
    entries = [same_static(f"common{i}.md", "x", "common") for i in range(5)]
    entries.append(same_static("rare.md", "x", "rare"))
    result = engine(entries).search("rare common")
    assert result.hits[0].entry.path == "rare.md"
    weights = {t.term: t.weight for t in result.hits[0].explanation.terms}
    assert weights["rare"] > weights["common"]


def test_repeated_matches_saturate() -> None:
    relevance = relevance_by_path(
        engine(
            [
                same_static("once.md", "x", "cache"),
                same_static("many.md", "x", " ".join(["cache"] * 10)),
            ]
        ).search("cache")
    )
    assert relevance["once.md"] < relevance["many.md"] < 3 * relevance["once.md"]


def test_all_terms_beat_some() -> None:
    result = engine(
        [
            same_static("both.md", "x", "redis cache"),
            same_static("one.md", "Redis", " ".join(["redis"] * 8)),
        ]
    ).search("redis cache")
    assert result.hits[0].entry.path == "both.md"


def test_zero_relevance_is_not_a_result() -> None:
    result = engine([same_static("a.md", "x", "deploy"), same_static("b.md", "x", "other")]).search(
        "deploy"
    )
    assert [h.entry.path for h in result.hits] == ["a.md"]
    assert result.total_matches == 1


@pytest.mark.parametrize(
    ("source", "date", "evergreen", "expected", "raw"),
    [
        (Source.DAILY, TODAY, True, 1.0, "age 0 d, half-life 30 d"),
        (Source.DAILY, TODAY - dt.timedelta(days=30), True, 0.5, "age 30 d, half-life 30 d"),
        (Source.DAILY, TODAY + dt.timedelta(days=3), True, 1.0, "age 0 d, half-life 30 d"),
        (Source.LONG_TERM, TODAY - dt.timedelta(days=90), True, 1.0, "long-term: evergreen"),
        (Source.LONG_TERM, TODAY - dt.timedelta(days=60), False, 0.25, "age 60 d"),
        (Source.NOTE, None, True, 0.5, "undated: neutral"),
    ],
)
def test_recency(
    source: Source, date: dt.date | None, evergreen: bool, expected: float, raw: str
) -> None:
    entry = make_entry("a.md", "deploy", "x", source=source, date=date)
    hit = engine([entry], Config(evergreen_long_term=evergreen)).search("deploy").hits[0]
    recency = next(f for f in hit.explanation.factors if f.name == "recency")
    assert recency.value == pytest.approx(expected)
    assert raw in recency.raw


@pytest.mark.parametrize(
    ("source", "expected", "raw"),
    [
        (Source.LONG_TERM, 0.8, "long_term → priority 80"),
        (Source.NOTE, 0.6, "note"),
        (Source.DAILY, 0.5, "daily → priority 50"),
    ],
)
def test_source_priority(source: Source, expected: float, raw: str) -> None:
    hit = engine([make_entry("a.md", "deploy", "x", source=source)]).search("deploy").hits[0]
    source_factor = next(f for f in hit.explanation.factors if f.name == "source")
    assert source_factor.value == pytest.approx(expected)
    assert raw in source_factor.raw


@pytest.mark.parametrize(
    ("source", "position", "count", "expected"),
    [
        (Source.LONG_TERM, 0, 5, 1.0),
        (Source.LONG_TERM, 4, 5, 0.5),
        (Source.NOTE, 2, 5, 0.75),
        (Source.DAILY, 4, 5, 1.0),
        (Source.DAILY, 0, 5, 0.5),
        (Source.DAILY, 0, 1, 1.0),
    ],
)
def test_position(source: Source, position: int, count: int, expected: float) -> None:
    entry = make_entry("a.md", "deploy", "x", source=source, position=position, count=count)
    hit = engine([entry]).search("deploy").hits[0]
    assert factor(hit.explanation, "position") == pytest.approx(expected)


def test_config_boosts_fire_once_and_are_never_capped() -> None:
    config = Config(boosts=(Boost("memory/*", 1.5), Boost("tag:infra", 10.0), Boost("*.md", 0.9)))
    entries = [
        make_entry("memory/a.md", "deploy", "x", tags=("Infra",)),
        make_entry("notes/b.md", "deploy", "x"),
    ]
    result = engine(entries, config).search("deploy")
    boosted = next(h for h in result.hits if h.entry.path == "memory/a.md").explanation
    assert [m.factor for m in boosted.multipliers] == [1.5, 10.0, 0.9]
    assert boosted.score == pytest.approx(boosted.base * 1.5 * 10.0 * 0.9)
    assert boosted.score > 1.0
    plain = next(h for h in result.hits if h.entry.path == "notes/b.md").explanation
    assert [m.reason for m in plain.multipliers] == ["config boost '*.md'"]
    assert plain.score == pytest.approx(plain.base * 0.9)


def test_min_score_drops_weak_results() -> None:
    config = Config(boosts=(Boost("weak.md", 0.05),))
    result = engine(
        [make_entry("weak.md", "deploy", "x"), make_entry("ok.md", "deploy", "x")], config
    ).search("deploy")
    assert [h.entry.path for h in result.hits] == ["ok.md"]


def test_tie_breaks_priority_date_path_line() -> None:
    older = TODAY - dt.timedelta(days=1)
    entries = [
        make_entry("b.md", "deploy", "x", line=7, position=1, count=2),
        make_entry("b.md", "deploy", "x", line=1, position=0, count=2),
        make_entry("a.md", "deploy", "x"),
        make_entry("c.md", "deploy", "x", date=older),
        make_entry("d.md", "deploy", "x", date=TODAY),
    ]
    config = Config(weights={"relevance": 1.0, "source": 0.0, "recency": 0.0, "position": 0.0})
    result = engine(entries, config).search("deploy")
    assert [(h.entry.path, h.entry.line_start) for h in result.hits] == [
        ("d.md", 1),
        ("c.md", 1),
        ("a.md", 1),
        ("b.md", 1),
        ("b.md", 7),
    ]
    assert len({h.score for h in result.hits}) == 1


def test_filters_and_exclusions() -> None:
    entries = [
        make_entry(
            "memory/2026-05-30.md", "deploy", "ci", source=Source.DAILY, date=dt.date(2026, 5, 30)
        ),
        make_entry(
            "memory/2026-01-02.md", "deploy", "x", source=Source.DAILY, date=dt.date(2026, 1, 2)
        ),
        make_entry(
            "MEMORY.md", "deploy", "flaky login test", source=Source.LONG_TERM, tags=("infra",)
        ),
    ]
    ranker = engine(entries)

    def paths(query: str) -> list[str]:
        return sorted(h.entry.path for h in ranker.search(query).hits)

    assert paths("deploy source:daily") == ["memory/2026-01-02.md", "memory/2026-05-30.md"]
    assert paths("deploy file:MEMORY.md") == ["MEMORY.md"]
    assert paths("deploy tag:inf*") == ["MEMORY.md"]
    assert paths("deploy after:2026-05-01") == ["memory/2026-05-30.md"]
    assert paths("deploy before:2026-05") == ["memory/2026-01-02.md"]
    assert paths("deploy -ci") == ["MEMORY.md", "memory/2026-01-02.md"]
    assert paths('deploy -"flaky login"') == ["memory/2026-01-02.md", "memory/2026-05-30.md"]
    assert paths('"flaky login"') == ["MEMORY.md"]
    assert paths('deploy "login flaky"') == []
    assert paths("source:daily") == ["memory/2026-01-02.md", "memory/2026-05-30.md"]


def test_phrase_explanation() -> None:
    found = engine([make_entry("a.md", "x", "the flaky login test")]).search('"flaky login"')
    hit = found.hits[0]
    match = hit.explanation.terms[0].matches[0]
    assert (match.token, match.kind, match.body_count) == ("flaky login", MatchKind.PHRASE, 1)


def test_unmatched_terms_and_suggestions() -> None:
    result = engine([make_entry("a.md", "Staging", "staging deploy")]).search("deploy stxgxng")
    assert result.unmatched_terms == ("stxgxng",)
    assert result.suggestions == ("staging",)
    assert [h.entry.path for h in result.hits] == ["a.md"]


def test_unknown_filter_is_noted_in_explanations() -> None:
    result = engine([make_entry("a.md", "color", "blue")]).search("color:blue")
    assert result.notes == ("unknown filter color: searched as words",)
    assert "unknown filter color: searched as words" in result.hits[0].explanation.notes


def test_cjk_queries() -> None:
    entries = [make_entry("zh.md", "迁移", "数据库迁移完成"), make_entry("en.md", "x", "database")]
    ranker = engine(entries)
    assert [h.entry.path for h in ranker.search("数据库").hits] == ["zh.md"]
    assert [h.entry.path for h in ranker.search("库").hits] == ["zh.md"]


def test_title_echoing_the_body_is_not_a_heading() -> None:
    entry = make_entry(
        "HISTORY.md",
        "Rotated the Postmark token …",
        "[2026-05-01 10:00] Rotated the Postmark token; old one revoked.",
    )
    match = engine([entry]).search("postmark").hits[0].explanation.terms[0].matches[0]
    assert (match.heading_count, match.body_count) == (0, 1)


def test_parent_headings_and_file_name_count_once_as_body() -> None:
    entry = make_entry("memory-bank/activeContext.md", "Redis", "x", parents=("Infrastructure",))
    ranker = engine([entry])
    for query in ("infrastructure", "context"):
        match = ranker.search(query).hits[0].explanation.terms[0].matches[0]
        assert (match.heading_count, match.body_count) == (0, 1)
