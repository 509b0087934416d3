"""The main screen's words, as pure functions: status lines, empty states, banners, notices."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.content import Content
from ui_helpers import build_app, static_text, wait_loaded, wait_until

from memtui.core.live.watch import WatchMode
from memtui.core.model import ChangeSet, RankResult
from memtui.ui import status, widths
from memtui.ui.textual_private import painted_strips

HOSTILE = "[bold red]x[/]\x1b[31m\nline two"


def result(query: str = "deploy", count: int = 0, **changes: object) -> RankResult:
    return RankResult(query=query, hits=(), total_matches=count, elapsed_ms=3.14159, **changes)  # type: ignore[arg-type]


def styles(content: Content) -> set[str]:
    return {str(span.style) for span in content.spans}


def test_title_line_names_the_root_as_plain_text() -> None:
    assert status.title_line("~/work").plain == "memtui · ~/work"
    hostile = status.title_line(HOSTILE).plain
    assert "[bold red]x[/]" in hostile and "\x1b" not in hostile and "\n" not in hostile
    assert len(status.title_line("a" * 500).plain) <= len("memtui · ") + widths.SHORT


LONG_ROOT = "/srv/customer-platform-monorepo/agents/openclaw-workspace-production/memory-root"


@pytest.mark.parametrize("cells", [24, 29, 40, 49, 80])
def test_title_line_fits_its_room_ending_with_the_folder(cells: int) -> None:
    title = status.title_line(LONG_ROOT, cells=cells).plain
    assert len(title) == cells and title.startswith("memtui · /") and "…" in title
    assert title.endswith("/memory-root")  # the folder's whole name, the cut before it


def test_title_line_drops_more_found_before_the_folder() -> None:
    assert "2 more found" in status.title_line("~/work", 2, cells=60).plain
    narrow = status.title_line(LONG_ROOT, 2, cells=40).plain
    assert "more found" not in narrow and narrow.endswith("memory-root")


async def test_a_long_root_stays_on_the_one_line_header(tmp_path: Path) -> None:
    root = tmp_path / "customer-platform-monorepo" / "openclaw-workspace-production" / "mem-root"
    root.mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n## Deploy\n\nDeploy on Fridays.\n")
    for width in (60, 80, 100):
        app = build_app(str(root), "--no-watch")
        async with app.run_test(size=(width, 24)) as pilot:
            await wait_loaded(pilot, app)
            header = painted_strips(app.screen)[0].text
            assert "…" in header and header.rstrip().split("  ")[0].endswith("mem-root"), header
            assert "1 entry" in header or width < 80


def test_app_status_before_the_engine_loaded_is_only_the_watcher() -> None:
    line = status.app_status(
        entries=None, skipped=3, days=30, window_all=False, hidden=9, mode=WatchMode.OFF
    )
    assert line.plain == "off"


def test_app_status_counts_window_hidden_and_skipped() -> None:
    line = status.app_status(
        entries=12_345, skipped=2, days=30, window_all=False, hidden=1_500, mode=WatchMode.WATCHING
    )
    assert line.plain == (
        "12,345 entries · 30 days (+1,500 older hidden · t shows all) · 2 skipped · watching"
    )
    assert {"$text-warning", "$text-success"} <= styles(line)
    one = status.app_status(
        entries=1,
        skipped=0,
        days=30,
        window_all=False,
        hidden=0,
        mode=WatchMode.WATCHING,
        custom_weights=True,
    )
    assert one.plain == "1 entry · 30 days · weights: custom · watching"


def test_app_status_with_every_date_hides_nothing() -> None:
    lifted = status.app_status(
        entries=5, skipped=0, days=30, window_all=True, hidden=7, mode=WatchMode.WATCHING
    )
    assert lifted.plain == "5 entries · all dates · watching"
    missing = status.app_status(
        entries=3, skipped=0, days=30, window_all=False, hidden=0, mode=WatchMode.ROOT_MISSING
    )
    assert missing.plain == "3 entries · 30 days · root missing"  # still shown, dimmed
    assert "bold $text-error" in styles(missing)
    unwindowed = status.app_status(
        entries=2, skipped=0, days=0, window_all=False, hidden=0, mode=WatchMode.POLLING
    )
    assert unwindowed.plain == "2 entries · all dates · polling"


def test_query_status_counts_matches_or_entries() -> None:
    assert (
        status.query_status(result(count=1), deterministic=False, indexing=False).plain
        == "1 match · 3.1 ms"
    )
    assert (
        status.query_status(result(count=1_200), deterministic=True, indexing=False).plain
        == "1,200 matches · — ms"
    )
    assert (
        status.query_status(result("  ", count=1), deterministic=True, indexing=False).plain
        == "1 entry · — ms"
    )
    assert (
        status.query_status(result("", count=40), deterministic=False, indexing=True).plain
        == "40 entries · indexing…"
    )


def test_an_empty_folder_says_where_and_why() -> None:
    text = status.empty_state(
        result(hidden_by_window=4), entries=0, root="/m/root", skipped=2, window_all=False
    ).plain
    assert text.startswith("No memory entries here yet")
    assert "folder  /m/root" in text
    assert "4 daily entries are older than the date window" in text
    assert "2 files were skipped — press ! to see why." in text
    assert "memtui reads MEMORY.md" in text
    bare = status.empty_state(result(), entries=0, root="/r", skipped=0, window_all=False).plain
    assert "older than" not in bare and "skipped" not in bare


def test_no_matches_explains_what_to_try() -> None:
    found = result(
        HOSTILE,
        unmatched_terms=("zebracorn",),
        suggestions=tuple("abcdefg"),
        hidden_by_window=1_234,
        notes=("n1", "n2", "n3", "n4"),
    )
    text = status.empty_state(found, entries=10, root="/r", skipped=0, window_all=False).plain
    first = text.splitlines()[0]
    assert first.startswith("No matches for [bold red]x[/]") and "\x1b" not in first
    assert "nothing contains  zebracorn" in text
    assert "did you mean  a, b, c, d, e\n" in text  # five at most
    assert "1,234 daily entries are outside the date window" in text
    assert "n3" in text and "n4" not in text
    assert text.endswith("source:daily, tag:x, after:2026-11-01 filter.")
    lifted = status.empty_state(found, entries=10, root="/r", skipped=0, window_all=True).plain
    assert "outside the date window" not in lifted


def test_unknown_entry_count_means_no_matches_not_an_empty_folder() -> None:
    text = status.empty_state(result(), entries=None, root="/r", skipped=0, window_all=False).plain
    assert text.startswith("No matches for deploy")


def test_banners_and_missing_root_are_flat_and_capped() -> None:
    message = status.root_missing(HOSTILE + "y" * 1000)
    assert message.startswith("The memory folder [bold red]x[/]")
    assert message.endswith("as last read until it comes back…")
    shown = status.banner(message + "\n" * 3 + "z" * 1000).plain
    assert "\n" not in shown and len(shown) <= widths.NOTICE


def test_change_notice_names_at_most_three_files() -> None:
    per_path = tuple((f"memory/{n}.md", 1, 0, 0) for n in range(5))
    notice = status.change_notice(ChangeSet(per_path=per_path))
    assert notice is not None
    assert notice.splitlines() == [
        "memory/0.md: 1 entry added",
        "memory/1.md: 1 entry added",
        "memory/2.md: 1 entry added",
        "and 2 more files",
    ]
    assert status.change_notice(ChangeSet(per_path=(("a.md", 0, 0, 0),))) is None


def test_the_session_cost_is_an_estimate_and_comes_last() -> None:
    line = status.app_status(
        entries=3,
        skipped=0,
        days=30,
        window_all=False,
        hidden=0,
        mode=WatchMode.WATCHING,
        session_chars=12_400,
    ).plain
    assert line.endswith("watching · loads ≈3.1k tokens/session")


async def test_the_session_cost_follows_the_files(tmp_path: Path) -> None:
    """The header's session cost is counted again when a file loaded at start changes."""
    memory = tmp_path / "MEMORY.md"
    memory.write_text("## Index\n" + "x" * 400 + "\n")
    app = build_app(str(tmp_path), deterministic=False)
    async with app.run_test(size=(160, 30)) as pilot:
        await wait_loaded(pilot, app)
        assert "loads ≈102 tokens/session" in static_text(app, "#app-status")
        counted = False
        for extra in range(3):  # a write before the native watcher is armed goes unseen (CI)
            memory.write_text("## Index\n" + "x" * (4000 + extra) + "\n")
            with contextlib.suppress(AssertionError):
                await wait_until(
                    pilot,
                    lambda: "loads ≈1.0k tokens/session" in static_text(app, "#app-status"),
                    steps=400,
                )
                counted = True
                break
        assert counted


