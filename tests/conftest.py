"""Shared fixtures: realistic memory folders built in tmp_path (see tests/layouts.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import layouts
import pytest

TODAY = dt.date(2026, 11, 21)


@pytest.fixture
def today() -> dt.date:
    """The injected 'today' every layout fixture is dated against."""
    return TODAY


@pytest.fixture
def memory_root(tmp_path: Path) -> Path:
    """A folder holding every layout of DESIGN §1 side by side."""
    return layouts.build_all(tmp_path / "root")
