"""Secondary screens: help, weights, filters, warnings, the full breakdown and 'no folder found'.

Every file-derived string shown here goes through `one_line`/`visible` into `Content` as plain
text; nothing is parsed as markup.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Static

from memtui.core.config import FACTOR_NAMES
from memtui.core.model import Hit
from memtui.core.sanitize import one_line
from memtui.ui import render
from memtui.ui.filters import QueryFilters, split_query, with_filters

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp
    from memtui.ui.screens.main import MainScreen

MAX_WARNING_ROWS = 2000
WEIGHT_STEP = 0.05
HALF_LIFE_STEP = 5.0


class CloseableModal(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="modal.close"),
    ]

    def action_close(self) -> None:
        self.dismiss(None)


# --- help --------------------------------------------------------------------------------------


def help_rows(app: MemtuiApp) -> list[tuple[str, str, str, str]]:
    """(section, keys, what, binding id) for every binding, straight from the binding tables.

    The id is what `[keymap]` in the config file remaps; rows that are not bindings have "".
    """
    from memtui.ui.screens.main import PANE_BINDINGS, MainScreen
    from memtui.ui.widgets.detail import EntryView
    from memtui.ui.widgets.query import QueryInput
    from memtui.ui.widgets.results import ResultsList

    def keys(binding: Binding) -> str:
        shown = []
        for key in binding.key.split(","):
            shown.append(app.get_key_display(Binding(key.strip(), binding.action)))
        return " ".join(shown)

    def bindings(table: Iterable[BindingType]) -> list[Binding]:
        return [item for item in table if isinstance(item, Binding)]

    def row(section: str, binding: Binding, text: str) -> tuple[str, str, str, str]:
        return (section, keys(binding), text, binding.id or "")

    def what(binding: Binding) -> str:
        name = (binding.id or "").rsplit(".", 1)[-1]
        return MAIN_HELP.get(name) or binding.description or _describe(binding)

    rows: list[tuple[str, str, str, str]] = []
    for binding in bindings(QueryInput.BINDINGS):
        rows.append(row("while typing in the query box", binding, what(binding)))
    rows.append(("while typing in the query box", "enter", "go to the results list", ""))
    rows.append(("while typing in the query box", "ctrl+a ctrl+e", "caret to start / end", ""))
    rows.append(("while typing in the query box", "ctrl+u ctrl+w", "delete to start / word", ""))
    for binding in bindings(PANE_BINDINGS):
        rows.append(row("in the results and entry panes", binding, what(binding)))
    for binding in bindings(ResultsList.BINDINGS):
        rows.append(row("in the results list", binding, binding.description))
    rows.append(("in the results list", "enter  double-click", "go to the entry pane", ""))
    for binding in bindings(EntryView.BINDINGS):
        rows.append(row("in the entry pane", binding, binding.description))
    for binding in bindings(MainScreen.BINDINGS):
        rows.append(row("everywhere", binding, what(binding)))
    rows.append(("everywhere", "ctrl+p", "command palette: every action, themes", ""))
    rows.append(("everywhere", "tab shift+tab", "move focus: query → results → entry", ""))
    rows.append(("everywhere", "ctrl+q", "quit", ""))
    for syntax, meaning in QUERY_SYNTAX:
        rows.append(("query syntax", syntax, meaning, ""))
    return rows


def _describe(binding: Binding) -> str:
    action = binding.action.split("(")[-1].strip("')")
    return {
        "down": "next result", "up": "previous result", "page_down": "page of results down",
        "page_up": "page of results up", "first": "first result", "last": "last result",
    }.get(action, action)


QUERY_SYNTAX = (
    ("deploy stripe", "entries matching these words (prefixes and typos count too)"),
    ('"exact phrase"', "these words in this order"),
    ("-word", "drop entries containing word"),
    ("source:daily", "long_term, daily or note (source:d is enough)"),
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
    "copy_entry": "copy the entry's text (secrets stay masked unless revealed)",
    "copy_citation": "copy a path:line citation",
    "boost": "boost the selected entry's file for this session",
    "penalise": "penalise the selected entry's file for this session",
    "clear_boost": "clear the file's session boost",
    "breakdown": "compact / expanded score breakdown",
    "expanded_breakdown": "full breakdown in a window",
    "weights": "change weights and half-life, live",
    "filters": "filter by source, role/file, tag, dates",
    "toggle_window": "date window: last N days ↔ every date",
    "toggle_secrets": "reveal / mask secrets",
    "next_match": "scroll the entry to the next match",
    "warnings": "skipped files and other warnings",
    "next_theme": "next memtui theme (remembered)",
    "help": "this help",
    "quit": "quit",
}


class HelpScreen(CloseableModal):
    """Every key, generated from the binding tables so it cannot drift."""

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="modal-box"):
            yield Static(Content.styled("memtui keys", "bold $accent"), id="help-title")
            yield VerticalScroll(Static(id="help-body", markup=False))
            yield Static(
                Content.styled(
                    "Single-letter keys act when the results or entry pane has focus (press "
                    "enter); ctrl/F-key variants work while typing. Remap a key by its id "
                    "(the grey column) in the config file's [keymap] table. esc closes.", "$muted"),
                id="help-foot",
            )

    def on_mount(self) -> None:
        from memtui.ui.app import MemtuiApp

        assert isinstance(self.app, MemtuiApp)
        lines: list[Content] = []
        section = ""
        for where, keys, what, binding_id in help_rows(self.app):
            if where != section:
                if lines:
                    lines.append(Content(""))
                lines.append(Content.styled(where, "bold $secondary"))
                section = where
            lines.append(Content.assemble(
                (f"  {keys:<16}", "bold $accent"), (f"{binding_id:<24}", "$muted"), (what, ""),
            ))
        self.query_one("#help-body", Static).update(Content("\n").join(lines))


# --- full breakdown ----------------------------------------------------------------------------


class BreakdownScreen(CloseableModal):
    """The expanded 'why' for one hit: every factor, term, token match, multiplier and note."""

    def __init__(self, hit: Hit, previous: Hit | None) -> None:
        super().__init__()
        self.hit = hit
        self.previous = previous

    def compose(self) -> ComposeResult:
        entry = self.hit.entry
        title = Content.assemble(
            (f"why #{self.hit.rank}  ", "bold $accent"),
            (one_line(entry.title, 80), "bold"),
            ("  ", ""),
            (one_line(render.line_range(entry), 80), "$muted"),
        )
        with Vertical(id="why-box", classes="modal-box"):
            yield Static(title, id="why-title", markup=False)
            yield VerticalScroll(
                Static(render.breakdown(self.hit, self.previous, expanded=True), id="why-body",
                       markup=False)
            )
            yield Static(Content.styled("esc close", "$muted"))


# --- weights -----------------------------------------------------------------------------------


class WeightsScreen(ModalScreen[None]):
    """Weights and half-life with the keyboard; the list behind reranks on every change."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "row(-1)", "Up", show=False, id="weights.up"),
        Binding("down,j", "row(1)", "Down", show=False, id="weights.down"),
        Binding("right,plus,l", "change(1)", "More", id="weights.more"),
        Binding("left,minus,h", "change(-1)", "Less", id="weights.less"),
        Binding("r", "reset", "Reset", id="weights.reset"),
        Binding("escape,enter,w,q", "close", "Close", id="weights.close"),
    ]
    ROWS = (*FACTOR_NAMES, "half-life")

    def __init__(self, main: MainScreen) -> None:
        super().__init__()
        self.main = main
        assert main.engine is not None
        config = main.engine.config
        self.weights = dict(config.weights)
        self.half_life = float(config.half_life_days)
        self.defaults = (dict(self.weights), self.half_life)
        self.row = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="weights-box", classes="modal-box"):
            yield Static(Content.styled("weights", "bold $accent"))
            yield Static(id="weights-body", markup=False)
            yield Static(Content.styled(
                "↑↓ choose · ←→ or −/+ change · r reset · esc close — the list reranks live; "
                "weights are normalised to sum 1", "$muted"))

    def on_mount(self) -> None:
        self._paint()

    def _paint(self) -> None:
        total = sum(self.weights.values()) or 1.0
        lines: list[Content] = []
        for index, name in enumerate(self.ROWS):
            marker = ("▸ ", "bold $accent") if index == self.row else ("  ", "")
            if name == "half-life":
                value = f"{self.half_life:>5.0f} d"
                fraction = min(1.0, self.half_life / 365)
                style = "$primary"
                share = ""
            else:
                value = f"{self.weights[name]:>5.2f}  "
                fraction = self.weights[name]
                style = render.FACTOR_STYLE.get(name, "$primary")
                share = f"  {self.weights[name] / total:4.0%} of score"
            lines.append(Content.assemble(
                marker, (f"{name:<10}", f"bold {style}" if index == self.row else style),
                (value, "bold"), "  ", (render.bar(fraction, 24), style), (share, "$muted"),
            ))
        lines.append(Content(""))
        lines.append(Content.styled(f"sum {total:.2f}", "$muted"))
        self.query_one("#weights-body", Static).update(Content("\n").join(lines))

    def action_row(self, step: int) -> None:
        self.row = (self.row + step) % len(self.ROWS)
        self._paint()

    def action_change(self, step: int) -> None:
        name = self.ROWS[self.row]
        if name == "half-life":
            self.half_life = max(1.0, min(3650.0, self.half_life + step * HALF_LIFE_STEP))
        else:
            value = round(self.weights[name] + step * WEIGHT_STEP, 4)
            self.weights[name] = max(0.0, min(1.0, value))
            if sum(self.weights.values()) <= 0:
                self.weights[name] = WEIGHT_STEP
        self._apply()

    def action_reset(self) -> None:
        self.weights, self.half_life = dict(self.defaults[0]), self.defaults[1]
        self._apply()

    def _apply(self) -> None:
        self._paint()
        self.main.apply_weights(dict(self.weights), self.half_life)

    def action_close(self) -> None:
        self.dismiss(None)


