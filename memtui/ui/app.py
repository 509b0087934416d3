"""The Textual app (`commands.tui.create_app` builds it for the CLI, the tests and screenshots).

`MemtuiApp` owns what outlives a screen: options, themes, the secret mask, the keymap in force,
saving settings to the config file in use (signals and the terminal: `ui.terminal`).
The main screen owns the engine and every worker (see `screens/main.py`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.console import RenderableType
from textual import on, work
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.filter import LineFilter, Monochrome, NoColor
from textual.screen import Screen
from textual.widget import AwaitMount

from memtui.core.live.allocator import share_one_malloc_arena
from memtui.core.live.roots import tilde
from memtui.core.sanitize import one_line, quoted, visible
from memtui.core.settings.choices import default_choices_path, remember_choice
from memtui.core.settings.config_file import (
    ConfigWriteError,
    SettingValue,
    config_file_in_use,
    save_settings,
)
from memtui.startup import demo_root
from memtui.ui import widths
from memtui.ui.app_link import AppLink
from memtui.ui.bindings import MAIN_BINDINGS, PANE_BINDINGS
from memtui.ui.heap import (
    RELEASE_RETRY_S,
    FreshContextExecutor,
    collect_after_paint,
    release_later,
    release_pending,
    settle_heap,
)
from memtui.ui.keymap import check_keymap
from memtui.ui.masker import SecretMasker
from memtui.ui.messages import DemoRequested, RootsChosen, SaveSettings
from memtui.ui.options import AppOptions
from memtui.ui.screens.filters import FiltersScreen
from memtui.ui.screens.health import HealthScreen
from memtui.ui.screens.main import MainScreen
from memtui.ui.screens.modal import CloseableModal
from memtui.ui.screens.no_memory import NoMemoryScreen
from memtui.ui.screens.roots import RootsScreen
from memtui.ui.screens.weights import WeightsScreen
from memtui.ui.textual_private import LocalsHiddenApp, read_pastes_as_text, start_with_theme
from memtui.ui.themes import DEFAULT_THEME, MEMTUI_VARIABLES, load_themes, readable_variables
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList

if TYPE_CHECKING:
    from memtui.ui.handoff import HandOff

NO_COLOR_FILTERS: Mapping[bool, LineFilter] = {True: NoColor(), False: Monochrome()}
"""Under NO_COLOR, by whether the theme uses the terminal's own colours: drop colours, or grey."""


ScreenT = TypeVar("ScreenT", bound=Screen[Any])

WIDTH_CLASSES = ((0, "-w-small"), (80, "-w-medium"), (120, "-w-large"))
HEIGHT_CLASSES = ((0, "-h-small"), (24, "-h-medium"), (36, "-h-large"))
"""(least cells, class) of the app's breakpoints: the size classes of every screen."""


def size_classes(width: int, height: int) -> dict[str, bool]:
    """Which size class a screen of `width` × `height` cells has, and which it has not (as
    Textual sets them on a resize: per axis, the class of the largest breakpoint reached)."""
    classes: dict[str, bool] = {}
    for cells, points in ((width, WIDTH_CLASSES), (height, HEIGHT_CLASSES)):
        reached = max((least, name) for least, name in points if cells >= least)
        classes.update({name: name == reached[1] for _, name in points})
    return classes


