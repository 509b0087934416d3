"""The instruction memory Claude Code and Gemini CLI load for a folder: its files, found as they
find them, and the `@path` imports that pull more files in.

Claude Code loads, at the start of every session in folder F: the managed policy file
(`/etc/claude-code/CLAUDE.md`, or `/Library/Application Support/ClaudeCode/CLAUDE.md` on macOS),
`~/.claude/CLAUDE.md` and `~/.claude/rules/**/*.md` (`CLAUDE_CONFIG_DIR` moves `~/.claude`),
then from F up through its parents (not `/` itself) `CLAUDE.md`, `.claude/CLAUDE.md` and
`CLAUDE.local.md`, and F's `.claude/rules/**/*.md`. Every one of them may import more with
`@path`: relative to the importing file, `~/` for the home folder, at most MAX_IMPORT_HOPS
hops, never inside a code span or a fenced block. Gemini CLI loads `~/.gemini/GEMINI.md`, the
`GEMINI.md` files from F up to its git root and those in the folders below F (at most
GEMINI_FOLDERS folders), with the same `@path` imports.

Nothing here parses entries: this module names files (read with the store's own safe reader,
capped) and says why each is loaded. A missing import or a cycle is a warning, never an error.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from msgspec import Struct, field

from memtui.core.places.claude import claude_home
from memtui.core.reading.walk import IGNORED_FOLDERS, read_text

MAX_IMPORT_HOPS = 5
"""Claude Code follows imports this many hops deep (its docs say 4 or 5, by version)."""
MAX_IMPORTS = 200
"""Imported files followed per set, whatever the files say."""
MANAGED_CLAUDE_MD = (
    Path("/Library/Application Support/ClaudeCode/CLAUDE.md")
    if sys.platform == "darwin"
    else Path("/etc/claude-code/CLAUDE.md")
)
GEMINI_FOLDERS = 200
"""Folders below the current one Gemini CLI looks into for GEMINI.md (its default limit)."""
CLAUDE_NAMES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
"""Looked for in the folder and each of its parents."""
_IMPORT = re.compile(r"(?:^|(?<=\s))@((?:~/|\.{1,2}/|/)?[^\s@`]+)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+).+?\1")
_TRAILING = ".,;:!?)]}\"'"


class MemoryFile(Struct, frozen=True):
    """One file an agent loads as instructions."""

    path: Path
    """Absolute, as found (not resolved through symlinks)."""
    scope: str
    """Why it is loaded: managed, user, project, local, parent, rules or import."""
    imported_from: Path | None = None


class InstructionSet(Struct):
    """Every file one agent loads for a folder, in load order, and what went wrong on the way."""

    files: list[MemoryFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _regular(path: Path) -> bool:
    """A regular file (a symlink to one counts); never a FIFO, socket or device."""
    try:
        return path.is_file()
    except OSError:
        return False


def _rules(folder: Path) -> list[Path]:
    """`folder/**/*.md`, sorted, in real folders only (symlinked folders are not followed)."""
    found: list[Path] = []
    stack = [folder]
    while stack and len(found) < MAX_IMPORTS:
        current = stack.pop()
        try:
            with os.scandir(current) as items:
                children = sorted(items, key=lambda item: item.name)
        except OSError:
            continue
        for child in children:
            if child.is_dir(follow_symlinks=False):
                stack.append(Path(child.path))
            elif child.name.endswith(".md") and _regular(Path(child.path)):
                found.append(Path(child.path))
    return sorted(found)


def upward(start: Path, stop: Path | None = None) -> list[Path]:
    """`start` and its parents, closest first, to `stop` (included) or to just below `/`
    (`/` itself only when it is `start`)."""
    folder = Path(os.path.abspath(start))
    chain: list[Path] = []
    for candidate in (folder, *folder.parents):
        if candidate == candidate.parent and chain:
            break
        chain.append(candidate)
        if stop is not None and candidate == stop:
            break
    return chain


def imports_of(text: str) -> list[str]:
    """The `@path` imports in a file's text, in order: not in fenced blocks or code spans."""
    found: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        for match in _IMPORT.finditer(_CODE_SPAN.sub(" ", line)):
            target = match.group(1).rstrip(_TRAILING)
            if "/" in target or "." in target:
                found.append(target)
    return found


def _import_target(token: str, importer: Path) -> Path:
    if token.startswith("~/"):
        return Path.home() / token[2:]
    return Path(os.path.normpath(importer.parent / token))


def _text(path: Path) -> str | None:
    loaded = read_text(path.parent, path.name)
    return None if isinstance(loaded, str) else loaded[0].text


