"""Settings: defaults, TOML loading and validation with messages that name file, key and problem.

Unknown keys are warned about, never fatal: a config written for a newer memtui still loads.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from memtui.core.health.settings import HealthSettings, parse_health

FACTOR_NAMES = ("relevance", "source", "recency", "position")
SOURCE_NAMES = ("long_term", "daily", "note")


class ConfigError(ValueError):
    """A config problem the user must fix; the message names file, key and what is wrong."""


@dataclass(frozen=True, slots=True)
class Boost:
    """A multiplier applied to entries whose path (or a tag, for `tag:` patterns) matches."""

    pattern: str
    factor: float


@dataclass(frozen=True, slots=True)
class Config:
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
    source_path: Path | None = None
    """The file this config came from, or None for defaults."""

    def with_weights(self, **weights: float) -> Config:
        merged = dict(self.weights)
        merged.update(weights)
        return replace(self, weights=merged)


def default_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "memtui" / "config.toml"


def load_config(path: Path | None = None) -> tuple[Config, list[str]]:
    """Load `path`, else the XDG config file if it exists, else defaults.

    Returns the config and a list of warnings (unknown keys, normalised weights).
    Raises ConfigError for anything the user must fix.
    """
    explicit = path is not None
    target = path if path is not None else default_config_path()
    if not target.exists():
        if explicit:
            raise ConfigError(f"{target}: config file not found")
        return Config(), []
    try:
        raw = tomllib.loads(target.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{target}: cannot read config: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{target}: invalid TOML: {exc}") from exc
    return parse_config(raw, target)


def parse_config(raw: dict[str, Any], origin: Path | None = None) -> tuple[Config, list[str]]:
    """Validate a parsed TOML table into a Config (see load_config)."""
    where = str(origin) if origin else "config"
    warnings: list[str] = []
    defaults = Config()
    values: dict[str, Any] = {"source_path": origin}

    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{where}: {key}: {problem}")

    def number(key: str, value: Any, lo: float, hi: float | None = None) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail(key, f"expected a number, got {type(value).__name__}")
        if value < lo or (hi is not None and value > hi):
            bound = f"between {lo} and {hi}" if hi is not None else f">= {lo}"
            raise fail(key, f"must be {bound}, got {value}")
        return float(value)

    known = {
        "days",
        "weights",
        "half_life_days",
        "evergreen_long_term",
        "source_priority",
        "boosts",
        "min_score",
        "theme",
        "mask_secrets",
        "keymap",
        "health",
        "cache",
    }
    for key in raw:
        if key not in known:
            warnings.append(f"{where}: unknown key {key!r} ignored")

    if "days" in raw:
        days = raw["days"]
        if isinstance(days, bool) or not isinstance(days, int) or days < 0:
            raise fail("days", f"expected a whole number >= 0, got {days!r}")
        values["days"] = days
    if "half_life_days" in raw:
        values["half_life_days"] = number("half_life_days", raw["half_life_days"], 0.001)
    if "min_score" in raw:
        values["min_score"] = number("min_score", raw["min_score"], 0.0, 1.0)
    for flag in ("evergreen_long_term", "mask_secrets", "cache"):
        if flag in raw:
            if not isinstance(raw[flag], bool):
                raise fail(flag, f"expected true or false, got {raw[flag]!r}")
            values[flag] = raw[flag]
    if "theme" in raw:
        if not isinstance(raw["theme"], str) or not raw["theme"].strip():
            raise fail("theme", "expected a theme name")
        values["theme"] = raw["theme"].strip()

    if "weights" in raw:
        table = raw["weights"]
        if not isinstance(table, dict):
            raise fail("weights", "expected a table like [weights] relevance = 0.7")
        weights = dict(defaults.weights)
        for name, value in table.items():
            if name not in FACTOR_NAMES:
                warnings.append(f"{where}: weights.{name}: unknown factor ignored")
                continue
            weights[name] = number(f"weights.{name}", value, 0.0)
        try:
            weights, note = normalise_weights(weights)
        except ConfigError:
            raise fail("weights", "at least one weight must be above 0") from None
        if note:
            warnings.append(f"{where}: weights: {note}")
        values["weights"] = weights

    if "source_priority" in raw:
        table = raw["source_priority"]
        if not isinstance(table, dict):
            raise fail("source_priority", "expected a table like [source_priority] daily = 50")
        priority = dict(defaults.source_priority)
        for name, value in table.items():
            if name not in SOURCE_NAMES:
                warnings.append(f"{where}: source_priority.{name}: unknown source ignored")
                continue
            priority[name] = int(number(f"source_priority.{name}", value, 0, 100))
        values["source_priority"] = priority

    if "keymap" in raw:
        values["keymap"] = _parse_keymap(raw["keymap"], fail)

    if "boosts" in raw:
        values["boosts"] = _parse_boosts(raw["boosts"], fail)

    if "health" in raw:
        values["health"] = parse_health(
            raw["health"], fail, lambda note: warnings.append(f"{where}: {note}")
        )

    return replace(defaults, **values), warnings


def normalise_weights(weights: dict[str, float]) -> tuple[dict[str, float], str | None]:
    """Scale weights to sum to 1; returns a note when they had to be scaled."""
    total = sum(weights.values())
    if total <= 0:
        raise ConfigError("weights: at least one weight must be above 0")
    if abs(total - 1.0) < 1e-9:
        return dict(weights), None
    scaled = {name: value / total for name, value in weights.items()}
    return scaled, f"weights summed to {total:g}; normalised to 1"


MAX_BOOST_PATTERN = 200


def _parse_boosts(table: Any, fail: Any) -> tuple[Boost, ...]:
    """`[boosts]` maps a glob to a multiplier: `"memory/projects/*" = 1.5`, `"tag:draft" = 0.5`."""
    if not isinstance(table, dict):
        raise fail("boosts", 'expected a table like [boosts] "MEMORY.md" = 1.5')
    boosts = []
    for pattern, value in table.items():
        key = f"boosts.{pattern!r}"
        if not pattern or len(pattern) > MAX_BOOST_PATTERN:
            raise fail(key, f"pattern must be 1–{MAX_BOOST_PATTERN} characters")
        if pattern.count("*") > 8:
            raise fail(key, "too many '*' wildcards (at most 8)")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail(key, f"expected a number, got {type(value).__name__}")
        if not 0 <= value <= 10:
            raise fail(key, f"multiplier must be between 0 and 10, got {value}")
        boosts.append(Boost(pattern=pattern, factor=float(value)))
    return tuple(boosts)


def _parse_keymap(table: Any, fail: Any) -> dict[str, str]:
    """`[keymap]` maps a binding id (see the help screen) to comma-separated keys."""
    if not isinstance(table, dict):
        raise fail("keymap", 'expected a table like [keymap] "pane.edit" = "E"')
    keymap: dict[str, str] = {}
    for binding_id, keys in table.items():
        if not isinstance(keys, str) or not keys.strip():
            raise fail(f"keymap.{binding_id}", 'expected keys as a string, e.g. "ctrl+e,o"')
        keymap[binding_id] = keys.strip()
    return keymap
