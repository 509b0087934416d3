"""The messages the UI passes instead of callbacks, each a dataclass (Textual's own messages
are too: `Message.__post_init__` sets up what a message needs).

Worker → main screen (posted from worker threads with `post_message`, which is thread-safe;
they do not bubble): the engine loaded, indexed or failed; a search finished or failed; file
changes, a new date window or new weights were applied. Search results carry the generation
of the request that started them, and the screen drops any older than its newest request, so
a slow search never paints over a newer one.

Screen → app (these bubble: a screen's parent is the app): a screen asks for settings to be
saved (`SaveSettings`), the 'no memory folder' screen asks for the demo (`DemoRequested`) and
the memory-folder picker says what to open (`RootsChosen`). The picker's own worker reports
what it found and counted (`CandidatesFound`, `CandidateSurveyed`). The health view's worker
reports `HealthChecked`. After each load and change the main screen's own worker reports
`LoadLinesChecked`. (The weights and health screens call back into the main screen that opened
them through the callables it gave them, not through the app.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from memtui.core.model import ChangeSet, RankResult

if TYPE_CHECKING:
    from memtui.core.health.model import HealthReport, LoadCut
    from memtui.core.live.engine import Engine
    from memtui.core.live.roots import MemoryRoot
    from memtui.core.places.loads import SessionReport
    from memtui.core.places.survey import Survey
    from memtui.core.settings.config_file import SettingValue
    from memtui.discovery import Candidate
    from memtui.ui.handoff import Picked, Purpose


@dataclass
class EngineLoaded(Message, bubble=False):
    """The files are parsed: browsing works; the index is still being built. `session_chars`:
    what the agent loads of the open memory at every session start (`core.places.loads`)."""

    engine: Engine
    session_chars: int = 0


@dataclass
class EngineIndexed(Message, bubble=False):
    """The index is built: queries no longer wait for it."""

    elapsed_ms: float


@dataclass
class EngineFailed(Message, bubble=False):
    """The memory folder could not be loaded; `error` says why."""

    error: str


@dataclass
class SearchDone(Message, bubble=False):
    """Search `generation` finished; `keep_id` is the entry the cursor should stay on."""

    generation: int
    result: RankResult
    keep_id: str | None


@dataclass
class SearchFailed(Message, bubble=False):
    """Search `generation` met a query the user must fix (`error` says how)."""

    generation: int
    error: str


@dataclass
class ChangesApplied(Message, bubble=False):
    """Changed files were re-read into the engine (from the watcher or after editing)."""

    changes: ChangeSet


@dataclass
class SessionCounted(Message, bubble=False):
    """What the agent loads of the open memory at every session start, counted again after
    its files changed (characters; `core.places.loads`)."""

    chars: int


@dataclass
class HandOffResolved(Message, bubble=False):
    """The marked (or selected) entries as loaded now, for `purpose`; `text` is what to copy
    (empty for a pick) with `masked` secrets masked; `gone` the ids that are no longer loaded."""

    purpose: Purpose
    picked: tuple[Picked, ...]
    gone: tuple[str, ...]
    text: str
    masked: int


@dataclass
class FileRead(Message, bubble=False):
    """The file viewer's worker read its file: the lines (empty when it could not, `notes` say
    why), the widest line in cells, decoding and size notes, and how many secrets it masked."""

    lines: list[str]
    widest: int
    notes: tuple[str, ...]
    masked: int


@dataclass
class WindowChanged(Message, bubble=False):
    """The engine now loads daily notes of the last `days` days (0: every date)."""

    days: int


@dataclass
class WeightsApplied(Message, bubble=False):
    """The engine ranks with the new weights: time to rerank."""


@dataclass
class SaveSettings(Message):
    """A screen asks for settings to be saved to the config file in use (bubbles to the app)."""

    values: Mapping[str, SettingValue]
    notice: str


@dataclass
class DemoRequested(Message):
    """The 'no memory folder' screen asks for the bundled demo (bubbles to the app)."""


@dataclass
class RootsChosen(Message):
    """The memory-folder picker chose what to open, one root or several (bubbles to the app)."""

    roots: tuple[MemoryRoot, ...]


@dataclass
class CandidatesFound(Message, bubble=False):
    """The picker's worker discovered the memory folders to offer."""

    candidates: list[Candidate]


@dataclass
class CandidateSurveyed(Message, bubble=False):
    """The picker's worker counted what candidate number `index` holds."""

    index: int
    survey: Survey


@dataclass
class HealthChecked(Message, bubble=False):
    """The health view's worker finished the checks (`report`), or failed (`error` says why)."""

    report: HealthReport | None
    error: str = ""
    session: SessionReport | None = None
    """What every session start loads of the open memory (the view's last section)."""


@dataclass
class LoadLinesChecked(Message, bubble=False):
    """The main screen's worker found which loaded entries start or run past a load line:
    entry id -> the cuts it is past (the results' badge, the entry pane's drawn line)."""

    cuts: Mapping[str, tuple[LoadCut, ...]]
