"""What the main screen may ask of the app around it, as narrow callables and shared objects.

The app builds one `AppLink` for each main screen it opens; the screen never reaches into the
app. What crosses: the secret masker and the keymap in force (shared app-wide), the warnings
found before the screen opened, the reports benchmarks and tests read off the app (a paint,
the index built, changes applied), and the two things only the app can do for the screen (end
`memtui pick` handing entries on, switch to the next theme).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from memtui.ui.handoff import HandOff
from memtui.ui.masker import SecretMasker


@dataclass(frozen=True)
class AppLink:
    masker: SecretMasker
    keymap: Mapping[str, str]
    """The `[keymap]` remaps in force (the ones the keymap check accepted)."""
    startup_warnings: tuple[tuple[str, str], ...]
    """(where, problem) rows found before the screen opened: config, themes, keymap."""
    painted: Callable[[int, float], None]
    """The list painted search `generation`, requested at `perf_counter` time `requested_at`."""
    indexed: Callable[[float], None]
    """The index is built, this many milliseconds after the load started."""
    changes_applied: Callable[[], None]
    """File changes (maybe none) were applied to the engine."""
    hand_off: Callable[[HandOff], None]
    """`memtui pick`: end the app with these entries."""
    next_theme: Callable[[], None]
