"""Parsing every layout docs/ranking.md lists into entries: titles, line ranges, dates, sources."""

from __future__ import annotations

import datetime as dt

import layouts
import pytest

from memtui.core.model import DateOrigin, Entry, Source
from memtui.core.reading.file_kind import classify
from memtui.core.reading.frontmatter import MAX_FRONTMATTER_BYTES, nesting_depth, read_frontmatter
from memtui.core.reading.parse import LARGE_SECTION_LINES, MAX_SECTIONS, entry_id, parse_file
from memtui.core.reading.structure import MAX_HEADING_CHARS
from memtui.core.reading.text import decode

Row = tuple[str, int, int, str | None]
"""(title, line_start, line_end, ISO date-time or None)"""


def rows(entries: list[Entry]) -> list[Row]:
    def iso(entry: Entry) -> str | None:
        return entry.when.isoformat(timespec="minutes") if entry.when else None

    return [(e.title, e.line_start, e.line_end, iso(e)) for e in entries]


def parse(path: str, text: str) -> list[Entry]:
    decoded = decode(text.encode("utf-8"))
    return parse_file(path, decoded.text, warnings=decoded.warnings)


CASES: list[tuple[str, str, Source, list[Row]]] = [
    (
        "MEMORY.md",
        layouts.OPENCLAW_MEMORY,
        Source.LONG_TERM,
        [
            ("MEMORY.md - Long-Term Memory", 1, 3, None),
            ("Preferences 🧭", 5, 7, None),
            ("Deploy checklist", 9, 17, None),
            ("Recent Fixes (2026-03-18) — Fixed the flaky login test.", 19, 21, "2026-03-18T00:00"),
            ("Recent Fixes (2026-03-18) — Fixed the flaky login test.", 23, 27, "2026-03-18T00:00"),
            ("Impossible 2026-02-30 date", 29, 31, None),
        ],
    ),
    (
        "memory/2026-11-20.md",
        layouts.OPENCLAW_DAILY,
        Source.DAILY,
        [
            ("09:14 — Deploy", 3, 5, "2026-11-20T09:14"),
            ("Customer call (20:28 UTC)", 7, 9, "2026-11-20T20:28"),
        ],
    ),
    (
        "memory/2026-11-19-1425.md",
        layouts.OPENCLAW_SESSION,
        Source.DAILY,
        [("Session: 2026-11-19 14:25:58 UTC", 1, 4, "2026-11-19T14:25")],
    ),
    (
        "memory/2026-11-18-plan-review.md",
        layouts.OPENCLAW_SESSION_TRANSCRIPT,
        Source.DAILY,
        [
            ("Conversation Summary", 3, 6, "2026-11-18T08:23"),
            ("Pasted plan", 8, 8, "2026-11-18T08:23"),
            ("Step one", 10, 12, "2026-11-18T08:23"),
            ("Step two", 14, 16, "2026-11-18T08:23"),
        ],
    ),
    (
        "memory/2026-11-21.md",
        layouts.MINICLAW_DAILY,
        Source.DAILY,
        [("09:14:00 UTC", 3, 5, "2026-11-21T09:14"), ("13:02:00 UTC", 9, 11, "2026-11-21T13:02")],
    ),
    (
        "memory/2026-11-17.md",
        layouts.BLOCKS_DAILY,
        Source.DAILY,
        [
            ("Deployed the billing hotfix.", 1, 1, "2026-11-17T00:00"),
            ("Maya prefers short answers.", 5, 5, "2026-11-17T00:00"),
        ],
    ),
    (
        "build.md",
        layouts.MUXCODE_ROLE,
        Source.NOTE,
        [("Cache the wheels", 3, 7, "2026-11-02T14:30"), ("Pin the runner image", 9, 11, None)],
    ),
    (
        "memory-bank/decisionLog.md",
        layouts.ROO_DECISION_LOG,
        Source.NOTE,
        [
            ("Decision Log", 1, 4, None),
            ("Decision — Use Postgres.", 6, 12, "2025-04-01T17:54"),
            ("Decision — Use Redis for queues.", 16, 22, "2025-04-02T09:00"),
        ],
    ),
    (
        "memory-bank/activeContext.md",
        layouts.CLINE_ACTIVE_CONTEXT,
        Source.NOTE,
        [("Current Focus", 3, 5, None), ("Next Steps", 7, 8, None)],
    ),
    (
        "memory-bank/journal/2026_11_16_xml_namespace_fix.md",
        layouts.MEMORY_BANK_JOURNAL,
        Source.DAILY,
        [("Problem", 3, 11, "2026-11-16T00:00"), ("Solution", 13, 15, "2026-11-16T00:00")],
    ),
    (
        ".claude/memory/MEMORY.md",
        layouts.CLAUDE_INDEX,
        Source.LONG_TERM,
        [("Memory Index", 1, 4, None)],
    ),
    (
        ".claude/memory/socket_permissions.md",
        layouts.CLAUDE_TOPIC,
        Source.NOTE,
        [("socket_permissions", 8, 13, None)],
    ),
    (
        ".claude/memory/feedback_no_hanja.md",
        layouts.CLAUDE_TOPIC_KOREAN,
        Source.NOTE,
        [("한자 사용 금지", 6, 6, None)],
    ),
    (
        "moltbot/MEMORY.md",
        layouts.FRONTMATTER_MEMORY,
        Source.LONG_TERM,
        [("MEMORY.md - Long-Term Memory", 4, 6, None), ("About This Deployment", 8, 14, None)],
    ),
    (
        "nanobot/memory/HISTORY.md",
        layouts.NANOBOT_HISTORY,
        Source.DAILY,
        [
            ("Installed two skills: vetter and improver.", 1, 1, "2026-11-08T21:01"),
            ("Analysed the ETF skills.", 3, 4, "2026-11-09T00:00"),
            ("Date-only entry.", 6, 7, "2026-11-09T00:00"),
            (
                "Out of order entry. [2026-11-07 13:55] second entry on the same line.",
                8,
                8,
                "2026-11-07T13:51",
            ),
            ("用户确认持仓明细。", 10, 10, "2026-11-10T09:00"),
        ],
    ),
    (
        "picoclaw/202611/20261119.md",
        layouts.PICOCLAW_DAILY,
        Source.DAILY,
        [("08:00", 1, 3, "2026-11-19T08:00")],
    ),
    (
        "memory/2026-11-15.md",
        layouts.CHINESE_DAILY,
        Source.DAILY,
        [
            ("[部署] 数据库刷新", 3, 5, "2026-11-15T09:23"),
            ("【Session 压缩 · 摘要】", 7, 9, "2026-11-15T15:19"),
        ],
    ),
    (
        "memory/2026-11-14.md",
        layouts.JAPANESE_DAILY,
        Source.DAILY,
        [
            ("tmuxセッション作成 (20:28 UTC)", 3, 5, "2026-11-14T20:28"),
            ("Рабочие заметки 📝", 7, 9, "2026-11-14T00:00"),
        ],
    ),
    (
        "basic-memory/2026-04-17 - store durable decisions.md",
        layouts.BASIC_MEMORY_NOTE,
        Source.NOTE,
        [("Decision", 11, 13, "2026-04-17T00:00"), ("Why", 15, 17, "2026-04-17T00:00")],
    ),
    (
        "memory/projects/billing-api.md",
        layouts.TOPIC_WITH_FRONTMATTER_DATE,
        Source.NOTE,
        [("Runbook", 7, 9, "2026-10-01T00:00")],
    ),
    (
        "notes/loose.md",
        layouts.NO_HEADINGS_NOTE,
        Source.NOTE,
        [("Just a loose note without headings.", 1, 2, None)],
    ),
]


