"""What the health checks report: findings, each with the entry, its section and why.

Like the score breakdown, a finding carries the numbers behind it (`details`): the similarity
and threshold, the newer entry and the date gap, the line and the limit, the secret kinds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from enum import StrEnum

from msgspec import Struct

from memtui.core.model import Entry
from memtui.core.plural import plural

Detail = int | float | str | bool | None | tuple[str, ...]


class Check(StrEnum):
    """The sections of the health view, in the order they are shown."""

    DUPLICATES = "duplicates"
    SUPERSEDED = "superseded"
    LOAD_LINE = "load_line"
    SECRETS = "secrets"
    STALE = "stale"


SECTION_TITLES = {
    Check.DUPLICATES: "near-duplicates",
    Check.SUPERSEDED: "superseded",
    Check.LOAD_LINE: "beyond the load line",
    Check.SECRETS: "secrets",
    Check.STALE: "maybe stale",
}


class Finding(Struct, frozen=True):
    """One entry in one section, and why it is there."""

    check: Check
    entry: Entry
    reason: str
    """One line that says why, with the numbers (shown as is, after masking and sanitising)."""
    group: int = 0
    """Findings of one check with the same group belong together (a duplicate group, a topic
    restated over time, one file's load line); groups are numbered from 0 in display order."""
    lead: bool = False
    """The newest of a duplicate group, the newest statement of a superseded topic."""
    related: Entry | None = None
    """The entry the reason points at: the duplicate it matched, the newer restatement."""
    details: tuple[tuple[str, Detail], ...] = ()
    """The reason's numbers by name (`--json` prints them as an object)."""

    def detail(self, name: str) -> Detail:
        for key, value in self.details:
            if key == name:
                return value
        return None


class LoadCut(Struct, frozen=True):
    """Where an agent stops reading one file: after line `last_line` (the whole line when
    `whole_line`, else part of it) under the rule of `agent`."""

    root: str
    """The label of the file's root ('' with one root), as `Entry.root`."""
    path: str
    """Relative to its root, as `Entry.path`."""
    agent: str
    limits: str
    """The rule's limits as text, e.g. `200 lines / 25,000 bytes`."""
    last_line: int
    whole_line: bool
    file_lines: int

    @property
    def qualified_path(self) -> str:
        return f"{self.root}/{self.path}" if self.root else self.path


class HealthReport(Struct, frozen=True):
    findings: tuple[Finding, ...]
    """Every finding, by section (`Check` order), group and position in the group."""
    cuts: tuple[LoadCut, ...]
    """Every load line that falls inside a file (files read whole are not listed)."""
    secret_counts: tuple[tuple[str, int], ...]
    """Secrets masked per kind over all entries, most frequent first."""
    entries: int
    today: dt.date
    elapsed_ms: float

    def section(self, check: Check) -> tuple[Finding, ...]:
        return tuple(finding for finding in self.findings if finding.check is check)

    def counts(self) -> dict[Check, int]:
        """Findings per section (entries, not groups), every section present."""
        counts = dict.fromkeys(Check, 0)
        for finding in self.findings:
            counts[finding.check] += 1
        return counts

    def groups(self, check: Check) -> int:
        return len({finding.group for finding in self.section(check)})

    def heading(self, check: Check) -> str:
        """`near-duplicates — 3 groups, 6 entries`: a section's title and size."""
        count = self.counts()[check]
        title = SECTION_TITLES[check]
        if count == 0:
            return f"{title} — none"
        entries = plural(count, "entry", "entries")
        if check in (Check.DUPLICATES, Check.SUPERSEDED):
            groups = self.groups(check)
            return f"{title} — {plural(groups, 'group')}, {entries}"
        if check is Check.SECRETS:
            kinds = ", ".join(f"{number} × {kind}" for kind, number in self.secret_counts)
            return f"{title} — {entries} ({kinds})"
        return f"{title} — {entries}"

    def beyond_load_line(self) -> frozenset[str]:
        """Ids of entries that start past a load line (for a badge in the results list)."""
        return frozenset(
            finding.entry.id
            for finding in self.section(Check.LOAD_LINE)
            if not finding.detail("partly")
        )


def citation(entry: Entry) -> str:
    """`path:line`, how a reason points at another entry (`root/path:line` when several
    memory folders are open, as the list shows it)."""
    return f"{entry.qualified_path}:{entry.line_start}"


def newest_first(entries: Iterable[Entry]) -> list[Entry]:
    """Dated entries newest first (on the same day and file, the later line first: notes are
    appended), then undated ones in file order."""
    ordered = sorted(entries, key=lambda entry: (entry.path, entry.line_start))
    dated = sorted(
        (entry for entry in ordered if entry.when is not None),
        key=lambda entry: (entry.path, -entry.line_start),
    )
    dated.sort(key=lambda entry: entry.when or dt.datetime.min, reverse=True)
    return dated + [entry for entry in ordered if entry.when is None]
