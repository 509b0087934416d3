"""Invariants of the health checks, over generated corpora and files (hypothesis).

* Near-duplicates do not depend on the order entries were indexed in, groups are disjoint, every
  verified pair lies inside one group, and each group starts with its newest entry.
* A load-line finding's lines lie inside its file, and exactly the entries past the cut are found.
* The secrets section counts exactly what the mask masks.
"""

from __future__ import annotations

import datetime as dt
from itertools import pairwise
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.core.health.dated import distinctive_limit, find_stale, is_wordish
from memtui.core.health.duplicates import (
    candidate_pairs,
    duplicate_pairs,
    find_duplicates,
    normalised_texts,
)
from memtui.core.health.load_line import cut_of, find_beyond_load_line
from memtui.core.health.settings import HealthSettings, LoadLine
from memtui.core.live.engine import Engine
from memtui.core.model import Entry, Source
from memtui.core.reading.parse import parse_file
from memtui.core.search.terms import EntryTerms
from memtui.core.search.tokenize import tokens
from memtui.core.secrets import mask_secrets, secret_kinds
from memtui.core.settings.config import Config

TODAY = dt.date(2026, 11, 21)
SENTENCES = (
    "the nightly export job writes invoices to the finance bucket and pages the on-call",
    "staging postgres moved to a bigger dedicated box with hourly snapshots kept for a week",
    "maya prefers short answers first with details after a blank line and no emoji",
    "ledger sync retries provider webhooks with exponential backoff and an idempotency key",
)
WORDS = ("alpha", "bravo", "delta", "kilo", "lima", "oscar", "tango", "zulu", "deploy", "cache")

bodies = st.lists(
    st.one_of(
        st.sampled_from(SENTENCES),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join),
    ),
    min_size=1,
    max_size=3,
).map(". ".join)
corpora = st.lists(st.tuples(bodies, st.integers(0, 60)), min_size=2, max_size=14)


def entries_of(items: list[tuple[str, int]]) -> list[Entry]:
    return [
        Entry(
            id=f"e{number}",
            path=f"memory/{number:02d}.md",
            source=Source.DAILY,
            title=f"Note {number}",
            heading_path=(f"Note {number}",),
            body=body,
            line_start=1,
            line_end=3,
            date=TODAY - dt.timedelta(days=age),
        )
        for number, (body, age) in enumerate(items)
    ]


def indexed(entries: list[Entry]) -> EntryTerms:
    engine = Engine(Path("/nonexistent"), Config(), today=TODAY)
    engine.load_entries(entries)
    return engine.entry_terms()


def pairs_by_id(terms: EntryTerms) -> set[frozenset[str]]:
    candidates = candidate_pairs(terms, HealthSettings())
    texts = normalised_texts(terms.entries, range(len(terms.entries)))
    found = duplicate_pairs(candidates, texts, HealthSettings())
    assert all(a < b for a, b in found)
    return {frozenset((terms.entries[a].id, terms.entries[b].id)) for a, b in found}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=corpora)
def test_duplicates_are_symmetric_and_groups_disjoint(items: list[tuple[str, int]]) -> None:
    entries = entries_of(items)
    terms = indexed(entries)
    pairs = pairs_by_id(terms)
    assert pairs == pairs_by_id(indexed(entries[::-1])), "indexing order changed the pairs"
    findings = find_duplicates(terms, HealthSettings())
    group_of = {f.entry.id: f.group for f in findings}
    assert len(group_of) == len(findings), "an entry is in two groups"
    for pair in pairs:
        assert len({group_of[entry_id] for entry_id in pair}) == 1
    for number in set(group_of.values()):
        members = [f for f in findings if f.group == number]
        assert len(members) >= 2 and members[0].lead and not any(f.lead for f in members[1:])
        dates = [f.entry.date for f in members if f.entry.date is not None]
        assert dates[0] == max(dates)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=corpora, stale_days=st.sampled_from((0, 10, 30)))
def test_stale_entries_are_those_no_newer_entry_echoes(
    items: list[tuple[str, int]], stale_days: int
) -> None:
    """`find_stale` over the index's arrays is its definition read entry by entry: old enough,
    enough distinctive words, and none of them in a newer entry."""
    terms = indexed(entries_of(items))
    health = HealthSettings(stale_days=stale_days, stale_min_words=2)
    entries = [terms.entries[index] for index in range(len(terms.entries))]
    limit = distinctive_limit(len(entries))
    holders: dict[str, list[Entry]] = {}
    for entry in entries:
        for word in set(tokens(f"{entry.title}\n{entry.body}")):
            holders.setdefault(word, []).append(entry)
    cutoff = min(TODAY, max(e.date for e in entries if e.date)) - dt.timedelta(days=stale_days)
    expected = set()
    for entry in entries:
        assert entry.date is not None
        own = [w for w, held in holders.items() if entry in held]
        distinctive = [w for w in own if is_wordish(w) and len(holders[w]) <= limit]
        echoed = any(
            other.date is not None and other.date > entry.date
            for word in distinctive
            for other in holders[word]
        )
        if entry.date < cutoff and len(distinctive) >= 2 and not echoed:
            expected.add(entry.id)
    found = find_stale(terms, health, TODAY)
    assert {finding.entry.id for finding in found} == expected


texts_of_words = st.lists(
    st.lists(st.sampled_from((*WORDS, "déjà", "数据", "x")), max_size=14).map(" ".join),
    min_size=1,
    max_size=8,
)