@pytest.mark.parametrize(("path", "text", "source", "expected"), CASES, ids=[c[0] for c in CASES])
def test_layout(path: str, text: str, source: Source, expected: list[Row]) -> None:
    entries = parse(path, text)
    assert rows(entries) == expected
    assert {e.source for e in entries} == {source}
    total = len(entries)
    assert [(e.position, e.count) for e in entries] == [(i, total) for i in range(total)]
    assert len({e.id for e in entries}) == len(entries)


@pytest.mark.parametrize(
    ("path", "source", "role", "date"),
    [
        ("MEMORY.md", Source.LONG_TERM, None, None),
        ("memory/memory.md", Source.LONG_TERM, None, None),
        ("memory/2026-11-20.md", Source.DAILY, None, dt.date(2026, 11, 20)),
        ("memory/2026-11-20-slug.md", Source.DAILY, None, dt.date(2026, 11, 20)),
        ("journal/2025_10_03_slug.md", Source.DAILY, None, dt.date(2025, 10, 3)),
        ("memory/2026-11-20-stand up.md", Source.DAILY, None, dt.date(2026, 11, 20)),
        ("memory/2026-11-20-café.md", Source.DAILY, None, dt.date(2026, 11, 20)),
        ("memory/2026-11-20-caf\udce9.md", Source.DAILY, None, dt.date(2026, 11, 20)),
        ("memory/2026-11-20_(call).md", Source.DAILY, None, dt.date(2026, 11, 20)),
        ("202611/20261119.md", Source.DAILY, None, dt.date(2026, 11, 19)),
        ("memory/2026-02-30.md", Source.DAILY, None, None),
        ("memory/HISTORY.md", Source.DAILY, None, None),
        ("shared.md", Source.NOTE, "shared", None),
        ("memory-bank/activeContext.markdown", Source.NOTE, "activeContext", None),
        ("n/2026-04-17 - a title.md", Source.NOTE, "2026-04-17 - a title", dt.date(2026, 4, 17)),
    ],
)
def test_classify(path: str, source: Source, role: str | None, date: dt.date | None) -> None:
    kind = classify(path)
    assert (kind.source, kind.role, kind.date) == (source, role, date)


