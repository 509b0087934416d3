"""The Textual app (`commands.tui.create_app` builds it for the CLI, the tests and screenshots).

`MemtuiApp` owns what outlives a screen: options, themes, the secret mask, the keymap in force,
saving settings to the config file in use (signals and the terminal: `ui.terminal`).
The main screen owns the engine and every worker (see `screens/main.py`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual import on, work
from textual._path import CSSPathType
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.filter import Monochrome, NoColor
from textual.screen import Screen

from memtui.core.live.allocator import share_one_malloc_arena
from memtui.core.live.roots import MemoryRoot, folder_label
from memtui.core.live.watch import RootWatcher
from memtui.core.live.watch_roots import RootsWatcher
from memtui.core.sanitize import one_line, visible
from memtui.core.secrets import mask_secrets
from memtui.core.settings.choices import default_choices_path, remember_choice, root_key
from memtui.core.settings.config import Config
from memtui.core.settings.config_file import (
    ConfigWriteError,
    SettingValue,
    config_file_in_use,
    save_settings,
)
from memtui.startup import Candidate, Startup, demo_root, tilde
from memtui.ui import status, widths
from memtui.ui.bindings import MAIN_BINDINGS, PANE_BINDINGS
from memtui.ui.heap import (
    RELEASE_RETRY_S,
    FreshContextExecutor,
    release_later,
    release_pending,
    settle_heap,
)
from memtui.ui.keymap import check_keymap, live_keys
from memtui.ui.messages import (
    DemoRequested,
    EntryAction,
    RootsChosen,
    SaveSettings,
    WeightsChanged,
)
from memtui.ui.screens.filters import FiltersScreen
from memtui.ui.screens.health import HealthScreen
from memtui.ui.screens.main import MainScreen
from memtui.ui.screens.modal import CloseableModal
from memtui.ui.screens.no_memory import NoMemoryScreen
from memtui.ui.screens.roots import RootsScreen
from memtui.ui.screens.weights import WeightsScreen
from memtui.ui.themes import DEFAULT_THEME, MEMTUI_VARIABLES, load_themes, readable_variables
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList

if TYPE_CHECKING:
    from memtui.core.live.engine import Engine
    from memtui.ui.handoff import HandOff

HandOffMode = Literal["", "selected", "all"]
"""What `memtui pick` hands on when nothing is marked ("": not a picker)."""

MASK_CACHE_CHARS = 2_000_000
"""Entry texts kept with their masked form, in characters: many screens of entries, while a
huge entry (a 4 MB log, rewritten as it grows) is masked afresh instead of piling up (the cache
used to keep 256 texts of any size). A text over a quarter of this is not kept."""


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


class MemtuiApp(App[int]):
    """memtui: search, rank and explain what your agent remembers."""

    TITLE = "memtui"
    CSS_PATH: ClassVar[CSSPathType | None] = Path(__file__).with_name("memtui.tcss")
    ENABLE_COMMAND_PALETTE = True
    # Size classes every screen gets; memtui.tcss lays the panes out by them. (Textual declares
    # these as instance attributes, which a ClassVar annotation here could not override.)
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-w-small"),
        (80, "-w-medium"),
        (120, "-w-large"),
    ]
    VERTICAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-h-small"),
        (24, "-h-medium"),
        (36, "-h-large"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="app.quit"),
        Binding(
            "ctrl+z", "suspend_process", "Suspend", show=False, priority=True, id="app.suspend"
        ),
    ]

    def __init__(self, options: AppOptions) -> None:
        super().__init__()
        share_one_malloc_arena()
        self.options = options
        self.load_ms: float | None = None
        self.last_paint_ms: float | None = None
        """Milliseconds from the latest search request to its results being painted."""
        self.painted_generation = 0
        self.changes_applied = 0
        self.watcher: RootWatcher | RootsWatcher | None = None
        self.theme_warnings: list[str] = []
        self.handed_off: HandOff | None = None
        """What `memtui pick` prints once the app has ended (None: nothing was picked)."""
        self._theme_ready = False
        self._mask_cache: dict[str, tuple[str, int]] = {}
        self._mask_cache_chars = 0
        if options.deterministic:
            self.animation_level = "none"
        theme_set = load_themes(options.user_themes_dir)
        for theme in theme_set.themes.values():
            self.register_theme(theme)
        self.theme_warnings = theme_set.warnings

    # --- startup ------------------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(MEMTUI_VARIABLES)

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables with every text colour memtui uses made readable (WCAG AA)."""
        variables = readable_variables(super().get_css_variables(), self.ansi_theme)
        self.theme_variables = variables
        return variables

    def on_mount(self) -> None:
        asyncio.get_running_loop().set_default_executor(FreshContextExecutor())
        wanted = self.options.theme or self.options.config.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self.theme_warnings.append(f"theme {wanted!r} not found; using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        self.theme = wanted
        self._theme_ready = True
        check = check_keymap(self.options.keymap, key_scopes())
        self.live_keymap = check.accepted
        self.keymap_problems = list(check.problems)
        self.set_keymap(check.accepted)
        for warning in [*self.options.config_warnings, *self.theme_warnings, *self.keymap_problems]:
            self.notify(
                one_line(warning, widths.NOTICE), severity="warning", timeout=6, markup=False
            )
        if self.options.root is None and not self.options.candidates:
            self.push_screen(NoMemoryScreen(self.options.searched))
        elif self.options.pick or self.options.root is None:
            self.push_screen(RootsScreen(self.options.candidates))
        else:
            self.push_screen(MainScreen())

    def open_demo(self) -> None:
        """Switch from the 'no memory folder' screen to the bundled demo."""
        self.options.root = demo_root(self.options.today)
        self.options.demo = True
        self.switch_screen(MainScreen())

    # --- messages from screens (they bubble to the app, not to the screen below) --------------

    @on(DemoRequested)
    def _demo_requested(self) -> None:
        self.open_demo()

    @on(RootsChosen)
    async def _roots_chosen(self, message: RootsChosen) -> None:
        """Close what is open (its watcher and screens) and open the chosen roots."""
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
        self.options.use_roots(message.roots)
        if self.options.candidates:  # a choice among what discovery found: remembered here
            await asyncio.to_thread(
                remember_choice, default_choices_path(), Path.cwd(), message.roots
            )
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen) and screen.engine is not None:
                release_later(screen.engine)
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        self.forget_masks()
        await self.push_screen(MainScreen())
        if release_pending():
            self._keep_releasing()

    def _keep_releasing(self) -> None:
        """Settle until the closed folder's engine is freed (`heap.release_later`): after its
        screen is gone nothing else may come along to settle (no file change, no keystroke)."""
        if release_pending():
            self.set_timer(RELEASE_RETRY_S, self._settle_and_retry)

    def _settle_and_retry(self) -> None:
        if release_pending():
            settle_heap()
            self._keep_releasing()

    def action_switch_roots(self) -> None:
        """The picker over whatever is open (palette: "Switch memory folder")."""
        self.push_screen(RootsScreen(open_now=self.options.open_roots, can_go_back=True))

    @on(EntryAction)
    def _entry_action(self, message: EntryAction) -> None:
        """The health view asks to edit or copy an entry: the main screen's own actions do it."""
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                if message.action == "edit":
                    screen.edit_entry(message.entry)
                else:
                    screen.copy_entry(message.entry)

    @on(SaveSettings)
    def _save_requested(self, message: SaveSettings) -> None:
        self.save_settings(message.values, saved=message.notice)

    @on(WeightsChanged)
    def _weights_changed(self, message: WeightsChanged) -> None:
        """The weights screen changed a weight: the main screen under it owns the engine."""
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.apply_weights(message.weights, message.half_life_days)

    # --- hooks for benchmarks and tests -------------------------------------------------------

    def results_painted(self, generation: int, requested_at: float) -> None:
        """Called after the list repainted for search `generation` (bench --tui reads these)."""
        now = time.perf_counter()
        self.painted_generation = generation
        self.last_paint_ms = (now - requested_at) * 1000

    # --- shared helpers -----------------------------------------------------------------------

    def hand_off(self, picked: HandOff) -> None:
        """`memtui pick`: end with these entries for the command to print."""
        self.handed_off = picked
        self.exit()

    def copy_to_clipboard(self, text: str) -> None:
        """Every copy passes here, made visible first: the OSC 52 payload can then hold no
        escape sequence (pasted into a terminal, it would run) and no undecodable file-name byte
        (which cannot be encoded and crashed the copy); they read as in the UI."""
        super().copy_to_clipboard(visible(text))

    def mask(self, text: str, *, revealed: bool) -> tuple[str, int]:
        """The text to show (secrets masked unless revealed) and how many secrets it holds."""
        if not self.options.config.mask_secrets:
            return text, 0
        cached = self._mask_cache.get(text)
        if cached is None:
            cached = mask_secrets(text)
            if self._mask_cache_chars + len(text) > MASK_CACHE_CHARS:
                self.forget_masks()
            if len(text) <= MASK_CACHE_CHARS // 4:
                self._mask_cache[text] = cached
                self._mask_cache_chars += len(text)
        masked_text, count = cached
        return (text if revealed else masked_text), count

    def forget_masks(self) -> None:
        """Drop the masked texts (after files changed, or another folder was opened)."""
        self._mask_cache = {}
        self._mask_cache_chars = 0

    def collect_warnings(self, engine: Engine | None) -> list[tuple[str, str]]:
        """(where, problem) rows for the warnings view: config, themes, skipped files, entries."""
        rows: list[tuple[str, str]] = []
        rows += [("config", warning) for warning in self.options.config_warnings]
        rows += [("theme", warning) for warning in self.theme_warnings]
        rows += [("keymap", problem) for problem in self.keymap_problems]
        if self.watcher is not None and self.watcher.last_error:
            rows.append(("watcher", self.watcher.last_error))
        if self.watcher is not None:
            interval = self.watcher.root_check_ms
            rows += [
                (str(folder), status.unwatched_reason(why, interval))
                for folder, why in self.watcher.unwatched
            ]
        if engine is not None:
            rows += [("engine", warning) for warning in engine.warnings]
            rows += [(item.path, item.reason) for item in engine.skipped]
            for entry in engine.loaded_entries():
                for warning in entry.warnings:
                    rows.append((f"{entry.path}:{entry.line_start}", warning))
        return rows

    # --- themes -------------------------------------------------------------------------------

    def memtui_themes(self) -> list[str]:
        return sorted(name for name in self.available_themes if name.startswith("memtui-")) or [
            self.theme
        ]

    def cycle_theme(self) -> None:
        names = self.memtui_themes()
        index = names.index(self.theme) + 1 if self.theme in names else 0
        self.theme = names[index % len(names)]
        self.notify(f"Theme: {self.theme}", timeout=2, markup=False)

    def watch_theme(self, theme: str) -> None:
        self._fit_no_color_filter()
        if self._theme_ready and not self.options.deterministic:
            self._remember_theme(theme)

    def _fit_no_color_filter(self) -> None:
        """Under NO_COLOR, Textual greys colours with a filter it picks once, for the first
        theme; an ANSI theme's colours have no RGB to grey (they all turn black on black), so it
        needs the filter that drops colours instead, and the other themes need it back."""
        if self.no_color:
            wanted = NoColor() if self.native_ansi_color else Monochrome()
            self._filters[:] = [
                wanted if isinstance(item, NoColor | Monochrome) else item for item in self._filters
            ]

    def _remember_theme(self, theme: str) -> None:
        self.save_settings({"theme": theme}, saved=None)

    def keys_for(self, action: str) -> str:
        """The keys in force for a main-screen action in the panes (e.g. `screen.edit` -> `o`)."""
        for binding in PANE_BINDINGS:
            if isinstance(binding, Binding) and binding.action == action:
                return " ".join(
                    self.get_key_display(Binding(key, action))
                    for key in live_keys(binding, self.live_keymap)
                )
        return ""

    # --- settings -----------------------------------------------------------------------------

    @work(thread=True, group="settings")
    def save_settings(self, values: Mapping[str, SettingValue], *, saved: str | None) -> None:
        """Save `values` to the config file in use (`--config FILE`, else the XDG file).

        Off the event loop; a failure is a notice, never a crash, and `saved` (if any) is the
        notice of success.
        """
        path = config_file_in_use(self.options.config)
        roots = [root.path for root in self.options.open_roots]
        try:
            save_settings(path, values, roots=roots)
        except ConfigWriteError as exc:
            self.notify(
                one_line(str(exc), widths.NOTICE),
                title="Settings not saved",
                severity="warning",
                markup=False,
            )
            return
        if saved:
            self.notify(f"{saved} ({one_line(str(path), widths.SHORT)})", timeout=3, markup=False)

    # --- command palette ----------------------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        if isinstance(screen, MainScreen):
            for title, help_text, action in PALETTE_COMMANDS:
                keys = self.keys_for(f"screen.{action}")
                shown = f"{help_text} ({keys})" if keys else help_text
                yield SystemCommand(title, shown, _screen_action(screen, action))
        if not isinstance(screen, RootsScreen):
            yield SystemCommand(
                "Switch memory folder",
                "Pick another memory folder, or open all found together",
                self.action_switch_roots,
            )
        yield SystemCommand("Change theme", "Pick a theme (remembered)", self.action_change_theme)
        yield SystemCommand(
            "Next memtui theme", "Cycle memtui-dark/light/high-contrast", self.cycle_theme
        )
        yield SystemCommand("Keys", "Show the key bindings panel", self.action_show_help_panel)
        yield SystemCommand("Quit", "Quit memtui", self.exit)


