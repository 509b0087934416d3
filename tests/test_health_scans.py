"""Health work done once: the secrets scan kept per file (in the cache with it) and the duplicate
pair search in a forked child. Either way the report is the one a fresh scan gives.

Real temp folders, real cache files: what `memtui health` run twice, or after an edit, sees.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest
from test_health import FACT, GITHUB, TODAY, WHERE, day, run_work, write

from memtui.core import secrets
from memtui.core.cache.folder import CacheFolder
from memtui.core.cache.records import PairScores
from memtui.core.health import check, duplicates, secret_scan
from memtui.core.health.check import check_health
from memtui.core.health.duplicates import Pairs, pairs_as_bytes, pairs_from_bytes
from memtui.core.health.model import Check, HealthReport
from memtui.core.health.settings import HealthSettings
from memtui.core.live import fork
from memtui.core.live.engine import Engine
from memtui.core.live.warm import merged_pairs
from memtui.core.search.terms import EntryTerms
from memtui.core.settings.config import Config


def engine_on(
    root: Path, cache: CacheFolder | None, days: int = 0, config: Config | None = None
) -> Engine:
    engine = Engine(root, config or Config(), today=TODAY, days=days, cache=cache)
    engine.load()
    return engine


def checked_and_saved(
    tmp_path: Path, fill: Callable[[Path], None]
) -> tuple[Path, CacheFolder, HealthReport, bool]:
    """A memory `fill` writes, checked once with a cache that is then saved (what the next run
    starts from): its folder, the cache, the report, and whether the cache was stale."""
    root, cache = tmp_path / "memory", CacheFolder(tmp_path / "cache")
    fill(root)
    first = engine_on(root, cache)
    report = check_health(first)
    stale = first.cache_stale
    first.save_cache()
    return root, cache, report, stale


def shown(report: HealthReport) -> list[tuple[str, str, int, str, object]]:
    """Everything a finding shows, entry by entry."""
    return [(f.check.value, f.entry.id, f.group, f.reason, f.details) for f in report.findings]


def secrets_folder(root: Path) -> None:
    for offset in range(1, 6):
        write(
            root,
            f"memory/{day(offset)}.md",
            f"# Notes\n\n## CI {offset}\n\nToken {GITHUB} and password = hunter2{offset}\n\n"
            f"## Clean {offset}\n\nNothing to see.\n",
        )
    write(root, "MEMORY.md", f"# Memory\n\n## Keys\n\napi_key: sk-{'a1B2' * 6}\n")


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every entry the secrets scan reads from now on."""
    read: list[str] = []
    kinds = secrets.secret_kinds

    def counted(text: str) -> dict[str, int]:
        read.append(text)
        return kinds(text)

    monkeypatch.setattr(secret_scan, "secret_kinds", counted)
    return read


def test_a_second_health_on_unchanged_files_scans_nothing(tmp_path: Path, scans: list[str]) -> None:
    root, cache, expected, stale = checked_and_saved(tmp_path, secrets_folder)
    assert len(scans) == 11 and len(expected.section(Check.SECRETS)) == 6
    assert stale  # what the scan found is for the cache to keep
    scans.clear()
    warm = engine_on(root, cache)
    report = check_health(warm)
    assert scans == []
    assert shown(report) == shown(expected)
    assert report.secret_counts == expected.secret_counts
    assert not warm.cache_stale


def test_a_changed_file_is_scanned_again_and_only_it(tmp_path: Path, scans: list[str]) -> None:
    root, cache, _, _ = checked_and_saved(tmp_path, secrets_folder)
    write(root, "MEMORY.md", f"# Memory\n\n## Keys\n\nRotated.\n\n## AWS\n\nAKIA{'Z' * 16}\n")
    scans.clear()
    warm = engine_on(root, cache)
    report = check_health(warm)
    assert len(scans) == 2 and all("Rotated" in text or "AKIA" in text for text in scans)
    assert shown(report) == shown(check_health(engine_on(root, None)))
    assert dict(report.secret_counts)["AWS access key"] == 1
    assert "OpenAI/Anthropic key" not in dict(report.secret_counts)


def test_an_edit_the_app_sees_is_scanned_again(tmp_path: Path, scans: list[str]) -> None:
    """In the app the engine lives on: a file re-read after an edit has new entries, and what
    was found in the old ones counts for nothing."""
    secrets_folder(tmp_path)
    engine = engine_on(tmp_path, None)
    check_health(engine)
    write(tmp_path, "MEMORY.md", f"# Memory\n\n## Keys\n\nRotated.\n\n## AWS\n\nAKIA{'Z' * 16}\n")
    engine.apply_changes([tmp_path / "MEMORY.md"])
    scans.clear()
    report = check_health(engine)
    assert len(scans) == 2
    assert shown(report) == shown(check_health(engine_on(tmp_path, None)))


def test_a_scan_of_part_of_a_history_file_is_not_kept(tmp_path: Path, scans: list[str]) -> None:
    """With a date window only a history file's recent entries are live: a later run with a
    wider window must scan the older ones, not take the file as scanned."""
    root, cache = tmp_path / "memory", CacheFolder(tmp_path / "cache")
    write(
        root,
        "HISTORY.md",
        f"# History\n\n## {day(2)}\n\nDeployed the worker.\n\n"
        f"## {day(90)}\n\nOld token {GITHUB} pasted here.\n",
    )
    windowed = engine_on(root, cache, days=30)
    assert check_health(windowed).section(Check.SECRETS) == ()
    windowed.save_cache()
    scans.clear()
    wide = engine_on(root, cache, days=0)
    [finding] = check_health(wide).section(Check.SECRETS)
    assert finding.entry.title == day(90)
    assert any(GITHUB in text for text in scans)


