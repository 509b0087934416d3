"""Run every health check over an engine's loaded entries: the one entry point for the
`health` command, the TUI's health view and the bench.

Nothing is written anywhere: the checks read the engine's entries and index, and the few files
a load-line rule applies to (the secrets scan keeps what it found on the engine's file records,
for the next cache write: `core.health.secret_scan`). Fixing is the user's edit in `$EDITOR`.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from memtui.core.health.dated import find_stale, find_superseded
from memtui.core.health.load_line import (
    EntryLines,
    applies,
    find_beyond_load_line,
    past_load_line,
    read_texts,
)
from memtui.core.health.model import Finding, HealthReport, LoadCut
from memtui.core.health.secret_scan import (
    find_secrets,
    keep_scans,
    known_scans,
    masked_entries,
    scanned,
    start_secrets_scan,
)
from memtui.core.health.settings import HealthSettings
from memtui.core.live.allocator import give_back_memory
from memtui.core.live.engine import Engine
from memtui.core.live.fork import Child, can_fork, start_in_child
from memtui.core.search.terms import EntryTerms

if TYPE_CHECKING:
    from memtui.core.cache.records import PairScores
    from memtui.core.health.duplicates import Pairs

PAIRS_CHILD_MIN_ENTRIES = 5_000
"""Below this many entries duplicate pairs are searched in this process (~9 µs an entry)."""


def start_pair_search(terms: EntryTerms, settings: HealthSettings) -> Child | None:
    """`verified_pairs` started in a forked child, to run while this process does the other
    checks: it is most of the duplicates check (~0.45 s at 50,000 entries), and with the
    secrets scan kept per file the second core is otherwise idle in a warm `health`. None
    when it had better run here."""
    if len(terms.entries) < PAIRS_CHILD_MIN_ENTRIES or not can_fork():
        return None
    from memtui.core.health.duplicates import pairs_as_bytes, verified_pairs  # rapidfuzz: ~3 MB

    return start_in_child(lambda: pairs_as_bytes(*verified_pairs(terms, settings)))


def searched_pairs(
    child: Child | None, settings: HealthSettings
) -> tuple[Pairs, PairScores] | None:
    """What the child's pair search found; None when no child ran or it failed (search here)."""
    pieces = None if child is None else child()
    if pieces is None:
        return None
    from memtui.core.health.duplicates import pair_scorer, pairs_from_bytes

    return pairs_from_bytes(pieces, pair_scorer(settings))


def check_terms(
    terms: EntryTerms,
    read: Callable[[], Mapping[str, str]],
    settings: HealthSettings,
    today: dt.date,
) -> HealthReport:
    """Every check over `terms` (the load-line check over the texts `read` gives, path ->
    file text, read once the children run)."""
    started = time.perf_counter()
    entries = terms.entries
    known = known_scans(terms)
    children = [start_secrets_scan(terms, known), start_pair_search(terms, settings)]
    try:
        texts = read()
        governed = (
            entries[index] for index, path in enumerate(entries.qualified_paths) if path in texts
        )
        load_line, cuts = find_beyond_load_line(governed, texts, settings.load_lines)
        superseded = _then_give_back(find_superseded(terms, settings))
        stale = _then_give_back(find_stale(terms, settings, today))
        from memtui.core.health.duplicates import find_duplicates  # rapidfuzz: ~3 MB

        verified = searched_pairs(children[1], settings)
        duplicates = _then_give_back(find_duplicates(terms, settings, verified))
        masked = scanned(children[0])
        if masked is None:
            masked = masked_entries(entries, known)
        keep_scans(terms, masked, known)
        secrets, totals = find_secrets(entries, masked)
    finally:
        for child in children:
            if child is not None:
                child.stop()  # only when the checks here raised: one that answered is reaped
    findings = [*duplicates, *superseded, *load_line, *secrets, *stale]
    return HealthReport(
        findings=tuple(findings),
        cuts=tuple(cuts),
        secret_counts=tuple(sorted(totals.items(), key=lambda item: (-item[1], item[0]))),
        entries=len(terms.entries),
        today=today,
        elapsed_ms=(time.perf_counter() - started) * 1000,
    )


def _then_give_back(findings: list[Finding]) -> list[Finding]:
    """A check's findings, once what it freed went back to the system: each check makes large
    arrays from the index's ~4 million (entry, word) pairs at 50,000 entries, and without this
    their memory piled up from one check to the next."""
    give_back_memory()
    return findings


def check_health(engine: Engine) -> HealthReport:
    """Every check over the engine's live entries (builds the index if it is not yet built).
    Safe on a worker thread: the engine's arrays are read under its lock, the rest without."""
    started = time.perf_counter()
    terms = engine.entry_terms()
    give_back_memory()
    settings = engine.config.health

    def texts() -> dict[str, str]:
        """The files a load-line rule applies to, read while the children start their work."""
        files = dict.fromkeys(zip(terms.entries.roots, terms.entries.paths, strict=True))
        return read_texts(files, _root_of(engine), settings.load_lines)

    report = check_terms(terms, texts, settings, engine.today)
    elapsed = (time.perf_counter() - started) * 1000
    return HealthReport(
        report.findings, report.cuts, report.secret_counts, report.entries, report.today, elapsed
    )


def load_line_cuts(engine: Engine) -> dict[str, tuple[LoadCut, ...]]:
    """Entry id -> the load lines it starts or runs past, over the engine's loaded entries:
    the one check the main screen runs after every load and change (no index needed). Only
    the entries of files a rule applies to are looked at, and only their places are kept (a
    warm start's entries are made one at a time; a 50k corpus's MEMORY.md held ~10 MB)."""
    rules = engine.config.health.load_lines
    governed = [
        EntryLines.of(entry)
        for store in engine.stores
        for path, entries in store.loaded_files().items()
        if any(applies(rule, path) for rule in rules)
        for entry in entries
    ]
    return past_load_line(governed, _root_of(engine), rules)


def _root_of(engine: Engine) -> dict[str, Path]:
    return {store.label: store.root for store in engine.stores}
