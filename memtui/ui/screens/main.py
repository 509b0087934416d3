"""The main screen: query box, ranked results, the selected entry and why it ranked there.

The screen owns the engine and every worker. Engine work (load, search, file changes, a new
date window, new weights) runs in thread workers that post messages back (`ui.messages`).
Searches carry the generation of the request that started them; anything older than the newest
request is dropped, in the worker before it searches and again in the handlers, so a slow
search can never paint over a newer one.

What is shown is built elsewhere: the status line, empty states and notices by pure functions
in `ui.status`, rows and breakdowns in `ui.render`, and the right-hand column is `EntryPane`;
the keys are in `ui.bindings`, the editor in `ui.editor`, GC tuning in `ui.heap`.

What the workers do is in `ui.search_work` (with the search generations), what waits for a
pause in typing in `ui.idle`, the watcher in `ui.watching` (created, owned and stopped here),
which entries a copy or pick hands on in `ui.hand_off_flow`. Of the app the screen uses only
Textual's own API (notify, push_screen, exit); what memtui's app adds reaches it through the
`AppLink` it is given. Other screens report back through the callables it gives them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.command import Provider
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, Static

from memtui.core.live.allocator import give_back_memory
from memtui.core.live.engine import Engine
from memtui.core.live.watch import RootWatcher, WatchMode
from memtui.core.live.watch_roots import RootsWatcher
from memtui.core.model import Entry, Hit, RankResult
from memtui.core.sanitize import one_line
from memtui.core.settings.history import default_history_path
from memtui.ui import clipboard, messages, render, search_work, status, widths
from memtui.ui.app_link import AppLink
from memtui.ui.bindings import MAIN_BINDINGS, PANE_BINDINGS, PICK_BINDINGS
from memtui.ui.editor import open_editor
from memtui.ui.hand_off_flow import resolved, wanted_ids
from memtui.ui.handoff import HandOff, Purpose, cited_path, copied_notice, unmarked_notice
from memtui.ui.heap import settle_heap
from memtui.ui.idle import IdleJobs
from memtui.ui.options import AppOptions
from memtui.ui.palette import MainCommands
from memtui.ui.screens.breakdown import BreakdownScreen
from memtui.ui.screens.file_view import FileViewScreen
from memtui.ui.screens.filters import FiltersScreen
from memtui.ui.screens.health import HealthScreen
from memtui.ui.screens.help import HelpScreen
from memtui.ui.screens.warnings import WarningsScreen, collect_warnings
from memtui.ui.screens.weights import WeightsScreen
from memtui.ui.watching import Watching
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.entry_pane import EntryPane
from memtui.ui.widgets.footer import KeysFooter
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList
from memtui.ui.widgets.status_line import LineFor, StatusLine


class Panes(Horizontal):
    """Results and entry side by side; owns the single-letter keys (see PANE_BINDINGS)."""

    BINDINGS: ClassVar[list[BindingType]] = PANE_BINDINGS


class MainScreen(Screen[None]):
    """Query on top, results left, entry and breakdown right."""

    AUTO_FOCUS = "#query"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {MainCommands}
    BINDINGS: ClassVar[list[BindingType]] = [*MAIN_BINDINGS, *PICK_BINDINGS]

    def __init__(self, options: AppOptions, link: AppLink) -> None:
        super().__init__()
        self.options = options
        self.link = link
        self.engine: Engine | None = None
        self.session_chars = 0
        """What the agent loads of the open memory at every session start, in characters."""
        self.result: RankResult | None = None
        self.searches = search_work.SearchRequests()
        self.watching: Watching | None = None
        """Following the open folders once the engine has loaded (`options.watch`)."""
        self.query_text = ""
        self.window_all = False
        self.engine_loading = True
        self.query_error = False
        self._chrome: partial[Content] | None = None
        self._results_had_focus = False
        """The results list lost focus because it emptied; it gets it back when it refills."""
        self._last_selected_id: str | None = None
        """The selection to return to when the list refills (e.g. the root comes back)."""
        self._waiting_hand_off: Purpose | None = None
        """A copy or pick asked for while `ctrl+a` was still marking."""
        self._heap_unsettled = False
        """New long-lived data (a load, applied changes): settle the heap once it is painted
        and typing pauses."""
        self._idle = IdleJobs(self.set_timer)
        self.heap_settles = 0
        """How often the heap was settled (tests wait for it)."""
        self._title: Content | None = None
        """The title line last painted (updating it re-lays out the screen)."""
        self._ready_at_load = False

    @property
    def keys_in_force(self) -> Mapping[str, str]:
        """The `[keymap]` remaps in force (the palette names the keys they give)."""
        return self.link.keymap

    @property
    def generation(self) -> int:
        """The newest search requested (tests and the bench wait for its paint)."""
        return self.searches.generation

    @property
    def painted_generation(self) -> int:
        return self.searches.painted

    @property
    def watcher_mode(self) -> WatchMode:
        return self.watching.mode if self.watching is not None else WatchMode.OFF

    @property
    def watcher(self) -> RootWatcher | RootsWatcher | None:
        return self.watching.watcher if self.watching is not None else None

    @property
    def pane(self) -> EntryPane:
        return self.query_one(EntryPane)

    @property
    def detail_pending(self) -> bool:
        """True while the entry and breakdown panes still show an earlier selection."""
        return self.pane.pending

    # --- layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="topbar"):
            yield Static(id="app-title", markup=False)
            yield StatusLine(id="app-status")
        with Horizontal(id="query-row"):
            yield Static(Content("❯"), id="prompt", markup=False)
            options = self.options
            yield QueryInput(
                options.query,
                id="query",
                history=None if options.deterministic else default_history_path(),
                roots=[root.path for root in options.open_roots],
            )
            yield StatusLine(id="query-status")
        yield Static(id="banner", markup=False)
        with Panes(id="body"):
            with Vertical(id="left"):
                yield ResultsList(id="results")
                yield Static(id="empty", markup=False)
            yield EntryPane(self.link.masker, self.link.keymap, id="right")
        yield KeysFooter()

    def on_mount(self) -> None:
        query_input = self.query_one(QueryInput)
        if self.options.deterministic:
            query_input.cursor_blink = False
        self.query_text = query_input.value
        self.query_one("#left").border_title = Content("results")
        self.query_one("#banner").display = False
        self.query_one("#empty").display = False
        self.query_one(ResultsList).always_gutter = bool(self.options.hand_off)
        self._paint_chrome()
        self._set_status(status.LOADING)
        self.load_engine()

    # --- engine lifecycle ---------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def load_engine(self) -> None:
        """Read the root, show the newest entries at once, then build the index and rerank.

        Browsing (an empty query) needs no index, so first results appear as soon as the
        files are parsed; a query typed meanwhile waits for the index inside its search.
        """
        try:
            for message in search_work.load(self.options):
                self.post_message(message)
        except Exception as exc:  # a broken root must show a message, not a traceback
            self.post_message(messages.EngineFailed(f"{type(exc).__name__}: {exc}"))

    @on(messages.EngineLoaded)
    def _loaded(self, message: messages.EngineLoaded) -> None:
        engine = self.engine = message.engine
        self.session_chars = message.session_chars
        self.engine_loading = False
        for warning in engine.warnings[:3]:
            self.app.notify(one_line(warning, widths.LINE), severity="warning", markup=False)
        self._paint_chrome()
        self._ready_at_load = engine.index_ready  # a warm start (the cache held the index)
        self.request_search(keep_selection=False)
        if self.options.watch:
            self.watch_root()

    @on(messages.EngineIndexed)
    def _indexed(self, message: messages.EngineIndexed) -> None:
        self.link.indexed(message.elapsed_ms)
        self._heap_unsettled = True
        if not self._ready_at_load:  # words typed meanwhile waited; the status said "indexing"
            self.request_search(keep_selection=True)
        if self.engine is not None:
            self.save_cache(self.engine)
            self.query_one(QueryInput).offer_filters(self.engine.loaded_entries)
            # After the build, not beside it: it held the GIL the cold build needs.
            self._idle.add("load lines", partial(self.check_load_lines, self.engine))

    @work(thread=True, exclusive=True, group="cache")
    def save_cache(self, engine: Engine) -> None:
        """Rewrite the cache when what is loaded differs from it (after the first paint, off
        the event loop; a failure lands in the warnings view)."""
        if engine.cache_stale:
            engine.save_cache()

    @work(thread=True, exclusive=True, group="load-lines")
    def check_load_lines(self, engine: Engine) -> None:
        """Which loaded entries start or run past a load line: only that health check (it
        reads just the few files a rule applies to), off the event loop."""
        self.post_message(search_work.load_lines(engine))

    @on(messages.LoadLinesChecked)
    def _load_lines_checked(self, message: messages.LoadLinesChecked) -> None:
        self.query_one(ResultsList).set_past_load_line(frozenset(message.cuts))
        self.pane.set_load_cuts(message.cuts)

    @on(messages.EngineFailed)
    def _load_failed(self, message: messages.EngineFailed) -> None:
        self.engine_loading = False
        self._banner(f"Could not load the memory folder: {message.error}", severity="error")
        self._set_status(status.LOAD_FAILED)

    # --- searching ----------------------------------------------------------------------------

    def request_search(self, *, keep_selection: bool) -> None:
        """Rerank in a worker; the newest request wins."""
        if self.engine is None:
            return
        results = self.query_one(ResultsList)
        keep = keep_selection or results.moved_by_user
        keep_id = results.selected.entry.id if keep and results.selected else None
        if keep and keep_id is None:
            keep_id = self._last_selected_id  # the list emptied (root gone): come back to it
        if keep_id is not None:
            self._last_selected_id = keep_id
        self.run_search(self.engine, self.searches.next(), self.query_text, keep_id)

    @work(thread=True, exclusive=True, group="search")
    def run_search(self, engine: Engine, generation: int, query: str, keep_id: str | None) -> None:
        message = search_work.search(engine, generation, query, keep_id, self.searches.outdated)
        if message is not None:
            self.post_message(message)
        if isinstance(message, messages.SearchDone):
            give_back_memory()  # the search's temporaries (~0.3 ms, here rather than on the loop)

    @on(messages.SearchFailed)
    def _search_failed(self, message: messages.SearchFailed) -> None:
        if self.searches.outdated(message.generation):
            return
        self._set_status(status.QUERY_ERROR)
        self.pane.catch_up()
        self._banner(f"Query: {message.error}", severity="warning")
        self.query_error = True
        self.query_one(QueryInput).release_paint()

    @on(messages.SearchDone)
    def _search_done(self, message: messages.SearchDone) -> None:
        if self.searches.outdated(message.generation):
            return
        result = self.result = message.result
        if self.query_error:
            self.query_error = False
            if self.watcher_mode is not WatchMode.ROOT_MISSING:
                self._hide_banner()
        # A new query's top hit: let the list paint first (see DETAIL_DELAY_S).
        self.pane.defer_next(message.keep_id is None)
        self.query_one(ResultsList).set_hits(
            result.hits, keep_id=message.keep_id, browse=result.browse
        )
        self._show_empty_state(result)
        indexing = self.engine is not None and not self.engine.index_ready
        self._set_status(
            partial(
                status.query_status,
                result,
                deterministic=self.options.deterministic,
                indexing=indexing,
                window_all=self.window_all,
            )
        )
        self._paint_chrome()  # the window's hidden count arrives with the first result
        self.call_after_refresh(self._painted, message.generation)
        self.query_one(QueryInput).release_paint()

    def _painted(self, generation: int) -> None:
        self.searches.mark_painted(generation)
        self.link.painted(generation, self.searches.started_at)
        if generation == self.generation:
            self.pane.list_painted()
        if self._heap_unsettled:
            self._heap_unsettled = False
            self._idle.add("settle", self._settle)
        else:
            self._idle.add("give back", give_back_memory)

    def _settle(self) -> None:
        settle_heap()
        self.heap_settles += 1

    def on_unmount(self) -> None:
        """A closed screen's idle jobs would keep it, and its engine, alive; its watcher
        would keep watching."""
        self._idle.stop()
        self.stop_watching()

    @on(Input.Changed, "#query")
    def _query_changed(self, event: Input.Changed) -> None:
        if event.value == self.query_text:
            return
        self.query_text = event.value
        self.query_one(ResultsList).moved_by_user = False
        self._results_had_focus = False  # typing: the user has moved on
        self._last_selected_id = None
        self.pane.typing()
        self._idle.key_pressed()  # not between this key and its paint
        self.request_search(keep_selection=False)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Acting on the results (focus leaves the box for them) keeps the query in history."""
        if not isinstance(event.widget, QueryInput):
            self.query_one(QueryInput).remember()

    def set_query(self, text: str) -> None:
        """Replace the query text (filters screen, palette) and rerank."""
        self.query_one(QueryInput).value = text
        self.query_one(QueryInput).cursor_position = len(text)

    # --- selection ----------------------------------------------------------------------------

    @on(ResultsList.Highlighted)
    def _highlighted(self, event: ResultsList.Highlighted) -> None:
        painted = self.painted_generation >= self.generation
        self.pane.select(event.hit, event.previous, painted=painted)

    @on(ResultsList.Chosen)
    def _chosen(self) -> None:
        self.query_one(EntryView).focus()

    def on_resize(self) -> None:
        self.pane.refit()

    # --- status -------------------------------------------------------------------------------

    def _paint_chrome(self) -> None:
        options = self.options
        title = status.title_line(options.root_label, options.more_found)
        if title != self._title:  # a new title may change the layout; the same one must not
            self._title = title
            self.query_one("#app-title", Static).update(title)
        engine = self.engine
        line = partial(
            status.app_status,
            entries=len(engine) if engine is not None else None,
            skipped=len(engine.skipped) if engine is not None else 0,
            days=options.days,
            window_all=self.window_all,
            hidden=self.result.hidden_by_window if self.result else 0,
            mode=self.watcher_mode if options.watch else WatchMode.OFF,
            marked=len(self.query_one(ResultsList).marks),
            custom_weights=engine is not None and engine.weights_custom,
            polled=len(self.watching.unwatched) if self.watching is not None else 0,
            session_chars=self.session_chars,
        )
        if self._chrome is None or line.keywords != self._chrome.keywords:
            self._chrome = line
            self.query_one("#app-status", StatusLine).show(line)

    def _set_status(self, line: Content | LineFor) -> None:
        self.query_one("#query-status", StatusLine).show(line)

    def _banner(self, message: str, *, severity: str = "warning") -> None:
        banner = self.query_one("#banner", Static)
        banner.set_class(severity == "error", "-error")
        banner.update(status.banner(message))
        banner.display = True

    def _hide_banner(self) -> None:
        self.query_one("#banner", Static).display = False

    def _show_empty_state(self, result: RankResult) -> None:
        empty = self.query_one("#empty", Static)
        results = self.query_one(ResultsList)
        has_hits = bool(result.hits)
        if results.display != has_hits:
            self._keep_focus_on_a_live_widget(results, showing=has_hits)
            results.display = has_hits
            empty.display = not has_hits
        if has_hits:
            return
        engine = self.engine
        empty.update(
            status.empty_state(
                result,
                entries=len(engine) if engine is not None else None,
                root=str(self.options.root),
                skipped=len(engine.skipped) if engine is not None else 0,
                window_all=self.window_all,
            )
        )

    def _keep_focus_on_a_live_widget(self, results: ResultsList, *, showing: bool) -> None:
        """Focus never stays on a list that is about to vanish, and comes back with it.

        A hidden widget keeps focus in Textual, so the footer would go blank and no key would
        act; the query box takes over until the results return (unless the user has moved on).
        """
        if not showing and self.focused is results:
            self._results_had_focus = True
            self.query_one(QueryInput).take_focus()
        elif showing and self._results_had_focus:
            self._results_had_focus = False
            if self.focused is self.query_one(QueryInput):
                self.call_after_refresh(results.focus)

    # --- watching and changes -----------------------------------------------------------------

    @work(exclusive=True, group="watch")
    async def watch_root(self) -> None:
        options = self.options
        watching = self.watching = Watching(options.open_roots, force_polling=options.force_polling)
        self._paint_chrome()
        try:
            async for batch in watching.watcher:
                step = watching.read(batch)
                if step.banner is not None:
                    self._banner(step.banner, severity="error")
                elif step.back:
                    self._hide_banner()
                    self.app.notify("The memory folder is back; reloaded.", markup=False)
                if step.mode_changed:
                    self._paint_chrome()  # the banner and the status line change together
                engine = self.engine
                if engine is not None and engine.set_missing(step.missing):
                    self._show_gone(engine)  # before the changes that bring a folder back
                if engine is not None and batch.paths:
                    changes = await asyncio.to_thread(engine.apply_changes, sorted(batch.paths))
                    self.post_message(messages.ChangesApplied(changes))
                self._paint_chrome()
        finally:
            watching.ended()

    def stop_watching(self) -> None:
        """Stop following the open folders (the screen closes, or others are opened)."""
        if self.watching is not None:
            self.watching.stop()

    def _show_gone(self, engine: Engine) -> None:
        """Dim the entries of the folders that are gone (and undim those back)."""
        gone = engine.gone_roots
        self.query_one(ResultsList).set_gone(frozenset(gone))
        self.pane.set_gone(gone)

    @work(thread=True, group="changes")
    def apply_paths(self, paths: list[Path]) -> None:
        engine = self.engine
        if engine is None:
            return
        self.post_message(search_work.apply_changes(engine, paths))

    @on(messages.ChangesApplied)
    def _changes_applied(self, message: messages.ChangesApplied) -> None:
        self.link.changes_applied()
        changes = message.changes
        if changes.empty:
            return
        self._heap_unsettled = True
        self.query_one(ResultsList).forget_rows()  # what they show is rebuilt; old entries go
        self.link.masker.forget()
        notice = status.change_notice(changes)
        if notice:
            self.app.notify(notice, timeout=3, markup=False)
        self._unmark(changes.removed - changes.added)
        self._paint_chrome()
        self.count_session()

    @work(thread=True, exclusive=True, group="session")
    def count_session(self) -> None:
        """Count what every session start loads again, off the event loop (files changed)."""
        self.post_message(messages.SessionCounted(search_work.session_chars(self.options)))

    @on(messages.SessionCounted)
    def _session_counted(self, message: messages.SessionCounted) -> None:
        self.session_chars = message.chars
        self._paint_chrome()
        self.request_search(keep_selection=True)
        if self.engine is not None:
            self._idle.add("load lines", partial(self.check_load_lines, self.engine))

    # --- moving and focus ---------------------------------------------------------------------

    def action_results(self, move: str) -> None:
        results = self.query_one(ResultsList)
        actions: dict[str, Callable[[], None]] = {
            "down": results.action_cursor_down,
            "up": results.action_cursor_up,
            "page_down": results.action_page_down,
            "page_up": results.action_page_up,
            "first": results.action_first,
            "last": results.action_last,
        }
        if move in actions:
            actions[move]()

    def action_focus_query(self) -> None:
        self.query_one(QueryInput).take_focus()

    def action_focus_results(self) -> None:
        """Focus the list now (not `focus()`, which queues): `j` typed right behind enter
        moves in the list instead of landing in the query box."""
        results = self.query_one(ResultsList)
        if results.display:
            self.set_focus(results)

    def action_escape(self) -> None:
        if self.options.hand_off:  # `memtui pick`: esc ends, printing nothing
            self.app.exit()
            return
        query_input = self.query_one(QueryInput)
        if self.focused is not query_input:
            query_input.take_focus()
        elif query_input.value:
            query_input.value = ""
        else:  # an empty box: to the results, whose footer shows `q Quit`
            self.action_focus_results()

    def action_next_match(self) -> None:
        self.query_one(EntryView).action_next_match()

    def action_previous_match(self) -> None:
        self.query_one(EntryView).action_previous_match()

    # --- acting on the selected entry ---------------------------------------------------------

    def action_edit(self) -> None:
        hit = self.pane.hit
        if hit is None or self.engine is None:
            self.app.bell()
            return
        self.edit_entry(hit.entry)

    def edit_entry(self, entry: Entry) -> None:
        """`e` here and in the health view: the editor at the entry's line, then a reload."""
        if self.engine is None:
            return
        if entry.root in self.engine.gone_roots:  # an editor would make the file anew there
            self.app.notify(
                "Its memory folder is gone: nothing to edit until it is back.",
                severity="warning",
                markup=False,
            )
            return
        path = self.engine.file_of(entry)  # with several roots, the entry's own root
        if open_editor(self.app, path, entry.line_start):
            self.apply_paths([path])  # the file was probably edited: reload it now

    # --- handing on: copy, pick -------------------------------------------------------------

    def action_open_file(self) -> None:
        """`o`: the entry's whole file around it, read-only."""
        hit, engine = self.pane.hit, self.engine
        if hit is None or engine is None:
            self.app.bell()
            return
        mask = self.options.config.mask_secrets and not self.pane.revealed
        self.app.push_screen(
            FileViewScreen(
                engine.root_of(hit.entry).path,
                hit.entry,
                cited_path(engine, hit.entry),
                render.match_pattern(hit.explanation.terms),
                mask=mask,
            )
        )

    def action_copy_entry(self) -> None:
        self._hand_off_chosen(Purpose.MARKDOWN)

    def action_copy_citation(self) -> None:
        self._hand_off_chosen(Purpose.CITATIONS)

    def copy_entry(self, entry: Entry) -> None:
        """`y` in the health view: that entry quoted under its citation."""
        self._hand_off(Purpose.MARKDOWN, [entry.id])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("pick", "cancel_pick"):
            return bool(self.options.hand_off)  # keys of `memtui pick` only
        return True

    def action_pick(self) -> None:
        self._hand_off_chosen(Purpose.PICK)

    def _hand_off_chosen(self, purpose: Purpose) -> None:
        """Hand on the marked entries, else the selected one (`pick --multi`: every result);
        after `ctrl+a` has finished marking, if it is still at it."""
        results = self.query_one(ResultsList)
        if results.collecting:
            self._waiting_hand_off = purpose
            return
        self._hand_off(
            purpose, wanted_ids(purpose, self.options.hand_off, results.marks, self.pane.hit)
        )

    def action_cancel_pick(self) -> None:
        self.app.exit()

    def _hand_off(self, purpose: Purpose, entry_ids: list[str] | None) -> None:
        """Hand on `entry_ids` (None: every result) once a worker has looked them up."""
        if entry_ids == [] or self.engine is None:
            self.app.bell()
            return
        hits = self.result.hits if self.result is not None else ()
        self.resolve_hand_off(self.engine, purpose, entry_ids, hits, self.pane.revealed)

    @work(thread=True, exclusive=True, group="hand-off")
    def resolve_hand_off(
        self,
        engine: Engine,
        purpose: Purpose,
        entry_ids: list[str] | None,
        hits: Sequence[Hit],
        revealed: bool,
    ) -> None:
        """Look the entries up as loaded now (and format what to copy) off the event loop."""
        mask = partial(self.link.masker.mask, revealed=revealed)
        self.post_message(resolved(engine, purpose, entry_ids, hits, mask))

    @on(messages.HandOffResolved)
    def _hand_off_resolved(self, message: messages.HandOffResolved) -> None:
        self._unmark(frozenset(message.gone))
        if not message.picked:
            self.app.bell()
        elif message.purpose is Purpose.PICK:
            assert self.engine is not None
            self.link.hand_off(
                HandOff(self.engine, self.query_text, message.picked, self.pane.revealed)
            )
        else:
            copied = copied_notice(message.purpose, len(message.picked), message.masked)
            clipboard.copy(self.app, message.text, copied, self.options.config.clipboard)

    @on(ResultsList.MarksChanged)
    def _marks_changed(self) -> None:
        self._paint_chrome()
        waiting, self._waiting_hand_off = self._waiting_hand_off, None
        if waiting is not None:
            self._hand_off_chosen(waiting)

    def _unmark(self, entry_ids: frozenset[str]) -> None:
        """Drop marks whose entries left the corpus, and say so."""
        results = self.query_one(ResultsList)
        dropped = results.marks.drop(entry_ids) if results.marks else []
        if dropped:
            results.marks_changed()
            self.app.notify(unmarked_notice(dropped), severity="warning", timeout=4, markup=False)

    def action_boost(self, direction: int) -> None:
        hit = self.pane.hit
        if hit is None or self.engine is None:
            self.app.bell()
            return
        path = hit.entry.qualified_path
        current = self.engine.session_boosts.get(path, 1.0)
        self._set_boost(path, search_work.next_boost(current, direction))

    def action_clear_boost(self) -> None:
        hit = self.pane.hit
        if hit is not None and self.engine is not None:
            self._set_boost(hit.entry.qualified_path, None)

    def _set_boost(self, path: str, factor: float | None) -> None:
        assert self.engine is not None
        self.engine.set_session_boost(path, factor)
        label = "cleared" if factor is None else f"× {factor:.2f}"
        self.app.notify(
            f"{one_line(path, widths.SHORT)}: session boost {label}", timeout=2, markup=False
        )
        self.request_search(keep_selection=True)

    def action_expanded_breakdown(self) -> None:
        hit = self.pane.hit
        if hit is None:
            self.app.bell()
            return
        self.app.push_screen(BreakdownScreen(hit, self.pane.previous))

    # --- view toggles -------------------------------------------------------------------------

    def action_toggle_breakdown(self) -> None:
        pane = self.pane
        pane.compact = not pane.compact
        self.set_class(not pane.compact, "-expanded")
        pane.show()

    def action_toggle_maximize(self) -> None:
        """The focused pane fills the screen (the entry pane with its header and why), or goes
        back to its place (esc does too). From the query box, the results list is zoomed."""
        if self.maximized is not None:
            self.minimize()
            return
        focused = self.focused
        target = focused if isinstance(focused, ResultsList | EntryView) else None
        if not self.maximize(target or self.query_one(ResultsList)):
            self.app.bell()

    def action_toggle_secrets(self) -> None:
        pane = self.pane
        pane.revealed = not pane.revealed
        pane.show()
        self.app.notify(
            "Secrets shown" if pane.revealed else "Secrets masked", timeout=2, markup=False
        )

    def action_toggle_window(self) -> None:
        if self.engine is None:
            return
        self.window_all = not self.window_all
        self.set_window(0 if self.window_all else self.options.days)

    @work(thread=True, exclusive=True, group="window")
    def set_window(self, days: int) -> None:
        engine = self.engine
        if engine is None:
            return
        engine.set_window(days)
        self.post_message(messages.WindowChanged(days))

    @on(messages.WindowChanged)
    def _window_changed(self, message: messages.WindowChanged) -> None:
        self.app.notify(
            "Showing every date" if message.days == 0 else f"Showing the last {message.days} days",
            timeout=2,
            markup=False,
        )
        self._paint_chrome()
        self.request_search(keep_selection=True)
        if self.engine is not None:
            self._idle.add("load lines", partial(self.check_load_lines, self.engine))

    def action_next_theme(self) -> None:
        self.link.next_theme()

    # --- other screens ------------------------------------------------------------------------

    def action_weights(self) -> None:
        engine = self.engine
        if engine is not None:
            config = engine.config
            self.app.push_screen(
                WeightsScreen(
                    engine.weights,
                    engine.half_life_days,
                    configured=(config.weights, config.half_life_days),
                    boosts=engine.session_boosts,
                    apply=self.apply_weights,
                )
            )

    @work(thread=True, exclusive=True, group="weights")
    def apply_weights(self, weights: dict[str, float], half_life_days: float) -> None:
        """New weights from the weights screen (it calls this on every change)."""
        engine = self.engine
        if engine is None:
            return
        engine.set_weights(weights, half_life_days)
        self.post_message(messages.WeightsApplied())

    @on(messages.WeightsApplied)
    def _weights_applied(self) -> None:
        self.request_search(keep_selection=True)

    def action_filters(self) -> None:
        labels = [root.label for root in self.engine.roots] if self.engine else []
        self.app.push_screen(
            FiltersScreen(self.query_text, labels if len(labels) > 1 else []), self._filters_chosen
        )

    def _filters_chosen(self, query: str | None) -> None:
        """The filters screen's `dismiss` result: the rewritten query, or None (cancelled)."""
        if query is not None:
            self.set_query(query)

    def action_health(self) -> None:
        if self.engine is None:
            self.app.bell()
            return
        self.app.push_screen(HealthScreen(self.engine, edit=self.edit_entry, copy=self.copy_entry))

    def warning_rows(self) -> list[tuple[str, str]]:
        """(where, problem) rows for the warnings view."""
        return collect_warnings(self.link.startup_warnings, self.watching, self.engine)

    def action_warnings(self) -> None:
        self.app.push_screen(WarningsScreen(self.warning_rows()))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.link.keymap))
