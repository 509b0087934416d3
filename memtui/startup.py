"""What every entry point needs before it can start: settings, the roots, the window and today.

`load_startup` is the one place that turns command-line choices into a frozen `Startup`, so the
TUI, `rank`, `list`, `bench` and `roots` open memory the same way. Roots: `--demo` (with `--all`
its second, Cline-style root too), else the ROOTs given, else what discovery finds: `--all`
opens every candidate, otherwise the closest one (the TUI offers a picker when there are
several). Nothing found leaves `roots` empty and `searched` says where memtui looked.

Discovery walks PLACES, one table of where agents keep memory, closest first: the current
folder and its git root, Claude Code's auto-memory for that project, `$MEMTUI_DIR`, then the
home workspaces. A place inside a folder already found is not listed again (that folder's
load includes it); opening several roots drops any root inside another one, with a warning.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from memtui.core.live.roots import MemoryRoot, covers, distinct_labels, folder_label, make_roots
from memtui.core.places import claude
from memtui.core.places.instructions import InstructionSet, MemoryFile, with_imports
from memtui.core.places.table import (
    NEAR,
    OTHER,
    OTHER_PROJECT,
    REPOSITORY,
    Found,
    Surroundings,
    other_projects,
)
from memtui.core.places.table import PLACES as PLACES
from memtui.core.settings.choices import chosen_in, default_choices_path, root_key
from memtui.core.settings.config import Config, ConfigError, load_config
from memtui.demo import materialise_demo, materialise_demo_roots
from memtui.errors import UsageError


@dataclass(frozen=True, slots=True)
class Candidate:
    """A memory root discovery found: which agent's layout, where, and a label for it."""

    kind: str
    path: Path
    label: str
    only: tuple[str, ...] = ()
    """The files and folders it loads (`MemoryRoot.only`); empty: the whole folder."""
    closeness: int = NEAR
    """0 the current folder, 1 its repository, 2 the agent's own folders … (`core.places.table`)."""
    project: Path | None = None
    """Another project's folder, for its Claude Code auto-memory (kind OTHER_PROJECT)."""
    warnings: tuple[str, ...] = ()

    @property
    def other_project(self) -> bool:
        """Another project's memory: offered by the picker, never opened by `--all`."""
        return self.kind == OTHER_PROJECT

    @property
    def root(self) -> MemoryRoot:
        return MemoryRoot(self.label, self.path, self.only, self.kind)


def surroundings() -> Surroundings:
    cwd = Path.cwd()
    return Surroundings(cwd, claude.git_root(cwd))


def discover(around: Surroundings | None = None) -> list[Candidate]:
    """Every memory folder found, closest first; a folder inside one found earlier is left out
    (opening the earlier one loads it)."""
    around = around or surroundings()
    found: list[tuple[int, int, Found, str]] = []
    for order, place in enumerate(PLACES):
        for item in place.find(around):
            found.append((item.closeness, order, item, place.kind))
    found.sort(key=lambda entry: (entry[0], entry[1]))
    kept: list[tuple[Found, str]] = []
    for _, _, item, kind in found:
        if any(covers(_root(earlier), _root(item)) for earlier, _ in kept):
            continue
        inner = [at for at, (earlier, _) in enumerate(kept) if covers(_root(item), _root(earlier))]
        if inner:  # a whole folder found later holds files found earlier: it takes their place
            kept[inner[0]] = (replace(item, closeness=kept[inner[0]][0].closeness), kind)
            kept = [entry for at, entry in enumerate(kept) if at not in inner[1:]]
        else:
            kept.append((item, kind))
    roots = make_roots((item.label, item.path) for item, _ in kept)
    return [
        Candidate(
            kind, root.path, root.label, item.only, item.closeness, item.project, item.warnings
        )
        for root, (item, kind) in zip(roots, kept, strict=True)
    ]


def with_other_projects(
    candidates: Sequence[Candidate], around: Surroundings | None = None
) -> list[Candidate]:
    """`candidates`, then other projects' Claude Code auto-memory (newest first)."""
    around = around or surroundings()
    others = other_projects(around, [candidate.path for candidate in candidates])
    labels = distinct_labels([c.label for c in candidates] + [o.label for o in others])
    return [
        *candidates,
        *(
            Candidate(OTHER_PROJECT, item.path, label, closeness=OTHER, project=item.project)
            for item, label in zip(others, labels[len(candidates) :], strict=True)
        ),
    ]


