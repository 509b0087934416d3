"""Source checkboxes and role/tag/date inputs that rewrite the query's filter tokens (f).

With several memory folders open, a checkbox per folder writes `root:LABEL` filters; other
`root:` values typed in the query (globs on the path) are kept as they are.

The screen edits the query text itself (see `memtui.ui.filters`) and returns the new query
through `dismiss` (None: cancelled); the main screen puts it in the query box.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from memtui.ui.filters import QueryFilters, date_problem, split_query, with_filters


class TickBox(Checkbox, inherit_bindings=False):
    """A checkbox drawn `[x]` or `[ ]`: ticked and unticked differ in shape, not only in colour
    (so they read the same under NO_COLOR and to colour-blind eyes). Only space ticks it:
    enter goes on to the form, which applies, as its hint says."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_button", "Toggle", show=False),
    ]

    def render(self) -> Content:
        box = Content.styled(
            "[x]" if self.value else "[ ]", "bold $text-success" if self.value else "$foreground"
        )
        label = self.label.pad(1, 1).stylize_before(self.get_visual_style("toggle--label"))
        return Content.assemble(box, label)


class FiltersScreen(ModalScreen[str | None]):
    """The query's filters as a form; apply returns the rewritten query."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="filters.cancel"),
        Binding("ctrl+s", "apply", "Apply", id="filters.apply"),
        Binding("enter", "apply", "Apply", show=False),
    ]
    SOURCES = (("long_term", "long-term"), ("daily", "daily"), ("note", "topic/role"))
    DATES = ("after", "before")

    def __init__(self, query: str, root_labels: Sequence[str] = ()) -> None:
        """`root_labels`: the open memory folders, when there are several to choose from."""
        super().__init__()
        self.original_query = query
        _, self.filters = split_query(query)
        self.root_labels = list(root_labels)

    def compose(self) -> ComposeResult:
        filters = self.filters
        chosen = {value.lower() for value in filters.sources}
        with Vertical(id="filters-box", classes="modal-box"):
            yield Static(Content.styled("filters", "bold $text-accent"))
            with Horizontal(classes="filters-row"):
                yield Label("source", classes="filters-label")
                for value, label in self.SOURCES:
                    yield TickBox(label, value in chosen, id=f"source-{value}", compact=True)
            if self.root_labels:
                ticked = {value.casefold() for value in filters.roots}
                with Horizontal(classes="filters-row"):
                    yield Label("folder", classes="filters-label")
                    for index, label in enumerate(self.root_labels):
                        yield TickBox(
                            Content(label),
                            label.casefold() in ticked,
                            id=f"root-{index}",
                            compact=True,
                        )
            with Horizontal(classes="filters-row"):
                yield Label("role/file", classes="filters-label")
                yield Input(
                    " ".join(filters.roles),
                    id="role",
                    compact=True,
                    placeholder="e.g. build  memory/*  (a glob, or text it contains)",
                )
            with Horizontal(classes="filters-row"):
                yield Label("tag", classes="filters-label")
                yield Input(
                    " ".join(filters.tags), id="tag", placeholder="e.g. deploy", compact=True
                )
            with Horizontal(classes="filters-row"):
                yield Label("after", classes="filters-label")
                yield Input(
                    filters.after,
                    id="after",
                    placeholder="e.g. 2026-11-01",
                    compact=True,
                    classes="filters-date",
                )
                yield Label("before", classes="filters-label")
                yield Input(
                    filters.before,
                    id="before",
                    placeholder="e.g. 2026-12",
                    compact=True,
                    classes="filters-date",
                )
            yield Static(id="date-problem", markup=False)
            with Horizontal(classes="filters-buttons"):
                yield Button("Apply", id="apply", variant="primary", compact=True)
                yield Button("Clear filters", id="clear", compact=True)
                yield Button("Cancel", id="cancel", compact=True)
            yield Static(
                Content.styled(
                    "tab moves · space ticks · enter or ctrl+s applies · esc cancels — written "
                    "into the query (after: on or after, before: strictly before)",
                    "$muted",
                )
            )

    def on_mount(self) -> None:
        self._check_dates()

    @on(Input.Changed, ".filters-date")
    def _date_typed(self) -> None:
        self._check_dates()

    def _check_dates(self) -> list[Input]:
        """Flag each date the query would refuse, as it is typed; returns the bad inputs."""
        bad: list[Input] = []
        problems: list[str] = []
        for name in self.DATES:
            field_input = self.query_one(f"#{name}", Input)
            problem = date_problem(name, field_input.value)
            field_input.set_class(problem is not None, "-invalid")
            if problem is not None:
                bad.append(field_input)
                problems.append(problem)
        note = self.query_one("#date-problem", Static)
        note.update(Content.styled("  ".join(f"⚠ {text}" for text in problems), "$text-error"))
        note.display = bool(problems)
        return bad

    def _collect(self) -> QueryFilters:
        def words(widget_id: str) -> list[str]:
            return self.query_one(f"#{widget_id}", Input).value.split()

        return QueryFilters(
            sources=[
                value
                for value, _ in self.SOURCES
                if self.query_one(f"#source-{value}", Checkbox).value
            ],
            roles=words("role"),
            tags=words("tag"),
            roots=self._roots(),
            after=self.query_one("#after", Input).value.strip(),
            before=self.query_one("#before", Input).value.strip(),
        )

    def _roots(self) -> list[str]:
        """Ticked folders, then `root:` values that are not a folder's label (kept as typed)."""
        labels = {label.casefold() for label in self.root_labels}
        ticked = [
            label
            for index, label in enumerate(self.root_labels)
            if self.query_one(f"#root-{index}", Checkbox).value
        ]
        return ticked + [value for value in self.filters.roots if value.casefold() not in labels]

    def action_apply(self) -> None:
        bad = self._check_dates()
        if bad:  # the search would refuse it: stay, and point at the date
            self.app.bell()
            bad[0].focus()
            return
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
