"""Where memtui finds memory when no ROOT is given, and what `memtui` does with what it finds.

Discovery walks PLACES, one table of where agents keep memory, closest first: the current
folder and its git root, Claude Code's auto-memory for that project, `$MEMTUI_DIR`, then the
home workspaces. A place inside a folder already found is not listed again (that folder's
load includes it). `plan` decides what opens: this folder's memory, the remembered choice, the
only memory found, or the picker. A run given its ROOTs never loads this module
(`startup.load_startup` imports it only to look), so `memtui rank -q x ROOT` starts without it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from msgspec import Struct
from msgspec.structs import replace

from memtui.core.live.roots import MemoryRoot, covers, distinct_labels, make_roots, tilde
from memtui.core.places import claude
from memtui.core.places.table import (
    NEAR,
    OTHER,
    OTHER_PROJECT,
    PLACES,
    REPOSITORY,
    Found,
    Surroundings,
    other_projects,
)
from memtui.core.settings.choices import chosen_in, default_choices_path, root_key
from memtui.errors import UsageError


class Candidate(Struct, frozen=True):
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
    """Where memtui runs from. A current folder deleted under the shell is an input error: the
    memory to search is found from it."""
    try:
        cwd = Path.cwd()
    except FileNotFoundError:
        raise UsageError(
            "the current folder no longer exists: cd to a folder that does, or name the memory "
            "folder (e.g. memtui rank QUERY ~/.openclaw/workspace)"
        ) from None
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


class Plan(Struct, frozen=True):
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
