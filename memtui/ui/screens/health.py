"""The health view (h on the main screen): every health finding by section, the selected entry
beside it, and why it was found.

The checks run in a thread worker (`core.health.check`) so typing never waits; the view shows
"checking…" until `HealthChecked` arrives, and `r` checks again (after an edit, say). Editing
(`e`) and copying (`y`) are the main screen's own actions, which it passes in as `edit` and
`copy`. Nothing here writes anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from memtui.core.cite import date_label
from memtui.core.health.check import check_health
from memtui.core.health.load_line import cuts_past
from memtui.core.health.model import Check, Finding, HealthReport
from memtui.core.places.loads import SessionReport, session_report
from memtui.core.sanitize import one_line
from memtui.core.secrets import mask_secrets
from memtui.ui import messages, render, widths
from memtui.ui.load_line import load_line_rule
from memtui.ui.widgets.detail import EntryView

if TYPE_CHECKING:
    from memtui.core.live.engine import Engine
    from memtui.core.model import Entry

MAX_ROWS_PER_SECTION = 500
"""Rows shown per section (`memtui health --json` lists them all)."""
GROUPED = (Check.DUPLICATES, Check.SUPERSEDED)


def finding_prompt(finding: Finding, mask: Callable[[str], str]) -> Content:
    """Two lines: where and what, then why (indented under its group's lead when grouped)."""
    entry = finding.entry
    indent = "    " if finding.check in GROUPED and not finding.lead else "  "
    where = f"{entry.qualified_path}:{entry.line_start}"
    return Content.assemble(
        (indent, ""),
        (one_line(where, widths.SHORT), "bold" if finding.lead else ""),
        ("  ", ""),
        (date_label(entry), "$muted"),
        ("  ", ""),
        (one_line(mask(entry.title), widths.SHORT), ""),
        ("\n", ""),
        (f"{indent}  ", ""),
        (one_line(mask(finding.reason), widths.LINE), "$muted"),
    )


def session_options(session: SessionReport) -> list[Option]:
    """The view's last section: what every session start loads, the biggest contributors and
    what caps cut off (read-only lines, like the section headings)."""
    heading, *rest = session.lines()
    options = [Option(Content.styled(heading, "bold $text-secondary"), disabled=True)]
    for line in rest:
        style = "bold $text-secondary" if not line.startswith(" ") else "$foreground"
        options.append(Option(Content.styled(one_line(line, widths.LINE), style), disabled=True))
    return options


class HealthScreen(Screen[None]):
    """Sections of findings on the left, the selected entry and its reason on the right."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h", "close", "Back", id="health.close"),
        Binding("e", "entry('edit')", "Edit", id="health.edit"),
        Binding("y", "entry('copy')", "Copy", id="health.copy"),
        Binding("r", "recheck", "Check again", id="health.recheck"),
        Binding("tab", "app.focus_next", "Entry ↔ list", show=False, id="health.focus"),
    ]
    DEFAULT_CSS = """
    HealthScreen { layout: vertical; }
    #health-title { height: 1; background: $panel; padding: 0 1; }
    #health-body { height: 1fr; }
    #health-list {
        width: 11fr; min-width: 40; height: 1fr;
        border: round $primary 40%; border-title-color: $text-primary;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    #health-list:focus { border: round $accent; border-title-color: $text-accent; }
    #health-right { width: 9fr; }
    #health-header { height: auto; background: $panel; padding: 0 1; }
    #health-rule { height: auto; padding: 0 1; }
    #health-entry { height: 1fr; border: round $primary 40%; }
    #health-entry:focus { border: round $accent; }
    """

    def __init__(
        self, engine: Engine, *, edit: Callable[[Entry], None], copy: Callable[[Entry], None]
    ) -> None:
        super().__init__()
        self.engine = engine
        self.entry_actions = {"edit": edit, "copy": copy}
        """The main screen's own edit and copy of an entry (`e`, `y`)."""
        self.report: HealthReport | None = None
        self.findings: list[Finding] = []

    def compose(self) -> ComposeResult:
        yield Static(id="health-title", markup=False)
        with Horizontal(id="health-body"):
            yield OptionList(id="health-list")
            with Vertical(id="health-right"):
                yield Static(id="health-header", markup=False)
                yield Static(id="health-rule", markup=False)
                yield EntryView(id="health-entry")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#health-list").border_title = Content("memory health")
        self.action_recheck()

    # --- checking -------------------------------------------------------------------------------

    def action_recheck(self) -> None:
        self.query_one("#health-title", Static).update(
            Content.styled("memory health · checking…", "bold")
        )
        self.run_checks()

    @work(thread=True, exclusive=True, group="health")
    def run_checks(self) -> None:
        """Every check, off the event loop (about half a second on 10,000 entries)."""
        try:
            report = check_health(self.engine)
            session = session_report(self.engine.roots)
        except Exception as exc:  # a failed check must say so, not take the app down
            self.post_message(messages.HealthChecked(None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(messages.HealthChecked(report, session=session))

    @on(messages.HealthChecked)
    def _checked(self, message: messages.HealthChecked) -> None:
        title = self.query_one("#health-title", Static)
        if message.report is None:
            title.update(
                Content.styled(
                    f"memory health · could not check: {one_line(message.error, widths.LINE)}",
                    "bold $text-error",
                )
            )
            return
        report = self.report = message.report
        title.update(
            Content.assemble(
                ("memory health", "bold"),
                (
                    f" · {report.entries:,} entries · {report.elapsed_ms:,.0f} ms · read-only: "
                    "fix in your editor (e)",
                    "$muted",
                ),
            )
        )
        self._fill(report, message.session)

    def _fill(self, report: HealthReport, session: SessionReport | None = None) -> None:
        mask = self._masked
        options: list[Option] = []
        self.findings = []
        for check in Check:
            options.append(
                Option(Content.styled(report.heading(check), "bold $text-secondary"), disabled=True)
            )
            section = report.section(check)
            for finding in section[:MAX_ROWS_PER_SECTION]:
                options.append(Option(finding_prompt(finding, mask), id=str(len(self.findings))))
                self.findings.append(finding)
            if len(section) > MAX_ROWS_PER_SECTION:
                more = len(section) - MAX_ROWS_PER_SECTION
                options.append(
                    Option(
                        Content.styled(
                            f"  … {more:,} more (memtui health --json lists them all)", "$muted"
                        ),
                        disabled=True,
                    )
                )
        if session is not None:
            options.extend(session_options(session))
        listing = self.query_one("#health-list", OptionList)
        listing.clear_options()
        listing.add_options(options)
        if self.findings:
            listing.highlighted = next(
                index for index, option in enumerate(options) if not option.disabled
            )
        else:
            self._show(None)
        listing.focus()

    # --- the selected finding -------------------------------------------------------------------

    def _mask(self, text: str) -> tuple[str, int]:
        """Secrets masked (as the config says), and how many: this view never reveals them."""
        return mask_secrets(text) if self.engine.config.mask_secrets else (text, 0)

    def _masked(self, text: str) -> str:
        return self._mask(text)[0]

    @property
    def selected(self) -> Finding | None:
        option = self.query_one("#health-list", OptionList).highlighted_option
        if option is None or option.id is None:
            return None
        return self.findings[int(option.id)]

    @on(OptionList.OptionHighlighted, "#health-list")
    def _highlighted(self) -> None:
        self._show(self.selected)

    @on(OptionList.OptionSelected, "#health-list")
    def _chosen(self) -> None:
        self.query_one(EntryView).focus()

    def _show(self, finding: Finding | None) -> None:
        header = self.query_one("#health-header", Static)
        rule = self.query_one("#health-rule", Static)
        view = self.query_one(EntryView)
        if finding is None:
            header.update(
                Content.styled(
                    "No findings: nothing duplicated, superseded, cut off, secret or stale.",
                    "$text-success",
                )
            )
            rule.update(Content(""))
            view.clear()
            return
        entry = finding.entry
        text, masked = self._mask(render.entry_text(entry))
        header.update(
            Content("\n").join(
                [
                    render.detail_header(entry, masked=masked, revealed=False),
                    Content.styled(
                        one_line(self._masked(finding.reason), widths.LINE), "$text-accent"
                    ),
                ]
            )
        )
        cuts = self.report.cuts if self.report and finding.check is Check.LOAD_LINE else ()
        rule.update(load_line_rule(entry, cuts_past(entry, cuts)))
        view.show(text, None)

    # --- acting on it ---------------------------------------------------------------------------

    def action_entry(self, action: str) -> None:
        """`e` / `y`: the main screen's own edit and copy, on the selected entry."""
        finding = self.selected
        if finding is None:
            self.app.bell()
            return
        self.entry_actions[action](finding.entry)
        if action == "edit":
            self.notify("After editing, press r to check again.", timeout=4, markup=False)

    def action_close(self) -> None:
        self.app.pop_screen()
