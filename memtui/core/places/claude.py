"""Where Claude Code keeps a project's auto-memory: `~/.claude/projects/<encoded>/memory/`.

The folder name is the project's path (its git root) with every character that is not an ASCII
letter or digit replaced by `-`, runs not collapsed: `/home/u/my_app` -> `-home-u-my-app`.
Claude Code does this with a JavaScript regular expression over UTF-16 code units, so a
character outside the Basic Multilingual Plane (an emoji) becomes two dashes; both spellings
are tried. Very long names may be cut by Claude Code and given a suffix, so a name of more than
LONG_NAME characters also matches a folder that starts with its first LONG_NAME characters.
The encoding is lossy (`my_app`, `my-app` and `my app` meet), so memtui only ever encodes a
known path and compares names; it never decodes a folder name into a path. `CLAUDE_CONFIG_DIR`
moves `~/.claude`.

For `memtui roots --all-claude`, a project's own path is read, when possible, from the `cwd`
field of its newest session transcript, and kept only if it encodes to the folder's name.

Everything under `~/.claude` is someone else's files: a name over the file system's limit (a
deep project's encoded name), a folder that cannot be read, a FIFO named `*.jsonl` or a line
nested 30,000 deep is skipped, never fatal; transcripts are read as `small_file` reads them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from msgspec import Struct

from memtui.core.reading.small_file import read_small_file

LONG_NAME = 200
TRANSCRIPT_BYTES = 64 * 1024
"""How much of a session transcript is read to find the project's path."""
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


class ClaudeProject(Struct, frozen=True):
    """One `projects/<name>/memory/` folder."""

    name: str
    """The encoded folder name, as on disk."""
    memory: Path
    project: Path | None
    """The project's path, when a transcript names one that encodes to `name`."""


def claude_home() -> Path:
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def encodings(path: Path | str) -> list[str]:
    """The folder names Claude Code may have made of `path` (see the module docstring)."""
    text = str(path)
    plain = _NOT_ALNUM.sub("-", text)
    utf16 = "".join(
        char if char.isascii() and char.isalnum() else "-" * (2 if ord(char) > 0xFFFF else 1)
        for char in text
    )
    return list(dict.fromkeys((utf16, plain)))


def git_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding `.git` (a folder, or a worktree's file)."""
    folder = Path(os.path.abspath(start))
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def auto_memory(project: Path) -> Path | None:
    """Claude Code's auto-memory folder for `project`, when it exists."""
    projects = claude_home() / "projects"
    names = encodings(project)
    for name in names:
        if _is_dir(projects / name / "memory"):
            return projects / name / "memory"
    long_names = [name[:LONG_NAME] for name in names if len(name) > LONG_NAME]
    if long_names:
        for folder in _folders(projects):
            if folder.name.startswith(tuple(long_names)) and _is_dir(folder / "memory"):
                return folder / "memory"
    return None


def _is_dir(path: Path) -> bool:
    """A folder there; False for anything that cannot be stat-ed (a name over the limit too)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def _folders(projects: Path) -> list[Path]:
    """The entries of `projects`, by name; none when it cannot be listed."""
    try:
        return sorted(projects.iterdir(), key=lambda item: item.name)
    except OSError:
        return []


def every_project() -> list[ClaudeProject]:
    """Every `projects/*/memory/` folder, sorted by name, with its project path when known."""
    found = []
    for folder in _folders(claude_home() / "projects"):
        memory = folder / "memory"
        if _is_dir(memory):
            found.append(ClaudeProject(folder.name, memory, _project_path(folder)))
    return found


def _project_path(folder: Path) -> Path | None:
    """The `cwd` of the newest transcript in `folder`, or of a parent of it, that encodes to the
    folder's name; None when no transcript says."""
    try:
        transcripts = sorted(folder.glob("*.jsonl"), key=lambda item: item.stat().st_mtime)
    except OSError:
        return None
    for transcript in reversed(transcripts[-3:]):
        for cwd in _cwds(transcript):
            candidate = Path(cwd)
            for path in (candidate, *candidate.parents):
                if folder.name in encodings(path):
                    return path
    return None


def _cwds(transcript: Path) -> list[str]:
    """`cwd` values in the first TRANSCRIPT_BYTES of a transcript (one JSON object a line)."""
    try:
        head = read_small_file(transcript, TRANSCRIPT_BYTES, truncate=True)
    except OSError:
        return []
    found: list[str] = []
    for line in head.decode("utf-8", "replace").splitlines():
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue
        cwd = record.get("cwd") if isinstance(record, dict) else None
        if isinstance(cwd, str) and cwd.startswith("/") and cwd not in found:
            found.append(cwd)
    return found
