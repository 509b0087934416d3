"""Where agents keep memory: PLACES, one table of places, each with a kind, a label and a finder.

Closeness orders what is found: 0 the current folder, 1 its git root (the repository), 2 what
the agent keeps for this folder elsewhere (Claude Code's user files and auto-memory, Gemini's
user file), 3 `$MEMTUI_DIR`, 4 the home workspaces. A repository's memory is its memory files
and folders, never the repository itself: a place in a repository names the files it loads
(`Found.only`), so its README, docs and source are never read as memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from msgspec import Struct

from memtui.core.live.roots import folder_label
from memtui.core.places import claude, instructions
from memtui.core.places.instructions import InstructionSet, claude_set, gemini_set, grouped
from memtui.core.reading.file_kind import is_markdown
from memtui.core.reading.walk import IGNORED_FOLDERS, scan_root

NEAR, REPOSITORY, AGENT, ENVIRONMENT, HOME, OTHER = range(6)
"""Closeness, closest first (see the module docstring); OTHER is another project's memory."""
MEMORY_BANK_DEPTH = 6
"""How deep under the repository `memory_bank/` folders are looked for."""
MEMORY_BANK_FOLDERS = 2_000
"""Folders looked into per search for `memory_bank/`, whatever the repository holds."""


class Surroundings(Struct, frozen=True):
    """What discovery looks from: the current folder and its git root."""

    cwd: Path
    git_root: Path | None

    @property
    def near(self) -> list[Path]:
        """The current folder, then its git root when that is another folder."""
        folders = [self.cwd]
        if self.git_root is not None and self.git_root != self.cwd:
            folders.append(self.git_root)
        return folders

    @property
    def project(self) -> Path:
        """The repository's folder, or the current folder outside one."""
        return self.git_root or self.cwd

    def closeness(self, folder: Path) -> int:
        return NEAR if folder == self.cwd else REPOSITORY


class Found(Struct, frozen=True):
    """One memory root a place found: how close, where, a preferred label, what it loads."""

    closeness: int
    path: Path
    label: str
    only: tuple[str, ...] = ()
    """The files and folders it loads (`MemoryRoot.only`); empty: the whole folder."""
    project: Path | None = None
    """Whose memory it is, when that is another project's folder."""
    warnings: tuple[str, ...] = ()
    """What went wrong finding it (a missing `@` import, a cycle)."""


Finder = Callable[[Surroundings], Iterable[Found]]


class Place(Struct, frozen=True):
    kind: str
    where: str
    """Where it is looked for, in the words of the README's table."""
    find: Finder
    near: bool = False
    """Looked for in the current folder and its git root (`where` names the marker)."""


def _folder(inside: str, suffix: str) -> Finder:
    """A memory folder `inside` the current folder or its git root, opened whole."""

    def find(around: Surroundings) -> Iterable[Found]:
        for folder in around.near:
            if (folder / inside).is_dir():
                yield Found(
                    around.closeness(folder), folder / inside, folder_label(folder) + suffix
                )

    return find


def _files(names: tuple[str, ...], suffix: str = "") -> Finder:
    """Memory files (or folders) among `names` in the current folder or its git root: the
    folder is the root, limited to those that exist."""

    def find(around: Surroundings) -> Iterable[Found]:
        for folder in around.near:
            present = tuple(name for name in names if (folder / name).exists())
            if present:
                label = folder_label(folder) + suffix
                yield Found(around.closeness(folder), folder, label, present)

    return find


