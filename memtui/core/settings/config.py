"""Settings: defaults, TOML loading and validation with messages that name file, key and problem.

Unknown keys are warned about, never fatal: a config written for a newer memtui still loads.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from msgspec import Struct, field
from msgspec.structs import replace

from memtui.core.health.settings import HealthSettings, parse_health
from memtui.core.reading.small_file import read_small_file
from memtui.core.sanitize import quoted
from memtui.core.settings.clipboard import ClipboardSettings, parse_clipboard
from memtui.core.settings.xdg import config_home

FACTOR_NAMES = ("relevance", "source", "recency", "position")


class ConfigError(ValueError):
    """A config problem the user must fix; the message names file, key and what is wrong."""


class Boost(Struct, frozen=True):
    """A multiplier applied to entries whose path (or a tag, for `tag:` patterns) matches."""

    pattern: str
    factor: float


class Config(Struct, frozen=True):
    """Every setting, from the defaults and the config file: read once per start, never changed."""

    days: int = 30
    """Daily notes older than this many days before today are not loaded; 0 loads all."""
    weights: dict[str, float] = field(
        default_factory=lambda: {
            # Relevance leads so a strong topical match in an old note beats a passing mention
            # in a recent one; tuned on tests/judged (scripts/eval_ndcg.py, nDCG@10 0.93).
            "relevance": 0.70,
            "source": 0.06,
            "recency": 0.12,
            "position": 0.12,
        }
    )
    half_life_days: float = 30.0
    evergreen_long_term: bool = True
    """Long-term sections count as fully recent (1.0) when true."""
    source_priority: dict[str, int] = field(
        default_factory=lambda: {"long_term": 80, "note": 60, "daily": 50}
    )
    boosts: tuple[Boost, ...] = ()
    min_score: float = 0.1
    theme: str = "memtui-dark"
    mask_secrets: bool = True
    keymap: dict[str, str] = field(default_factory=dict)
    """Binding id -> keys, e.g. {"pane.edit": "E"}: remaps the TUI's keys (Textual keymap)."""
    health: HealthSettings = field(default_factory=HealthSettings)
    """Thresholds of the memory health checks (`[health]`, see `core.health.settings`)."""
    cache: bool = True
    """Keep what loading computes in `$XDG_CACHE_HOME/memtui/` for a fast next start."""
    clipboard: ClipboardSettings = field(default_factory=ClipboardSettings)
    """Where `y`/`Y` hand the copied text (`[clipboard]`, see `core.settings.clipboard`)."""
    source_path: Path | None = None
    """The file this config came from, or None for defaults."""

    def with_weights(self, **weights: float) -> Config:
        merged = dict(self.weights)
        merged.update(weights)
        return replace(self, weights=merged)


MAX_CONFIG_BYTES = 1024 * 1024
"""A config file is a few hundred bytes; a larger one is refused rather than read."""


def default_config_path() -> Path:
    return config_home() / "memtui" / "config.toml"


