"""The key footer, without the keys it leaked.

Textual's `Footer` recomposes its keys whenever the bindings change (every focus change), and
each key data-binds the footer's `compact`: the binding is a watcher kept in the footer, which
Textual prunes of removed keys only when `compact` changes, and it never does. So every old key,
its styles and caches stayed reachable for as long as the screen lived (hundreds after a few
minutes of use).
"""

from __future__ import annotations

from textual.widgets import Footer


class KeysFooter(Footer):
    """`Footer` that lets go of the keys a recompose removed."""

    async def recompose(self) -> None:
        await super().recompose()
        # Setting `compact` (to what it is) makes Textual drop the watchers of removed keys.
        self.mutate_reactive(Footer.compact)
