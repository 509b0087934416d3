"""The main screen's key tables, in one leaf module so the help screen can list them without
importing the screen (widgets keep their own tables: `QueryInput`, `ResultsList`, `EntryView`).

Every binding has an id: `[keymap]` in the config file remaps keys by it (`pane.edit = "E"`).
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

PANE_BINDINGS: list[BindingType] = [
    Binding("q", "app.quit", "Quit", id="pane.quit"),  # first, then help: the footer cuts at
    Binding("question_mark", "screen.help", "Help", id="pane.help"),  # its right end
    Binding("slash", "screen.focus_query", "Search", priority=True, id="pane.focus_query"),
    Binding("e", "screen.edit", "Edit", id="pane.edit"),
    Binding("o", "screen.open_file", "Open", show=False, id="pane.open_file"),
    Binding("y", "screen.copy_entry", "Copy", id="pane.copy_entry"),
    Binding("Y", "screen.copy_citation", "Cite", show=False, id="pane.copy_citation"),
    Binding("plus,equals_sign", "screen.boost(1)", "Boost", key_display="+", id="pane.boost"),
    Binding("minus", "screen.boost(-1)", "Penalise", key_display="−", id="pane.penalise"),
    Binding("0", "screen.clear_boost", "Clear boost", show=False, id="pane.clear_boost"),
    Binding("b", "screen.toggle_breakdown", "Breakdown", show=False, id="pane.breakdown"),
    Binding("B", "screen.expanded_breakdown", "Why", id="pane.expanded_breakdown"),
    Binding("z", "screen.toggle_maximize", "Zoom", show=False, id="pane.zoom"),
    Binding("w", "screen.weights", "Weights", id="pane.weights"),
    Binding("f", "screen.filters", "Filters", id="pane.filters"),
    Binding("t", "screen.toggle_window", "Window", show=False, id="pane.toggle_window"),
    Binding("r", "screen.toggle_secrets", "Reveal", show=False, id="pane.toggle_secrets"),
    Binding("n", "screen.next_match", "Next match", show=False, id="pane.next_match"),
    Binding("N", "screen.previous_match", "Previous match", show=False, id="pane.previous_match"),
    Binding("exclamation_mark", "screen.warnings", "Warnings", show=False, id="pane.warnings"),
    Binding("h", "screen.health", "Health", show=False, id="pane.health"),
    Binding("m", "app.switch_roots", "Memory folders", show=False, id="pane.switch_roots"),
    Binding("T", "screen.next_theme", "Theme", show=False, id="pane.next_theme"),
]
"""Single-letter keys: active while the results or the entry pane has focus."""

MAIN_BINDINGS: list[BindingType] = [
    Binding("escape", "escape", "Clear", show=False, priority=True, id="escape"),
    Binding("f1", "help", "Help", show=False, id="help"),
    Binding("f2", "next_theme", "Theme", show=False, id="next_theme"),
]
"""The main screen's own keys: active everywhere on it, the query box included."""

# Keys that move focus (`/`, esc, enter in the query box) are priority bindings: the app runs
# them as they arrive, before it hands the keys queued behind them (a paste, fast typing) to
# the focused widget. An ordinary binding runs only after the key has gone through the focused
# widget, by when those keys were already given to it: the box would never see them.

PICK_BINDINGS: list[BindingType] = [
    Binding("enter,ctrl+j", "pick", "Hand off", priority=True, id="pick.accept"),
    Binding("ctrl+c", "cancel_pick", "Cancel", show=False, priority=True, id="pick.cancel"),
]
"""`memtui pick` only (the screen disables them otherwise): enter anywhere on the main screen
prints the marked entries, or the selected one, and ends; ctrl+c, like esc, ends printing
nothing. Priority, so the query box and the results do not take enter first.

Enter typed before the app has the terminal (`memtui pick` and the query sent in one go, as an
agent driving tmux does) was turned into a newline by the terminal, which arrives as ctrl+j:
where enter hands off or leaves the box, ctrl+j does too, as in readline."""
