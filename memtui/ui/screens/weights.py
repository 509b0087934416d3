"""Weights and half-life with the keyboard, reranking the list behind on every change (w).

The screen gets plain values (the weights and half-life in use, the config's to reset to, and
the session boosts) and reports every change through `apply`, which the main screen that opened
it passes (it owns the engine and reranks in a worker); `s` posts `SaveSettings` so the app
writes them to the config file in use. The screen holds no other screen and no engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from memtui.core.settings.config import FACTOR_NAMES
from memtui.core.settings.config_file import SettingValue
from memtui.ui import render
from memtui.ui.messages import SaveSettings

WEIGHT_STEP = 0.05
HALF_LIFE_STEP = 5.0
HALF_LIFE_RANGE = (1.0, 3650.0)
HALF_LIFE = "half-life"
BAR_CELLS = 24


class WeightsScreen(ModalScreen[None]):
    """One row per factor plus the half-life; ←→ change the chosen row."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "row(-1)", "Up", show=False, id="weights.up"),
        Binding("down,j", "row(1)", "Down", show=False, id="weights.down"),
        Binding("right,plus,l", "change(1)", "More", id="weights.more"),
        Binding("left,minus,h", "change(-1)", "Less", id="weights.less"),
        Binding("r", "reset", "Reset", id="weights.reset"),
        Binding("s", "save", "Save", id="weights.save"),
        Binding("escape,enter,w,q", "close", "Close", id="weights.close"),
    ]
    ROWS = (*FACTOR_NAMES, HALF_LIFE)

    def __init__(
        self,
        weights: Mapping[str, float],
        half_life_days: float,
        *,
        configured: tuple[Mapping[str, float], float],
        boosts: Mapping[str, float] | None = None,
        apply: Callable[[dict[str, float], float], object],
    ) -> None:
        super().__init__()
        self.weights = dict(weights)
        self.half_life = float(half_life_days)
        self.defaults = (dict(configured[0]), float(configured[1]))
        """What `r` resets to: the config's weights and half-life."""
        self.boosts = dict(boosts or {})
        """Session boosts by file, saved with the weights by `s`."""
        self.row = 0
        self.apply = apply
        """Rerank with new weights and half-life (the main screen's worker)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="weights-box", classes="modal-box"):
            yield Static(Content.styled("weights · share of the score", "bold $text-accent"))
            yield Static(id="weights-body", markup=False)
            yield Static(
                Content.styled(
                    "↑↓ choose · ←→ change · r reset · s save to the config · esc close", "$muted"
                )
            )

    def on_mount(self) -> None:
        self._paint()

    def _paint(self) -> None:
        """One line per row, short enough for a 60-column terminal (`70%`, not `70% of
        score`), then the sum: the window fits 60×20 with its keys in sight."""
        total = sum(self.weights.values()) or 1.0
        lines: list[Content] = []
        for index, name in enumerate(self.ROWS):
            marker = ("▸ ", "bold $text-accent") if index == self.row else ("  ", "")
            if name == HALF_LIFE:
                value = f"{self.half_life:>5.0f} d"
                fraction = min(1.0, self.half_life / 365)
                style = "$text-primary"
                share = ""
            else:
                value = f"{self.weights[name]:>5.2f}  "
                fraction = self.weights[name]
                style = render.FACTOR_STYLE.get(name, "$text-primary")
                share = f" {self.weights[name] / total:4.0%}"
            lines.append(
                Content.assemble(
                    marker,
                    (f"{name:<10}", f"bold {style}" if index == self.row else style),
                    (value, "bold"),
                    "  ",
                    (render.bar(fraction, BAR_CELLS), style),
                    (share, "$muted"),
                )
            )
        lines.append(
            Content.styled(f"sum {total:.2f} · normalised to 1 · the list reranks live", "$muted")
        )
        self.query_one("#weights-body", Static).update(Content("\n").join(lines))

    def action_row(self, step: int) -> None:
        self.row = (self.row + step) % len(self.ROWS)
        self._paint()

    def action_change(self, step: int) -> None:
        name = self.ROWS[self.row]
        if name == HALF_LIFE:
            low, high = HALF_LIFE_RANGE
            self.half_life = max(low, min(high, self.half_life + step * HALF_LIFE_STEP))
        else:
            value = round(self.weights[name] + step * WEIGHT_STEP, 4)
            self.weights[name] = max(0.0, min(1.0, value))
            if sum(self.weights.values()) <= 0:
                self.weights[name] = WEIGHT_STEP
        self._changed()

    def action_reset(self) -> None:
        self.weights, self.half_life = dict(self.defaults[0]), self.defaults[1]
        self._changed()

    def action_save(self) -> None:
        total = sum(self.weights.values()) or 1.0
        values: dict[str, SettingValue] = {
            "weights": {name: round(value / total, 4) for name, value in self.weights.items()},
            "half_life_days": self.half_life,
        }
        if self.boosts:
            values["boosts"] = {path: round(factor, 4) for path, factor in self.boosts.items()}
        self.post_message(SaveSettings(values, "Weights saved"))

    def _changed(self) -> None:
        self._paint()
        self.apply(dict(self.weights), self.half_life)

    def action_close(self) -> None:
        self.dismiss(None)
