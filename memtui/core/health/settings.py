"""The `[health]` config table: the named thresholds of the memory health checks.

Each threshold is a judgement call, so each has a name the user can change and the findings
quote it back (a finding says "91% alike (threshold 90)", not just "duplicate").

```toml
[health]
duplicate_similarity = 90     # rapidfuzz token_set_ratio (0–100) at or above which two entries
duplicate_min_words = 8       #   with at least this many distinct words are near-duplicates
duplicate_length_ratio = 0.5  #   and the shorter has at least half the longer's distinct words
superseded_min_overlap = 0.4  # share of distinctive words a newer same-titled entry must repeat
superseded_max_group = 6      # a title used more often is a template ("Tasks"), not a topic
stale_days = 90               # dated entries older than this may be stale …
stale_min_words = 3           # … when none of their (at least this many) distinctive words
                              #   appears in a newer entry

[[health.load_line]]          # replaces the default rules below when given
files = ["MEMORY.md"]         # globs on the file name (or the path, when they hold a '/')
agent = "Claude Code"
lines = 200                   # any of lines / bytes / chars; the first limit reached wins
bytes = 25000
```
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import Struct, field
from msgspec.structs import replace

OPENCLAW_BOOTSTRAP_FILES = (
    "AGENTS.md",
    "SOUL.md",
    "TOOLS.md",
    "IDENTITY.md",
    "USER.md",
    "HEARTBEAT.md",
    "BOOTSTRAP.md",
    "MEMORY.md",
)
"""The workspace files OpenClaw injects into every session (and cuts at 20,000 characters)."""


class LoadLine(Struct, frozen=True):
    """What an agent loads of a file at session start: its first `lines` lines, `bytes` UTF-8
    bytes or `chars` characters, whichever ends first (None: that limit does not apply)."""

    files: tuple[str, ...]
    agent: str
    lines: int | None = None
    bytes: int | None = None
    chars: int | None = None

    def describe(self) -> str:
        """`200 lines / 25,000 bytes`: the limits, as the findings quote them."""
        parts = [(self.lines, "line"), (self.bytes, "byte"), (self.chars, "character")]
        return " / ".join(
            f"{limit:,} {unit}{'s' if limit != 1 else ''}" for limit, unit in parts if limit
        )


DEFAULT_LOAD_LINES = (
    LoadLine(files=("MEMORY.md",), agent="Claude Code", lines=200, bytes=25_000),
    LoadLine(files=OPENCLAW_BOOTSTRAP_FILES, agent="OpenClaw", chars=20_000),
)


class HealthSettings(Struct, frozen=True):
    """The `[health]` table's thresholds, named (see docs/health.md for what each decides)."""

    duplicate_similarity: float = 90.0
    duplicate_min_words: int = 8
    duplicate_length_ratio: float = 0.5
    superseded_min_overlap: float = 0.4
    superseded_max_group: int = 6
    stale_days: int = 90
    stale_min_words: int = 3
    load_lines: tuple[LoadLine, ...] = field(default=DEFAULT_LOAD_LINES)


_NUMBERS: dict[str, tuple[float, float, bool]] = {
    "duplicate_similarity": (50, 100, False),
    "duplicate_min_words": (1, 10_000, True),
    "duplicate_length_ratio": (0, 1, False),
    "superseded_min_overlap": (0, 1, False),
    "superseded_max_group": (2, 10_000, True),
    "stale_days": (1, 100_000, True),
    "stale_min_words": (1, 1_000, True),
}
"""Key -> (lowest, highest, whole number) of every numeric threshold."""
_LIMITS = ("lines", "bytes", "chars")


def parse_health(
    table: Any, fail: Callable[[str, str], Exception], warn: Callable[[str], None]
) -> HealthSettings:
    """Validate `[health]`; `fail(key, problem)` builds the error, `warn` notes unknown keys."""
    if not isinstance(table, dict):
        raise fail("health", "expected a table like [health] stale_days = 90")
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key == "load_line":
            values["load_lines"] = _parse_load_lines(value, fail, warn)
        elif key in _NUMBERS:
            lo, hi, whole = _NUMBERS[key]
            values[key] = _number(f"health.{key}", value, lo, hi, whole, fail)
        else:
            warn(f"health.{key}: unknown key ignored")
    return replace(HealthSettings(), **values)


def _number(
    key: str, value: Any, lo: float, hi: float, whole: bool, fail: Callable[[str, str], Exception]
) -> Any:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (whole and not isinstance(value, int))
    ):
        expected = "a whole number" if whole else "a number"
        raise fail(key, f"expected {expected}, got {value!r}")
    if not lo <= value <= hi:
        raise fail(key, f"must be between {lo:g} and {hi:g}, got {value}")
    return value if whole else float(value)


def _parse_load_lines(
    value: Any, fail: Callable[[str, str], Exception], warn: Callable[[str], None]
) -> tuple[LoadLine, ...]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise fail("health.load_line", "expected [[health.load_line]] tables with files = [...]")
    rules = []
    for number, item in enumerate(value, 1):
        key = f"health.load_line[{number}]"
        files = item.get("files")
        if (
            not isinstance(files, list)
            or not files
            or not all(isinstance(glob, str) and glob for glob in files)
        ):
            raise fail(f"{key}.files", 'expected a list of globs, e.g. ["MEMORY.md"]')
        agent = item.get("agent", "the agent")
        if not isinstance(agent, str) or not agent.strip():
            raise fail(f"{key}.agent", "expected the agent's name")
        limits = {
            name: _number(f"{key}.{name}", item[name], 1, 10**9, True, fail)
            for name in _LIMITS
            if name in item
        }
        if not limits:
            raise fail(key, "give at least one of lines, bytes, chars")
        for unknown in sorted(set(item) - {"files", "agent", *_LIMITS}):
            warn(f"{key}.{unknown}: unknown key ignored")
        rules.append(LoadLine(files=tuple(files), agent=agent.strip(), **limits))
    return tuple(rules)
