"""The main screen's commands in the command palette (ctrl+p), as a Textual command `Provider`.

The main screen lists `MainCommands` in its `COMMANDS`, so they show only while it is the
screen under the palette; each runs one of its actions and names the key in force for it (after
any `[keymap]` remap). The app keeps its own commands (switch folder, themes, keys, quit) as
system commands.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Protocol, runtime_checkable

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen

from memtui.ui.bindings import PANE_BINDINGS
from memtui.ui.keymap import live_keys

PALETTE_COMMANDS: tuple[tuple[str, str, str], ...] = (
    # (title, what it does, the main screen action); the key in force is added when shown
    ("Search", "Focus the query box", "focus_query"),
    ("Results", "Focus the results list", "focus_results"),
    ("Open in editor", "Open $EDITOR at the selected entry's line", "edit"),
    ("Open file", "The selected entry's whole file, read-only, scrolled to it", "open_file"),
    (
        "Copy entry",
        "Copy the marked entries (else the selected one) as Markdown quotes under their citations",
        "copy_entry",
    ),
    (
        "Copy citation",
        "Copy path:start-end of the marked entries (else the selected one)",
        "copy_citation",
    ),
    ("Boost file", "Boost the selected entry's file for this session", "boost(1)"),
    ("Penalise file", "Penalise the selected entry's file for this session", "boost(-1)"),
    ("Clear file boost", "Remove the session boost of the selected entry's file", "clear_boost"),
    ("Toggle breakdown size", "Compact or expanded score breakdown", "toggle_breakdown"),
    ("Explain in full", "Open the full score breakdown", "expanded_breakdown"),
    ("Maximise pane", "Fill the screen with the focused pane, or restore it", "toggle_maximize"),
    ("Weights", "Change factor weights and half-life live", "weights"),
    ("Filters", "Filter by source, role, tag and date", "filters"),
    ("Toggle date window", "Load every date or only the last N days", "toggle_window"),
    ("Reveal secrets", "Show or mask secrets in the entry", "toggle_secrets"),
    ("Next match", "Scroll the entry to the next match", "next_match"),
    ("Warnings", "Skipped files, config and entry warnings", "warnings"),
    ("Memory health", "Duplicates, superseded, stale, secrets, beyond the load line", "health"),
    ("Help", "Every key binding", "help"),
)


@runtime_checkable
class KeymapInForce(Protocol):
    """A screen that knows the `[keymap]` remaps in force (the main screen)."""

    @property
    def keys_in_force(self) -> Mapping[str, str]: ...


def keys_for(action: str, keymap: Mapping[str, str], display: Callable[[Binding], str]) -> str:
    """The keys in force for a main-screen action in the panes (e.g. `screen.edit` -> `e`),
    each shown by `display` (the app's `get_key_display`); "" when no key runs it."""
    for binding in PANE_BINDINGS:
        if isinstance(binding, Binding) and binding.action == action:
            return " ".join(display(Binding(key, action)) for key in live_keys(binding, keymap))
    return ""


class MainCommands(Provider):
    """The main screen's actions, each with the key in force for it."""

    def _commands(self) -> Iterator[tuple[str, str, Callable[[], Awaitable[None]]]]:
        screen = self.screen
        keymap = screen.keys_in_force if isinstance(screen, KeymapInForce) else {}
        for title, help_text, action in PALETTE_COMMANDS:
            keys = keys_for(f"screen.{action}", keymap, self.app.get_key_display)
            yield title, f"{help_text} ({keys})" if keys else help_text, _run(screen, action)

    async def discover(self) -> Hits:
        for title, help_text, command in sorted(self._commands(), key=lambda command: command[0]):
            yield DiscoveryHit(title, command, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, command in self._commands():
            if (score := matcher.match(title)) > 0:
                yield Hit(score, matcher.highlight(title), command, text=title, help=help_text)


def _run(screen: Screen[object], action: str) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        await screen.run_action(action)

    return run
