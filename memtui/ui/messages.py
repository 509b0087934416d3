"""The messages the UI passes instead of callbacks.

Worker → main screen (posted from worker threads with `post_message`, which is thread-safe;
they do not bubble): the engine loaded, indexed or failed; a search finished or failed; file
changes, a new date window or new weights were applied. Search results carry the generation
of the request that started them, and the screen drops any older than its newest request, so
a slow search never paints over a newer one.

Screen → app (these bubble: a screen's parent is the app): the weights screen reports each
change (`WeightsChanged`, which the app hands to the main screen that owns the engine), and the
'no memory folder' screen asks for the demo (`DemoRequested`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from memtui.core.model import ChangeSet, RankResult

if TYPE_CHECKING:
    from memtui.core.engine import Engine


class EngineLoaded(Message, bubble=False):
    """The files are parsed: browsing works; the index is still being built."""

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine


class EngineIndexed(Message, bubble=False):
    """The index is built: queries no longer wait for it."""

    def __init__(self, elapsed_ms: float) -> None:
        super().__init__()
        self.elapsed_ms = elapsed_ms


class EngineFailed(Message, bubble=False):
    """The memory folder could not be loaded; `error` says why."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class SearchDone(Message, bubble=False):
    """Search `generation` finished; `keep_id` is the entry the cursor should stay on."""

    def __init__(self, generation: int, result: RankResult, keep_id: str | None) -> None:
        super().__init__()
        self.generation = generation
        self.result = result
        self.keep_id = keep_id


class SearchFailed(Message, bubble=False):
    """Search `generation` met a query the user must fix (`error` says how)."""

    def __init__(self, generation: int, error: str) -> None:
        super().__init__()
        self.generation = generation
        self.error = error


class ChangesApplied(Message, bubble=False):
    """Changed files were re-read into the engine (from the watcher or after editing)."""

    def __init__(self, changes: ChangeSet) -> None:
        super().__init__()
        self.changes = changes


class WindowChanged(Message, bubble=False):
    """The engine now loads daily notes of the last `days` days (0: every date)."""

    def __init__(self, days: int) -> None:
        super().__init__()
        self.days = days


class WeightsApplied(Message, bubble=False):
    """The engine ranks with the new weights: time to rerank."""


class WeightsChanged(Message):
    """The weights screen changed a weight or the half-life (bubbles to the app)."""

    def __init__(self, weights: dict[str, float], half_life_days: float) -> None:
        super().__init__()
        self.weights = weights
        self.half_life_days = half_life_days


class DemoRequested(Message):
    """The 'no memory folder' screen asks for the bundled demo (bubbles to the app)."""
