"""The session's tuning of the ranking: factor weights, the recency half-life, per-file boosts.

The config sets where they start; the app's weights screen and its boost keys change them for
the session. The rules live here (weights normalised, half-life above 0, boosts capped); the
engine applies the Settings they make under its lock.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from memtui.core.search.statics import Settings, make_settings
from memtui.core.settings.config import Config

MAX_SESSION_BOOST = 10.0
"""The largest session boost a file may get (the smallest is its inverse in the UI, 0 here)."""


class Tuning:
    """Weights, half-life and session boosts in use, and how they differ from the config's."""

    def __init__(self, config: Config, today: dt.date) -> None:
        self._config = config
        self._today_ordinal = today.toordinal()
        self._weights = dict(config.weights)
        self.half_life_days = config.half_life_days
        self._boosts: dict[str, float] = {}
        self._configured_weights = dict(self.settings().weights)
        """The config's weights, normalised: what `custom` compares against."""

    def settings(self) -> Settings:
        """Settings for the weights in use. Normalising them is state, not a problem: the config's
        own normalisation is reported when it loads, and a change made in the app is shown as
        `weights: custom`, never as a warning."""
        return make_settings(
            self._config,
            today_ordinal=self._today_ordinal,
            weights=self._weights,
            half_life_days=self.half_life_days,
            session_boosts=self._boosts,
        )

    def change(self, weights: Mapping[str, float] | None, half_life_days: float | None) -> bool:
        """Change weights and/or the half-life; True when the half-life changed (recency must be
        computed again)."""
        if weights:
            self._weights.update(weights)
        if half_life_days is None or half_life_days == self.half_life_days:
            return False
        if half_life_days <= 0:
            raise ValueError("half_life_days must be above 0")
        self.half_life_days = half_life_days
        return True

    def boost(self, path: str, factor: float | None) -> None:
        """Multiply every entry of `path` by `factor` (None clears it)."""
        if factor is None:
            self._boosts.pop(path, None)
            return
        if not 0 <= factor <= MAX_SESSION_BOOST:
            raise ValueError(
                f"session boost must be between 0 and {MAX_SESSION_BOOST:g}, got {factor}"
            )
        self._boosts[path] = factor

    @property
    def session_boosts(self) -> Mapping[str, float]:
        return dict(self._boosts)

    def custom(self, weights_in_use: Mapping[str, float]) -> bool:
        """True when the weights or half-life in use differ from the config's."""
        return self.half_life_days != self._config.half_life_days or any(
            abs(weights_in_use[name] - value) > 1e-9
            for name, value in self._configured_weights.items()
        )