@pytest.mark.skipif(not fork.can_fork(), reason="the pair search's child needs fork")
@pytest.mark.parametrize("search", WHERE)
def test_duplicate_pairs_are_the_same_wherever_they_are_searched(
    search: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for offset in range(1, 13):
        write(tmp_path, f"memory/{day(offset)}.md", f"# Notes\n\n## Export\n\n{FACT}\n")
    write(tmp_path, "MEMORY.md", f"# Memory\n\n## Export\n\n{FACT} Also on Sundays.\n")
    expected = check_health(engine_on(tmp_path, None))
    assert len(expected.section(Check.DUPLICATES)) == 13
    run_work(monkeypatch, check, "PAIRS_CHILD_MIN_ENTRIES", search)
    searched_here: list[object] = []  # a child's appends stay in the child
    verified = duplicates.verified_pairs

    def counted(terms: EntryTerms, settings: HealthSettings) -> tuple[Pairs, PairScores]:
        searched_here.append(terms)
        return verified(terms, settings)

    monkeypatch.setattr(duplicates, "verified_pairs", counted)
    report = check_health(engine_on(tmp_path, None))
    assert bool(searched_here) == (search != "in a forked child")
    assert shown(report) == shown(expected)


def test_pairs_come_back_from_bytes_as_they_were() -> None:
    pairs = {(3, 9): 91.66666666666667, (0, 2): 100.0, (1, 70_000): 90.00000000000001}
    hashes = np.array([2**64 - 1, 0, 12345], dtype=np.uint64)
    kept = PairScores("scorer", hashes, hashes[::-1].copy(), np.array([91.5, 0.0, 100.0]))
    back, back_kept = pairs_from_bytes(pairs_as_bytes(pairs, kept), "scorer")
    assert back == pairs and list(back) == list(pairs)
    assert back_kept.left.tolist() == kept.left.tolist()
    assert back_kept.right.tolist() == kept.right.tolist()
    assert back_kept.score.tolist() == kept.score.tolist()
    empty = PairScores("scorer", hashes[:0], hashes[:0], np.zeros(0))
    assert pairs_from_bytes(pairs_as_bytes({}, empty), "scorer")[0] == {}


def duplicates_folder(root: Path) -> None:
    for offset in range(1, 13):
        write(root, f"memory/{day(offset)}.md", f"# Notes\n\n## Export\n\n{FACT}\n")
    write(root, "MEMORY.md", f"# Memory\n\n## Export\n\n{FACT} Also on Sundays.\n")


@pytest.fixture
def scored(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Every pair the duplicates check scores from now on (in this process)."""
    monkeypatch.setattr(check, "PAIRS_CHILD_MIN_ENTRIES", 10**9)
    pairs: list[tuple[int, int]] = []
    score = duplicates.pair_scores

    def counted(
        candidates: Sequence[tuple[int, int]], texts: Mapping[int, str], settings: HealthSettings
    ) -> list[float]:
        pairs.extend(candidates)
        return score(candidates, texts, settings)

    monkeypatch.setattr(duplicates, "pair_scores", counted)
    return pairs


def test_a_second_health_scores_no_pair_again(
    tmp_path: Path, scored: list[tuple[int, int]]
) -> None:
    root, cache, expected, _ = checked_and_saved(tmp_path, duplicates_folder)
    assert len(scored) == 78 and len(expected.section(Check.DUPLICATES)) == 13
    scored.clear()
    warm = engine_on(root, cache)
    report = check_health(warm)
    assert scored == []
    assert shown(report) == shown(expected)
    assert not warm.cache_stale  # the same scores: nothing to write


def test_an_edited_entry_is_scored_again_and_only_its_pairs(
    tmp_path: Path, scored: list[tuple[int, int]]
) -> None:
    root, cache, _, _ = checked_and_saved(tmp_path, duplicates_folder)
    write(root, "MEMORY.md", f"# Memory\n\n## Export\n\n{FACT} Also on Sundays, at 03:00.\n")
    scored.clear()
    warm = engine_on(root, cache)
    report = check_health(warm)
    edited = {
        index for index, entry in enumerate(warm.entry_terms().entries) if entry.path == "MEMORY.md"
    }
    assert len(scored) == 12 and all(set(pair) & edited for pair in scored)
    assert shown(report) == shown(check_health(engine_on(root, None)))
    assert warm.cache_stale  # the new scores are for the cache to keep


def test_scores_made_with_another_threshold_are_not_reused(
    tmp_path: Path, scored: list[tuple[int, int]]
) -> None:
    root, cache, _, _ = checked_and_saved(tmp_path, duplicates_folder)
    scored.clear()
    strict = Config(health=HealthSettings(duplicate_similarity=99.5))
    report = check_health(engine_on(root, cache, config=strict))
    assert len(scored) == 78
    assert shown(report) == shown(check_health(engine_on(root, None, config=strict)))


def test_kept_scores_of_several_roots_are_one_if_scored_alike() -> None:
    def kept(scorer: str, *hashes: int) -> PairScores:
        array = np.array(hashes, dtype=np.uint64)
        return PairScores(scorer, array, array + np.uint64(1), np.full(len(hashes), 95.0))

    one, two, other = kept("a", 1, 2), kept("a", 3), kept("b", 4)
    merged = merged_pairs([None, one, other, two])
    assert merged is not None and merged.scorer == "a"
    assert merged.left.tolist() == [1, 2, 3] and merged.score.tolist() == [95.0] * 3
    assert merged_pairs([None, None]) is None
    assert merged_pairs([other]) is other
