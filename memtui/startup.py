"""What every entry point needs before it can start: settings, the roots, the window and today.

`load_startup` is the one place that turns command-line choices into a frozen `Startup`, so the
TUI, `rank`, `list`, `bench` and `roots` open memory the same way. Roots: `--demo` (with `--all`
its second, Cline-style root too), else the ROOTs given, else what discovery finds
(`memtui.discovery`): `--all` opens every candidate, otherwise the closest one (the TUI offers a
picker when there are several). Nothing found leaves `roots` empty and `searched` says where
memtui looked. Opening several roots drops any root inside another one, with a warning.

Discovery and the demo are imported only when they are used: `memtui rank -q x ROOT` neither
looks for memory nor writes the demo, and their modules cost a small run ~10 ms to load.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct

from memtui.core.live.roots import MemoryRoot, covers, folder_label, make_roots
from memtui.core.settings.choices import root_key
from memtui.core.settings.config import Config, ConfigError, load_config
from memtui.errors import UsageError

if TYPE_CHECKING:
    from memtui.discovery import Candidate


class Startup(Struct, frozen=True):
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
        """Memory of this folder found but not opened, which `--all` would add (another
        project's memory, which the picker also offers, is not counted: `--all` leaves it)."""
        opened = {root_key(root) for root in self.roots}
        return sum(
            root_key(candidate.root) not in opened and not candidate.other_project
            for candidate in self.candidates
        )

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
        from memtui.discovery import decide, surroundings

        candidates, what = decide(surroundings(), every=every)
        chosen, why = not what.pick, what.why
        found = tuple(item.root for item in what.opens)
        warnings += [warning for item in what.opens for warning in item.warnings]
    found, nested = drop_nested(found)
    warnings += dict.fromkeys(  # a folder given three times is said once
        f"{root.path} given twice: opened once"
        if root.path == outer.path and root.only == outer.only
        else f"{root.path} is inside {outer.path}: opened once, as part of {outer.label}"
        for root, outer in nested
    )
    return Startup(
        config=config,
        warnings=tuple(warnings),
        today=effective_today,
        days=days if days is not None else config.days,
        roots=found,
        demo=demo,
        searched=_searched() if not found else (),
        candidates=tuple(candidates),
        chosen=chosen,
        why=why,
    )


def _searched() -> tuple[str, ...]:
    """Where discovery looks, for the message when no memory folder was found or given."""
    from memtui.discovery import searched_places

    return tuple(searched_places())


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
    from memtui.demo import materialise_demo

    return materialise_demo(today)


def demo_roots(today: dt.date, *, every: bool) -> tuple[MemoryRoot, ...]:
    """The demo workspace; with `every`, its second root (a Cline memory bank) too."""
    if not every:
        return (MemoryRoot("demo", demo_root(today)),)
    from memtui.demo import materialise_demo_roots

    return tuple(
        MemoryRoot(label, path, _instruction_files(path) if kind == "claude-md" else (), kind)
        for label, path, kind in materialise_demo_roots(today)
    )


def _instruction_files(project: Path) -> tuple[str, ...]:
    """A demo project's CLAUDE.md and what it imports, as Claude Code resolves them."""
    from memtui.core.places.instructions import InstructionSet, MemoryFile, with_imports

    found = with_imports(InstructionSet(), [MemoryFile(project / "CLAUDE.md", "project")])
    return tuple(item.path.relative_to(project).as_posix() for item in found.files)


def explicit_root(given: str) -> Path:
    """A ROOT from the command line; a UsageError when it is not a folder or cannot be listed
    (a command would otherwise answer "no entry contains …" for a memory it never read)."""
    root = Path(given).expanduser()
    if not root.is_dir():
        problem = "not a folder" if root.exists() else "no such folder"
        raise UsageError(f"{given}: {problem}")
    try:
        with os.scandir(root):
            pass
    except PermissionError:
        raise UsageError(f"{given}: folder not readable (permission denied)") from None
    except OSError as exc:
        raise UsageError(f"{given}: folder not readable ({exc.strerror or exc})") from None
    return Path(os.path.abspath(root))  # `./mem/`, `mem/../mem`: one name, from anywhere


def resolve_root(explicit: str | None) -> Path | None:
    """The folder one ROOT names, or without one the closest discovered (None: nothing)."""
    if explicit:
        return explicit_root(explicit)
    from memtui.discovery import discover

    candidates = discover()
    return candidates[0].path if candidates else None
