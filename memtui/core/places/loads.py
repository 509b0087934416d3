"""What an agent loads of its memory at session start, file by file, and how much that costs.

Each file has a load type, from the kind of memory it belongs to:

* *always* — the CLAUDE.md set and its imports, rules without `paths`, GEMINI.md files, a Cline
  memory bank (Cline reads every file at the start of every task);
* *always*, too — nanobot's context files (`AGENTS.md`, `SOUL.md`, `USER.md`, `TOOLS.md`,
  `IDENTITY.md` and `memory/MEMORY.md`: its ContextBuilder puts each whole into every prompt);
* *at start, up to a cap* — Claude Code's auto-memory `MEMORY.md` (200 lines or 25,000 bytes),
  OpenClaw's bootstrap files (`AGENTS.md`, `MEMORY.md` … 20,000 characters each);
* *conditional* — Claude Code rules whose frontmatter has `paths`: loaded when a matching file
  is read;
* *on demand* — everything else: auto-memory topic files, Serena memories, daily notes; read
  when the agent asks for them.

The session cost is the characters loaded every session (always, and capped files up to their
cap), shown with an estimate of tokens: characters ÷ 4, always labelled "≈". Files are listed
with the store's own safe scan and read with its reader (capped); on-demand files are counted
by size, never read.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from pathlib import Path

from msgspec import Struct

from memtui.core.health.settings import DEFAULT_LOAD_LINES, LoadLine
from memtui.core.live.roots import MemoryRoot
from memtui.core.reading.frontmatter import read_frontmatter
from memtui.core.reading.text import split_lines
from memtui.core.reading.walk import read_text, scan_root, walk_tree

CHARS_PER_TOKEN = 4
CLAUDE_MEMORY, OPENCLAW_BOOTSTRAP = DEFAULT_LOAD_LINES
ALWAYS_KINDS = frozenset({"claude-md", "gemini-md", "memory-bank"})
AUTO_MEMORY_KINDS = frozenset({"claude-code", "claude-other", "claude-project"})
BOOTSTRAP_KINDS = frozenset({"openclaw", "miniclaw", "picoclaw", "workspace"})
RULES_FOLDERS = ("rules/", ".claude/rules/")
NANOBOT_CONTEXT = ("AGENTS.md", "SOUL.md", "USER.md", "TOOLS.md", "IDENTITY.md", "memory/MEMORY.md")
"""What nanobot's ContextBuilder reads whole into every prompt (its bootstrap files, then the
long-term memory); `memory/HISTORY.md` is grepped on demand."""


class LoadType(enum.Enum):
    ALWAYS = "always"
    CAPPED = "capped"
    CONDITIONAL = "conditional"
    ON_DEMAND = "on-demand"

    @property
    def words(self) -> str:
        """For people: when the agent reads the file."""
        return _WORDS[self]


_WORDS = {
    LoadType.ALWAYS: "every session",
    LoadType.CAPPED: "every session, up to a cap",
    LoadType.CONDITIONAL: "when matching files are read",
    LoadType.ON_DEMAND: "on demand",
}


class FileLoad(Struct, frozen=True):
    """One memory file: how the agent loads it, its size and what a session gets of it."""

    path: str
    """Relative to its root."""
    load: LoadType
    chars: int
    """The whole file, in characters (on-demand files: bytes, as they are not read)."""
    loaded: int
    """Characters loaded at every session start."""
    cap: str = ""
    """The cap that applies (`200 lines / 25,000 bytes`), for capped files."""

    @property
    def lost(self) -> int:
        """Characters past the cap: written, never seen at session start."""
        return self.chars - self.loaded if self.load is LoadType.CAPPED else 0


class SessionLoad(Struct, frozen=True):
    """Every file of one memory root, with what a session start loads of it."""

    files: tuple[FileLoad, ...]

    @property
    def chars(self) -> int:
        return sum(item.loaded for item in self.files)

    @property
    def tokens(self) -> int:
        """An estimate: characters ÷ 4 (show it with "≈")."""
        return round(self.chars / CHARS_PER_TOKEN)

    @property
    def lost(self) -> int:
        return sum(item.lost for item in self.files)


def tokens_estimate(chars: int) -> str:
    """`≈3.1k tokens`: what loading `chars` characters costs an agent (characters ÷ 4)."""
    tokens = chars / CHARS_PER_TOKEN
    return f"≈{tokens / 1000:.1f}k tokens" if tokens >= 1000 else f"≈{round(tokens)} tokens"


def tokens_text(chars: int) -> str:
    """`12,400 chars ≈ 3.1k tokens`: the cost of loading `chars` characters."""
    return f"{chars:,} chars {tokens_estimate(chars).replace('≈', '≈ ')}"


def _rule(kind: str, path: str) -> LoadLine | None:
    name = path.rsplit("/", 1)[-1]
    if kind in AUTO_MEMORY_KINDS and path == "MEMORY.md":
        return CLAUDE_MEMORY
    if kind in BOOTSTRAP_KINDS and "/" not in path and name in OPENCLAW_BOOTSTRAP.files:
        return OPENCLAW_BOOTSTRAP
    return None


def load_type(kind: str, path: str, text: str | None) -> LoadType:
    """How an agent of `kind` loads the file at `path` (root-relative) holding `text`."""
    if _rule(kind, path) is not None:
        return LoadType.CAPPED
    if kind == "claude-md" and path.startswith(RULES_FOLDERS) and text is not None:
        paths = read_frontmatter(split_lines(text)).get("paths")
        return LoadType.CONDITIONAL if paths else LoadType.ALWAYS
    if kind in ALWAYS_KINDS or (kind == "nanobot" and path in NANOBOT_CONTEXT):
        return LoadType.ALWAYS
    return LoadType.ON_DEMAND


def loaded_chars(rule: LoadLine, text: str) -> int:
    """Characters of `text` an agent reads under `rule`: the first limit reached wins."""
    limits = [len(text)]
    if rule.chars is not None:
        limits.append(rule.chars)
    if rule.lines is not None:
        lines = text.split("\n")
        limits.append(len("\n".join(lines[: rule.lines])) + (len(lines) > rule.lines))
    if rule.bytes is not None:
        head = text.encode("utf-8", "surrogatepass")[: rule.bytes]
        limits.append(len(head.decode("utf-8", "ignore")))
    return min(limits)


def _may_load_at_start(kind: str, path: str) -> bool:
    return (
        kind in ALWAYS_KINDS
        or _rule(kind, path) is not None
        or (kind == "claude-md" and path.startswith(RULES_FOLDERS))
        or (kind == "nanobot" and path in NANOBOT_CONTEXT)
    )


def session_load(
    kind: str, root: Path, only: tuple[str, ...] = (), *, top_level: bool = False
) -> SessionLoad:
    """What a session start loads of the memory root at `root` (limited to `only`); with
    `top_level`, of the files in the root's own folder only."""
    files: list[FileLoad] = []
    found = (
        walk_tree(root, "", descend=False)
        if top_level
        else scan_root(root, only, every_link=True)  # an agent reads `CLAUDE.md -> AGENTS.md` too
    )
    for path, info in sorted(found.found.items()):
        if not _may_load_at_start(kind, path):
            files.append(FileLoad(path, LoadType.ON_DEMAND, info.st_size, 0))
            continue
        read = read_text(root, path)
        text = None if isinstance(read, str) else read[0].text
        load = load_type(kind, path, text)
        size = len(text) if text is not None else 0
        rule = _rule(kind, path)
        if load is LoadType.CAPPED and rule is not None and text is not None:
            files.append(FileLoad(path, load, size, loaded_chars(rule, text), rule.describe()))
        else:
            files.append(FileLoad(path, load, size, size if load is LoadType.ALWAYS else 0))
    return SessionLoad(tuple(files))