def test_the_query_status_gives_way_in_its_stated_order() -> None:
    browsing = result("", 103, browse=True, hidden_by_window=11)

    def shown(cells: int | None) -> str:
        return status.query_status(browsing, deterministic=False, indexing=False, cells=cells).plain

    assert shown(None) == "103 entries · newest first · 3.1 ms · +11 older hidden (t)"
    for line in (
        "103 entries · newest first · +11 older hidden (t)",  # the time goes first
        "103 entries · newest first · +11 older (t)",  # then the hint's long form
        "103 entries · newest first",  # then the hint
        "103 entries",  # the count always stays
    ):
        assert shown(len(line)) == line


def test_the_header_keeps_the_window_hint_longest() -> None:
    def shown(cells: int | None) -> str:
        return status.app_status(
            entries=103,
            skipped=0,
            days=30,
            window_all=False,
            hidden=11,
            mode=WatchMode.WATCHING,
            session_chars=9_600,
            cells=cells,
        ).plain

    assert shown(None).endswith("· watching · loads ≈2.4k tokens/session")
    for line in (  # each the widest the next one down does not fit in
        "103 entries · 30 days (+11 older hidden · t shows all) · watching",
        "103 entries · 30 days (+11 older · t) · watching",
        "103 entries · 30 days (+11 older · t)",
        "30 days (+11 older · t)",
    ):
        assert shown(len(line)) == line


