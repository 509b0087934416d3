"""The bundled demo: dated relative to today, written to a cache (never the package), realistic."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import memtui.demo
from memtui.core.live.store import Store
from memtui.core.model import Source
from memtui.demo import fill_dates, materialise_demo

TODAY = dt.date(2026, 11, 21)


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return materialise_demo(TODAY)


@pytest.fixture
def store(demo: Path) -> Store:
    loaded = Store(demo, days=30, today=TODAY)
    loaded.load()
    return loaded


def test_fill_dates() -> None:
    assert fill_dates("{{D-0}} {{D-3}} {{D+12}}", TODAY) == "2026-11-21 2026-11-18 2026-12-03"


def test_written_to_the_cache_not_the_package(demo: Path, tmp_path: Path) -> None:
    assert demo.is_relative_to(tmp_path / "cache")
    assert not demo.is_relative_to(Path(memtui.demo.__file__).parent)
    assert not list(demo.rglob("*{{*"))
    assert "{{" not in "".join(p.read_text() for p in demo.rglob("*.md"))


def test_idempotent_per_day(demo: Path) -> None:
    marker = demo / "MEMORY.md"
    before = marker.stat().st_mtime_ns
    assert materialise_demo(TODAY) == demo
    assert marker.stat().st_mtime_ns == before
    assert materialise_demo(TODAY + dt.timedelta(days=1)) != demo


def test_dates_end_today_and_the_window_hides_the_oldest(store: Store, demo: Path) -> None:
    assert (demo / "memory" / f"{TODAY.isoformat()}.md").is_file()
    dates = [entry.date for entry in store.entries.values() if entry.source is Source.DAILY]
    assert max(d for d in dates if d) == TODAY
    assert store.hidden_by_window > 5
    assert 60 <= len(store.entries) <= 150
    assert store.skipped == ()


def test_has_every_kind_of_file(store: Store) -> None:
    sources = {entry.source for entry in store.entries.values()}
    assert sources == {Source.LONG_TERM, Source.DAILY, Source.NOTE}
    assert len(store.entries_in("MEMORY.md")) >= 18
    roles = {entry.role for entry in store.entries.values() if entry.role}
    assert {"billing-api", "shared", "decisionLog", "activeContext"} <= roles
    assert store.entries_in("memory/HISTORY.md")
    assert any("billing" in entry.tags for entry in store.entries.values())


@pytest.mark.parametrize("word", ["deploy", "postgres", "rotat", "flaky", "invoice"])
def test_search_demos_have_material(store: Store, word: str) -> None:
    hits = [e for e in store.entries.values() if word in (e.title + " " + e.body).lower()]
    assert len(hits) >= 4, word


def test_shows_masking_and_cjk(store: Store) -> None:
    text = "\n".join(entry.body for entry in store.entries.values())
    assert "ghp_FAKE" in text
    assert any("\u4e00" <= char <= "\u9fff" for char in text)
    assert any("\u3040" <= char <= "\u30ff" for char in text)
