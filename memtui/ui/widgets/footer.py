"""The key footer, recomposed only when the keys it shows change, without the keys it leaked.

Textual's `Footer` recomposes its keys whenever the screen's bindings are updated (every focus
change, several times while the app starts), even when the keys shown stay the same: each
recompose mounts and styles every key again (~10 ms at start, half the footer's cost). And
each key data-binds the footer's `compact`: the binding is a watcher kept in the footer, which
Textual prunes of removed keys only when `compact` changes, and it never does. So every old
key, its styles and caches stayed reachable for as long as the screen lived (hundreds after a
few minutes of use). Its keys are also born with the footer's `compact`, so none is styled
twice as it mounts.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from memtui.ui.textual_private import keys_born_compact_as


class KeysFooter(Footer):
    """`Footer` that recomposes only when its keys change, and lets go of the keys removed."""

    _shown: Hashable = None

    def _keys_wanted(self, screen: Screen[Any]) -> Hashable:
        """What `compose` would show for the screen's bindings now."""
        return (
            self.show_command_palette,
            self.compact,
            tuple(
                (
                    binding.key,
                    self.app.get_key_display(binding),
                    binding.description,
                    binding.action,
                    binding.group,
                    enabled,
                    tooltip,
                )
                for (_, binding, enabled, tooltip) in screen.active_bindings.values()
                if binding.show
            ),
        )

    def bindings_changed(self, screen: Screen[Any]) -> None:
        unchanged = (
            self._shown is not None
            and self.is_attached
            and screen is self.screen
            and self._keys_wanted(screen) == self._shown
        )
        if not unchanged:
            super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        """Textual's keys, each born with the footer's `compact` (see `keys_born_compact_as`)."""
        yield from keys_born_compact_as(self, super().compose())

    async def recompose(self) -> None:
        if not self.is_attached:  # its screen went while this waited for a refresh
            return
        self._shown = self._keys_wanted(self.screen)
        await super().recompose()
        # Setting `compact` (to what it is) makes Textual drop the watchers of removed keys.
        self.mutate_reactive(Footer.compact)