@settings(max_examples=120, deadline=None)
@given(texts=texts_of_words, similarity=st.sampled_from((50.0, 75.5, 90.0, 100.0)))
def test_duplicate_pairs_score_each_pair_as_one_call_does(
    texts: list[str], similarity: float
) -> None:
    """`cpdist` in threads gives every pair what `token_set_ratio` gives it alone."""
    from rapidfuzz import fuzz

    by_index = dict(enumerate(texts))
    candidates = [(a, b) for a in by_index for b in by_index if a < b]
    expected = {
        (a, b): float(score)
        for a, b in candidates
        if (score := fuzz.token_set_ratio(texts[a], texts[b], score_cutoff=similarity))
    }
    found = duplicate_pairs(candidates, by_index, HealthSettings(duplicate_similarity=similarity))
    assert found == expected and list(found) == list(expected)


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.sampled_from((*WORDS, "x", "42")), max_size=10),
    other=st.lists(st.sampled_from((*WORDS, "x", "42")), max_size=10),
    gaps=st.lists(st.sampled_from((" ", "  ", "\t", " \n ")), min_size=12, max_size=12),
)
def test_token_set_ratio_splits_on_runs_of_whitespace(
    words: list[str], other: list[str], gaps: list[str]
) -> None:
    """What `normalised_texts` relies on: words with runs of whitespace between (and around)
    score exactly as the same words one space apart."""
    from rapidfuzz import fuzz

    spaced = gaps[0] + "".join(word + gap for word, gap in zip(words, gaps[1:], strict=False))
    expected = fuzz.token_set_ratio(" ".join(words), " ".join(other))
    assert fuzz.token_set_ratio(spaced, " ".join(other)) == expected


@settings(max_examples=150, deadline=None)
@given(
    signatures=st.lists(st.sets(st.integers(0, 12), max_size=6), max_size=12),
    block=st.integers(1, 40),
)
def test_shared_signature_words_counts_every_pair_once(
    signatures: list[set[int]], block: int
) -> None:
    """Every pair sharing a word comes out once, in its left entry's block, with the count of
    words they share, in any block size."""
    import numpy as np
    import pytest

    from memtui.core.health import duplicates

    owner = np.array([e for e, words in enumerate(signatures) for _ in words], dtype=np.int64)
    word = np.array([w for words in signatures for w in sorted(words)], dtype=np.int64)
    expected = {
        (a, b): len(signatures[a] & signatures[b])
        for a in range(len(signatures))
        for b in range(a + 1, len(signatures))
        if signatures[a] & signatures[b]
    }
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(duplicates, "PAIR_BLOCK", block)
        blocks = list(duplicates._shared_signature_words(owner, word))
    found = [
        (pair, count)
        for a, b, shared in blocks
        for pair, count in zip(
            zip(a.tolist(), b.tolist(), strict=True), shared.tolist(), strict=True
        )
    ]
    assert dict(found) == expected and len(found) == len(expected)
    lefts = [a.tolist() for a, _, _ in blocks]
    assert all(max(one) < min(two) for one, two in pairwise(lefts))


lines = st.one_of(
    st.builds(lambda title: f"## {title}", st.text("abcxyz ", min_size=1, max_size=12)),
    st.text("abcdefgh é€😀", max_size=90),
    st.just(""),
)
rules = st.builds(
    LoadLine,
    files=st.just(("MEMORY.md",)),
    agent=st.just("Agent"),
    lines=st.none() | st.integers(1, 60),
    bytes=st.none() | st.integers(1, 3000),
    chars=st.none() | st.integers(1, 3000),
).filter(lambda rule: rule.lines or rule.bytes or rule.chars)


@settings(max_examples=150, deadline=None)
@given(file_lines=st.lists(lines, min_size=1, max_size=80), rule=rules)
def test_load_line_findings_lie_inside_the_file(file_lines: list[str], rule: LoadLine) -> None:
    text = "\n".join(file_lines) + "\n"
    entries = parse_file("MEMORY.md", text)
    total = len(file_lines)
    findings, cuts = find_beyond_load_line(entries, {"MEMORY.md": text}, (rule,))
    cut = cut_of(rule, text, "", "MEMORY.md")
    assert cuts == ([] if cut is None or not entries else [cut])
    for finding in findings:
        assert 1 <= finding.entry.line_start <= finding.entry.line_end <= total
    if cut is None:
        assert findings == []
        return
    assert 0 <= cut.last_line <= total
    beyond = {
        e.id
        for e in entries
        if e.line_start > cut.last_line or (e.line_start == cut.last_line and not cut.whole_line)
    }
    assert {f.entry.id for f in findings if not f.detail("partly")} == beyond


secretish = st.lists(
    st.sampled_from(
        [
            "ghp_" + "A1b2C3d4E5" * 4,
            "password = hunter22",
            "Bearer abcdef0123456789XYZ",
            "https://bob:pa55w0rd@git.example.com",
            "AKIAIOSFODNN7EXAMPLE",
            "token: rotate",
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c7\n-----END RSA PRIVATE KEY-----",
            "plain words",
            "\n",
            " ",
            "api_key=",
            "sk-" + "x" * 24,
            "…••••",
        ]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=secretish)
def test_secret_kinds_count_what_the_mask_masks(text: str) -> None:
    assert sum(secret_kinds(text).values()) == mask_secrets(text)[1]
