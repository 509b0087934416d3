"""`memtui roots`: the memory folders memtui finds from here, closest first, and what they hold.

It says exactly what `memtui` (and `rank`/`list` without ROOT) does here: the roots it opens
(marked ▸), or that it asks; `--all` opens every one found for this folder. Other projects'
Claude Code auto-memory is listed last, marked as another project's. Each line gives the kind
of layout, the label results show, the entries and files it holds (counted without building
entries, every date) and the day it was last written.
`--all-claude` adds every Claude Code project memory under `~/.claude/projects/*/memory/`.
Exit codes: 0 something found, 1 nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from memtui.commands.common import dump_json
from memtui.core.live.roots import shown_root, tilde
from memtui.core.places import claude
from memtui.core.places.loads import SessionLoad, root_load, tokens_text
from memtui.core.places.survey import Survey, survey
from memtui.core.sanitize import one_line, undecodable_bytes_visible
from memtui.discovery import Candidate, Plan, decide, searched_places, surroundings


def run_roots(args: argparse.Namespace, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    around = surroundings()
    candidates, what = decide(around, others=True)
    surveys = [survey(candidate.path, candidate.only) for candidate in candidates]
    loads = [root_load(candidate.root) for candidate in candidates]
    projects = claude.every_project() if args.all_claude else []
    project_surveys = [survey(project.memory) for project in projects]
    opens = {candidate.label for candidate in what.opens}
    if args.json:
        payload: dict[str, Any] = {
            "cwd": _path(around.cwd),
            "git_root": _path(around.git_root) if around.git_root else None,
            "memtui": what.why,
            "opens": [candidate.label for candidate in what.opens],
            "picker": what.pick,
            "candidates": [
                {
                    "kind": candidate.kind,
                    "label": candidate.label,
                    "path": _path(candidate.path),
                    "only": list(candidate.only) or None,
                    "other_project": candidate.other_project,
                    "project": _path(candidate.project) if candidate.project else None,
                    "opens": candidate.label in opens,
                    **_numbers(found),
                    "session": _session(load),
                    "warnings": [one_line(warning, 500) for warning in candidate.warnings],
                }
                for candidate, found, load in zip(candidates, surveys, loads, strict=True)
            ],
            "searched": list(searched_places(around)),
        }
        if args.all_claude:
            payload["claude_projects"] = [
                {
                    "name": project.name,
                    "project": _path(project.project) if project.project else None,
                    "path": _path(project.memory),
                    **_numbers(found),
                }
                for project, found in zip(projects, project_surveys, strict=True)
            ]
        dump_json(payload, stream)
    else:
        _print_candidates(stream, candidates, surveys, loads, around.cwd, what)
        for warning in (warning for candidate in candidates for warning in candidate.warnings):
            print(f"memtui: {one_line(warning, 500)}", file=sys.stderr)
        if args.all_claude:
            _print_projects(stream, projects, project_surveys)
    return 0 if candidates or projects else 1


def _path(path: Path) -> str:
    return undecodable_bytes_visible(str(path))


def _numbers(found: Survey) -> dict[str, Any]:
    return {
        "files": found.files,
        "entries": found.entries,
        "entries_complete": found.complete,
        "newest": found.newest.isoformat() if found.newest else None,
    }


def _entries(found: Survey) -> str:
    return f"{found.entries:,}" + ("" if found.complete else "+")


def _session(load: SessionLoad) -> dict[str, Any]:
    """What a session start loads of one root: characters, the ≈ token estimate, what caps
    cut, and each file's load type."""
    return {
        "chars": load.chars,
        "tokens_estimate": load.tokens,
        "lost_past_cap": load.lost,
        "files": [
            {"path": item.path, "load": item.load.value}
            | {"chars": item.chars}
            | {"loaded": item.loaded, "cap": item.cap or None}
            for item in load.files
        ],
    }


def _print_candidates(
    stream: TextIO,
    candidates: list[Candidate],
    surveys: list[Survey],
    loads: list[SessionLoad],
    cwd: Path,
    what: Plan,
) -> None:
    if not candidates:
        print(f"No memory folder found from {one_line(str(cwd), 200)}. Looked in:", file=stream)
        for place in searched_places():
            print(f"  {one_line(place, 300)}", file=stream)
        return
    print(
        f"{'':2}{'kind':<15}{'label':<25}{'entries':>8}{'files':>7}  {'newest':<10}"
        f"{'≈ tokens':>10}  where",
        file=stream,
    )
    opens = {candidate.label for candidate in what.opens}
    for candidate, found, load in zip(candidates, surveys, loads, strict=True):
        marker = "▸ " if candidate.label in opens and not what.pick else "  "
        newest = found.newest.isoformat() if found.newest else "—"
        print(
            f"{marker}{candidate.kind:<15}{one_line(candidate.label, 24):<25}"
            f"{_entries(found):>8}{found.files:>7}  {newest:<10}"
            f"{'≈' + f'{load.tokens:,}':>10}  {_where(candidate)}",
            file=stream,
        )
    print(f"\nHere, memtui {what.why}{_marked(what)}.", file=stream)
    session = sum(
        load.chars
        for candidate, load in zip(candidates, loads, strict=True)
        if candidate.label in opens and not what.pick
    )
    if session:
        print(
            f"The agent loads {tokens_text(session)} of it at every session start "
            "(≈ tokens: characters ÷ 4).",
            file=stream,
        )
    local = [candidate for candidate in candidates if not candidate.other_project]
    if len(local) > max(1, len(what.opens)):
        print(
            f"`memtui --all` opens the {len(local)} found for this folder together; "
            "`memtui ROOT` one folder.",
            file=stream,
        )


def _marked(what: Plan) -> str:
    if what.pick or not what.opens:
        return ""
    return ": ▸" if len(what.opens) == 1 else f": the {len(what.opens)} marked ▸, together"


def _where(candidate: Candidate) -> str:
    """The folder, the files of a set of files, or the project another project's memory is of."""
    if candidate.other_project:
        project = tilde(candidate.project) if candidate.project else candidate.path.parent.name
        return one_line(f"{tilde(candidate.path)} (another project: {project})", 400)
    return one_line(shown_root(candidate.path, candidate.only), 400)


def _print_projects(
    stream: TextIO, projects: list[claude.ClaudeProject], surveys: list[Survey]
) -> None:
    print(
        f"\nClaude Code project memories ({one_line(tilde(claude.claude_home()), 200)}"
        f"/projects/*/memory): {len(projects)}",
        file=stream,
    )
    for project, found in zip(projects, surveys, strict=True):
        name = tilde(project.project) if project.project else project.name
        newest = found.newest.isoformat() if found.newest else "—"
        entries = (
            f"{_entries(found)} {'entry' if found.entries == 1 and found.complete else 'entries'}"
        )
        print(f"  {entries:>14}  {newest:<10}  {one_line(name, 200)}", file=stream)
        print(f"{'':12}{one_line(tilde(project.memory), 300)}", file=stream)
