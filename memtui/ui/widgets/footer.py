"""The key footer, without the keys it leaked.

Textual's `Footer` recomposes its keys whenever the bindings change (every focus change), and
each key data-binds the footer's `compact`: the binding is a watcher kept in the footer, dropped
only when `compact` changes, which it never does. So every old key, its styles and caches
stayed reachable for as long as the screen lived (hundreds after a few minutes of use).
"""

from __future__ import annotations

from textual.widgets import Footer

_WATCHERS = "__watchers"
"""Where Textual's `reactive._watch` keeps an object's watchers: name -> [(node, callback)]."""


class KeysFooter(Footer):
    """`Footer` that forgets the watchers of the keys a recompose removed."""

    async def recompose(self) -> None:
        await super().recompose()
        watchers: dict[str, list[tuple[object, object]]] = getattr(self, _WATCHERS, {})
        for name, watching in watchers.items():
            watchers[name] = [
                (node, callback)
                for node, callback in watching
                if not getattr(node, "_closing", False)
            ]
