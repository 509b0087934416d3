"""The base of the main screen: the engine's results kept on screen, live.

`LiveResultsScreen` owns the engine and the workers that keep what is shown current (loading,
searching as the user types, following the open folders through `ui.watching`, applying file
changes) and paints the status lines; `MainScreen` (`screens/main.py`) adds the keys and what
they do. Nothing here knows it or the app: what memtui's app adds comes in an `AppLink`.
Workers run `ui.search_work`; a search older than the newest request is dropped in the worker
and again in the handlers, so a slow search never paints over a newer one.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Input, Static

from memtui.core.live.allocator import give_back_memory
from memtui.core.live.engine import Engine
from memtui.core.live.watch import WatchMode
from memtui.core.model import RankResult
from memtui.core.sanitize import one_line
from memtui.core.settings.history import default_history_path
from memtui.ui import messages, search_work, status, widths
from memtui.ui.app_link import AppLink
from memtui.ui.bindings import PANE_BINDINGS
from memtui.ui.handoff import unmarked_notice
from memtui.ui.heap import settle_heap
from memtui.ui.idle import IdleJobs
from memtui.ui.options import AppOptions
from memtui.ui.textual_private import PromptScreen
from memtui.ui.watching import Watching
from memtui.ui.widgets.entry_pane import EntryPane
from memtui.ui.widgets.footer import KeysFooter
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList
from memtui.ui.widgets.status_line import LineFor, StatusLine


class Panes(Horizontal):
    """Results and entry side by side; owns the single-letter keys (see PANE_BINDINGS)."""

    BINDINGS: ClassVar[list[BindingType]] = PANE_BINDINGS


class LiveResultsScreen(PromptScreen):
    """Query on top, results left, entry and breakdown right, kept current."""

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
        """The list lost focus because it emptied; it gets it back (and this selection) later."""
        self._last_selected_id: str | None = None
        self._heap_unsettled = False
        """New long-lived data (a load, changes): settle the heap once painted and idle."""
        self._idle = IdleJobs(self.set_timer)
        self.heap_settles = 0
        """How often the heap was settled (tests wait for it)."""
        self._title: partial[Content] | None = None
        """The title line last painted (updating it re-lays out the screen)."""
        self._ready_at_load = False
        self._save_at_paint: Engine | None = None  # a cold start's, saved once reranked

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
    def pane(self) -> EntryPane:
        return self.query_one(EntryPane)

    # --- layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="topbar"):
            yield StatusLine(id="app-title")
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
            yield StatusLine(id="query-status", hold=not options.deterministic)
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
        """Read the root (the newest entries shown at once, with no index), index it, rerank."""
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
        if (engine := self.engine) is not None:
            self._idle.add("after", partial(self.after_load, engine, self.query_one(QueryInput)))
            if self._ready_at_load:
                self.save_cache(engine)
            else:  # beside the rerank the save's encoding held the GIL (painted 0.5 s late at 50k)
                self._save_at_paint = engine

    @work(thread=True, exclusive=True, group="cache")
    def save_cache(self, engine: Engine) -> None:
        """Rewrite the cache if it differs from what is loaded (off the loop; fails to warnings)."""
        if engine.cache_stale:
            engine.save_cache()

    @work(thread=True, exclusive=True, group="after-load")
    def after_load(self, engine: Engine, query: QueryInput) -> None:
        """What a load leaves for a pause in typing (beside the first word they held the GIL),
        one after another (side by side their arrays added up in the app's peak memory)."""
        query.offer_filters(engine.facets())  # a column of every entry
        engine.prepare_expansions()
        self.post_message(search_work.load_lines(engine))

    @work(thread=True, exclusive=True, group="load-lines")
    def check_load_lines(self, engine: Engine) -> None:
        """Which entries start or run past a load line (a few files read), off the loop."""
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
        rows = results.scrollable_content_region.height or search_work.FIRST_ROWS
        asked = search_work.Search(self.searches.next(), self.query_text, keep_id, rows)
        self.run_search(self.engine, asked)

    @work(thread=True, exclusive=True, group="search")
    def run_search(self, engine: Engine, asked: search_work.Search) -> None:
        """Freed temporaries go back to the OS once typing pauses (`_painted`), not after each
        search: trimmed each time, the next search faulted them back in (ranked at half speed)."""
        message = search_work.search(engine, asked, self.searches.outdated)
        if message is not None:
            self.post_message(message)

    @on(messages.SearchFailed)
    def _search_failed(self, message: messages.SearchFailed) -> None:
        if not self.searches.failed(message.generation):
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
        results = self.query_one(ResultsList)
        results.set_hits(result.hits, keep_id=message.keep_id, browse=result.browse)
        self._show_empty_state(result)
        self._set_status(
            partial(
                status.query_status,
                result,
                deterministic=self.options.deterministic,
                indexing=self.engine is not None and not self.engine.index_ready,
                window_all=self.window_all,
            )
        )
        self._paint_chrome()  # the window's hidden count arrives with the first result
        results.when_drawn(partial(self._painted, message.generation))
        results.call_next(self.query_one(QueryInput).release_paint)  # after it sent its rows

    def _painted(self, generation: int) -> None:
        self.searches.mark_painted(generation)
        if (engine := self._save_at_paint) is not None:
            self._save_at_paint = None
            self.save_cache(engine)
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
        """A closed screen's idle jobs would keep it and its engine alive, its watcher watching."""
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

    # --- selection ----------------------------------------------------------------------------

    @on(ResultsList.Highlighted)
    def _highlighted(self, event: ResultsList.Highlighted) -> None:
        painted = self.painted_generation >= self.generation
        self.pane.select(event.hit, event.previous, painted=painted)

    # --- status -------------------------------------------------------------------------------

    def _paint_chrome(self) -> None:
        options = self.options
        title = partial(status.title_line, options.root_label, options.more_found)
        if self._title is None or title.args != self._title.args:  # a new title may change
            self._title = title  # the layout; the same one must not
            self.query_one("#app-title", StatusLine).show(title)
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
        """Focus leaves a list about to vanish for the query box (Textual keeps it on a hidden
        widget: the footer would go blank, no key act), and back with the list if still wanted."""
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
                if not self.is_attached or not self.app.is_running:  # a quitting app removes the
                    return  # widgets before the screen: a late batch must not look for them
                step = watching.read(batch)
                if step.banner is not None:
                    self._banner(step.banner, severity="error")
                elif step.back:
                    self._hide_banner()
                    self.app.notify("The memory folder is back; reloaded.", markup=False)
                if step.mode_changed:
                    self._paint_chrome()  # the banner and the status line change together
                engine = self.engine
                if engine is not None and engine.set_missing(step.missing):  # dim (or undim) the
                    gone = engine.gone_roots  # gone folders' entries, before the changes that
                    self.query_one(ResultsList).set_gone(frozenset(gone))  # bring one back
                    self.pane.set_gone(gone)
                if engine is not None and batch.paths:
                    changes = await asyncio.to_thread(engine.apply_changes, sorted(batch.paths))
                    if not self.is_attached or not self.app.is_running:  # closed meanwhile
                        return
                    self.post_message(messages.ChangesApplied(changes))
                self._paint_chrome()
        finally:
            watching.ended()

    def stop_watching(self) -> None:
        """Stop following the open folders (the screen closes, or others are opened)."""
        if self.watching is not None:
            self.watching.stop()

    @on(messages.ChangesApplied)
    def _changes_applied(self, message: messages.ChangesApplied) -> None:
        self.link.changes_applied()
        if (changes := message.changes).empty:
            return
        self._heap_unsettled = True
        self.query_one(ResultsList).forget_rows()  # what they show is rebuilt; old entries go
        self.link.masker.forget()
        if notice := status.change_notice(changes):
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

    def _unmark(self, entry_ids: frozenset[str]) -> None:
        """Drop marks whose entries left the corpus, and say so."""
        results = self.query_one(ResultsList)
        dropped = results.marks.drop(entry_ids) if results.marks else []
        if dropped:
            results.marks_changed()
            self.app.notify(unmarked_notice(dropped), severity="warning", timeout=4, markup=False)