def test_session_file_time_comes_from_its_name() -> None:
    assert classify("memory/2026-04-10-1425.md").time == dt.time(14, 25)
    assert classify("memory/2026-04-10-9999.md").time is None


def test_heading_path_keeps_the_chain() -> None:
    text = "# Title\n\n## Parent\n\n### Child\n\nbody\n\n## Next\n"
    entries = parse("notes.md", text)
    assert [e.heading_path for e in entries] == [("Title", "Parent"), ("Title", "Next")]
    assert "### Child" in entries[0].body


def test_nested_headings_stay_inside_their_section() -> None:
    text = "## A\n\n### a1\n\nx\n\n### a2\n\ny\n\n## B\n"
    assert [e.title for e in parse("n.md", text)] == ["A", "B"]


def test_mid_file_h1_starts_an_entry_without_swallowing_h2s() -> None:
    text = "# Title\n\n## One\n\n# Pasted\n\n## Two\n"
    entries = parse("n.md", text)
    assert [(e.title, e.heading_path) for e in entries] == [
        ("One", ("Title", "One")),
        ("Pasted", ("Pasted",)),
        ("Two", ("Pasted", "Two")),
    ]


def test_several_h1s_without_subheadings_split_on_h1() -> None:
    entries = parse("n.md", "# A\n\nx\n\n# B\n\ny\n")
    assert [(e.title, e.line_start, e.line_end) for e in entries] == [("A", 1, 3), ("B", 5, 7)]


def test_preamble_without_title_becomes_an_entry() -> None:
    entries = parse("n.md", "Intro text.\n\n## A\n\nbody\n")
    assert [(e.title, e.line_start, e.line_end) for e in entries] == [
        ("Intro text.", 1, 1),
        ("A", 3, 5),
    ]