def kind_of(root: MemoryRoot) -> str:
    """The root's kind, or for a folder given by hand the layout it looks like: Claude Code's
    auto-memory, a Cline memory bank, else an OpenClaw-style workspace."""
    if root.kind:
        return root.kind
    if root.path.parent.parent.name == "projects" and root.path.name == "memory":
        return "claude-code"
    if root.path.parent.name == ".nanobot":
        return "nanobot"
    return "memory-bank" if root.path.name == "memory-bank" else "workspace"


def root_load(root: MemoryRoot) -> SessionLoad:
    return session_load(kind_of(root), root.path, root.only)


def root_session_chars(root: MemoryRoot) -> int:
    """`root_load(root).chars`, scanning only where a session start may load from: an agent
    that loads top-level files alone (all but ALWAYS_KINDS and `claude-md`'s rules) needs the
    root's own folder, not its tree. The app's header counts this at every start, and walking
    a 50,000-entry root's 8,630 files for it took ~75 ms before the first results."""
    return root_start_load(root).chars


def root_start_load(root: MemoryRoot) -> SessionLoad:
    """`root_load(root)` with the same files loaded or cut at session start (so the same
    `chars`, `lost` and loading files), scanning only where a session start may load from (see
    `root_session_chars`); on-demand files deeper in the tree are left out. The root's own
    folder is walked first in a whole walk too, so the same of its files are found under
    MAX_FILES."""
    kind = kind_of(root)
    if root.only or kind in ALWAYS_KINDS or kind == "claude-md":
        return root_load(root)
    if kind == "nanobot":
        return session_load(kind, root.path, NANOBOT_CONTEXT)
    return session_load(kind, root.path, top_level=True)


