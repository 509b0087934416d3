"""Marked (or selected) entries made ready to hand on: copied by `y`/`Y`, printed by `memtui pick`.

`resolve` looks the ids up in the engine as it is now (an edited entry is handed on as edited,
one that left the corpus is reported, not handed on) and finds each entry's hit in the results
on screen. It may walk every hit, so the main screen runs it in a thread worker. The formats
themselves live in `memtui.core.cite`, shared with the headless command.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from memtui.core import cite
from memtui.core.live.engine import Engine
from memtui.core.model import Entry, Hit
from memtui.core.sanitize import one_line
from memtui.ui import widths
from memtui.ui.render import entry_text, masked_title


class Purpose(StrEnum):
    """What the resolved entries are for."""

    MARKDOWN = "markdown"
    """`y`: each entry quoted under its citation line."""
    CITATIONS = "citations"
    """`Y`: one citation per line."""
    PICK = "pick"
    """`memtui pick`: end the app and print them."""


@dataclass(frozen=True, slots=True)
class Picked:
    """One entry to hand on, as loaded now."""

    entry: Entry
    hit: Hit | None
    """Its hit in the results on screen; None when the current query no longer finds it."""
    where: str
    """The path its citation names."""


@dataclass(frozen=True, slots=True)
class HandOff:
    """What `memtui pick` prints once the app has ended: the picked entries and how to show
    them (the engine gives JSON its roots; `revealed`: the user showed secrets)."""

    engine: Engine
    query: str
    picked: tuple[Picked, ...]
    revealed: bool


def resolve(
    engine: Engine, entry_ids: Sequence[str] | None, hits: Iterable[Hit]
) -> tuple[list[Picked], list[str]]:
    """The entries behind `entry_ids`, in that order, with their hits among `hits`; and the ids
    that are no longer loaded. `entry_ids` None: every hit (`memtui pick --multi`)."""
    if entry_ids is None:
        return [Picked(hit.entry, hit, cite.cited_path(engine, hit.entry)) for hit in hits], []
    entries = {entry_id: engine.entry(entry_id) for entry_id in entry_ids}
    wanted = {entry_id for entry_id, entry in entries.items() if entry is not None}
    found: dict[str, Hit] = {}
    if wanted:
        for hit in hits:
            if hit.entry.id in wanted:
                found[hit.entry.id] = hit
                if len(found) == len(wanted):
                    break
    picked = [
        Picked(entry, found.get(entry_id), cite.cited_path(engine, entry))
        for entry_id, entry in entries.items()
        if entry is not None
    ]
    return picked, [entry_id for entry_id, entry in entries.items() if entry is None]


Mask = Callable[[str], tuple[str, int]]
"""Text -> (text as handed on, how many secrets it masked): `SecretMasker.mask` or the CLI's."""


def cited(picked: Iterable[Picked], mask: Mask) -> tuple[list[cite.Cited], int]:
    """The picked entries with their text as handed on, and how many secrets were masked."""
    items: list[cite.Cited] = []
    masked = 0
    for item in picked:
        text, count = mask(entry_text(item.entry, limit=None))
        items.append(cite.Cited(item.where, item.entry, text))
        masked += count
    return items, masked


def copy_text(purpose: Purpose, picked: Sequence[Picked], mask: Mask) -> tuple[str, int]:
    """What `y` (Markdown quotes) or `Y` (citations) copies, and how many secrets it masked."""
    if purpose is Purpose.CITATIONS:
        return cite.citations(cite.Cited(item.where, item.entry, "") for item in picked), 0
    items, masked = cited(picked, mask)
    return cite.markdown(items), masked


def copied_notice(purpose: Purpose, count: int, masked: int) -> str:
    """`Copied 3 entries (1 secret masked)`, `Copied 1 citation`."""
    nouns = ("citation", "citations") if purpose is Purpose.CITATIONS else ("entry", "entries")
    suffix = f" ({masked} secret{'s' if masked != 1 else ''} masked)" if masked else ""
    return f"Copied {count} {nouns[count != 1]}{suffix}"


def unmarked_notice(dropped: Sequence[Entry]) -> str:
    """Marks dropped because their entries left the corpus, named by title."""
    titles = ", ".join(one_line(masked_title(entry), widths.WORD) for entry in dropped[:3])
    more = f" and {len(dropped) - 3} more" if len(dropped) > 3 else ""
    noun = "entry" if len(dropped) == 1 else "entries"
    return f"Unmarked {len(dropped)} {noun} no longer loaded (deleted or renamed): {titles}{more}"
