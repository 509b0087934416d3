"""Memory health: each finding on a folder built for it, its reason, and no false alarms.

Real temp folders, a real engine: what `memtui health` and the health view compute.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from memtui.core.health import check, duplicates, secret_scan
from memtui.core.health.check import check_health
from memtui.core.health.duplicates import candidate_pairs
from memtui.core.health.entries import LiveEntries
from memtui.core.health.model import Check, HealthReport
from memtui.core.health.secret_scan import Masked
from memtui.core.health.settings import DEFAULT_LOAD_LINES, HealthSettings, LoadLine
from memtui.core.live import fork
from memtui.core.live.engine import Engine
from memtui.core.settings.config import Config, ConfigError, parse_config
from memtui.demo import materialise_demo

TODAY = dt.date(2026, 11, 21)
GITHUB = "ghp_" + "A1b2C3d4E5" * 4


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def day(offset: int) -> str:
    return (TODAY - dt.timedelta(days=offset)).isoformat()


def health(root: Path, config: Config | None = None) -> HealthReport:
    engine = Engine(root, config or Config(), today=TODAY, days=0)
    engine.load()
    return check_health(engine)


def found(report: HealthReport, check: Check) -> list[tuple[str, int]]:
    return [(f.entry.path, f.entry.line_start) for f in report.section(check)]


DISTINCT_NOTES = {
    "MEMORY.md": "# Memory\n\n## Editor\n\nUses Neovim with LazyVim and the fish shell.\n\n"
    "## Payments\n\nStripe webhooks are verified with the signing secret from "
    "1Password before any handler runs.\n",
    f"memory/{day(3)}.md": "# Notes\n\n## 09:00 — Kubernetes upgrade\n\nMoved the staging "
    "cluster to 1.31; two deprecated ingress annotations removed.\n",
    f"memory/{day(9)}.md": "# Notes\n\n## 14:00 — Invoice fonts\n\nEmbedded Inter in every PDF "
    "template so Windows readers stop substituting Arial.\n",
}


def test_a_clean_folder_has_no_findings(tmp_path: Path) -> None:
    for relative, text in DISTINCT_NOTES.items():
        write(tmp_path, relative, text)
    report = health(tmp_path)
    assert report.findings == ()
    assert report.counts() == dict.fromkeys(Check, 0)
    assert report.entries == 4


# --- near-duplicates ---------------------------------------------------------------------------

FACT = (
    "The billing-api nightly export job writes invoices to the finance bucket at 02:30 "
    "UTC and pages Tomás when the reconciliation totals differ by more than one cent."
)


def test_a_restated_fact_is_one_group_newest_first(tmp_path: Path) -> None:
    write(tmp_path, f"memory/{day(20)}.md", f"# Notes\n\n## 10:00 — Export job\n\n{FACT}\n")
    write(
        tmp_path,
        f"memory/{day(2)}.md",
        f"# Notes\n\n## 11:00 — Nightly export\n\nReminder: {FACT.replace('pages', 'alerts')}\n",
    )
    write(
        tmp_path,
        "MEMORY.md",
        "# Memory\n\n## Unrelated\n\nLunch is at noon on Fridays, "
        "always at the Thai place two streets from the office.\n",
    )
    findings = health(tmp_path).section(Check.DUPLICATES)
    assert [(f.entry.path, f.lead) for f in findings] == [
        (f"memory/{day(2)}.md", True),
        (f"memory/{day(20)}.md", False),
    ]
    assert {f.group for f in findings} == {0}
    older = findings[1]
    assert older.related is not None and older.related.path == f"memory/{day(2)}.md"
    similarity = older.detail("similarity")
    assert isinstance(similarity, float) and similarity >= 90
    assert f"{similarity:.0f}% alike with memory/{day(2)}.md:3 (threshold 90%)" in older.reason


def test_one_fact_stored_many_times_is_one_group(tmp_path: Path) -> None:
    for offset in range(1, 31):
        write(tmp_path, f"memory/{day(offset)}.md", f"# Notes\n\n## Export\n\n{FACT}\n")
    findings = health(tmp_path).section(Check.DUPLICATES)
    assert len(findings) == 30
    assert findings[0].lead and findings[0].reason == "newest of 30 near-duplicates"
    dates = [f.entry.date for f in findings if f.entry.date is not None]
    assert len(dates) == 30 and dates == sorted(dates, reverse=True)


def test_candidate_pairs_do_not_depend_on_how_many_are_made_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for offset in range(1, 31):
        write(tmp_path, f"memory/{day(offset)}.md", f"# Notes\n\n## Export\n\n{FACT}\n")
    for relative, text in DISTINCT_NOTES.items():
        write(tmp_path, relative, text)
    engine = Engine(tmp_path, Config(), today=TODAY, days=0)
    engine.load()
    terms, settings = engine.entry_terms(), engine.config.health
    whole = candidate_pairs(terms, settings)
    assert len(whole) > 300  # the 30 copies pair with each other
    for block in (1, 7, 100):
        monkeypatch.setattr(duplicates, "PAIR_BLOCK", block)
        assert candidate_pairs(terms, settings) == whole
    monkeypatch.setattr(duplicates, "KEY32_ENTRIES", 0)  # pair keys as int64, as past 65,536
    assert candidate_pairs(terms, settings) == whole


@pytest.mark.parametrize(
    ("second", "why"),
    [
        ("The export job runs.", "too short to call a duplicate"),
        (
            FACT
            + " "
            + " ".join(f"extra{n} words{n} about{n} other{n} things{n}" for n in range(12)),
            "much longer: it says more",
        ),
    ],
)
def test_short_or_much_longer_entries_are_not_duplicates(
    tmp_path: Path, second: str, why: str
) -> None:
    write(tmp_path, f"memory/{day(5)}.md", f"# Notes\n\n## A\n\n{FACT}\n")
    write(tmp_path, f"memory/{day(1)}.md", f"# Notes\n\n## B\n\n{second}\n")
    assert health(tmp_path).section(Check.DUPLICATES) == (), why


def test_the_similarity_threshold_is_the_configs(tmp_path: Path) -> None:
    write(tmp_path, f"memory/{day(5)}.md", f"# Notes\n\n## A\n\n{FACT}\n")
    reworded = FACT.replace("nightly", "daily").replace("pages Tomás", "emails the on-call")
    write(tmp_path, f"memory/{day(1)}.md", f"# Notes\n\n## B\n\n{reworded}\n")
    strict = Config(health=HealthSettings(duplicate_similarity=99))
    assert health(tmp_path, strict).section(Check.DUPLICATES) == ()
    loose = Config(health=HealthSettings(duplicate_similarity=80))
    assert len(health(tmp_path, loose).section(Check.DUPLICATES)) == 2


# --- superseded ---------------------------------------------------------------------------------


def test_an_older_statement_is_listed_under_the_newest_with_the_gap(tmp_path: Path) -> None:
    write(
        tmp_path,
        f"memory/{day(30)}.md",
        "# Notes\n\n## 10:00 — Staging database host\n\n"
        "Staging Postgres lives on db-staging-2 in Falkenstein; snapshots nightly.\n",
    )
    write(
        tmp_path,
        f"memory/{day(4)}.md",
        "# Notes\n\n## 16:00 — Staging database host\n\n"
        "Moved staging Postgres from db-staging-2 to db-staging-3 in Helsinki; snapshots "
        "hourly now.\n",
    )
    for offset in range(5, 12):  # a folder of ordinary notes, so the title is no template
        write(
            tmp_path,
            f"memory/{day(offset)}.md",
            f"# Notes\n\n## 09:00 — Topic {offset}\n\nSomething else entirely, item {offset}.\n",
        )
    findings = health(tmp_path).section(Check.SUPERSEDED)
    assert [(f.entry.path, f.lead) for f in findings] == [
        (f"memory/{day(4)}.md", True),
        (f"memory/{day(30)}.md", False),
    ]
    older = findings[1]
    assert older.detail("gap_days") == 26
    assert older.reason.startswith(f"restated 26 days later in memory/{day(4)}.md:3")
    assert older.detail("topic") == "staging database host"


@pytest.mark.parametrize(
    ("title", "why"),
    [
        ("Relations", "a template section every note in the folder has"),
        ("Session: {date} 09:30:12 UTC", "a timestamp label, not a topic"),
    ],
)
def test_template_and_timestamp_titles_are_not_topics(tmp_path: Path, title: str, why: str) -> None:
    for offset in (2, 9, 17):
        heading = title.format(date=day(offset))
        write(
            tmp_path,
            f"notes/{day(offset)} - note {offset}.md",
            f"---\ntitle: note {offset}\n---\n\n## {heading}\n\n- relates_to [[Decisions "
            "Index]]\n- part_of [[Memory Index]]\n",
        )
    assert health(tmp_path).section(Check.SUPERSEDED) == (), why


def test_same_title_different_subject_is_not_superseded(tmp_path: Path) -> None:
    write(
        tmp_path,
        "memory-bank/decisionLog.md",
        f"# Decision Log\n\n## Decision Alpha\n_{day(40)}10:00_\n\nUse Alembic for every schema "
        "change in billing-api.\n\n## Decision Alpha\n_{day(3)} 10:00_\n\nFrontend moves to "
        "Next.js app router; pages router frozen.\n".replace("{day(3)}", day(3)),
    )
    assert health(tmp_path).section(Check.SUPERSEDED) == ()


# --- beyond the load line -----------------------------------------------------------------------


def long_memory(sections: int, lines_each: int = 10, width: int = 20) -> str:
    parts = ["# Memory"]
    for number in range(sections):
        body = "\n".join(f"- fact {number}.{line} " + "x" * width for line in range(lines_each - 2))
        parts.append(f"## Section {number}\n\n{body}")
    return "\n".join(parts) + "\n"


def test_claude_code_sees_200_lines_of_memory_md(tmp_path: Path) -> None:
    write(tmp_path, "MEMORY.md", long_memory(25))  # a title line, then 25 sections of 10 lines
    report = health(tmp_path)
    findings = report.section(Check.LOAD_LINE)
    starts = [f.entry.line_start for f in findings]
    assert starts == [start for start in range(2, 252, 10) if start + 9 > 200]
    partly = findings[0]
    assert partly.detail("partly") is True
    assert partly.reason.startswith(f"lines {partly.entry.line_start}–")
    beyond = findings[1]
    assert beyond.reason.startswith(
        f"starts at line {beyond.entry.line_start}, past the load "
        "line: Claude Code stops after line 200 (200 lines / "
        "25,000 bytes)"
    )
    assert report.beyond_load_line() == {f.entry.id for f in findings[1:]}
    [cut] = [cut for cut in report.cuts if cut.agent == "Claude Code"]
    assert (cut.path, cut.last_line, cut.whole_line, cut.file_lines) == (
        "MEMORY.md",
        200,
        True,
        251,
    )


def test_the_byte_limit_can_come_first(tmp_path: Path) -> None:
    write(tmp_path, "MEMORY.md", long_memory(12, width=300))  # ~330 bytes a line
    [cut, *_] = health(tmp_path).cuts
    assert cut.agent == "Claude Code" and cut.last_line < 200 and not cut.whole_line
    lines = (tmp_path / "MEMORY.md").read_text(encoding="utf-8").split("\n")
    before = sum(len(line) + 1 for line in lines[: cut.last_line - 1])
    assert before < 25_000 < before + len(lines[cut.last_line - 1]) + 1


def test_openclaw_bootstrap_files_stop_at_20000_characters(tmp_path: Path) -> None:
    write(tmp_path, "AGENTS.md", long_memory(12, width=250))  # ~270 characters a line
    findings = health(tmp_path).section(Check.LOAD_LINE)
    assert findings and all("OpenClaw stops after line" in f.reason for f in findings)
    assert all("Claude Code" not in f.reason for f in findings)  # AGENTS.md is not its file


def test_load_lines_come_from_the_config(tmp_path: Path) -> None:
    write(tmp_path, "notes/brief.md", long_memory(4))
    rules = (LoadLine(files=("notes/*.md",), agent="My agent", lines=12),)
    report = health(tmp_path, Config(health=HealthSettings(load_lines=rules)))
    assert [f.entry.line_start for f in report.section(Check.LOAD_LINE)] == [12, 22, 32]
    assert report.section(Check.LOAD_LINE)[1].reason == (
        "starts at line 22, past the load line: My agent stops after line 12 (12 lines)"
    )
    assert health(tmp_path).section(Check.LOAD_LINE) == ()  # the defaults do not apply to it


# --- secrets and stale --------------------------------------------------------------------------


def test_secrets_are_counted_per_kind(tmp_path: Path) -> None:
    write(
        tmp_path,
        "MEMORY.md",
        f"# Memory\n\n## CI\n\nToken {GITHUB} and password = hunter22 "
        "and another ghp_" + "Z9y8X7w6V5" * 4 + "\n\n## Clean\n\nNothing to see.\n",
    )
    report = health(tmp_path)
    [finding] = report.section(Check.SECRETS)
    assert finding.entry.title == "CI"
    assert finding.reason == ("masked 3 secrets: 2 × GitHub token, 1 × password/secret/token value")
    assert dict(report.secret_counts) == {"GitHub token": 2, "password/secret/token value": 1}


def test_a_secret_in_a_tag_is_reported_as_the_mask_shows_it(tmp_path: Path) -> None:
    """QA: `list --json` masked a frontmatter tag holding a token, and `health` said "secrets
    — none" (it scanned titles and bodies only)."""
    write(tmp_path, "notes.md", f"---\ntags: [{GITHUB}]\n---\n\n## Deploy notes\nnothing\n")
    [finding] = health(tmp_path).section(Check.SECRETS)
    assert finding.entry.title == "Deploy notes"
    assert finding.reason == "masked 1 secret: 1 × GitHub token"


