"""`memtui list`: every loaded entry (and every skipped path) of one or more memory folders.

Filters: `--source` (long_term, daily, note) and `--role`, a glob matched against the entry's role,
its file name and its relative path. Exit codes: 0 entries listed, 1 none, 2 usage error.
Everything printed passes through `sanitize` and, unless `--reveal-secrets`, `mask_secrets`.
Entries are listed from their heads (`core.live.heads`): a listing shows no entry's text, so none
is read back from the cache.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
from typing import Any, TextIO

from memtui.commands.common import dump_json, secret_masker, startup_from_args
from memtui.commands.engine import cache_saved_after, open_engine
from memtui.commands.output import load_notes, root_fields, roots_payload, skipped_payload
from memtui.core.cite import date_label, iso_date
from memtui.core.live.engine import Engine
from memtui.core.live.heads import loaded_heads
from memtui.core.model import EntryHead
from memtui.core.plural import plural
from memtui.core.sanitize import one_line


def _matches_role(entry: EntryHead, pattern: str) -> bool:
    candidates = (entry.role or "", entry.file_name, entry.path)
    return any(fnmatch.fnmatchcase(candidate, pattern) for candidate in candidates)


def select(entries: list[EntryHead], source: str | None, role: str | None) -> list[EntryHead]:
    chosen = [e for e in entries if source is None or e.source.value == source]
    if role:
        chosen = [e for e in chosen if _matches_role(e, role)]
    return sorted(chosen, key=lambda e: (e.qualified_path, e.line_start))


def run_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    startup = startup_from_args(args)
    today, days = startup.today, startup.days
    engine = open_engine(startup)
    engine.load_store()
    entries = select(loaded_heads(engine.stores), args.source, args.role)
    show = secret_masker(args, startup.config)
    for warning in load_notes(startup, engine):
        print(f"memtui: {one_line(warning, 500)}", file=sys.stderr)
    with cache_saved_after(engine):
        if args.json:
            payload: dict[str, Any] = {
                "root": str(engine.roots[0].path),
                "roots": roots_payload(engine),
                "today": today.isoformat(),
                "days": days,
                "hidden_by_window": engine.hidden_by_window,
                "entries": [
                    {
                        "id": entry.id,
                        **root_fields(engine, entry),
                        "path": entry.path,
                        "line_start": entry.line_start,
                        "line_end": entry.line_end,
                        "title": show(entry.title),
                        "heading_path": [show(part) for part in entry.heading_path],
                        "date": iso_date(entry),
                        "date_origin": entry.date_origin.value,
                        "source": entry.source.value,
                        "role": entry.role,
                        "tags": [show(tag) for tag in entry.tags],
                        "warnings": list(entry.warnings),
                    }
                    for entry in entries
                ],
                "skipped": skipped_payload(engine),
            }
            dump_json(payload, stream)
        else:
            _print_human(stream, engine, entries, days, show)
        stream.flush()
    return 0 if entries else 1


def _print_human(
    stream: TextIO, engine: Engine, entries: list[EntryHead], days: int, show: Any
) -> None:
    window = "all days" if days == 0 else f"last {plural(days, 'day')}"
    folders = " + ".join(one_line(str(root.path), 300) for root in engine.roots)
    lines = [f"{folders} · today {engine.today} · {window}"]
    current = None
    files: set[str] = set()
    dates: dict[object, str] = {None: ""}  # a folder's entries share a few hundred dates
    for entry in entries:
        path = entry.qualified_path
        if path != current:
            current = path
            files.add(path)
            lines.append(f"\n{one_line(path, 300)}")
        span = f"{entry.line_start}-{entry.line_end}"
        day = None if entry.date is None else (entry.date, entry.time)
        when = dates.get(day)
        if when is None:
            when = dates[day] = date_label(entry)
        badge = " ⚠" if entry.warnings else ""
        title = one_line(show(entry.title), 90)
        lines.append(f"  {span:<11} {when:16}  {entry.source.value:9}  {title}{badge}")
    summary = f"\n{plural(len(entries), 'entry', 'entries')} in {plural(len(files), 'file')}"
    if engine.hidden_by_window:
        hidden = plural(engine.hidden_by_window, "daily entry", "daily entries")
        summary += f" · {hidden} outside the window"
    lines.append(summary)
    skipped_paths = engine.skipped
    if skipped_paths:
        lines.append(f"{plural(len(skipped_paths), 'path')} skipped:")
        for skipped in skipped_paths:
            lines.append(f"  {one_line(skipped.path, 200)} — {one_line(skipped.reason, 200)}")
    stream.write("\n".join(lines) + "\n")