@pytest.mark.parametrize(
    "fence",
    [
        "```\n## not\n```\n",
        "~~~~\n## not\n~~~~\n",
        "````md\n```\n## not\n````\n",
        "  ```\n# no\n  ```\n",
    ],
)
def test_headings_inside_fences_are_ignored(fence: str) -> None:
    entries = parse("n.md", f"## Real\n\n{fence}\n## Also real\n")
    assert [e.title for e in entries] == ["Real", "Also real"]


def test_unclosed_fence_hides_the_rest() -> None:
    entries = parse("n.md", "## Real\n\n```\n## hidden\n")
    assert [(e.title, e.line_end) for e in entries] == [("Real", 4)]


@pytest.mark.parametrize("line", ["\\## escaped", "#hashtag", "    ## indented code", "#\tTabbed"])
def test_what_is_and_is_not_a_heading(line: str) -> None:
    titles = [e.title for e in parse("n.md", f"## First\n\n{line}\n")]
    assert titles == (["First", "Tabbed"] if line.startswith("#\t") else ["First"])


def test_trailing_hashes_and_spaces_are_trimmed() -> None:
    assert parse("n.md", "## Title ##   \n\nx\n")[0].title == "Title"
    assert parse("n.md", "## C# \n\nx\n")[0].title == "C#"


def test_empty_heading_gets_a_placeholder_title() -> None:
    assert parse("n.md", "##\n\nx\n")[0].title == "(untitled)"


def test_long_headings_are_capped() -> None:
    title = parse("n.md", "## " + "x" * 5000 + "\n\nbody\n")[0].title
    assert len(title) == MAX_HEADING_CHARS
    assert title.endswith("…")


def test_sections_beyond_the_cap_are_folded_with_a_warning() -> None:
    text = "".join(f"## S{i}\n" for i in range(MAX_SECTIONS + 10))
    entries = parse("n.md", text)
    assert len(entries) == MAX_SECTIONS
    last = entries[-1]
    assert last.line_end == MAX_SECTIONS + 10
    assert any("10 more sections folded" in w for w in last.warnings)


def test_huge_section_is_split_at_its_subheadings() -> None:
    filler = "line\n" * (LARGE_SECTION_LINES + 10)
    text = f"## Log\n\nintro\n\n### One\n{filler}\n### Two\n{filler}"
    entries = parse("n.md", text)
    assert [e.heading_path for e in entries] == [("Log",), ("Log", "One"), ("Log", "Two")]
    assert entries[0].line_end == 3


def test_daily_time_only_headings_take_the_file_day() -> None:
    entries = parse("2026-11-20.md", "## 2026-11-02 recap\n\nx\n")
    assert entries[0].date == dt.date(2026, 11, 20)
    assert entries[0].date_origin is DateOrigin.FILENAME


def test_long_term_dates_come_from_heading_then_timestamp_line() -> None:
    text = "## Fix 2026-11-02 09:30\n\nx\n\n## Plain\n\n_2026-10-01 14:30_\n\n## None\n\nx\n"
    entries = parse("MEMORY.md", text)
    assert [(e.when, e.date_origin) for e in entries] == [
        (dt.datetime(2026, 11, 2, 9, 30), DateOrigin.HEADING),
        (dt.datetime(2026, 10, 1, 14, 30), DateOrigin.TIMESTAMP_LINE),
        (None, DateOrigin.NONE),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "## 2026-02-30 bad\n",
        "## 2026-13-01\n",
        "_2026-02-30 25:99_\n\n## x\n",
        "[2026-02-30 10:00] h\n",
    ],
)
def test_impossible_dates_are_undated_not_fatal(text: str) -> None:
    for entry in parse("notes.md", text) + parse("HISTORY.md", text):
        assert entry.date is None or entry.date.year == 2026


