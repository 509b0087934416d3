"""Every key, generated from the binding tables so it cannot drift (? or F1 on the main screen).

The main screen's tables come from `memtui.ui.bindings`, the widgets' from the widgets
themselves; the help text for a binding is `MAIN_HELP` by the last part of its id, else the
binding's own description.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from memtui.ui.bindings import MAIN_BINDINGS, PANE_BINDINGS
from memtui.ui.keymap import live_keys
from memtui.ui.screens.modal import CloseableModal
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList

HelpRow = tuple[str, str, str, str]
"""Section, keys, what it does, binding id ("" for rows that are not bindings)."""

QUERY_SYNTAX = (
    ("deploy stripe", "entries matching these words (prefixes and typos count too)"),
    ('"exact phrase"', "these words in this order"),
    ("-word", "drop entries containing word"),
    ("source:daily", "one of long_term, daily, note (source:d is enough)"),
    ("role:x  file:x", "path, file name or role contains x (globs allowed)"),
    ("tag:x", "frontmatter tag"),
    ("after:2026-11-01", "on or after a date (YYYY, YYYY-MM or YYYY-MM-DD)"),
    ("before:2026-12", "strictly before a date"),
    ("(empty query)", "browse every loaded entry, newest first"),
)

MAIN_HELP = {
    "focus_query": "focus the query box",
    "focus_results": "focus the results list (single-letter keys work there)",
    "escape": "clear the query / back to the query box",
    "results": "move in the results",
    "edit": "open $EDITOR at the entry's line (reloads the file after)",
    "open_file": "the entry's whole file, read-only, scrolled to it",
    "copy_entry": "copy marked entries (else this one) as quotes, cited",
    "copy_citation": "copy path:start-end of marked entries (else this one)",
    "boost": "boost the selected entry's file for this session",
    "penalise": "penalise the selected entry's file for this session",
    "clear_boost": "clear the file's session boost",
    "breakdown": "compact / expanded score breakdown",
    "expanded_breakdown": "full breakdown in a window",
    "zoom": "maximise the focused pane / restore it (esc restores too)",
    "weights": "change weights and half-life, live",
    "filters": "filter by source, role/file, tag, dates",
    "toggle_window": "date window: last N days ↔ every date",
    "toggle_secrets": "reveal / mask secrets",
    "next_match": "next match in the entry (wraps; the header says which)",
    "previous_match": "previous match in the entry",
    "warnings": "skipped files and other warnings",
    "next_theme": "next memtui theme (remembered)",
    "health": "memory health: duplicates, stale entries, secrets, unloaded entries",
    "help": "this help",
    "quit": "quit",
}

RESULTS_HELP = {
    "down": "next result",
    "up": "previous result",
    "page_down": "page of results down",
    "page_up": "page of results up",
    "first": "first result",
    "last": "last result",
    "choose": "go to the entry pane",
    "toggle_mark": "mark / unmark the result (copy and pick take the marked ones)",
    "mark_all": "mark every result of the query",
    "clear_marks": "clear the marks",
}
"""The results list's own keys, said the way the rest of the help says them."""


def help_rows(app: App[Any], keymap: Mapping[str, str]) -> list[HelpRow]:
    """(section, keys, what, binding id) for every binding, straight from the binding tables.

    Keys are the ones in force after `keymap` (the accepted `[keymap]` remaps); the id is what
    `[keymap]` remaps; rows that are not bindings have "".
    """

    def shown(keys: Iterable[str]) -> str:
        """Keys as the footer shows them (`^o`, `⏎`), the same in every row."""
        return " ".join(app.get_key_display(Binding(key, "")) for key in keys)

    def row(section: str, binding: Binding, text: str) -> HelpRow:
        return (section, shown(live_keys(binding, keymap)), text, binding.id or "")

    typing, panes, results, everywhere = (
        "while typing in the query box",
        "in the results and entry panes",
        "in the results list",
        "everywhere",
    )
    rows = [row(typing, binding, _what(binding)) for binding in _bindings(QueryInput.BINDINGS)]
    rows += [
        (typing, shown(["ctrl+a", "ctrl+e"]), "caret to start / end", ""),
        (typing, shown(["ctrl+u", "ctrl+w"]), "delete to start / word", ""),
    ]
    rows += [row(panes, binding, _what(binding)) for binding in _bindings(PANE_BINDINGS)]
    rows += [
        row(results, binding, RESULTS_HELP.get(_name(binding), binding.description))
        for binding in _bindings(ResultsList.BINDINGS)
    ]
    rows.append((results, "double-click", "go to the entry pane", ""))
    rows += [
        row("in the entry pane", binding, binding.description)
        for binding in _bindings(EntryView.BINDINGS)
    ]
    rows += [row(everywhere, binding, _what(binding)) for binding in _bindings(MAIN_BINDINGS)]
    rows += [
        (everywhere, shown(["ctrl+p"]), "command palette: every action, themes", ""),
        (everywhere, shown(["tab", "shift+tab"]), "move focus: query → results → entry → why", ""),
        (everywhere, shown(["ctrl+q"]), "quit", ""),
    ]
    rows += [("query syntax", syntax, meaning, "") for syntax, meaning in QUERY_SYNTAX]
    return [(sentence(where), keys, sentence(what), id_) for where, keys, what, id_ in rows]


