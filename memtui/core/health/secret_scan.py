"""The health checks' secrets scan: the entries masking fires in, and how often per kind.

The scan is pure Python over every body, ~0.5 s of CPU at 50,000 entries: the largest part of a
`health` run. So it runs in a forked child beside the other checks, and what it finds in a file
is kept on the file's record (`FileRecord.scanned`), which the cache writes with the file: a
file unchanged since its last scan is not scanned again, and a warm `health` scans only the
files that changed. A kept scan names the entries object it was made of, so a file read again
is scanned again.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping

from memtui.core.cache.records import FileSecrets
from memtui.core.health.entries import LiveEntries
from memtui.core.health.model import Check, Finding
from memtui.core.live.fork import Child, can_fork, start_in_child
from memtui.core.search.terms import EntryTerms
from memtui.core.secrets import secret_kinds

SCAN_CHILD_MIN_ENTRIES = 5_000
"""Below this many entries to scan the scan runs in this process: a fork costs more than the
scan (~8 µs an entry)."""

File = tuple[str, str]
"""(root label, path)."""
Masked = list[tuple[int, dict[str, int]]]
"""(index among the live entries, kinds masked and how often) of each entry masking fires in."""
KnownScans = Mapping[File, Mapping[int, Mapping[str, int]]]
"""File -> its entries' first lines -> kinds masked and how often, for each file scanned before."""


def known_scans(terms: EntryTerms) -> dict[File, dict[int, dict[str, int]]]:
    """The scans kept on the records of `terms`' files, for the entries they have now."""
    known: dict[File, dict[int, dict[str, int]]] = {}
    for file, (record, entries) in terms.files.items():
        scanned = record.scanned
        if scanned is not None and scanned[0] is entries:
            known[file] = {line: dict(kinds) for line, kinds in scanned[1]}
    return known


def masked_entries(entries: LiveEntries, known: KnownScans | None = None) -> Masked:
    """Every entry where masking fires, in file order; an entry of a file in `known` is taken
    from that scan, every other one is scanned now."""
    known = known or {}
    roots, paths, lines = entries.roots, entries.paths, entries.line_start
    found: Masked = []
    for index in range(len(entries)):
        scan = known.get((roots[index], paths[index]))
        kinds = (
            secret_kinds(scanned_text(entries, index)) if scan is None else scan.get(lines[index])
        )
        if kinds:
            found.append((index, dict(kinds)))
    found.sort(key=lambda item: (paths[item[0]], lines[item[0]], item[0]))
    return found


def scanned_text(entries: LiveEntries, index: int) -> str:
    """What the scan reads of an entry: everything masking shows masked (its title, its tags
    and its body), so a secret the app and `rank` mask is also a secret `health` reports."""
    return "\n".join((entries.titles[index], *entries.tags[index], entries.body(index)))


def start_secrets_scan(terms: EntryTerms, known: KnownScans) -> Child | None:
    """`masked_entries` started in a forked child, to run while this process does the other
    checks (the GIL would keep it off the second core otherwise). None when it had better run
    here: too little left to scan, or no fork (see `core.live.fork`)."""
    left = sum(len(entries) for file, (_, entries) in terms.files.items() if file not in known)
    if left < SCAN_CHILD_MIN_ENTRIES or not can_fork():
        return None
    return start_in_child(lambda: [json.dumps(masked_entries(terms.entries, known)).encode()])


def scanned(child: Child | None) -> Masked | None:
    """What the child's scan found; None when no child ran or it failed (scan here, then)."""
    pieces = None if child is None else child()
    if pieces is None:
        return None
    return [(index, dict(kinds)) for index, kinds in json.loads(pieces[0])]


def keep_scans(terms: EntryTerms, masked: Masked, known: KnownScans) -> None:
    """Keep what the scan found in each file scanned now on the file's record, when it scanned
    every entry the record holds (a history file's entries outside the date window are not
    live, and a later, wider window must not take them as scanned)."""
    scanned_now = [file for file in terms.files if file not in known]
    if not scanned_now:
        return
    entries = terms.entries
    roots, paths, lines = entries.roots, entries.paths, entries.line_start
    live = Counter(zip(roots, paths, strict=True))
    found: defaultdict[File, list[tuple[int, tuple[tuple[str, int], ...]]]] = defaultdict(list)
    for index, kinds in masked:
        found[(roots[index], paths[index])].append((lines[index], tuple(sorted(kinds.items()))))
    for file in scanned_now:
        record, file_entries = terms.files[file]
        if live[file] == len(file_entries):
            secrets: FileSecrets = tuple(sorted(found.get(file, ())))
            record.scanned = (file_entries, secrets)


def find_secrets(entries: LiveEntries, masked: Masked) -> tuple[list[Finding], Counter[str]]:
    """The entries `masked` names as findings, with the kinds masked; and totals per kind. An
    entry is made only where masking fires."""
    findings: list[Finding] = []
    totals: Counter[str] = Counter()
    for index, kinds in masked:
        totals.update(kinds)
        listed = ", ".join(f"{count} × {kind}" for kind, count in sorted(kinds.items()))
        count = sum(kinds.values())
        findings.append(
            Finding(
                Check.SECRETS,
                entries[index],
                f"masked {count} secret{'s' if count != 1 else ''}: {listed}",
                group=len(findings),
                details=tuple(sorted(kinds.items())),
            )
        )
    return findings, totals
