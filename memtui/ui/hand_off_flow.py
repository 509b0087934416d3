"""Handing on from the main screen: which entries `y`, `Y` and enter (`memtui pick`) take, and
the worker body that looks them up and formats them.

The screen asks `wanted_ids` what to hand on, runs `resolved` in a thread worker (it may walk
every hit) and posts the `HandOffResolved` it returns; its handler then copies, or ends the
app for `memtui pick`. The formats and the lookup are `ui.handoff`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from memtui.core.live.engine import Engine
from memtui.core.model import Hit
from memtui.ui.handoff import Mask, Purpose, copy_text, resolve
from memtui.ui.marks import Marks
from memtui.ui.messages import HandOffResolved
from memtui.ui.options import HandOffMode


def wanted_ids(
    purpose: Purpose, mode: HandOffMode, marks: Marks, selected: Hit | None
) -> list[str] | None:
    """The marked entries in marking order, else the selected one, else nothing ([]).
    None: every result (`memtui pick --multi` with nothing marked)."""
    if purpose is Purpose.PICK and mode == "all" and not marks:
        return None
    if marks:
        return marks.ids
    return [selected.entry.id] if selected is not None else []


def resolved(
    engine: Engine,
    purpose: Purpose,
    entry_ids: list[str] | None,
    hits: Sequence[Hit],
    mask: Mask,
) -> HandOffResolved:
    """The entries as loaded now, and for a copy the text to copy (secrets masked by `mask`)."""
    picked, gone = resolve(engine, entry_ids, hits)
    text, masked = ("", 0) if purpose is Purpose.PICK else copy_text(purpose, picked, mask)
    return HandOffResolved(purpose, tuple(picked), tuple(gone), text, masked)