def sentence(text: str) -> str:
    """`Next result`: the first letter up, the rest as written (`$EDITOR`, `path:start`)."""
    return text[:1].upper() + text[1:]


def _name(binding: Binding) -> str:
    """The last part of a binding's id (`results.down` -> `down`)."""
    return (binding.id or "").rsplit(".", 1)[-1]


def _bindings(table: Iterable[BindingType]) -> list[Binding]:
    return [item for item in table if isinstance(item, Binding)]


def _what(binding: Binding) -> str:
    name = _name(binding)
    if name in MAIN_HELP:
        return MAIN_HELP[name]
    action = binding.action.split("(")[-1].strip("')")
    return binding.description or RESULTS_HELP.get(action, action)


KEY_COLUMN_CELLS = 16
"""The key column's widest; longer key lists (rare) get a line of their own."""


def help_table(rows: Sequence[HelpRow], width: int, *, ids: bool = False) -> Content:
    """Two columns, the keys and what they do; with `ids`, a third: the binding id that
    `[keymap]` remaps (muted).

    Each column wraps inside itself, so no line runs back under the keys.
    """
    key_cells = min(KEY_COLUMN_CELLS, max((cell_len(keys) for _, keys, _, _ in rows), default=0))
    id_cells = max((cell_len(binding_id) for *_, binding_id in rows), default=0) if ids else 0
    text_cells = max(16, width - 2 - key_cells - 2 - (id_cells + 2 if ids else 0))
    lines: list[Content] = []
    section = ""
    for where, keys, what, binding_id in rows:
        if where != section:
            if lines:
                lines.append(Content(""))
            lines.append(Content.styled(where, "bold $text-secondary"))
            section = where
        wrapped = Content(what).wrap(text_cells)
        if cell_len(keys) > key_cells:
            lines.append(Content.assemble("  ", (keys, "bold $text-accent")))
            keys = ""
        for index, piece in enumerate(wrapped):
            shown = keys if index == 0 else ""
            line = Content.assemble(
                "  ", (shown.ljust(key_cells), "bold $text-accent"), "  ", piece
            )
            if ids and index == 0 and binding_id:
                line = Content.assemble(
                    line, " " * (text_cells - piece.cell_length + 2), (binding_id, "$muted")
                )
            lines.append(line)
    return Content("\n").join(lines)


class HelpScreen(CloseableModal):
    """The help rows grouped by where they apply; `i` shows the binding ids beside them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "toggle_ids", "Show ids", id="help.toggle_ids"),
    ]

    def __init__(self, keymap: Mapping[str, str]) -> None:
        super().__init__()
        self.keymap = keymap
        """The remaps in force, so the keys shown are the keys that work."""
        self.show_ids = False
        """The binding ids (what `[keymap]` remaps) in a column of their own: off at first,
        as most readers want the keys, not their names."""

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="modal-box"):
            yield Static(Content.styled("memtui keys", "bold $text-accent"), id="help-title")
            yield VerticalScroll(Static(id="help-body", markup=False))
            yield Static(
                Content.styled(
                    "Single-letter keys act when the results or entry pane has focus (press "
                    "enter); ctrl/F-key variants work while typing. i shows each key's id, "
                    "which the config file's [keymap] table remaps. "
                    "↑↓ PgUp PgDn Home End scroll; esc closes.",
                    "$muted",
                ),
                id="help-foot",
            )

    def on_mount(self) -> None:
        self.rows = help_rows(self.app, self.keymap)
        self.call_after_refresh(self._paint)

    def on_resize(self) -> None:
        self._paint()

    def action_toggle_ids(self) -> None:
        self.show_ids = not self.show_ids
        self._paint()

    def _paint(self) -> None:
        """Lay the table out for the box's width (descriptions wrap inside their column)."""
        width = self.query_one(VerticalScroll).scrollable_content_region.width
        if width:
            table = help_table(self.rows, width, ids=self.show_ids)
            self.query_one("#help-body", Static).update(table)
