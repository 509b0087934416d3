"""How every entry point finds its root, settings, window and today (`memtui.startup`)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from memtui.core.settings.config import Config
from memtui.discovery import searched_places
from memtui.errors import UsageError
from memtui.startup import load_startup, resolve_root

TODAY = dt.date(2026, 11, 21)


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cwd and home with nothing in them, and no MEMTUI_DIR."""
    home = tmp_path / "home"
    work = tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("MEMTUI_DIR", raising=False)
    monkeypatch.chdir(work)
    return tmp_path


def test_root_default_order(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_root(None) is None
    nanobot = isolated / "home/.nanobot/workspace"
    nanobot.mkdir(parents=True)
    assert resolve_root(None) == nanobot
    openclaw = isolated / "home/.openclaw/workspace"
    openclaw.mkdir(parents=True)
    assert resolve_root(None) == openclaw
    env = isolated / "env"
    env.mkdir()
    monkeypatch.setenv("MEMTUI_DIR", str(env))
    assert resolve_root(None) == env
    (isolated / "work/memory").mkdir()
    assert resolve_root(None) == isolated / "work"
    explicit = isolated / "explicit"
    explicit.mkdir()
    assert resolve_root(str(explicit)) == explicit


def test_explicit_root_must_be_a_folder(isolated: Path) -> None:
    (isolated / "file.md").write_text("x")
    with pytest.raises(UsageError, match="not a folder"):
        resolve_root(str(isolated / "file.md"))
    with pytest.raises(UsageError, match="no such folder"):
        resolve_root(str(isolated / "absent"))


def test_nothing_found_says_where_it_looked(isolated: Path) -> None:
    startup = load_startup(today=TODAY)
    assert startup.root is None
    places = "\n".join(startup.searched)
    assert "MEMTUI_DIR" in places and "~/.openclaw/workspace" in places
    assert str(isolated / "work") in places
    assert startup.searched == tuple(searched_places())
    with pytest.raises(UsageError, match="no memory folder found"):
        startup.require_root()


def test_the_default_window_is_thirty_days(isolated: Path) -> None:
    assert Config().days == 30
    assert load_startup(today=TODAY).days == 30


def test_window_and_today_fall_back_to_config_and_clock(isolated: Path) -> None:
    config = isolated / "config.toml"
    config.write_text("days = 7\n")
    assert load_startup(config_path=str(config)).days == 7
    assert load_startup(config_path=str(config), days=0).days == 0
    assert load_startup(today=dt.date(2026, 1, 2)).today == dt.date(2026, 1, 2)
    assert load_startup().today == dt.date.today()


def test_config_errors_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not found"):
        load_startup(config_path=str(tmp_path / "missing.toml"))


def test_demo_is_materialised_for_today(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    startup = load_startup(demo=True, today=TODAY)
    assert startup.demo and startup.root is not None
    assert (startup.root / "memory" / f"{TODAY.isoformat()}.md").is_file()
    assert startup.require_root() == startup.root
