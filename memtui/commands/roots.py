"""`memtui roots`: the memory folders memtui finds from here, closest first, and what they hold.

The first candidate is what `memtui` (and `rank`/`list` without ROOT) opens; `--all` opens them
all. Each line gives the kind of layout, the label results show, the entries and files it
holds (counted without building entries, every date) and the day it was last written.
`--all-claude` adds every Claude Code project memory under `~/.claude/projects/*/memory/`.
Exit codes: 0 something found, 1 nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from memtui.commands.common import dump_json
from memtui.core.places import claude
from memtui.core.places.survey import Survey, survey
from memtui.core.sanitize import one_line, undecodable_bytes_visible
from memtui.startup import Candidate, discover, searched_places, surroundings, tilde


def run_roots(args: argparse.Namespace, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    around = surroundings()
    candidates = discover(around)
    surveys = [survey(candidate.path) for candidate in candidates]
    projects = claude.every_project() if args.all_claude else []
    project_surveys = [survey(project.memory) for project in projects]
    if args.json:
        payload: dict[str, Any] = {
            "cwd": _path(around.cwd),
            "git_root": _path(around.git_root) if around.git_root else None,
            "candidates": [
                {
                    "kind": candidate.kind,
                    "label": candidate.label,
                    "path": _path(candidate.path),
                    **_numbers(found),
                }
                for candidate, found in zip(candidates, surveys, strict=True)
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
        _print_candidates(stream, candidates, surveys, around.cwd)
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


def _print_candidates(
    stream: TextIO, candidates: list[Candidate], surveys: list[Survey], cwd: Path
) -> None:
    if not candidates:
        print(f"No memory folder found from {one_line(str(cwd), 200)}. Looked in:", file=stream)
        for place in searched_places():
            print(f"  {one_line(place, 300)}", file=stream)
        return
    print(
        f"{'':2}{'kind':<15}{'label':<20}{'entries':>8}{'files':>7}  {'newest':<10}  path",
        file=stream,
    )
    for number, (candidate, found) in enumerate(zip(candidates, surveys, strict=True)):
        marker = "▸ " if number == 0 else "  "
        newest = found.newest.isoformat() if found.newest else "—"
        print(
            f"{marker}{candidate.kind:<15}{one_line(candidate.label, 19):<20}"
            f"{_entries(found):>8}{found.files:>7}  {newest:<10}  "
            f"{one_line(tilde(candidate.path), 300)}",
            file=stream,
        )
    hint = (
        "memtui opens ▸; `memtui --all` opens all of them together, `memtui ROOT` one."
        if len(candidates) > 1
        else "memtui opens ▸."
    )
    print(f"\n{hint}", file=stream)


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
        print(f"  {_entries(found):>8} entries  {newest:<10}  {one_line(name, 200)}", file=stream)
        print(f"{'':12}{one_line(tilde(project.memory), 300)}", file=stream)