def test_a_watcher_in_trouble_is_never_dropped() -> None:
    line = status.app_status(
        entries=103,
        skipped=2,
        days=30,
        window_all=False,
        hidden=0,
        mode=WatchMode.ROOT_MISSING,
        cells=20,
    )
    assert line.plain.endswith("root missing")


@settings(max_examples=200, deadline=None)
@given(
    cells=st.integers(min_value=1, max_value=200),
    hidden=st.integers(min_value=0, max_value=50_000),
    skipped=st.integers(min_value=0, max_value=3),
    marked=st.integers(min_value=0, max_value=3),
    query=st.sampled_from(["", "deploy"]),
)
def test_no_status_line_starts_or_ends_with_a_separator(
    cells: int, hidden: int, skipped: int, marked: int, query: str
) -> None:
    query_line = status.query_status(
        result(query, 103, browse=not query, hidden_by_window=hidden),
        deterministic=False,
        indexing=False,
        cells=cells,
    ).plain
    header = status.app_status(
        entries=103,
        skipped=skipped,
        days=30,
        window_all=False,
        hidden=hidden,
        mode=WatchMode.WATCHING,
        marked=marked,
        custom_weights=True,
        polled=1,
        session_chars=5000,
        cells=cells,
    ).plain
    for line in (query_line, header):
        assert not line.rstrip().endswith("·") and not line.lstrip().startswith("·")
        assert "·  ·" not in line and " · · " not in line
