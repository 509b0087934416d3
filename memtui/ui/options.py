"""What the app is opened with: the options resolved from the command line and config.

A plain record (no Textual): the app keeps it, and hands it to the screens that need it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from memtui.core.live.roots import MemoryRoot, folder_label, tilde
from memtui.core.settings.choices import root_key
from memtui.core.settings.config import Config
from memtui.discovery import Candidate
from memtui.startup import Startup

if TYPE_CHECKING:
    from memtui.core.live.engine import Engine

HandOffMode = Literal["", "selected", "all"]
"""What `memtui pick` hands on when nothing is marked ("": not a picker)."""


@dataclass
class AppOptions:
    """Everything the app needs, resolved from the command line and config."""

    root: Path | None
    """The memory folder (the first one when several are open)."""
    config: Config
    today: dt.date
    days: int
    query: str = ""
    demo: bool = False
    theme: str | None = None
    watch: bool = True
    force_polling: bool = False
    deterministic: bool = False
    """Tests and screenshots: no cursor blink, no timings, no animations."""
    config_warnings: list[str] = field(default_factory=list)
    searched: list[str] = field(default_factory=list)
    """Where the default root was looked for (shown when none was found)."""
    user_themes_dir: Path | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    """Binding id -> keys (Textual keymap), e.g. {"pane.edit": "E"}; from config `[keymap]`."""
    engine_factory: Callable[[AppOptions], Engine] | None = None
    """Builds the (not yet loaded) engine; None means the real `Engine` on `root`."""
    roots: tuple[MemoryRoot, ...] = ()
    """Every open memory folder, `root` first; empty means `root` alone."""
    candidates: tuple[Candidate, ...] = ()
    """What discovery found (no ROOT given): the start screen's picker lists them."""
    pick: bool = False
    """Several candidates and no choice yet: start on the picker."""
    hand_off: HandOffMode = ""
    """`memtui pick`: enter ends the app handing on the marked entries (`MemtuiApp.handed_off`)
    or, with none marked, the selected one ("selected") or every result ("all"); esc or ctrl+c
    ends it handing on nothing. "": the usual app."""

    @classmethod
    def from_startup(
        cls,
        startup: Startup,
        *,
        query: str = "",
        theme: str | None = None,
        watch: bool = True,
        deterministic: bool = False,
    ) -> AppOptions:
        """The app's options for a resolved startup plus the TUI's own choices."""
        return cls(
            root=startup.root,
            config=startup.config,
            today=startup.today,
            days=startup.days,
            query=query,
            demo=startup.demo,
            theme=theme,
            watch=watch and not deterministic,
            deterministic=deterministic,
            config_warnings=list(startup.warnings),
            searched=list(startup.searched),
            keymap=dict(startup.config.keymap),
            roots=startup.roots,
            candidates=startup.candidates,
            pick=not startup.chosen,
        )

    @property
    def open_roots(self) -> tuple[MemoryRoot, ...]:
        """What the engine opens: `roots`, or `root` alone."""
        if self.roots:
            return self.roots
        return () if self.root is None else (MemoryRoot(folder_label(self.root), self.root),)

    def use_roots(self, roots: tuple[MemoryRoot, ...]) -> None:
        """Open `roots` next (the picker's choice)."""
        self.roots = roots
        self.root = roots[0].path if roots else None
        self.demo = False
        self.pick = False

    @property
    def more_found(self) -> int:
        """Memory discovery found that is not open (the picker, `m`, offers it)."""
        if self.demo:
            return 0
        opened = {root_key(root) for root in self.open_roots}
        return sum(root_key(candidate.root) not in opened for candidate in self.candidates)

    @property
    def root_label(self) -> str:
        if self.root is None:
            return "no memory folder"
        roots = self.open_roots
        if len(roots) > 1:
            return f"{len(roots)} folders: " + ", ".join(root.label for root in roots)
        if self.demo:
            return "demo memory"
        return tilde(self.root)