def load_config(path: Path | None = None) -> tuple[Config, list[str]]:
    """Load `path`, else the XDG config file if it exists, else defaults.

    Returns the config and a list of warnings (unknown keys, normalised weights).
    Raises ConfigError for anything the user must fix.
    """
    explicit = path is not None
    target = path if path is not None else default_config_path()
    try:
        # As a memory file is read: a FIFO, a device or a link to /dev/zero is refused.
        text = read_small_file(target, MAX_CONFIG_BYTES).decode("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        if explicit:
            raise ConfigError(f"{target}: config file not found") from None
        return Config(), []
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{target}: cannot read config: {exc}") from exc
    import tomllib  # here: most starts have no config file, and the parser costs one ~2 ms

    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{target}: invalid TOML: {exc}") from exc
    except RecursionError:
        raise ConfigError(f"{target}: invalid TOML: nested too deeply") from None
    return parse_config(raw, target)


def parse_config(raw: dict[str, Any], origin: Path | None = None) -> tuple[Config, list[str]]:
    """Validate a parsed TOML table into a Config (see load_config).

    Keys are checked in the order of `_FIELDS`, not the file's, so the first error reported for a
    config with several problems does not depend on how the file is laid out.
    """
    check = _Checker(str(origin) if origin else "config")
    for key in raw:
        if key not in _FIELDS:
            check.warn(f"unknown key {quoted(key)} ignored")
    values: dict[str, Any] = {"source_path": origin}
    for key, parse_field in _FIELDS.items():
        if key in raw:
            values[key] = parse_field(raw[key], check)
    return replace(Config(), **values), check.warnings


class _Checker(Struct):
    """Builds the messages of one config: errors and warnings that name the file and the key."""

    where: str
    warnings: list[str] = field(default_factory=list)

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.where}: {key}: {problem}")

    def warn(self, note: str) -> None:
        self.warnings.append(f"{self.where}: {note}")

    def number(self, key: str, value: Any, lo: float, hi: float | None = None) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"expected a number, got {type(value).__name__}")
        if not math.isfinite(value):  # nan passes every bound check; inf every open one
            raise self.fail(key, f"must be a finite number, got {value}")
        if value < lo or (hi is not None and value > hi):
            bound = f"between {lo} and {hi}" if hi is not None else f">= {lo}"
            raise self.fail(key, f"must be {bound}, got {value}")
        return float(value)

    def named_numbers(
        self,
        key: str,
        table: Any,
        example: str,
        defaults: dict[str, float],
        kind: str,
        lo: float,
        hi: float | None = None,
    ) -> dict[str, float]:
        """A table of numbers under known names (the defaults' keys); unknown names are warned
        about and ignored, names not given keep their default."""
        if not isinstance(table, dict):
            raise self.fail(key, f"expected a table like [{key}] {example}")
        values = dict(defaults)
        for name, value in table.items():
            if name not in defaults:
                self.warn(f"{key}.{name}: unknown {kind} ignored")
                continue
            values[name] = self.number(f"{key}.{name}", value, lo, hi)
        return values

    def flag(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {value!r}")
        return value


def _parse_days(value: Any, check: _Checker) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise check.fail("days", f"expected a whole number >= 0, got {value!r}")
    return value


def _parse_theme(value: Any, check: _Checker) -> str:
    if not isinstance(value, str) or not value.strip():
        raise check.fail("theme", "expected a theme name")
    return value.strip()


def _parse_weights(table: Any, check: _Checker) -> dict[str, float]:
    """`[weights]`: unknown factors are warned about; the weights are scaled to sum to 1."""
    weights = check.named_numbers(
        "weights", table, "relevance = 0.7", dict(Config().weights), "factor", 0.0
    )
    try:
        weights, note = normalise_weights(weights)
    except ConfigError:
        raise check.fail("weights", "at least one weight must be above 0") from None
    if note:
        check.warn(f"weights: {note}")
    return weights


def _parse_source_priority(table: Any, check: _Checker) -> dict[str, int]:
    defaults = {name: float(value) for name, value in Config().source_priority.items()}
    priority = check.named_numbers(
        "source_priority", table, "daily = 50", defaults, "source", 0, 100
    )
    return {name: int(value) for name, value in priority.items()}


def normalise_weights(weights: dict[str, float]) -> tuple[dict[str, float], str | None]:
    """Scale weights to sum to 1; returns a note when they had to be scaled."""
    total = sum(weights.values())
    if total == math.inf:  # finite weights whose sum overflows (1e308 twice): scale them first
        peak = max(weights.values())
        weights = {name: value / peak for name, value in weights.items()}
        total = sum(weights.values())
    if total <= 0:
        raise ConfigError("weights: at least one weight must be above 0")
    if abs(total - 1.0) < 1e-9:
        return dict(weights), None
    scaled = {name: value / total for name, value in weights.items()}
    return scaled, f"weights summed to {total:g}; normalised to 1"


MAX_BOOST_PATTERN = 200


def _parse_boosts(table: Any, check: _Checker) -> tuple[Boost, ...]:
    """`[boosts]` maps a glob to a multiplier: `"memory/projects/*" = 1.5`, `"tag:draft" = 0.5`."""
    if not isinstance(table, dict):
        raise check.fail("boosts", 'expected a table like [boosts] "MEMORY.md" = 1.5')
    boosts = []
    for pattern, value in table.items():
        key = f"boosts.{pattern!r}"
        if not pattern or len(pattern) > MAX_BOOST_PATTERN:
            raise check.fail(key, f"pattern must be 1–{MAX_BOOST_PATTERN} characters")
        if pattern.count("*") > 8:
            raise check.fail(key, "too many '*' wildcards (at most 8)")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise check.fail(key, f"expected a number, got {type(value).__name__}")
        if not 0 <= value <= 10:
            raise check.fail(key, f"multiplier must be between 0 and 10, got {value}")
        boosts.append(Boost(pattern=pattern, factor=float(value)))
    return tuple(boosts)


def _parse_keymap(table: Any, check: _Checker) -> dict[str, str]:
    """`[keymap]` maps a binding id (see the help screen) to comma-separated keys."""
    if not isinstance(table, dict):
        raise check.fail("keymap", 'expected a table like [keymap] "pane.edit" = "E"')
    keymap: dict[str, str] = {}
    for binding_id, keys in table.items():
        if not isinstance(keys, str) or not keys.strip():
            raise check.fail(f"keymap.{binding_id}", 'expected keys as a string, e.g. "ctrl+e,o"')
        keymap[binding_id] = keys.strip()
    return keymap


def _parse_health(table: Any, check: _Checker) -> HealthSettings:
    return parse_health(table, check.fail, check.warn)


_FIELDS: dict[str, Callable[[Any, _Checker], Any]] = {
    "days": _parse_days,
    "half_life_days": lambda value, check: check.number("half_life_days", value, 0.001),
    "min_score": lambda value, check: check.number("min_score", value, 0.0, 1.0),
    "evergreen_long_term": lambda value, check: check.flag("evergreen_long_term", value),
    "mask_secrets": lambda value, check: check.flag("mask_secrets", value),
    "cache": lambda value, check: check.flag("cache", value),
    "theme": _parse_theme,
    "weights": _parse_weights,
    "source_priority": _parse_source_priority,
    "keymap": _parse_keymap,
    "boosts": _parse_boosts,
    "health": _parse_health,
    "clipboard": lambda table, check: parse_clipboard(table, check.fail, check.warn),
}
"""Each top-level key and the function that validates its value, in the order they are checked."""