def decide(
    around: Surroundings, *, every: bool = False, others: bool = False
) -> tuple[list[Candidate], Plan]:
    """What discovery finds from `around` and what `memtui` does with it. Other projects'
    memory is looked for only when it is offered (the picker) or `others` asks for it."""
    candidates = discover(around)
    what = plan(candidates, around.cwd, every=every)
    if others or (not every and (what.pick or not what.opens)):
        candidates = with_other_projects(candidates, around)
        what = plan(candidates, around.cwd, every=every)
    return candidates, what


@dataclass(frozen=True, slots=True)
class Plan:
    """What `memtui` does with no ROOT in a folder: what it opens, or that it asks."""

    opens: tuple[Candidate, ...]
    pick: bool
    """Start on the picker (the headless commands use `opens` and say so)."""
    why: str
    """In the words `memtui roots` prints."""


def plan(candidates: Sequence[Candidate], cwd: Path, *, every: bool = False) -> Plan:
    """Open the memory of this folder and its repository directly; else the folder's remembered
    choice; else the one memory found; else ask (the picker) or say nothing was found."""
    local = [candidate for candidate in candidates if not candidate.other_project]
    if every:
        return Plan(tuple(local), False, "opens every memory found here (--all)")
    remembered = chosen_in(default_choices_path(), cwd)
    by_key = {root_key(candidate.root): candidate for candidate in candidates}
    if remembered and all(key in by_key for key in remembered):
        return Plan(tuple(by_key[key] for key in remembered), False, "opens your choice here")
    near = [candidate for candidate in local if candidate.closeness <= REPOSITORY]
    if near:
        where = "this folder" if all(c.closeness == NEAR for c in near) else "this repository"
        return Plan(tuple(near), False, f"opens the memory of {where}")
    if len(local) == 1:
        return Plan(tuple(local), False, "opens the only memory found for this folder")
    if candidates:
        return Plan(tuple(local[:1]), True, "asks which memory to open (the start picker)")
    return Plan((), False, "finds no memory")


def _root(found: Found) -> MemoryRoot:
    return MemoryRoot(found.label, found.path, found.only)


def searched_places(around: Surroundings | None = None) -> list[str]:
    """Where discovery looks, in order (for the 'nothing found' screen and message)."""
    around = around or surroundings()
    markers = ", ".join(place.where.replace("`", "") for place in PLACES if place.near)
    folders = f"{around.cwd} (current folder)"
    if around.git_root is not None and around.git_root != around.cwd:
        folders += f" and {around.git_root} (git root)"
    project = around.git_root or around.cwd
    places = [
        f"{folders}: {markers}",
        f"{tilde(claude.claude_home() / 'projects' / claude.encodings(project)[0] / 'memory')} "
        "(Claude Code auto-memory)",
    ]
    env = os.environ.get("MEMTUI_DIR")
    places.append(f"$MEMTUI_DIR = {env}" if env else "$MEMTUI_DIR (not set)")
    places.extend(
        place.where.replace("`", "")
        for place in PLACES
        if place.kind not in ("memtui-dir", "claude-code") and not place.near
    )
    return places


@dataclass(frozen=True)
class Startup:
    """Resolved settings for one run: read once, never changed."""

    config: Config
    warnings: tuple[str, ...]
    """Config problems that did not stop the run (unknown keys, bad values replaced)."""
    today: dt.date
    days: int
    """Daily notes older than this many days are not loaded (0 = every date)."""
    roots: tuple[MemoryRoot, ...]
    """The memory folders to open (empty when nothing was found)."""
    demo: bool
    searched: tuple[str, ...]
    """Where roots were looked for, when none was given or found (for the message)."""
    candidates: tuple[Candidate, ...] = ()
    """What discovery found when no ROOT was given (the TUI's picker lists them)."""
    chosen: bool = True
    """False when discovery found several candidates and the closest was taken for want of a
    choice: the TUI asks instead, the headless commands say which one they used."""
    why: str = ""
    """What discovery decided, as `memtui roots` says it (`Plan.why`); '' when ROOTs were given."""

    @property
    def more_found(self) -> int:
        """Memory found here but not opened (the picker offers it)."""
        opened = {root_key(root) for root in self.roots}
        return sum(root_key(candidate.root) not in opened for candidate in self.candidates)

    @property
    def root(self) -> Path | None:
        """The first (with one root, the only) memory folder."""
        return self.roots[0].path if self.roots else None

    def require_roots(self) -> tuple[MemoryRoot, ...]:
        """The roots, or a UsageError that says where memtui looked (headless commands)."""
        if not self.roots:
            places = "; ".join(self.searched)
            raise UsageError(f"no memory folder found (looked in: {places}); pass ROOT or --demo")
        return self.roots

    def require_root(self) -> Path:
        """The one root of a single-root command (bench), or a UsageError."""
        roots = self.require_roots()
        if len(roots) > 1:
            raise UsageError("this command reads one memory folder; pass one ROOT")
        return roots[0].path