# --- filters -----------------------------------------------------------------------------------


class FiltersScreen(ModalScreen[str | None]):
    """Source checkboxes and role/tag/date inputs that rewrite the query's filter tokens."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="filters.cancel"),
        Binding("ctrl+s", "apply", "Apply", id="filters.apply"),
    ]
    SOURCES = (("long_term", "long-term (MEMORY.md)"), ("daily", "daily notes"),
               ("note", "topic / role notes"))

    def __init__(self, query: str) -> None:
        super().__init__()
        self.original_query = query
        _, self.filters = split_query(query)

    def compose(self) -> ComposeResult:
        filters = self.filters
        chosen = {value.lower() for value in filters.sources}
        with Vertical(id="filters-box", classes="modal-box"):
            yield Static(Content.styled("filters", "bold $accent"))
            yield Label("source")
            with Horizontal(classes="filters-row"):
                for value, label in self.SOURCES:
                    yield Checkbox(label, value in chosen, id=f"source-{value}", compact=True)
            yield Label("role / file (glob or text)")
            yield Input(" ".join(filters.roles), id="role", placeholder="e.g. build  memory/*",
                        compact=True)
            yield Label("tag")
            yield Input(" ".join(filters.tags), id="tag", placeholder="e.g. deploy", compact=True)
            with Horizontal(classes="filters-row"):
                with Vertical():
                    yield Label("after (YYYY-MM-DD, on or after)")
                    yield Input(filters.after, id="after", placeholder="2026-11-01", compact=True)
                with Vertical():
                    yield Label("before (YYYY-MM-DD, strictly before)")
                    yield Input(filters.before, id="before", placeholder="2026-12-01",
                                compact=True)
            with Horizontal(classes="filters-buttons"):
                yield Button("Apply", id="apply", variant="primary", compact=True)
                yield Button("Clear filters", id="clear", compact=True)
                yield Button("Cancel", id="cancel", compact=True)
            yield Static(Content.styled(
                "tab moves · space ticks · enter or ctrl+s applies · esc cancels — filters are "
                "written into the query, e.g. source:daily tag:ops after:2026-11-01", "$muted"))

    def _collect(self) -> QueryFilters:
        def words(widget_id: str) -> list[str]:
            return self.query_one(f"#{widget_id}", Input).value.split()

        return QueryFilters(
            sources=[value for value, _ in self.SOURCES
                     if self.query_one(f"#source-{value}", Checkbox).value],
            roles=words("role"),
            tags=words("tag"),
            after=self.query_one("#after", Input).value.strip(),
            before=self.query_one("#before", Input).value.strip(),
        )

    def action_apply(self) -> None:
        self.dismiss(with_filters(self.original_query, self._collect()))

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#apply")
    def _apply_pressed(self) -> None:
        self.action_apply()

    @on(Button.Pressed, "#clear")
    def _clear_pressed(self) -> None:
        self.dismiss(with_filters(self.original_query, QueryFilters()))

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()


# --- warnings ----------------------------------------------------------------------------------


class WarningsScreen(CloseableModal):
    """Skipped files with reasons, config and theme warnings, entries with warnings."""

    def __init__(self, rows: list[tuple[str, str]]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        count = len(self.rows)
        title = f"warnings ({count})" if count else "warnings"
        with Vertical(id="warnings-box", classes="modal-box"):
            yield Static(Content.styled(title, "bold $accent"))
            yield VerticalScroll(Static(self._body(), id="warnings-body", markup=False))
            yield Static(Content.styled("esc close", "$muted"))

    def _body(self) -> Content:
        if not self.rows:
            return Content.styled("Nothing to report: every file loaded cleanly.", "$success")
        lines = [
            Content.assemble((one_line(where, 80), "bold"), ("  ", ""),
                             (one_line(problem, 200), "$warning"))
            for where, problem in self.rows[:MAX_WARNING_ROWS]
        ]
        if len(self.rows) > MAX_WARNING_ROWS:
            lines.append(Content.styled(f"… {len(self.rows) - MAX_WARNING_ROWS:,} more",
                                        "$muted"))
        return Content("\n").join(lines)


# --- no memory folder --------------------------------------------------------------------------


class NoMemoryScreen(Screen[None]):
    """Shown when no folder was given and none was found: where we looked, and the demo."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "demo", "Open the demo", id="nomemory.demo"),
        Binding("q,escape", "app.quit", "Quit", id="nomemory.quit"),
    ]

    def __init__(self, searched: list[str]) -> None:
        super().__init__()
        self.searched = searched

    def compose(self) -> ComposeResult:
        lines: list[Content] = [
            Content.styled("No memory folder found", "bold $accent"),
            Content(""),
            Content("memtui looked in these places, in order:"),
        ]
        lines += [Content.assemble(("  • ", "$muted"), (one_line(place, 150), ""))
                  for place in self.searched]
        lines += [
            Content(""),
            Content("Point it at a folder:  memtui ~/path/to/workspace"),
            Content("or set MEMTUI_DIR, or try the bundled demo memory:"),
        ]
        with Vertical(id="nomemory-box", classes="modal-box"):
            yield Static(Content("\n").join(lines), markup=False)
            with Horizontal(classes="nomemory-actions"):
                yield Button("Open the demo (d)", id="demo", variant="primary")
        yield Footer()

    @on(Button.Pressed, "#demo")
    def action_demo(self) -> None:
        from memtui.ui.app import MemtuiApp

        assert isinstance(self.app, MemtuiApp)
        self.app.open_demo()
