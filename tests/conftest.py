"""Shared fixtures: an isolated environment for every test, realistic memory folders built in
tmp_path (see tests/layouts.py) and the hostile corpus (tests/hostile.py), built once a session."""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Iterator
from pathlib import Path

import layouts
import pytest

from memtui.bench import hostile
from memtui.core.cache.entry_table import EntryTable
from memtui.core.model import Entry
from memtui.core.places import instructions
from memtui.ui import clipboard

TODAY = dt.date(2026, 11, 21)


@pytest.fixture(autouse=True)
def collector_back_on() -> Iterator[None]:
    """A headless command turns the cyclic collector off for its process (see
    `cli.ENGINE_COMMANDS`); run in-process, the next test gets it back."""
    yield
    gc.enable()


@pytest.fixture(autouse=True)
def isolated_environment(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """No test reads or writes the developer's home, config, cache or `$MEMTUI_DIR`."""
    base = tmp_path_factory.mktemp("env")
    for variable, folder in (
        ("HOME", "home"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        (base / folder).mkdir()
        monkeypatch.setenv(variable, str(base / folder))
    monkeypatch.delenv("MEMTUI_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setattr(instructions, "MANAGED_CLAUDE_MD", base / "managed" / "CLAUDE.md")
    monkeypatch.setattr(clipboard, "system_tool", lambda: None)  # nor the developer's clipboard
    return base


@pytest.fixture(scope="session")
def hostile_corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[hostile.HostileFactory]:
    """`hostile_corpus(many_files)`: the hostile folder, built once per size and shared.

    Tests only read it (test_readonly proves nothing is written), so one copy serves them all.
    """
    built: dict[int, hostile.HostileCorpus] = {}

    def make(many_files: int) -> hostile.HostileCorpus:
        if many_files not in built:
            folder = tmp_path_factory.mktemp(f"hostile-{many_files}")
            built[many_files] = hostile.build_hostile_corpus(
                folder / "memory", many_files=many_files
            )
        return built[many_files]

    yield make
    for corpus in built.values():
        hostile.cleanup(corpus)


@pytest.fixture
def today() -> dt.date:
    """The injected 'today' every layout fixture is dated against."""
    return TODAY


@pytest.fixture
def memory_root(tmp_path: Path) -> Path:
    """A folder holding every layout of docs/ranking.md's "Memory layouts" side by side."""
    return layouts.build_all(tmp_path / "root")


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rows any cache table makes an entry of, in order (one per entry made)."""
    rows: list[int] = []
    make = EntryTable._make

    def counted(table: EntryTable, row: int) -> Entry:
        rows.append(row)
        return make(table, row)

    monkeypatch.setattr(EntryTable, "_make", counted)
    return rows