PALETTE_COMMANDS: tuple[tuple[str, str, str], ...] = (
    # (title, what it does, the main screen action); the key in force is added when shown
    ("Search", "Focus the query box", "focus_query"),
    ("Results", "Focus the results list", "focus_results"),
    ("Open in editor", "Open $EDITOR at the selected entry's line", "edit"),
    ("Open file", "The selected entry's whole file, read-only, scrolled to it", "open_file"),
    (
        "Copy entry",
        "Copy the marked entries (else the selected one) as Markdown quotes under their citations",
        "copy_entry",
    ),
    (
        "Copy citation",
        "Copy path:start–end of the marked entries (else the selected one)",
        "copy_citation",
    ),
    ("Boost file", "Boost the selected entry's file for this session", "boost(1)"),
    ("Penalise file", "Penalise the selected entry's file for this session", "boost(-1)"),
    ("Clear file boost", "Remove the session boost of the selected entry's file", "clear_boost"),
    ("Toggle breakdown size", "Compact or expanded score breakdown", "toggle_breakdown"),
    ("Explain in full", "Open the full score breakdown", "expanded_breakdown"),
    ("Maximise pane", "Fill the screen with the focused pane, or restore it", "toggle_maximize"),
    ("Weights", "Change factor weights and half-life live", "weights"),
    ("Filters", "Filter by source, role, tag and date", "filters"),
    ("Toggle date window", "Load every date or only the last N days", "toggle_window"),
    ("Reveal secrets", "Show or mask secrets in the entry", "toggle_secrets"),
    ("Next match", "Scroll the entry to the next match", "next_match"),
    ("Warnings", "Skipped files, config and entry warnings", "warnings"),
    ("Memory health", "Duplicates, superseded, stale, secrets, beyond the load line", "health"),
    ("Help", "Every key binding", "help"),
)


def key_scopes() -> dict[str, list[BindingType]]:
    """Binding tables that are active at the same time: a key may serve one binding per scope."""
    everywhere = [*MAIN_BINDINGS, *MemtuiApp.BINDINGS]
    return {
        "panes": [*PANE_BINDINGS, *ResultsList.BINDINGS, *EntryView.BINDINGS, *everywhere],
        "query": [*QueryInput.BINDINGS, *everywhere],
        "weights": [*WeightsScreen.BINDINGS, *MemtuiApp.BINDINGS],
        "filters": [*FiltersScreen.BINDINGS, *MemtuiApp.BINDINGS],
        "modal": [*CloseableModal.BINDINGS, *MemtuiApp.BINDINGS],
        "health": [*HealthScreen.BINDINGS, *MemtuiApp.BINDINGS],
        "roots": [*RootsScreen.BINDINGS, *MemtuiApp.BINDINGS],
        "no memory": [*NoMemoryScreen.BINDINGS, *MemtuiApp.BINDINGS],
    }


def _screen_action(screen: Screen[Any], action: str) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        await screen.run_action(action)

    return run
