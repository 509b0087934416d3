"""Keys acted on in the order they were typed, against the results they were typed for.

Textual runs a widget's ordinary binding only once its key has bubbled up to the app, by when
the widget may have handled the keys typed after it; and a search runs in a worker, so a key
typed right behind a query reached the list before the query's results did. `redis↓↓` moved
the cursor in the list that `redis` was replacing, and `memtui pick` with `deploy⏎` typed in
one burst printed an entry of the browse list. Here a widget runs its own bindings as their
keys arrive (`run_own_binding`), and an action on the list waits until the list shows the
results of what the query box holds (`after_results`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial, wraps
from typing import Concatenate, ParamSpec, Protocol, TypeVar, runtime_checkable

from textual import events
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.widget import Widget

P = ParamSpec("P")
NodeT = TypeVar("NodeT", bound=DOMNode)


class ListWaiter:
    """Actions on the list, held in order until `current` says the list shows the results of
    what the query box holds."""

    def __init__(self, current: Callable[[], bool]) -> None:
        self._current = current
        self._waiting: list[Callable[[], object]] = []

    def run(self, action: Callable[[], object]) -> None:
        """Run `action` now if the list is current and nothing waits before it, else later."""
        if self._waiting or not self._current():
            self._waiting.append(action)
        else:
            action()

    def caught_up(self) -> None:
        """The list may have caught up (a paint, a failed search): run what waits, in order,
        for as long as it is current."""
        while self._waiting and self._current():
            self._waiting.pop(0)()


@runtime_checkable
class WaitsForResults(Protocol):
    """A screen whose list may lag behind its query box (`MainScreen`)."""

    list_waiter: ListWaiter
    keys_closed: bool
    """No key may change the query or the list any more (`memtui pick` has its enter)."""


def after_results(
    action: Callable[Concatenate[NodeT, P], None],
) -> Callable[Concatenate[NodeT, P], None]:
    """An action on the results or their selection: it runs once the list shows the results
    of the query typed before it, after the actions waiting before it."""

    @wraps(action)
    def run(node: NodeT, /, *args: P.args, **kwargs: P.kwargs) -> None:
        screen = node.screen
        if isinstance(screen, WaitsForResults):
            screen.list_waiter.run(partial(action, node, *args, **kwargs))
        else:
            action(node, *args, **kwargs)

    return run


async def run_own_binding(widget: Widget, event: events.Key, actions: Mapping[str, str]) -> None:
    """Run `widget`'s binding of `event`'s key now, in the order keys were typed, when
    `actions` (key -> action) names it and no `[keymap]` remap has taken the key elsewhere.
    Once the screen's keys are closed, every key that reaches the widget is dropped here."""
    screen = widget.screen
    if isinstance(screen, WaitsForResults) and screen.keys_closed:
        event.stop()
        event.prevent_default()
        return
    action = actions.get(event.key)
    if action is None:
        return
    active = screen.active_bindings.get(event.key)
    if active is None or active.node is not widget or active.binding.action != action:
        return  # remapped by [keymap] to something else: the usual way
    event.stop()
    event.prevent_default()
    await widget.run_action(action)


def keys_of(bindings: Iterable[BindingType]) -> dict[str, Binding]:
    """Each key of `bindings` and its binding (`down,j` is two keys)."""
    return {
        key.strip(): binding
        for binding in bindings
        if isinstance(binding, Binding)
        for key in binding.key.split(",")
    }