def test_entries_carry_file_warnings_and_frontmatter() -> None:
    entries = parse_file(
        "memory/projects/billing-api.md",
        layouts.TOPIC_WITH_FRONTMATTER_DATE,
        warnings=("invalid UTF-8: 1 byte replaced",),
    )
    assert entries[0].warnings == ("invalid UTF-8: 1 byte replaced",)
    assert entries[0].tags == ("billing", "postgres")
    assert entries[0].meta("title") == "Billing API"


def test_display_text_is_sanitised_but_lines_are_kept() -> None:
    text = "## Evil \x1b]52;c;SGVsbG8=\x07 title\n\nbody \x1b[31mred\u202e\nline2\n"
    entry = parse("n.md", text)[0]
    assert "\x1b" not in entry.title + entry.body
    assert "␛" in entry.title
    assert "<U+202E>" in entry.body
    assert (entry.line_start, entry.line_end) == (1, 4)


def test_ids_are_stable_and_distinguish_duplicates() -> None:
    first = parse("MEMORY.md", layouts.OPENCLAW_MEMORY)
    again = parse("MEMORY.md", layouts.OPENCLAW_MEMORY)
    assert [e.id for e in first] == [e.id for e in again]
    path = ("MEMORY.md - Long-Term Memory", "Recent Fixes (2026-03-18)")
    assert first[3].id == entry_id("MEMORY.md", path, 0)
    assert first[4].id == entry_id("MEMORY.md", path, 1)


def test_empty_and_blank_files_have_no_entries() -> None:
    assert parse("n.md", "") == []
    assert parse("n.md", "\n\n   \n") == []


# --- frontmatter -------------------------------------------------------------------------------


def fm(body: str) -> list[str]:
    return f"---\n{body}\n---\n\n# T\n\nbody\n".split("\n")


def test_frontmatter_fields_tags_and_non_string_keys() -> None:
    result = read_frontmatter(fm("name: x\n1: one\ntags: [a, '#b']\nnested: {k: [1, 2]}"))
    assert result.fields == (("name", "x"), ("1", "one"), ("tags", "a, #b"), ("nested", "k: 1, 2"))
    assert result.tags == ("a", "b")
    assert result.warnings == ()


def test_frontmatter_dates_stay_strings() -> None:
    assert read_frontmatter(fm("date: 2026-02-30")).get("date") == "2026-02-30"
    entries = parse("n.md", "---\ndate: 2026-02-30\n---\n\nbody\n")
    assert entries[0].date is None