def with_imports(found: InstructionSet, base: Sequence[MemoryFile]) -> InstructionSet:
    """`base` and, after each file, what it imports (depth first, as the agent inlines them)."""
    seen: set[str] = set()

    def visit(item: MemoryFile, chain: tuple[str, ...]) -> None:
        real = os.path.realpath(item.path)
        if real in chain:
            found.warnings.append(f"import cycle: {item.path} imports itself again; not followed")
            return
        if real in seen:
            return
        seen.add(real)
        found.files.append(item)
        if len(chain) >= MAX_IMPORT_HOPS:
            return
        text = _text(item.path)
        for token in imports_of(text or ""):
            target = _import_target(token, item.path)
            if len(seen) >= MAX_IMPORTS:
                found.warnings.append(f"more than {MAX_IMPORTS} imports; the rest not followed")
                return
            if not _regular(target):
                found.warnings.append(f"{item.path}: imports @{token}, which is not a file")
                continue
            if len(chain) + 1 >= MAX_IMPORT_HOPS and imports_of(_text(target) or ""):
                found.warnings.append(
                    f"{target}: its imports are {MAX_IMPORT_HOPS} hops deep; not loaded"
                )
            visit(MemoryFile(target, "import", item.path), (*chain, real))

    for item in base:
        visit(item, ())
    return found


def claude_set(cwd: Path) -> InstructionSet:
    """Every file Claude Code loads as instructions in `cwd`, imports included."""
    base: list[MemoryFile] = []
    if _regular(MANAGED_CLAUDE_MD):
        base.append(MemoryFile(MANAGED_CLAUDE_MD, "managed"))
    home = claude_home()
    if _regular(home / "CLAUDE.md"):
        base.append(MemoryFile(home / "CLAUDE.md", "user"))
    base.extend(MemoryFile(path, "rules") for path in _rules(home / "rules"))
    folders = upward(cwd)
    for folder in reversed(folders):  # the outermost first: Claude Code loads parents first
        for name in CLAUDE_NAMES:
            if _regular(folder / name):
                scope = "local" if name == "CLAUDE.local.md" else "project"
                base.append(MemoryFile(folder / name, scope if folder == folders[0] else "parent"))
    base.extend(MemoryFile(path, "rules") for path in _rules(folders[0] / ".claude" / "rules"))
    return with_imports(InstructionSet(), _unique(base))


def gemini_set(cwd: Path, git_root: Path | None) -> InstructionSet:
    """Every GEMINI.md Gemini CLI loads in `cwd` (the user's, then the project's from the git
    root down), imports included."""
    base: list[MemoryFile] = []
    user = Path.home() / ".gemini" / "GEMINI.md"
    if _regular(user):
        base.append(MemoryFile(user, "user"))
    folders = upward(cwd, git_root) if git_root is not None else [Path(os.path.abspath(cwd))]
    base.extend(
        MemoryFile(folder / "GEMINI.md", "project")
        for folder in [*reversed(folders), *_below(folders[0], GEMINI_FOLDERS)]
        if _regular(folder / "GEMINI.md")
    )
    return with_imports(InstructionSet(), _unique(base))


def _below(start: Path, limit: int) -> list[Path]:
    """The folders under `start`, breadth first, at most `limit`: no hidden or tooling folders,
    no symlinked ones (Gemini CLI scans below the current folder too, within a limit)."""
    found: list[Path] = []
    queue = [start]
    while queue and len(found) < limit:
        folder = queue.pop(0)
        try:
            with os.scandir(folder) as items:
                children = sorted(
                    Path(item.path)
                    for item in items
                    if item.is_dir(follow_symlinks=False)
                    and not item.name.startswith(".")
                    and item.name not in IGNORED_FOLDERS
                )
        except OSError:
            continue
        found.extend(children[: limit - len(found)])
        queue.extend(children)
    return found


def _unique(files: Iterable[MemoryFile]) -> list[MemoryFile]:
    """Each real file once, where it first appears (`~/.claude/CLAUDE.md` is also the home
    folder's `.claude/CLAUDE.md`)."""
    kept: dict[str, MemoryFile] = {}
    for item in files:
        kept.setdefault(os.path.realpath(item.path), item)
    return list(kept.values())


def grouped(files: Iterable[Path], bases: Sequence[Path]) -> list[tuple[Path, tuple[str, ...]]]:
    """Files as (folder, relative paths) roots: each file under the first of `bases` holding
    it, else under its own folder; in the order the folders first appear."""
    groups: dict[Path, list[str]] = {}
    for path in files:
        folder = next((base for base in bases if path == base or base in path.parents), path.parent)
        relative = path.relative_to(folder).as_posix()
        groups.setdefault(folder, [])
        if relative not in groups[folder]:
            groups[folder].append(relative)
    return [(folder, tuple(names)) for folder, names in groups.items()]