def biggest(loads: Iterable[tuple[str, FileLoad]], count: int = 5) -> list[tuple[str, FileLoad]]:
    """The files that cost a session most (label, file), biggest first."""
    loaded = [item for item in loads if item[1].loaded]
    return sorted(loaded, key=lambda item: (-item[1].loaded, item[0], item[1].path))[:count]


class SessionReport(Struct, frozen=True):
    """What every session start loads of the open roots, for the health view and command."""

    loads: tuple[tuple[str, SessionLoad], ...]
    """(root label, its session load), in the order of the roots."""

    @property
    def chars(self) -> int:
        return sum(load.chars for _, load in self.loads)

    @property
    def lost(self) -> int:
        return sum(load.lost for _, load in self.loads)

    def files(self) -> list[tuple[str, FileLoad]]:
        return [(label, item) for label, load in self.loads for item in load.files]

    def lines(self, count: int = 5) -> list[str]:
        """The report in words: the total, the biggest contributors, what caps cut off."""
        several = len(self.loads) > 1
        name = {True: "{0}/{1}", False: "{1}"}[several]
        found = [f"Loaded at every session start: {tokens_text(self.chars)} (chars ÷ 4)"]
        for label, item in biggest(self.files(), count):
            found.append(
                f"  {tokens_estimate(item.loaded):>14}  {item.load.words:<27} "
                + name.format(label, item.path)
            )
        cut = [(label, item) for label, item in self.files() if item.lost]
        if cut:
            found.append(f"Past a cap, never loaded: {tokens_text(self.lost)}")
            found.extend(
                f"  {name.format(label, item.path)}: {item.chars:,} chars, the first "
                f"{item.loaded:,} load ({item.cap})"
                for label, item in cut
            )
        return found


def session_report(roots: Iterable[MemoryRoot], *, loading_only: bool = False) -> SessionReport:
    """Every file of each root; with `loading_only`, only the files a session start may load
    from (`root_start_load`: same totals and loading files, no walk of a large tree for the
    on-demand files nobody reports)."""
    load = root_start_load if loading_only else root_load
    return SessionReport(tuple((root.label, load(root)) for root in roots))
