"""`memtui bench` keeps working: the corpus is deterministic, the baselines rank sensibly and
the JSON report has every key with sane types. No timings are asserted here."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.bench import runner
from memtui.bench.baselines import Document, Fts5Index, NaiveScan, fts5_match_expression
from memtui.bench.corpus import VOCABULARY_SIZE, build_vocabulary, write_corpus
from memtui.bench.keystrokes import (
    add_typo,
    derive_queries,
    keystrokes,
    latency_summary,
    percentile,
    read_queries,
)
from memtui.cli import main
from memtui.core.cache.folder import CacheFolder

TODAY = dt.date(2026, 11, 21)


def corpus_snapshot(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): path.read_text(encoding="utf-8")
        for path in sorted(root.rglob("*.md"))
    }


def test_corpus_is_deterministic(tmp_path: Path) -> None:
    write_corpus(tmp_path / "a", 120, today=TODAY)
    write_corpus(tmp_path / "b", 120, today=TODAY)
    assert corpus_snapshot(tmp_path / "a") == corpus_snapshot(tmp_path / "b")


def test_corpus_has_the_requested_sections_and_layout(tmp_path: Path) -> None:
    summary = write_corpus(tmp_path, 300, today=TODAY)
    texts = corpus_snapshot(tmp_path)
    sections = sum(text.count("\n## ") for text in texts.values())
    assert sections == 300
    assert "MEMORY.md" in texts
    assert summary.daily_files and all(path.exists() for path in summary.daily_files)
    days = {dt.date.fromisoformat(path.name[:10]) for path in summary.daily_files}
    assert all(TODAY - dt.timedelta(days=730) < day <= TODAY for day in days)


def test_vocabulary_is_zipf_ordered_and_unique() -> None:
    words = build_vocabulary()
    assert len(words) == VOCABULARY_SIZE == len(set(words))
    assert words[0] == "the"
    assert "deploy" in words[:4500]


NOTES = [
    Document("Deploy checklist", "run the tests then deploy to staging"),
    Document("Grocery list", "milk eggs and a note to deploy nothing"),
    Document("Cache incident", "redis cache timeout during deploy, deploy, deploy and deploy"),
    Document("Unrelated", "nothing to see here"),
]


def test_naive_scan_counts_heading_twice_and_sorts() -> None:
    naive = NaiveScan(NOTES)
    assert naive.search("deploy", 10) == [2, 0, 1]
    assert naive.search("cache redis", 10)[0] == 2
    assert naive.search("", 10) == []


def test_fts5_ranks_with_prefixes_and_survives_hostile_terms() -> None:
    fts5 = Fts5Index(NOTES)
    try:
        assert set(fts5.search("depl", 10)) == {0, 1, 2}
        assert fts5.search("redis cach", 10) == [2]
        for hostile in ('"', 'a"b OR', "NEAR(x y)", "-", "*", "col:deploy"):
            assert isinstance(fts5.search(hostile, 10), list)
    finally:
        fts5.close()


def test_fts5_expression_quotes_each_term() -> None:
    assert fts5_match_expression('Deploy "x') == '"deploy"* """x"*'


def test_keystrokes_are_every_prefix() -> None:
    assert keystrokes("ab c") == ["a", "ab", "ab ", "ab c"]


@given(st.text(alphabet="abcdefghij", min_size=4, max_size=12), st.integers(0, 99))
@settings(max_examples=50)
def test_typo_changes_the_word_by_one_edit(word: str, seed: int) -> None:
    import random

    typo = add_typo(word, random.Random(seed))
    assert typo[0] == word[0]
    assert len(word) - 1 <= len(typo) <= len(word)


def test_derived_queries_are_deterministic_short_and_from_the_corpus() -> None:
    texts = [f"{doc.heading}\n{doc.body}" for doc in NOTES] * 5
    queries = derive_queries(texts, 8)
    assert queries == derive_queries(texts, 8)
    assert all(1 <= len(query.split()) <= 3 for query in queries)
    assert derive_queries([], 3)  # falls back to fixed queries


def test_read_queries_skips_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "q.txt"
    path.write_text("deploy\n\n  cache miss  \n", encoding="utf-8")
    assert read_queries(path) == ["deploy", "cache miss"]