def _memory_banks(around: Surroundings) -> Iterable[Found]:
    """`memory_bank/` folders anywhere under the repository (a bounded walk that skips tooling
    folders and symlinks); outside a repository, only in the current folder (a walk of the
    home folder, or of `/`, would cost every start)."""
    if around.git_root is None:
        if (around.cwd / "memory_bank").is_dir():
            yield Found(NEAR, around.cwd / "memory_bank", folder_label(around.cwd) + "-memory_bank")
        return
    stack = [(around.git_root, 0)]
    visited = 0
    found: list[Path] = []
    while stack and visited < MEMORY_BANK_FOLDERS:
        folder, depth = stack.pop()
        visited += 1
        try:
            with os.scandir(folder) as items:
                children = [item for item in items if item.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        for child in sorted(children, key=lambda item: item.name, reverse=True):
            if child.name == "memory_bank":
                found.append(Path(child.path))
            elif child.name not in IGNORED_FOLDERS and depth + 1 < MEMORY_BANK_DEPTH:
                stack.append((Path(child.path), depth + 1))
    for bank in sorted(found):
        closeness = NEAR if around.cwd in (bank, *bank.parents) else REPOSITORY
        yield Found(closeness, bank, folder_label(bank.parent) + "-memory_bank")


def _instruction_roots(
    found: InstructionSet, around: Surroundings, named: dict[Path, str], suffix: str
) -> Iterable[Found]:
    """An agent's instruction files as roots: one per folder that holds some (`named` gives
    the agent's own folders a label), the project's closest."""
    project = around.project
    warnings = tuple(found.warnings)
    memory = (item.path for item in found.files if is_markdown(item.path.name))
    for folder, only in grouped(memory, [*named, project]):
        if folder in named:
            closeness, label = AGENT, named[folder]
        elif folder == project or project in folder.parents:
            closeness, label = around.closeness(folder), folder_label(folder) + suffix
        else:
            closeness, label = AGENT, folder_label(folder) + suffix
        yield Found(closeness, folder, label, only, warnings=warnings)
        warnings = ()


def _claude_md(around: Surroundings) -> Iterable[Found]:
    named = {
        instructions.MANAGED_CLAUDE_MD.parent: "claude-managed",
        claude.claude_home(): "claude-user",
    }
    return _instruction_roots(claude_set(around.cwd), around, named, "-claudemd")


def _gemini_md(around: Surroundings) -> Iterable[Found]:
    named = {Path.home() / ".gemini": "gemini-user"}
    return _instruction_roots(gemini_set(around.cwd, around.git_root), around, named, "-gemini")


def _claude_auto(around: Surroundings) -> Iterable[Found]:
    """Claude Code's auto-memory for the git root, else (or also) for the current folder."""
    for project in dict.fromkeys(([around.git_root] if around.git_root else []) + [around.cwd]):
        found = claude.auto_memory(project)
        if found is not None:
            yield Found(AGENT, found, folder_label(project) + "-claude")


def _env_dir(around: Surroundings) -> Iterable[Found]:
    value = os.environ.get("MEMTUI_DIR")
    if value and Path(value).expanduser().is_dir():
        path = Path(value).expanduser()
        yield Found(ENVIRONMENT, path, folder_label(path))


def _home(relative: str, label: str) -> Finder:
    def find(around: Surroundings) -> Iterable[Found]:
        path = Path.home() / relative
        if path.is_dir():
            yield Found(HOME, path, label)

    return find


PLACES: tuple[Place, ...] = (
    Place(
        "workspace",
        "`MEMORY.md`, `memory.md` or `memory/`",
        _files(("MEMORY.md", "memory.md", "memory")),
        near=True,
    ),
    Place("history", "`HISTORY.md` (nanobot)", _files(("HISTORY.md",), "-history"), near=True),
    Place("memory-bank", "`memory-bank/` (Cline, Roo)", _folder("memory-bank", "-bank"), near=True),
    Place(
        "claude-project",
        "`.claude/memory/` (committed)",
        _folder(".claude/memory", "-dotclaude"),
        near=True,
    ),
    Place("muxcode", "`.muxcode/memory/` (muxcode)", _folder(".muxcode/memory", "-muxcode"), True),
    Place("orion", "`orion-context/`", _folder("orion-context", "-orion"), near=True),
    Place("serena", "`.serena/memories/` (Serena)", _folder(".serena/memories", "-serena"), True),
    Place("memory_bank", "`memory_bank/` at any depth under the repository", _memory_banks),
    Place(
        "claude-md",
        "`CLAUDE.md` files Claude Code loads here (managed, user, project, local, parent "
        "folders, rules) and their `@` imports",
        _claude_md,
    ),
    Place(
        "gemini-md",
        "`GEMINI.md` files Gemini CLI loads here (`~/.gemini/`, project) and their `@` imports",
        _gemini_md,
    ),
    Place(
        "claude-code",
        "`~/.claude/projects/<git root, encoded>/memory/` (Claude Code "
        "auto-memory; `$CLAUDE_CONFIG_DIR` moves `~/.claude`)",
        _claude_auto,
    ),
    Place("memtui-dir", "`$MEMTUI_DIR`", _env_dir),
    Place("openclaw", "`~/.openclaw/workspace`", _home(".openclaw/workspace", "openclaw")),
    Place("nanobot", "`~/.nanobot/workspace`", _home(".nanobot/workspace", "nanobot")),
    Place("miniclaw", "`~/.miniclaw/workspace`", _home(".miniclaw/workspace", "miniclaw")),
    Place("picoclaw", "`~/.picoclaw/workspace`", _home(".picoclaw/workspace", "picoclaw")),
    Place("basic-memory", "`~/basic-memory` (Basic Memory)", _home("basic-memory", "basic-memory")),
)
"""Where memtui looks when no ROOT is given; the table in docs/places.md."""


OTHER_PROJECT = "claude-other"
"""The kind of another project's Claude Code auto-memory: offered, never opened by `--all`."""


def other_projects(around: Surroundings, known: Iterable[Path]) -> list[Found]:
    """Claude Code's auto-memory of every other project that holds memory, newest first, named
    by the project's folder when it can be matched to one that exists (else the encoded name)."""
    seen = {os.path.realpath(path) for path in known}
    dated: list[tuple[int, Found]] = []
    for project in claude.every_project():
        if os.path.realpath(project.memory) in seen:
            continue
        written = [info.st_mtime_ns for info in scan_root(project.memory).found.values()]
        if not written:
            continue
        folder = project.project if project.project and project.project.is_dir() else None
        label = folder_label(folder) if folder else project.name.strip("-").rsplit("-", 1)[-1]
        found = Found(OTHER, project.memory, (label or "other") + "-claude", project=folder)
        dated.append((max(written), found))
    dated.sort(key=lambda item: -item[0])
    return [found for _, found in dated]
