"""No module in memtui/ over MAX_LINES: a module that long holds more than one owner's state."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "memtui"
MAX_LINES = 450


def line_counts() -> dict[str, int]:
    return {
        path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_no_module_is_over_the_limit() -> None:
    counts = line_counts()
    too_long = {name: lines for name, lines in counts.items() if lines > MAX_LINES}
    assert not too_long, f"over {MAX_LINES} lines, split by ownership: {too_long}"