@pytest.mark.parametrize(
    ("samples", "p50", "p95"),
    [([1.0], 1.0, 1.0), ([float(i) for i in range(1, 101)], 50.0, 95.0), ([], 0.0, 0.0)],
)
def test_percentiles_are_observed_values(samples: list[float], p50: float, p95: float) -> None:
    assert percentile(samples, 0.5) == p50
    assert percentile(samples, 0.95) == p95
    assert latency_summary(samples)["p95"] == p95


def test_bench_json_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "--entries", "300", "--json", "--today", TODAY.isoformat()])
    report = json.loads(capsys.readouterr().out)
    assert code == (0 if report["budgets"]["all_pass"] else 3)
    assert report["entries"] >= 300
    for key in ("load_ms", "rss_mb", "update_ms", "speedup_vs_naive", "speedup_vs_fts5"):
        assert isinstance(report[key], float | int) and report[key] >= 0, key
    for figures in (report["rerank_ms"], *report["baselines"].values()):
        assert 0 <= figures["p50"] <= figures["p95"] <= figures["max"]
    assert set(report["baselines"]) == {"naive", "fts5"}
    assert report["keystrokes"] >= len(report["queries"]) > 0
    budgets = report["budgets"]
    assert isinstance(budgets["all_pass"], bool)
    assert {"rerank_p95_ms", "speedup_vs_naive", "rss_mb"} <= set(budgets)
    # The speedup ratios do not apply at 300 entries: n/a, never a failure.
    assert budgets["speedup_vs_naive"]["applies"] is False
    assert budgets["speedup_vs_naive"]["pass"] is None
    assert budgets["rerank_p95_ms"]["applies"] is True
    commands = report["commands"]
    assert commands["query"] == report["queries"][0] and commands["runs"] == 5
    assert (commands["cache_settled"], commands["cache_problems"]) == (True, [])
    floor = commands["imports_floor"]
    for figures in (commands["rank_cold"], commands["rank_warm"], floor, commands["grep_ril"]):
        assert 0 < figures["wall_ms_min"] <= figures["wall_ms"] and figures["cpu_ms"] >= 0


def test_a_failed_budget_that_applies_exits_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        runner,
        "BUDGET_TIERS",
        {
            tier: (
                runner.Budget("rss_mb", 0.001),
                runner.Budget("speedup_vs_naive", 1e9, at_least=True, min_entries=5_000),
            )
            for tier in runner.BUDGET_TIERS
        },
    )
    assert main(["bench", "--entries", "200", "--today", TODAY.isoformat()]) == 3
    out = capsys.readouterr().out
    assert "FAIL  rss_mb" in out and "n/a   speedup_vs_naive" in out


def test_bench_on_a_root_never_writes_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "memory-root"
    write_corpus(root, 60, today=TODAY)
    before = corpus_snapshot(root)
    queries = tmp_path / "queries.txt"
    queries.write_text("deploy\ncache timeout\n", encoding="utf-8")
    argv = ["bench", str(root), "--days", "0", "--today", TODAY.isoformat()]
    assert main([*argv, "--queries", str(queries)]) in (0, 3)
    out = capsys.readouterr().out
    assert "rerank per keystroke" in out and "rank as a process, cold / warm" in out
    assert "python + numpy alone" in out and "grep -ril" in out
    assert corpus_snapshot(root) == before
    assert CacheFolder().listing() == []  # the commands were timed with a cache of the bench's


def test_bench_rejects_root_and_entries_together(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", ".", "--entries", "10"]) == 2
    assert "--entries" in capsys.readouterr().err


def test_bench_tui_types_through_the_real_app(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    queries = tmp_path / "queries.txt"
    queries.write_text("dep x\n", encoding="utf-8")
    argv = ["bench", "--entries", "200", "--tui", "--json", "--queries", str(queries)]
    assert main([*argv, "--today", TODAY.isoformat()]) in (0, 3)
    tui = json.loads(capsys.readouterr().out)["tui"]
    assert tui["keystrokes"] == len("dep x")
    assert 0 < tui["keystroke_ms"]["p50"] <= tui["keystroke_ms"]["p95"]
    assert tui["first_results_ms"] > 0
    startup = tui["startup"]
    assert startup["first_word"] == "dep" and startup["cache_mb"] > 0
    for figure in (
        "cold_first_results_ms",
        "warm_first_results_ms",
        "cold_first_word_ms",
        "warm_first_word_ms",
    ):
        assert startup[figure] > 0
    for peak in ("cold_peak_rss_mb", "warm_peak_rss_mb"):  # an app process's: Textual loaded
        assert 40 < startup[peak] < 1000
