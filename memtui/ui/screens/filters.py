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

from memtui.ui.filters import QueryFilters, split_query, with_filters


class FiltersScreen(ModalScreen[str | None]):
    """The query's filters as a form; apply returns the rewritten query."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="filters.cancel"),
        Binding("ctrl+s", "apply", "Apply", id="filters.apply"),
    ]
    SOURCES = (("long_term", "long-term (MEMORY.md)"), ("daily", "daily notes"),
               ("note", "topic / role notes"))

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
            yield Static(Content.styled("filters", "bold $accent"))
            yield Label("source")
            with Horizontal(classes="filters-row"):
                for value, label in self.SOURCES:
                    yield Checkbox(label, value in chosen, id=f"source-{value}", compact=True)
            if self.root_labels:
                ticked = {value.casefold() for value in filters.roots}
                yield Label("memory folder")
                with Horizontal(classes="filters-row"):
                    for index, label in enumerate(self.root_labels):
                        yield Checkbox(Content(label), label.casefold() in ticked,
                                       id=f"root-{index}", compact=True)
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
            roots=self._roots(),
            after=self.query_one("#after", Input).value.strip(),
            before=self.query_one("#before", Input).value.strip(),
        )

    def _roots(self) -> list[str]:
        """Ticked folders, then `root:` values that are not a folder's label (kept as typed)."""
        labels = {label.casefold() for label in self.root_labels}
        ticked = [label for index, label in enumerate(self.root_labels)
                  if self.query_one(f"#root-{index}", Checkbox).value]
        return ticked + [value for value in self.filters.roots if value.casefold() not in labels]

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
