"""The date window's boundary: a daily note dated exactly `today - days` is inside it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from memtui.cli import main
from memtui.core.live.store import Store

TODAY = dt.date(2026, 11, 21)


def write_history(root: Path, *days: dt.date) -> None:
    lines = [f"[{day.isoformat()} 09:00] history line from {day.isoformat()}\n\n" for day in days]
    (root / "HISTORY.md").write_text("".join(lines))


@pytest.mark.parametrize("days", [1, 7, 30])
def test_a_note_dated_exactly_at_the_edge_is_loaded(tmp_path: Path, days: int) -> None:
    edge = TODAY - dt.timedelta(days=days)
    outside = edge - dt.timedelta(days=1)
    memory = tmp_path / "memory"
    memory.mkdir()
    for day in (edge, outside):
        (memory / f"{day.isoformat()}.md").write_text(f"## Note\nwritten on {day}\n")
    write_history(tmp_path, edge, outside)
    store = Store(tmp_path, days=days, today=TODAY)
    store.load()
    loaded = sorted((entry.path, entry.date) for entry in store.entries.values())
    assert loaded == [("HISTORY.md", edge), (f"memory/{edge.isoformat()}.md", edge)]
    assert store.hidden_by_window == 2


def test_a_note_arriving_at_the_edge_is_loaded(tmp_path: Path) -> None:
    """The change path applies the same boundary as a fresh load."""
    store = Store(tmp_path, days=30, today=TODAY)
    store.load()
    edge = tmp_path / f"{(TODAY - dt.timedelta(days=30)).isoformat()}.md"
    outside = tmp_path / f"{(TODAY - dt.timedelta(days=31)).isoformat()}.md"
    edge.write_text("## Edge\ninside\n")
    outside.write_text("## Outside\nhidden\n")
    store.apply_changes([edge, outside])
    assert [entry.path for entry in store.entries.values()] == [edge.name]
    assert store.hidden_by_window == 1


def test_zero_days_loads_every_date(tmp_path: Path) -> None:
    (tmp_path / "2001-01-01.md").write_text("## Old\nvery old\n")
    store = Store(tmp_path, days=0, today=TODAY)
    store.load()
    assert len(store.entries) == 1
    assert store.hidden_by_window == 0


def test_a_narrowed_window_hides_a_read_note_whole_like_an_unread_one(tmp_path: Path) -> None:
    """A daily note already read (a wider window, or the cache) and then outside the window is
    hidden whole, as when it was never read, even if its entries carry other dates."""
    (tmp_path / "2025-01-05.md").write_text("[2026-11-20 10:00] deploy\n\n## Later\nmore\n")
    narrowed = Store(tmp_path, days=0, today=TODAY)
    narrowed.load()
    narrowed.set_window(30)
    never_read = Store(tmp_path, days=30, today=TODAY)
    never_read.load()
    assert narrowed.hidden_by_window == never_read.hidden_by_window == 2


@pytest.mark.parametrize(
    ("days", "today"),
    [(100_000_000, TODAY), (10**15, TODAY), (5, dt.date(1, 1, 2)), (1, dt.date.min)],
    ids=["days-past-year-1", "days-past-timedelta", "today-in-year-1", "today-first-day"],
)
def test_a_window_reaching_before_year_1_holds_every_note(
    tmp_path: Path, days: int, today: dt.date
) -> None:
    (tmp_path / "0001-01-01.md").write_text("## First\nthe first day\n")
    (tmp_path / "2001-01-01.md").write_text("## Old\nvery old\n")
    store = Store(tmp_path, days=days, today=today)
    store.load()
    assert len(store.entries) == 2 and store.hidden_by_window == 0


@pytest.mark.parametrize("command", ["rank", "list", "health"])
@pytest.mark.parametrize("window", [("--days", "99999999999"), ("--today", "0001-01-02")])
def test_commands_take_a_window_reaching_before_year_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, window: tuple[str, str]
) -> None:
    (tmp_path / "2001-01-01.md").write_text("## Old\ndeploy notes\n")
    query = ["-q", "deploy"] if command == "rank" else []
    code = main([command, *query, str(tmp_path), *window])
    captured = capsys.readouterr()
    assert code == 0 and "Traceback" not in captured.err
    assert ("· 1 entry ·" if command == "health" else "2001-01-01.md") in captured.out