@pytest.mark.parametrize(
    ("block", "reason"),
    [
        ("a: &x [1]\nb: *x", "anchors and aliases"),
        ("key: " + "[" * 30 + "]" * 30, "nested deeper"),
        ("key:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 40)), "nested deeper"),
        ("key: " + "x" * (MAX_FRONTMATTER_BYTES + 10), "larger than"),
        ("key: [unclosed", "frontmatter ignored"),
    ],
)
def test_bad_frontmatter_keeps_the_body_and_warns(block: str, reason: str) -> None:
    text = f"---\n{block}\n---\n\nThe body survives.\n"
    entries = parse("n.md", text)
    assert [e.body for e in entries] == ["The body survives."]
    assert any(reason in w for w in entries[0].warnings)
    assert entries[0].metadata == ()


def test_deeply_nested_frontmatter_never_reaches_yaml() -> None:
    block = "k: " + "[" * 30000
    entries = parse("n.md", f"---\n{block}\n---\n\nbody\n")
    assert any("nested deeper" in w for w in entries[0].warnings)
    assert nesting_depth(block) == 30000


def test_leading_rule_that_is_not_yaml_is_content() -> None:
    entries = parse("2026-11-20.md", "---\n## 09:00\nbody\n---\n")
    assert [(e.title, e.line_start) for e in entries] == [("09:00", 2)]
    assert entries[0].warnings == ()


def test_cycles_need_a_recurring_lead_and_companions() -> None:
    unique = "## Decision\n\na\n\n## Why\n\nb\n\n## Links\n\nc\n\n## Notes\n\nd\n"
    assert [e.title for e in parse("n.md", unique)] == ["Decision", "Why", "Links", "Notes"]
    cycles = "## Решение\n\nА\n\n## Обоснование\n\nБ\n\n## Решение\n\nВ\n\n## Обоснование\n"
    entries = parse("decisionLog.md", cycles)
    assert [(e.title, e.line_start, e.line_end) for e in entries] == [
        ("Решение — А", 1, 7),
        ("Решение — В", 9, 13),
    ]
    assert entries[0].id != entries[1].id


def test_last_heading_of_a_transcript_keeps_every_line() -> None:
    turns = "".join(f"user: question {i}\nassistant: answer {i}\n" for i in range(300))
    entries = parse("memory/2026-11-18-chat.md", f"## Summary\n\nshort\n\n## Transcript\n{turns}")
    assert [(e.title, e.line_start, e.line_end) for e in entries] == [
        ("Summary", 1, 3),
        ("Transcript", 5, 605),
    ]


def test_heading_less_log_opening_with_brackets_splits_anywhere() -> None:
    entries = parse("notes/ops-log.md", "[2026-11-01 10:00] one\n[2026-11-02] two\n")
    assert [(e.title, e.date, e.date_origin) for e in entries] == [
        ("one", dt.date(2026, 11, 1), DateOrigin.BRACKET),
        ("two", dt.date(2026, 11, 2), DateOrigin.BRACKET),
    ]


@pytest.mark.parametrize(
    "name", ["memory/2026-02-30.md", "9999-99-99.md", "0000-00-00.md", "2026-13-01-standup.md"]
)
def test_an_impossible_date_in_the_file_name_is_a_warning(name: str) -> None:
    entries = parse_file(name, "## Note\nbody\n")
    assert entries and all(entry.date is None for entry in entries)
    assert all(any("not a real day" in w for w in entry.warnings) for entry in entries)


def test_a_real_date_in_the_file_name_warns_nothing() -> None:
    (entry,) = parse_file("memory/2026-02-28.md", "## Note\nbody\n")
    assert entry.date is not None and entry.warnings == ()


TABLE = "| Claim | Verdict |\n|---|:---:|\n| fast | yes |\n"


@pytest.mark.parametrize(
    ("before", "title"),
    [
        (TABLE, "Prose after the table"),
        ("| | |\n|---|---|\n| **a** | b |\n", "Prose after the table"),
        ("Claim | Verdict\n--- | ---\nfast | yes\n", "Prose after the table"),
        ("---\n\n* * *\n", "Prose after the table"),
        ("```sh\nmake deploy\n```\n", "Prose after the table"),
        ("", "Prose after the table"),
    ],
)
def test_a_derived_title_is_never_a_table_row_a_rule_or_code(before: str, title: str) -> None:
    entries = parse("2026-11-20.md", f"{before}\nProse after the table.\n")
    assert entries[0].title == title + "."


def test_duplicate_headings_are_told_apart_by_prose_not_by_a_table() -> None:
    text = f"## Verdict\n\n{TABLE}\n**SEALED** — patch first.\n\n## Verdict\n\n{TABLE}\nLater.\n"
    assert [e.title for e in parse("n.md", text)] == [
        "Verdict — SEALED — patch first.",
        "Verdict — Later.",
    ]


@pytest.mark.parametrize(
    ("line", "title"),
    [
        (
            "**Bold** start, then *italic* and _under_ words",
            "Bold start, then italic and under words",
        ),
        ("- [x] `__init__` and `snake_case` stay", "[x] `__init__` and `snake_case` stay"),
        ("> quoted **fact**", "quoted fact"),
        ("1. my_var_name is not emphasis", "my_var_name is not emphasis"),
        ("`code` first", "`code` first"),
        ("-5 degrees outside", "-5 degrees outside"),
    ],
)
def test_derived_titles_drop_markers_but_keep_code_and_words(line: str, title: str) -> None:
    assert parse("2026-11-20.md", f"{line}\n\nmore\n")[0].title == title