def load_startup(
    *,
    roots: Sequence[str] = (),
    every: bool = False,
    demo: bool = False,
    config_path: str | None = None,
    today: dt.date | None = None,
    days: int | None = None,
) -> Startup:
    """Settings from `config_path` (else the XDG file, else defaults), then roots and window.

    `every` (`--all`) opens every discovered candidate, or with `demo` both demo roots.
    """
    config, warnings = load_settings(config_path)
    effective_today = today if today is not None else dt.date.today()
    candidates: list[Candidate] = []
    chosen = True
    why = ""
    if demo:
        found = demo_roots(effective_today, every=every)
    elif roots:
        if every:
            raise UsageError("give ROOTs or --all, not both")
        found = make_roots((folder_label(path), path) for path in map(explicit_root, roots))
    else:
        candidates, what = decide(surroundings(), every=every)
        chosen, why = not what.pick, what.why
        found = tuple(item.root for item in what.opens)
        warnings += [warning for item in what.opens for warning in item.warnings]
    found, nested = drop_nested(found)
    warnings += [
        f"{root.path} is inside {outer.path}: opened once, as part of {outer.label}"
        for root, outer in nested
    ]
    return Startup(
        config=config,
        warnings=tuple(warnings),
        today=effective_today,
        days=days if days is not None else config.days,
        roots=found,
        demo=demo,
        searched=tuple(searched_places()) if not found else (),
        candidates=tuple(candidates),
        chosen=chosen,
        why=why,
    )


def drop_nested(
    roots: Sequence[MemoryRoot],
) -> tuple[tuple[MemoryRoot, ...], list[tuple[MemoryRoot, MemoryRoot]]]:
    """`roots` without any that is inside (or is) another, order kept; plus (dropped, outer).

    Opening a folder and a folder inside it would load the inner files twice.
    """
    kept: list[MemoryRoot] = []
    dropped: list[tuple[MemoryRoot, MemoryRoot]] = []
    for root in roots:
        outer = next((item for item in kept if covers(item, root)), None)
        if outer is not None:
            dropped.append((root, outer))
            continue
        inner = [item for item in kept if covers(root, item)]
        dropped.extend((item, root) for item in inner)
        kept = [item for item in kept if item not in inner] + [root]
    return tuple(kept), dropped


def load_settings(config_path: str | None) -> tuple[Config, list[str]]:
    """The config and its warnings; a config that cannot be used is a UsageError."""
    try:
        return load_config(Path(config_path).expanduser() if config_path else None)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def demo_root(today: dt.date) -> Path:
    """The bundled demo workspace, dated to end on `today`."""
    return materialise_demo(today)


def demo_roots(today: dt.date, *, every: bool) -> tuple[MemoryRoot, ...]:
    """The demo workspace; with `every`, its second root (a Cline memory bank) too."""
    if not every:
        return (MemoryRoot("demo", demo_root(today)),)
    return tuple(
        MemoryRoot(label, path, _instruction_files(path) if kind == "claude-md" else (), kind)
        for label, path, kind in materialise_demo_roots(today)
    )


def _instruction_files(project: Path) -> tuple[str, ...]:
    """A demo project's CLAUDE.md and what it imports, as Claude Code resolves them."""
    found = with_imports(InstructionSet(), [MemoryFile(project / "CLAUDE.md", "project")])
    return tuple(item.path.relative_to(project).as_posix() for item in found.files)


def explicit_root(given: str) -> Path:
    """A ROOT from the command line; a UsageError when it is not a folder."""
    root = Path(given).expanduser()
    if not root.is_dir():
        problem = "not a folder" if root.exists() else "no such folder"
        raise UsageError(f"{given}: {problem}")
    return root


def resolve_root(explicit: str | None) -> Path | None:
    """The folder one ROOT names, or without one the closest discovered (None: nothing)."""
    if explicit:
        return explicit_root(explicit)
    candidates = discover()
    return candidates[0].path if candidates else None


def tilde(path: Path | str) -> str:
    """`path` with the home folder written `~` (for showing, never for opening)."""
    home = str(Path.home())
    text = str(path)
    if home not in ("", "/") and (text == home or text.startswith(home.rstrip("/") + "/")):
        return "~" + text[len(home.rstrip("/")) :]
    return text
