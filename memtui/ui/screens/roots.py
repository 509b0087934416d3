"""The memory-folder picker: what discovery found, how much each holds, one or all to open.

Shown at start when memtui finds several memory folders and none was named, and from the
palette ("Switch memory folder"). Discovery and counting read the disk, so they run in a
thread worker; rows appear at once and their entry counts and dates fill in as they are
counted. enter opens the highlighted folder, `a` opens all of them together; the choice goes
to the app as `RootsChosen` (the app owns what is open).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from memtui.core.live.roots import MemoryRoot, tilde
from memtui.core.places.survey import Survey, survey
from memtui.core.sanitize import middle_cut, one_line
from memtui.discovery import Candidate, discover, with_other_projects
from memtui.startup import drop_nested
from memtui.ui import widths
from memtui.ui.messages import CandidatesFound, CandidateSurveyed, RootsChosen

COLUMNS = (
    ("open", ""),
    ("kind", "kind"),
    ("label", "label"),
    ("entries", "entries"),
    ("newest", "newest"),
    ("folder", "folder"),
)
"""(key, heading) of the table's columns."""
NEWEST_CELLS = len("2026-11-26")
FIXED_COLUMNS_CELLS = 1 + len("entries") + NEWEST_CELLS + 2 * len(COLUMNS) + 7
OTHER_PROJECT_NOTE = " (another project)"
"""Cells the fixed columns, every column's padding, the box's border and padding and a scroll
bar take; the folder gets what the kind and label columns leave of the rest."""


def entries_cell(found: Survey | None) -> str:
    if found is None:
        return "…"
    return f"{found.entries:,}" + ("" if found.complete else "+")


def newest_cell(found: Survey | None) -> str:
    if found is None:
        return "…"
    return found.newest.isoformat() if found.newest else "—"


class RootsScreen(Screen[None]):
    """Candidates in a table; enter opens one, `a` opens all, esc goes back (or quits)."""

    DEFAULT_CSS = """
    RootsScreen { align: center middle; }
    #roots-table { height: auto; max-height: 20; margin: 1 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "open_all", "Open all together", id="roots.all"),
        Binding("escape", "back", "Close", id="roots.back"),
        Binding("q", "app.quit", "Quit", id="roots.quit"),
    ]

    def __init__(
        self,
        candidates: Sequence[Candidate] | None = None,
        *,
        open_now: Sequence[MemoryRoot] = (),
        can_go_back: bool = False,
    ) -> None:
        """`candidates` None: discover them here (in a worker); `open_now`: what is open."""
        super().__init__()
        self.candidates: list[Candidate] = list(candidates or [])
        self.discovering = candidates is None
        self.open_now = {root.path for root in open_now}
        self.can_go_back = can_go_back
        self.surveys: dict[int, Survey] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="roots-box", classes="modal-box"):
            yield Static(Content.styled("Memory folders found", "bold $text-accent"))
            yield Static(self._help(), id="roots-help")
            yield DataTable(id="roots-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="roots-note", markup=False)
        yield Footer()

    def _help(self) -> Content:
        together = " · a opens all of them together" if self._openable_together() else ""
        back = "goes back" if self.can_go_back else "quits"
        return Content.styled(f"enter opens the highlighted one{together} · esc {back}", "$muted")

    def _openable_together(self) -> list[Candidate]:
        """What `a` opens: every memory found here (never another project's), when that is more
        than one folder."""
        local = [candidate for candidate in self.candidates if not candidate.other_project]
        return local if len(local) > 1 else []

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self._openable_together()) if action == "open_all" else True

    def _folder_cell(self, candidate: Candidate, width: int) -> str:
        """Where it is, cut in the middle to `width`: another project's memory by the project's
        folder (else its encoded name), a set of files with their names."""
        if candidate.other_project:
            where = tilde(candidate.project) if candidate.project else candidate.path.parent.name
            if width - len(OTHER_PROJECT_NOTE) < len("~/…/x"):
                return middle_cut(where + OTHER_PROJECT_NOTE, width)
            return middle_cut(where, width - len(OTHER_PROJECT_NOTE)) + OTHER_PROJECT_NOTE
        files = f" ({', '.join(candidate.only)})" if candidate.only else ""
        return middle_cut(tilde(candidate.path) + files, width)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, heading in COLUMNS:
            # A date's width from the start: widened by `update_cell` as the survey came in, the
            # column sometimes kept the heading's six cells (`2026-1`) until a resize.
            table.add_column(heading, key=key, width=NEWEST_CELLS if key == "newest" else None)
        if self.discovering:
            self._note("Looking for memory folders…")
            self.find_and_count([])
        else:
            self._fill()
            self.find_and_count(self.candidates)
        table.focus()

    def _note(self, text: str) -> None:
        self.query_one("#roots-note", Static).update(Content.styled(text, "$muted"))

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        self.query_one("#roots-help", Static).update(self._help())
        self.refresh_bindings()
        kinds = max((len(candidate.kind) for candidate in self.candidates), default=4)
        labels = max((len(candidate.label) for candidate in self.candidates), default=5)
        width = max(12, self.app.size.width - FIXED_COLUMNS_CELLS - max(kinds, 4) - labels)
        for index, candidate in enumerate(self.candidates):
            found = self.surveys.get(index)
            table.add_row(
                Text("●" if candidate.path in self.open_now else ""),
                Text(candidate.kind),
                Text(one_line(candidate.label, widths.LABEL)),
                Text(entries_cell(found), justify="right"),
                Text(newest_cell(found)),
                Text(self._folder_cell(candidate, width)),
                key=str(index),
            )
        self._note(
            ""
            if self.candidates
            else "No memory folder found from here: see `memtui roots` for where memtui looks."
        )

    @work(thread=True, exclusive=True, group="roots")
    def find_and_count(self, known: list[Candidate]) -> None:
        """Discover (when not given) and survey every candidate, reporting as it goes."""
        candidates = known
        if self.discovering:
            candidates = with_other_projects(discover())
            self.post_message(CandidatesFound(candidates))
        for index, candidate in enumerate(candidates):
            self.post_message(CandidateSurveyed(index, survey(candidate.path, candidate.only)))

    @on(CandidatesFound)
    def _found(self, message: CandidatesFound) -> None:
        self.candidates = message.candidates
        self._fill()

    @on(CandidateSurveyed)
    def _surveyed(self, message: CandidateSurveyed) -> None:
        self.surveys[message.index] = message.survey
        table = self.query_one(DataTable)
        row = str(message.index)
        table.update_cell(
            row, "entries", Text(entries_cell(message.survey), justify="right"), update_width=True
        )
        table.update_cell(row, "newest", Text(newest_cell(message.survey)), update_width=True)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        candidate = self.candidates[int(str(event.row_key.value))]
        self.post_message(RootsChosen((candidate.root,)))

    def action_open_all(self) -> None:
        together = self._openable_together()
        if not together:
            self.app.bell()
            return
        roots, nested = drop_nested([candidate.root for candidate in together])
        for inner, outer in nested:
            self.app.notify(
                f"{one_line(inner.label, widths.LABEL)} is inside "
                f"{one_line(outer.label, widths.LABEL)}: opened once",
                timeout=4,
                markup=False,
            )
        self.post_message(RootsChosen(roots))

    def action_back(self) -> None:
        if self.can_go_back:
            self.app.pop_screen()
        else:
            self.app.exit()
