"""Property tests: the indexed fast path equals the slow reference, and explanations add up."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from reference_rank import make_entry, reference_scores

from memtui.core.live.engine import Engine
from memtui.core.model import Entry, Source
from memtui.core.search.query import QueryError, parse_query
from memtui.core.search.ranked_hits import RankedHits, first_rows
from memtui.core.settings.config import FACTOR_NAMES, Boost, Config

TODAY = dt.date(2026, 6, 1)
WORDS = st.text(alphabet="abcdeé", min_size=1, max_size=7)


@st.composite
def corpora(draw: st.DrawFn) -> list[Entry]:
    files = draw(st.integers(min_value=1, max_value=6))
    entries: list[Entry] = []
    for file_number in range(files):
        source = draw(st.sampled_from(list(Source)))
        count = draw(st.integers(min_value=1, max_value=4))
        day = TODAY - dt.timedelta(days=draw(st.integers(min_value=0, max_value=400)))
        for position in range(count):
            title = " ".join(draw(st.lists(WORDS, min_size=0, max_size=3)))
            body = " ".join(draw(st.lists(WORDS, min_size=0, max_size=12)))
            dated = draw(st.booleans())
            parents = tuple(draw(st.lists(WORDS, max_size=1)))
            entries.append(
                make_entry(
                    f"f{file_number}.md",
                    title,
                    body,
                    source=source,
                    date=day if dated else None,
                    position=position,
                    count=count,
                    line=1 + 5 * position,
                    parents=parents,
                )
            )
    return entries


@st.composite
def queries(draw: st.DrawFn, entries: list[Entry]) -> str:
    known = sorted({w for e in entries for w in (e.title + " " + e.body).split()})
    pieces = []
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        kind = draw(st.sampled_from(["word", "prefix", "typo", "random"]))
        if kind == "random" or not known:
            pieces.append(draw(WORDS))
            continue
        word = draw(st.sampled_from(known))
        if kind == "prefix":
            word = word[: draw(st.integers(min_value=1, max_value=len(word)))]
        elif kind == "typo" and len(word) >= 4:
            at = draw(st.integers(min_value=1, max_value=len(word) - 2))
            word = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
        pieces.append(word)
    trailing = draw(st.sampled_from(["", " "]))
    return " ".join(pieces) + trailing


def engine_for(entries: list[Entry], config: Config) -> Engine:
    engine = Engine(Path("/nonexistent-memtui-root"), config, today=TODAY, days=0)
    engine.load_entries(entries)
    return engine


EXTRAS = [
    "",
    " source:daily",
    " source:note -a",
    ' "a b"',
    " -b",
    " after:2026-01-01",
    " file:f1*",
    " color:red",
]
"""Filters, phrases, exclusions and an unknown filter, appended to random queries."""

CONFIGS = st.sampled_from(
    [
        Config(),
        Config(boosts=(Boost("f1.md", 1.5), Boost("f2*", 0.5)), min_score=0.2),
        Config(boosts=(Boost("f1.md", 4.0), Boost("f2*", 3.0), Boost("f3*", 2.5))),
        Config(
            weights={"relevance": 0.4, "source": 0.3, "recency": 0.2, "position": 0.1},
            half_life_days=7.0,
            evergreen_long_term=False,
            min_score=0.0,
        ),
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), config=CONFIGS)
def test_fast_path_agrees_with_reference(data: st.DataObject, config: Config) -> None:
    entries = data.draw(corpora())
    query = data.draw(queries(entries))
    parsed = parse_query(query)
    if not parsed.terms:
        return
    expected = reference_scores(
        entries, list(parsed.terms), [parsed.expands(t) for t in parsed.terms], config, TODAY
    )
    result = engine_for(entries, config).search(query)
    got = {hit.entry.id: hit.score for hit in result.hits}
    assert set(got) == set(expected), query
    for entry_id, score in expected.items():
        assert math.isclose(got[entry_id], score, rel_tol=1e-9, abs_tol=1e-12), entry_id
    assert result.total_matches == len(expected)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), config=CONFIGS)
def test_explanation_reproduces_score(data: st.DataObject, config: Config) -> None:
    entries = data.draw(corpora())
    query = data.draw(queries(entries)) + data.draw(st.sampled_from(EXTRAS))
    engine = engine_for(entries, config)
    result = engine.search(query)
    previous = None
    for hit in result.hits:
        explanation = hit.explanation
        assert explanation.score == hit.score
        again = engine.explain(hit.entry.id, query)
        assert again is not None and again.score == hit.score
        total = sum(factor.contribution for factor in explanation.factors)
        assert math.isclose(explanation.base, min(1.0, max(0.0, total)), abs_tol=1e-12)
        for factor in explanation.factors:
            assert math.isclose(factor.contribution, factor.value * factor.weight)
            assert 0.0 <= factor.value <= 1.0
        product = math.prod(m.factor for m in explanation.multipliers)
        assert math.isclose(explanation.score, explanation.base * product, abs_tol=1e-12)
        if previous is not None:  # the order is the order of the shown, uncapped scores
            assert previous.score >= hit.score
            gap = sum(value for _, value in explanation.gap_to_previous)
            assert math.isclose(gap, previous.score - hit.score, abs_tol=1e-9)
        else:
            assert explanation.gap_to_previous == ()
        previous = hit


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_ranking_is_deterministic_and_limit_is_a_prefix(data: st.DataObject) -> None:
    entries = data.draw(corpora())
    query = data.draw(queries(entries))
    limit = data.draw(st.integers(min_value=1, max_value=5))
    full = engine_for(entries, Config()).search(query)
    shuffled = engine_for(list(reversed(entries)), Config()).search(query, limit=limit)
    assert [h.entry.id for h in shuffled.hits] == [h.entry.id for h in full.hits][:limit]
    assert shuffled.total_matches == full.total_matches


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_per_file_updates_equal_a_fresh_index(data: st.DataObject) -> None:
    """Random file replacements through the delta segment score exactly like a rebuild."""
    entries = data.draw(corpora())
    engine = engine_for(entries, Config())
    files: dict[str, list[Entry]] = {}
    for entry in entries:
        files.setdefault(entry.path, []).append(entry)
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        path = data.draw(st.sampled_from([*sorted(files), "new.md"]))
        replacement = data.draw(corpora())[:3]
        files[path] = [replace(e, path=path, id=f"{path}#{e.position}") for e in replacement]
        engine._index.replace_paths({path: files[path]})
    fresh = engine_for([e for group in files.values() for e in group], Config())
    query = data.draw(queries([e for group in files.values() for e in group]))
    got = {h.entry.id: h.score for h in engine.search(query).hits}
    expected = {h.entry.id: h.score for h in fresh.search(query).hits}
    assert got.keys() == expected.keys()
    for entry_id, score in expected.items():
        assert math.isclose(got[entry_id], score, rel_tol=1e-9), entry_id


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60))
def test_any_query_parses_or_says_why(text: str) -> None:
    try:
        parse_query(text)
    except QueryError as error:
        assert str(error)


def expected_order(engine: Engine, query: str) -> list[str]:
    """Rank order from a plain Python sort on the documented tie-breaks."""
    context = engine._context(parse_query(query))
    statics = context.statics
    keyed = []
    for at, slot in enumerate(context.candidates.tolist()):
        entry = context.entries[slot]
        score = 0.0 if context.browse else -float(context.scores[at])
        priority = 0 if context.browse else -int(statics.priority[slot])
        keyed.append(
            ((score, priority, -int(statics.when[slot]), entry.path, entry.line_start), entry.id)
        )
    return [entry_id for _, entry_id in sorted(keyed)]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), config=CONFIGS, head=st.integers(min_value=0, max_value=6))
def test_lazy_hits_equal_the_eager_order(data: st.DataObject, config: Config, head: int) -> None:
    """Indexing, slicing and iterating the lazy sequence (with a head shorter than the results,
    so the rest is sorted on demand) give the full sort's order; contributions are exactly the
    explanation's."""
    entries = data.draw(corpora())
    query = data.draw(st.sampled_from(["", *EXTRAS[1:4]])) + " " + data.draw(queries(entries))
    engine = engine_for(entries, config)
    context = engine._context(parse_query(query))
    hits = RankedHits(context, None, head=head)
    expected = expected_order(engine, query)
    probe = data.draw(
        st.lists(st.integers(min_value=-len(hits) - 1, max_value=len(hits)), max_size=4)
    )
    for at in probe:
        if -len(hits) <= at < len(hits):
            assert hits[at].entry.id == expected[at]
        else:
            with pytest.raises(IndexError):
                hits[at]
    start, stop, step = (data.draw(st.one_of(st.none(), st.integers(-8, 8))) for _ in range(3))
    if step != 0:
        assert [h.entry.id for h in hits[start:stop:step]] == expected[start:stop:step]
    assert [h.entry.id for h in hits] == expected
    assert [h.rank for h in hits] == list(range(1, len(expected) + 1))
    assert len(hits) == len(expected) == context.candidates.size
    eager = engine.search(query)
    assert [h.entry.id for h in eager.hits] == expected
    for hit, fresh in zip(hits, eager.hits, strict=True):
        factors = tuple((f.name, f.contribution) for f in hit.explanation.factors)
        assert hit.contributions == factors == fresh.contributions
        assert [name for name, _ in factors] == list(FACTOR_NAMES)
        assert hit.score == fresh.score == hit.explanation.score


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), config=CONFIGS, count=st.integers(min_value=0, max_value=8))
def test_first_rows_bars_are_each_hit_s_own_numbers(
    data: st.DataObject, config: Config, count: int
) -> None:
    """The first rows' bar numbers, worked out together in one numpy pass, are bit for bit
    what each hit's explanation gives; so are any slots', results or not, while browsing too."""
    entries = data.draw(corpora())
    query = data.draw(st.sampled_from(["", *EXTRAS[1:4]])) + " " + data.draw(queries(entries))
    engine = engine_for(entries, config)
    context = engine._context(parse_query(query))
    first = first_rows(RankedHits(context, None), count)
    assert len(first) == min(count, context.candidates.size)
    for hit in first:
        assert hit.contributions == tuple((f.name, f.contribution) for f in hit.explanation.factors)
    slots = data.draw(st.lists(st.integers(min_value=0, max_value=len(entries) - 1), max_size=6))
    assert context.contributions_of(slots) == [context.factor_contributions(s) for s in slots]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), limit=st.integers(min_value=0, max_value=6))
def test_limited_lazy_hits_are_a_prefix(data: st.DataObject, limit: int) -> None:
    entries = data.draw(corpora())
    query = data.draw(queries(entries))
    engine = engine_for(entries, Config())
    limited = engine.search(query, limit=limit).hits
    everything = [h.entry.id for h in engine.search(query).hits]
    assert len(limited) == min(limit, len(everything))
    assert [h.entry.id for h in limited] == everything[:limit]
    assert [h.entry.id for h in limited[::-1]] == everything[:limit][::-1]