class MemtuiApp(LocalsHiddenApp[int]):
    """memtui: search, rank and explain what your agent remembers."""

    TITLE = "memtui"
    CSS_PATH = Path(__file__).with_name("memtui.tcss")
    ENABLE_COMMAND_PALETTE = True
    # Size classes every screen gets; memtui.tcss lays the panes out by them. (Textual declares
    # these as instance attributes, which a ClassVar annotation here could not override.)
    HORIZONTAL_BREAKPOINTS = list(WIDTH_CLASSES)  # noqa: RUF012
    VERTICAL_BREAKPOINTS = list(HEIGHT_CLASSES)  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        # ctrl+c quits too, as in fzf and `memtui pick` (Textual's own only says "press ctrl+q").
        Binding("ctrl+q,ctrl+c", "quit", "Quit", show=False, priority=True, id="app.quit"),
        Binding(
            "ctrl+z", "suspend_process", "Suspend", show=False, priority=True, id="app.suspend"
        ),
    ]

    def __init__(self, options: AppOptions) -> None:
        super().__init__()
        share_one_malloc_arena()
        read_pastes_as_text()
        self.options = options
        self.load_ms: float | None = None
        self.last_paint_ms: float | None = None
        """Milliseconds from the latest search request to its results being painted."""
        self.painted_generation = 0
        self.changes_applied = 0
        self.theme_warnings: list[str] = []
        self.ending = False
        """An exit has been asked for: no screen is pushed any more (see `push_screen`)."""
        self.handed_off: HandOff | None = None
        """What `memtui pick` prints once the app has ended (None: nothing was picked)."""
        self._theme_ready = False
        self.masker = SecretMasker(enabled=options.config.mask_secrets)
        if options.deterministic:
            self.animation_level = "none"
        theme_set = load_themes(options.user_themes_dir)
        for theme in theme_set.themes.values():
            self.register_theme(theme)
        self.theme_warnings = theme_set.warnings
        wanted = self.options.theme or self.options.config.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self.theme_warnings.append(f"theme {quoted(wanted)} not found; using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        start_with_theme(self, wanted)

    # --- startup ------------------------------------------------------------------------------

    def exit(
        self, result: int | None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        self.ending = True
        super().exit(result, return_code, message)

    def push_screen(
        self,
        screen: Any,
        callback: Any = None,
        wait_for_dismiss: bool = False,
        *,
        mode: str | None = None,
    ) -> Any:
        """Push `screen`, unless the app is ending: a key typed right behind `q` (`qo`, typing
        "quokka" in the list) pushed its screen after the exit was asked for, Textual mounts
        nothing then, and the screen's first query of its own widgets crashed the exit."""
        if self.ending:
            if wait_for_dismiss:
                return asyncio.get_running_loop().create_future()  # the app ends before it would
            return AwaitMount(self.screen, [])
        if wait_for_dismiss:
            return super().push_screen(screen, callback, wait_for_dismiss=True, mode=mode)
        return super().push_screen(screen, callback, mode=mode)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(MEMTUI_VARIABLES)

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables with every text colour memtui uses made readable (WCAG AA)."""
        variables = readable_variables(super().get_css_variables(), self.ansi_theme)
        self.theme_variables = variables
        return variables

    def on_mount(self) -> None:
        asyncio.get_running_loop().set_default_executor(FreshContextExecutor())
        self._theme_ready = True
        check = check_keymap(self.options.keymap, key_scopes(), text_box_keys())
        self.live_keymap = check.accepted
        self.keymap_problems = list(check.problems)
        self.set_keymap(check.accepted)
        for warning in [*self.options.config_warnings, *self.theme_warnings, *self.keymap_problems]:
            self.notify(
                one_line(warning, widths.NOTICE), severity="warning", timeout=6, markup=False
            )
        if self.options.root is None and not self.options.candidates:
            self.push_screen(self.sized(NoMemoryScreen(self.options.searched)))
        elif self.options.pick or self.options.root is None:
            self.push_screen(self.sized(RootsScreen(self.options.candidates)))
        else:
            self.push_screen(self._main_screen())

    def open_demo(self) -> None:
        """Switch from the 'no memory folder' screen to the bundled demo."""
        self.options.root = demo_root(self.options.today)
        self.options.demo = True
        self.switch_screen(self._main_screen())

    def _main_screen(self) -> MainScreen:
        """A main screen on the options' roots, linked to what it may ask of the app."""
        startup = [
            *(("config", warning) for warning in self.options.config_warnings),
            *(("theme", warning) for warning in self.theme_warnings),
            *(("keymap", problem) for problem in self.keymap_problems),
        ]
        link = AppLink(
            masker=self.masker,
            keymap=self.live_keymap,
            startup_warnings=tuple(startup),
            painted=self.results_painted,
            indexed=self._indexed,
            changes_applied=self._changes_applied,
            hand_off=self.hand_off,
            next_theme=self.cycle_theme,
        )
        return self.sized(MainScreen(self.options, link))

    def sized(self, screen: ScreenT) -> ScreenT:
        """`screen` holding the size classes of the terminal now. Textual adds them on the
        screen's first resize, after the screen was first styled: the whole main screen was
        styled twice as it opened (~15 ms of every start, on the main thread while the memory
        loads)."""
        screen.update_classes(size_classes(*self.size), update=False)
        return screen

    # --- messages from screens (they bubble to the app, not to the screen below) --------------

    @on(DemoRequested)
    def _demo_requested(self) -> None:
        self.open_demo()

    @on(RootsChosen)
    async def _roots_chosen(self, message: RootsChosen) -> None:
        """Close what is open (its watcher and screens) and open the chosen roots."""
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.stop_watching()
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
        self.masker.forget()
        await self.push_screen(self._main_screen())
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
        self.push_screen(
            self.sized(RootsScreen(open_now=self.options.open_roots, can_go_back=True))
        )

    @on(SaveSettings)
    def _save_requested(self, message: SaveSettings) -> None:
        self.save_settings(message.values, saved=message.notice)

    # --- hooks for benchmarks and tests -------------------------------------------------------

    def results_painted(self, generation: int, requested_at: float) -> None:
        """Called after the list repainted for search `generation` (bench --tui reads these);
        the young objects the keystroke made are collected then, before the next key."""
        now = time.perf_counter()
        self.painted_generation = generation
        self.last_paint_ms = (now - requested_at) * 1000
        collect_after_paint()

    def _indexed(self, elapsed_ms: float) -> None:
        self.load_ms = elapsed_ms

    def _changes_applied(self) -> None:
        self.changes_applied += 1

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
        if self._theme_ready and not self.options.deterministic:
            self._remember_theme(theme)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Under NO_COLOR, Textual greys colours with a filter it picks once, for the first
        theme; an ANSI theme's colours have no RGB to grey (they all turn black on black), so it
        needs the filter that drops colours instead, and the other themes need it back."""
        filters = super().get_line_filters()
        if not self.no_color:
            return filters
        wanted = NO_COLOR_FILTERS[self.native_ansi_color]
        return [wanted if isinstance(item, NoColor | Monochrome) else item for item in filters]

    def _remember_theme(self, theme: str) -> None:
        self.save_settings({"theme": theme}, saved=f"Theme {one_line(theme, widths.SHORT)} saved")

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
            # The file on a line of its own: in parentheses, a long path wrapped and left the
            # closing one alone on the last line of the toast.
            where = one_line(tilde(path), widths.SHORT)
            self.notify(f"{saved} in\n{where}", timeout=3, markup=False)

    # --- command palette ----------------------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
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


def text_box_keys() -> dict[str, set[str]]:
    """The keys the query box edits with (`QueryInput.EDITING_KEYS`): no remap may take them."""
    return {"query": set(QueryInput.EDITING_KEYS)}


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