def failing_child(work: Callable[[], Sequence[bytes]]) -> fork.Child | None:
    """A child that fails before it answers."""

    def fail() -> Sequence[bytes]:
        raise RuntimeError("the child's work failed")

    return fork.start_in_child(fail)


WHERE = ("in a forked child", "here (no fork)", "here after the child failed")
"""Where work that `core.live.fork` may start in a child runs (`run_work`)."""


def run_work(monkeypatch: pytest.MonkeyPatch, module: object, threshold: str, where: str) -> None:
    """Make the work `module` starts in a child run `where` (one of WHERE), however small."""
    monkeypatch.setattr(module, threshold, 0)
    monkeypatch.setattr(module, "can_fork", lambda: where != WHERE[1])
    if where == WHERE[2]:
        monkeypatch.setattr(module, "start_in_child", failing_child)


@pytest.mark.parametrize("scan", WHERE)
def test_the_secrets_scan_finds_the_same_wherever_it_runs(
    scan: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for offset in range(1, 12):
        write(
            tmp_path,
            f"memory/{day(offset)}.md",
            f"# Notes\n\n## CI {offset}\n\nToken {GITHUB} and password = hunter2{offset}\n\n"
            f"## Clean {offset}\n\nNothing to see.\n",
        )
    write(tmp_path, "MEMORY.md", f"# Memory\n\n## Keys\n\napi_key: sk-{'a1B2' * 6}\n")
    expected = health(tmp_path)
    run_work(monkeypatch, secret_scan, "SCAN_CHILD_MIN_ENTRIES", scan)
    scans_here: list[LiveEntries] = []  # a child's appends stay in the child
    scan_entries = secret_scan.masked_entries

    def counted_scan(entries: LiveEntries, known: secret_scan.KnownScans | None = None) -> Masked:
        scans_here.append(entries)
        return scan_entries(entries, known)

    monkeypatch.setattr(check, "masked_entries", counted_scan)
    monkeypatch.setattr(secret_scan, "masked_entries", counted_scan)
    report = health(tmp_path)
    assert bool(scans_here) == (scan != "in a forked child")
    assert report.secret_counts == expected.secret_counts
    assert [(f.entry.id, f.group, f.reason, f.details) for f in report.findings] == [
        (f.entry.id, f.group, f.reason, f.details) for f in expected.findings
    ]
    assert len(report.section(Check.SECRETS)) == 12


def test_an_old_entry_nothing_newer_mentions_is_a_stale_hint(tmp_path: Path) -> None:
    write(
        tmp_path,
        f"memory/{day(200)}.md",
        "# Notes\n\n## 10:00 — Heroku dynos\n\n"
        "Scaled the Heroku dynos for the Zanzibar pilot; Procfile tweaks pending.\n",
    )
    write(
        tmp_path,
        f"memory/{day(150)}.md",
        "# Notes\n\n## 10:00 — Redis\n\n"
        "Redis eviction policy set to allkeys-lru after the memory alarm on cache nodes.\n",
    )
    write(
        tmp_path,
        f"memory/{day(2)}.md",
        "# Notes\n\n## 10:00 — Cache\n\n"
        "Redis memory alarm again; eviction looks right, added two cache nodes.\n",
    )
    for offset in (0, *range(3, 30)):
        write(
            tmp_path,
            f"memory/{day(offset)}.md",
            f"# Notes\n\n## 09:00 — Item {offset}\n\nRoutine work number {offset}.\n",
        )
    findings = health(tmp_path).section(Check.STALE)
    assert [f.entry.path for f in findings] == [f"memory/{day(200)}.md"]
    assert findings[0].reason.startswith("hint: 200 days old, and none of its")
    assert "heroku" in str(findings[0].detail("words"))


def test_the_last_notes_of_an_abandoned_memory_are_not_stale(tmp_path: Path) -> None:
    """Nobody wrote for a year: age counts to the newest note, so only what the memory moved
    on from is a hint (here: nothing, the two notes are a week apart)."""
    write(
        tmp_path,
        f"memory/{day(400)}.md",
        "# Notes\n\n## 10:00 — Heroku dynos\n\n"
        "Scaled the Heroku dynos for the Zanzibar pilot; Procfile tweaks pending.\n",
    )
    write(
        tmp_path,
        f"memory/{day(393)}.md",
        "# Notes\n\n## 10:00 — Lunch\n\n"
        "Team lunch moved to Thursdays at the ramen place near the station.\n",
    )
    assert health(tmp_path).section(Check.STALE) == ()


def test_recent_entries_are_never_stale(tmp_path: Path) -> None:
    write(
        tmp_path,
        f"memory/{day(30)}.md",
        "# Notes\n\n## 10:00 — Heroku\n\n"
        "Scaled the Heroku dynos for the Zanzibar pilot; Procfile tweaks pending.\n",
    )
    assert health(tmp_path).section(Check.STALE) == ()


# --- the demo and the config --------------------------------------------------------------------


def test_the_demo_shows_one_of_each_planted_finding_and_nothing_else() -> None:
    report = health(materialise_demo(TODAY))
    assert found(report, Check.SUPERSEDED) == [
        (f"memory/{day(5)}.md", 11),
        (f"memory/{day(21)}.md", 7),
    ]
    assert found(report, Check.LOAD_LINE) == [("MEMORY.md", 201)]
    assert found(report, Check.SECRETS) == [("MEMORY.md", 60)]
    assert found(report, Check.STALE) == []
    duplicates = found(report, Check.DUPLICATES)
    assert duplicates == [  # the HISTORY.md summaries restate daily notes; the decision log one
        (f"memory/{day(7)}.md", 3),
        ("memory/HISTORY.md", 5),
        (f"memory/{day(11)}.md", 3),
        ("memory/HISTORY.md", 7),
        ("memory-bank/decisionLog.md", 21),
        (f"memory/{day(19)}.md", 3),
    ]


def test_health_thresholds_are_validated() -> None:
    config, warnings = parse_config(
        {
            "health": {
                "stale_days": 30,
                "nope": 1,
                "load_line": [{"files": ["X.md"], "agent": "Mine", "chars": 100}],
            }
        }
    )
    assert config.health.stale_days == 30
    assert config.health.load_lines == (LoadLine(files=("X.md",), agent="Mine", chars=100),)
    assert warnings == ["config: health.nope: unknown key ignored"]
    assert Config().health.load_lines == DEFAULT_LOAD_LINES
    for bad, message in [
        ({"duplicate_similarity": 120}, "health.duplicate_similarity: must be between 50 and 100"),
        ({"stale_days": 1.5}, "health.stale_days: expected a whole number"),
        ({"load_line": [{"files": []}]}, "health.load_line[1].files: expected a list of globs"),
        ({"load_line": [{"files": ["A.md"]}]}, "give at least one of lines, bytes, chars"),
    ]:
        with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
            parse_config({"health": bad})
