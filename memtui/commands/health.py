"""`memtui health [ROOT…]`: near-duplicates, superseded and stale entries, secrets, and what the
agent never loads, each finding with its reason. Read-only: fixing is the user's edit.

Exit codes, like a linter's: 0 healthy (no findings), 1 findings listed, 2 usage error. Titles and
reasons pass through the sanitiser and, unless `--reveal-secrets`, the secret mask; `--json` prints
one object (schema in the README).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, TextIO

from memtui.commands.common import dump_json, secret_masker, startup_from_args
from memtui.commands.engine import cache_saved_after, open_engine
from memtui.commands.output import (
    load_notes,
    root_fields,
    roots_payload,
    skipped_payload,
    unreadable_notes,
)
from memtui.core.cite import cited_path, date_label, iso_date
from memtui.core.health.check import check_health
from memtui.core.health.model import Check, Finding, HealthReport
from memtui.core.live.engine import Engine
from memtui.core.model import Entry
from memtui.core.places.loads import CHARS_PER_TOKEN, SessionReport, session_report
from memtui.core.plural import plural
from memtui.core.sanitize import one_line, undecodable_bytes_visible


def run_health(args: argparse.Namespace, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    startup = startup_from_args(args)
    engine = open_engine(startup)
    engine.load()
    for warning in [*load_notes(startup, engine), *unreadable_notes(engine)]:
        print(f"memtui: {one_line(warning, 500)}", file=sys.stderr)
    report = check_health(engine)
    session = session_report(engine.roots, loading_only=True)  # on-demand files: unreported
    show = secret_masker(args, startup.config)
    with cache_saved_after(engine):
        if args.json:
            payload = health_payload(engine, report, startup.days, show)
            dump_json(payload | {"session": session_payload(session)}, stream)
        else:
            print_report(stream, engine, report, startup.days, show)
            print("", *(one_line(line, 400) for line in session.lines()), sep="\n", file=stream)
        stream.flush()
    return 1 if report.findings else 0


def _location(engine: Engine, entry: Entry) -> dict[str, Any]:
    return {
        **root_fields(engine, entry),
        "path": entry.path,
        "line_start": entry.line_start,
        "line_end": entry.line_end,
    }


def finding_payload(engine: Engine, finding: Finding, show: Callable[[str], str]) -> dict[str, Any]:
    entry = finding.entry
    details = {
        name: list(value) if isinstance(value, tuple) else value for name, value in finding.details
    }
    words = finding.detail("words")
    if isinstance(words, tuple):
        details["words"] = [show(word) for word in words]
    return {
        "check": finding.check.value,
        "group": finding.group,
        "lead": finding.lead,
        **_location(engine, entry),
        "title": one_line(show(entry.title), 300),
        "date": iso_date(entry),
        "source": entry.source.value,
        "reason": one_line(show(finding.reason), 500),
        "details": details,
        "related": None if finding.related is None else _location(engine, finding.related),
    }


def health_payload(
    engine: Engine, report: HealthReport, days: int, show: Callable[[str], str]
) -> dict[str, Any]:
    root_path = {root.label: root.path for root in engine.roots}
    return {
        "roots": roots_payload(engine),
        "today": report.today.isoformat(),
        "days": days,
        "entries": report.entries,
        "elapsed_ms": round(report.elapsed_ms, 1),
        "counts": {check.value: count for check, count in report.counts().items()},
        "groups": {check.value: report.groups(check) for check in Check},
        "secret_kinds": dict(report.secret_counts),
        "load_lines": [
            {
                "root": undecodable_bytes_visible(str(root_path.get(cut.root, ""))),
                "path": undecodable_bytes_visible(cut.path),
                "agent": cut.agent,
                "limits": cut.limits,
                "last_loaded_line": cut.last_line,
                "whole_line": cut.whole_line,
                "file_lines": cut.file_lines,
            }
            for cut in report.cuts
        ],
        "findings": [finding_payload(engine, finding, show) for finding in report.findings],
        "skipped": skipped_payload(engine),
    }


def session_payload(session: SessionReport) -> dict[str, Any]:
    """What every session start loads: the total, then every file that costs or loses some."""
    return {
        "chars": session.chars,
        "tokens_estimate": round(session.chars / CHARS_PER_TOKEN),
        "lost_past_cap": session.lost,
        "files": [
            {"root_label": label, "path": undecodable_bytes_visible(item.path)}
            | {"load": item.load.value, "chars": item.chars, "loaded": item.loaded}
            | {"lost": item.lost, "cap": item.cap or None}
            for label, item in session.files()
            if item.loaded or item.lost
        ],
    }


def print_report(
    stream: TextIO, engine: Engine, report: HealthReport, days: int, show: Callable[[str], str]
) -> None:
    folders = " + ".join(one_line(str(root.path), 300) for root in engine.roots)
    window = "all days" if days == 0 else f"last {plural(days, 'day')}"
    print(
        f"memtui health · {folders} · {plural(report.entries, 'entry', 'entries')}"
        f" · today {report.today}"
        f" · {window} · {report.elapsed_ms:.0f} ms",
        file=stream,
    )
    for check in Check:
        print(f"\n{report.heading(check)}", file=stream)
        for finding in report.section(check):
            indent = (
                "  "
                if finding.lead or check not in (Check.DUPLICATES, Check.SUPERSEDED)
                else "    "
            )
            entry = finding.entry
            when = date_label(entry)
            print(
                f"{indent}{one_line(cited_path(engine, entry), 200)}:{entry.line_start}  {when}  "
                f"{one_line(show(entry.title), 80)}",
                file=stream,
            )
            print(f"{indent}  {one_line(show(finding.reason), 300)}", file=stream)
    unread = sum(1 for item in engine.skipped if item.unreadable)
    if unread:
        print(
            f"\nNot checked: {plural(unread, 'file')} memtui could not read (named on stderr).",
            file=stream,
        )
    if not report.findings:
        read = " in the files read" if unread else ""
        print(
            f"\nNo findings{read}: nothing duplicated, superseded, cut off, secret or stale.",
            file=stream,
        )
