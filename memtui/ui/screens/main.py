"""The main screen: query box, ranked results, the selected entry and why it ranked there.

All engine work (load, search, file changes, weight changes) runs in thread workers; results
come back through `call_from_thread` tagged with a generation number, and anything older than
the latest request is dropped, so a slow search can never overwrite a newer one.
"""

from __future__ import annotations

import asyncio
import gc
import os
import shlex
import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, Static

from memtui.core.model import ChangeSet, Entry, Hit, RankResult
from memtui.core.query import QueryError
from memtui.core.sanitize import one_line
from memtui.core.watch import RootWatcher, WatchMode
from memtui.ui import render
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList

if TYPE_CHECKING:
    from memtui.core.engine import Engine
    from memtui.ui.app import MemtuiApp

BOOST_STEP = 1.5
MAX_SHOWN_CHARS = 200_000
MAX_BOOST = 8.0
DETAIL_DELAY_S = 0.05
"""While typing, the entry and breakdown panes follow the top hit this long after the list has
painted, so a fast typist's keystrokes repaint only the list; the panes catch up once typing
pauses (the next keystroke cancels the pending update)."""


def change_notice(changes: ChangeSet) -> str | None:
    """'MEMORY.md: 2 entries added' for each changed file (at most three named)."""
    parts = []
    for path, added, removed, updated in changes.per_path:
        counts = [
            f"{count} {'entry' if count == 1 else 'entries'} {verb}"
            for count, verb in ((added, "added"), (removed, "removed"), (updated, "updated"))
            if count
        ]
        if counts:
            parts.append(f"{one_line(path, 60)}: {', '.join(counts)}")
    if not parts:
        return None
    if len(parts) > 3:
        parts = [*parts[:3], f"and {len(parts) - 3} more files"]
    return "\n".join(parts)


FULL_GC_EVERY = 100
"""Full collections after this many middle-generation ones (Python's default is 10)."""


def settle_heap() -> None:
    """Keep the cyclic GC's full collections off the keystroke path.

    A full collection walks every tracked object: with a loaded folder and Textual's render
    caches that is a 15–50 ms pause (100+ ms on a busy machine) landing on a random keystroke,
    which made the keystroke p95. Everything alive now (store, index) is frozen out of the
    GC's reach — entries and index arrays hold no cycles, so this leaks nothing and refcounting
    still frees them — and full collections run a tenth as often.
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_GC_EVERY)


PANE_BINDINGS: list[BindingType] = [
    Binding("slash", "screen.focus_query", "Search", id="pane.focus_query"),
    Binding("e", "screen.edit", "Edit", id="pane.edit"),
    Binding("y", "screen.copy_entry", "Copy", id="pane.copy_entry"),
    Binding("Y", "screen.copy_citation", "Cite", show=False, id="pane.copy_citation"),
    Binding("plus,equals_sign", "screen.boost(1)", "Boost", key_display="+", id="pane.boost"),
    Binding("minus", "screen.boost(-1)", "Penalise", key_display="−", id="pane.penalise"),
    Binding("0", "screen.clear_boost", "Clear boost", show=False, id="pane.clear_boost"),
    Binding("b", "screen.toggle_breakdown", "Breakdown", show=False, id="pane.breakdown"),
    Binding("B", "screen.expanded_breakdown", "Why", id="pane.expanded_breakdown"),
    Binding("w", "screen.weights", "Weights", id="pane.weights"),
    Binding("f", "screen.filters", "Filters", id="pane.filters"),
    Binding("t", "screen.toggle_window", "Window", show=False, id="pane.toggle_window"),
    Binding("r", "screen.toggle_secrets", "Reveal", show=False, id="pane.toggle_secrets"),
    Binding("n", "screen.next_match", "Next match", show=False, id="pane.next_match"),
    Binding("exclamation_mark", "screen.warnings", "Warnings", show=False, id="pane.warnings"),
    Binding("T", "screen.next_theme", "Theme", show=False, id="pane.next_theme"),
    Binding("question_mark", "screen.help", "Help", id="pane.help"),
    Binding("q", "app.quit", "Quit", id="pane.quit"),
]
"""Single-letter keys: active while the results or the entry pane has focus."""


class Panes(Horizontal):
    """Results and entry side by side; owns the single-letter keys (see PANE_BINDINGS)."""

    BINDINGS: ClassVar[list[BindingType]] = PANE_BINDINGS


class MainScreen(Screen[None]):
    """Query on top, results left, entry and breakdown right."""

    AUTO_FOCUS = "#query"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "escape", "Clear", show=False, id="escape"),
        Binding("f1", "help", "Help", show=False, id="help"),
        Binding("f2", "next_theme", "Theme", show=False, id="next_theme"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.engine: Engine | None = None
        self.result: RankResult | None = None
        self.generation = 0
        self.painted_generation = 0
        self.query_text = ""
        self.compact = True
        self.revealed = False
        self.window_all = False
        self.watcher_mode = WatchMode.OFF
        self.engine_loading = True
        self.query_error = False
        self._selected: Hit | None = None
        self._previous: Hit | None = None
        self._search_started = 0.0
        self._shown: tuple[Entry, str | None, bool] | None = None
        self._detail_timer: Timer | None = None
        self._defer_detail = False
        self._heap_unsettled = False
        """New long-lived data (a load, applied changes): settle the heap after the next paint."""
        self._detail_owed = False
        """The panes skipped a selection while typing and still have to show the current one."""

    @property
    def memtui(self) -> MemtuiApp:
        from memtui.ui.app import MemtuiApp

        assert isinstance(self.app, MemtuiApp)
        return self.app

    # --- layout -------------------------------------------------------------------------------

    def compose(self) -> Iterable[object]:  # type: ignore[override]
        with Horizontal(id="topbar"):
            yield Static(id="app-title", markup=False)
            yield Static(id="app-status", markup=False)
        with Horizontal(id="query-row"):
            yield Static(Content("❯"), id="prompt", markup=False)
            yield QueryInput(self.memtui.options.query, id="query")
            yield Static(id="query-status", markup=False)
        yield Static(id="banner", markup=False)
        with Panes(id="body"):
            with Vertical(id="left"):
                yield ResultsList(id="results")
                yield Static(id="empty", markup=False)
            with Vertical(id="right"):
                yield Static(id="detail-header", markup=False)
                yield EntryView(id="detail")
                yield Static(id="breakdown", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        options = self.memtui.options
        query_input = self.query_one(QueryInput)
        if options.deterministic:
            query_input.cursor_blink = False
        self.query_text = query_input.value
        self.query_one("#left").border_title = Content("results")
        self.query_one("#breakdown").border_title = Content("why")
        self.query_one("#banner").display = False
        self.query_one("#empty").display = False
        self._paint_chrome()
        self._set_status(Content.styled("loading…", "$muted"))
        self.load_engine()

    # --- engine lifecycle ---------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def load_engine(self) -> None:
        """Read the root, show the newest entries at once, then build the index and rerank.

        Browsing (an empty query) needs no index, so first results appear as soon as the
        files are parsed; a query typed meanwhile waits for the index inside its search.
        """
        options = self.memtui.options
        assert options.root is not None
        started = time.perf_counter()
        try:
            if options.engine_factory is not None:
                engine = options.engine_factory(options)
            else:
                from memtui.core.engine import Engine

                engine = Engine(
                    options.root, options.config, today=options.today, days=options.days
                )
            engine.load_store()
            self.app.call_from_thread(self._loaded, engine)
            engine.build_index()
        except Exception as exc:  # a broken root must show a message, not a traceback
            self.app.call_from_thread(self._load_failed, f"{type(exc).__name__}: {exc}")
            return
        elapsed = (time.perf_counter() - started) * 1000
        self.app.call_from_thread(self._indexed, elapsed)

    def _indexed(self, elapsed_ms: float) -> None:
        self.memtui.load_ms = elapsed_ms
        self._heap_unsettled = True
        self.request_search(keep_selection=True)

    def _load_failed(self, message: str) -> None:
        self.engine_loading = False
        self._banner(f"Could not load the memory folder: {message}", severity="error")
        self._set_status(Content.styled("load failed", "$error"))

    def _loaded(self, engine: Engine) -> None:
        self.engine = engine
        self.engine_loading = False
        for warning in engine.warnings[:3]:
            self.app.notify(one_line(warning, 200), severity="warning", markup=False)
        self._paint_chrome()
        self.request_search(keep_selection=False)
        if self.memtui.options.watch:
            self.watch_root()

    # --- searching ----------------------------------------------------------------------------

    def request_search(self, *, keep_selection: bool) -> None:
        """Rerank in a worker; the newest request wins."""
        if self.engine is None:
            return
        results = self.query_one(ResultsList)
        keep = keep_selection or results.moved_by_user
        keep_id = results.selected.entry.id if keep and results.selected else None
        self.generation += 1
        self._search_started = time.perf_counter()
        self.run_search(self.engine, self.generation, self.query_text, keep_id)

    @work(thread=True, exclusive=True, group="search")
    def run_search(self, engine: Engine, generation: int, query: str, keep_id: str | None) -> None:
        if generation != self.generation:
            return
        try:
            result = engine.search(query)
        except QueryError as exc:
            self.app.call_from_thread(self._query_error, generation, str(exc))
            return
        if generation != self.generation:
            return
        self.app.call_from_thread(self._show_result, generation, result, keep_id)

    def _query_error(self, generation: int, message: str) -> None:
        if generation != self.generation:
            return
        self._set_status(Content.styled("query error", "bold $error"))
        if self._detail_owed:
            self._show_selected()
        self._banner(f"Query: {message}", severity="warning")
        self.query_error = True

    def _show_result(self, generation: int, result: RankResult, keep_id: str | None) -> None:
        if generation != self.generation:
            return
        self.result = result
        if self.query_error:
            self.query_error = False
            if self.watcher_mode is not WatchMode.ROOT_MISSING:
                self._hide_banner()
        results = self.query_one(ResultsList)
        # A new query's top hit: let the list paint first (see DETAIL_DELAY_S).
        self._defer_detail = keep_id is None and self._shown is not None
        results.set_hits(result.hits, keep_id=keep_id)
        self._show_empty_state(result)
        self._paint_status(result)
        self.call_after_refresh(self._painted, generation)

    def _painted(self, generation: int) -> None:
        self.painted_generation = max(self.painted_generation, generation)
        self.memtui.results_painted(generation, self._search_started)
        if self._detail_owed and self._detail_timer is None and generation == self.generation:
            self._detail_timer = self.set_timer(DETAIL_DELAY_S, self._show_selected)
        if self._heap_unsettled:
            self._heap_unsettled = False
            settle_heap()

    @on(Input.Changed, "#query")
    def _query_changed(self, event: Input.Changed) -> None:
        if event.value == self.query_text:
            return
        self.query_text = event.value
        self.query_one(ResultsList).moved_by_user = False
        if self._detail_timer is not None:
            # Still typing: the panes wait for this keystroke's top hit instead.
            self._detail_timer.stop()
            self._detail_timer = None
            self._detail_owed = True
        self.request_search(keep_selection=False)

    @on(Input.Submitted, "#query")
    def _query_submitted(self) -> None:
        self.action_focus_results()

    def set_query(self, text: str) -> None:
        """Replace the query text (filters screen, palette) and rerank."""
        self.query_one(QueryInput).value = text
        self.query_one(QueryInput).cursor_position = len(text)

    # --- selection ----------------------------------------------------------------------------

    @on(ResultsList.Highlighted)
    def _highlighted(self, event: ResultsList.Highlighted) -> None:
        self._selected = event.hit
        self._previous = event.previous
        deferred, self._defer_detail = self._defer_detail, False
        if deferred and event.hit is not None:
            self._detail_owed = True  # shown once the list has painted and typing pauses
            if self._detail_timer is not None:
                self._detail_timer.stop()
            self._detail_timer = None
            if self.painted_generation >= self.generation:  # the paint came first
                self._detail_timer = self.set_timer(DETAIL_DELAY_S, self._show_selected)
        else:
            self._show_selected()

    @property
    def detail_pending(self) -> bool:
        """True while the entry and breakdown panes still show an earlier selection."""
        return self._detail_timer is not None or self._detail_owed

    @on(ResultsList.Chosen)
    def _chosen(self) -> None:
        self.query_one(EntryView).focus()

    def _show_selected(self) -> None:
        self._detail_owed = False
        if self._detail_timer is not None:
            self._detail_timer.stop()
            self._detail_timer = None
        hit = self._selected
        header = self.query_one("#detail-header", Static)
        detail = self.query_one(EntryView)
        breakdown = self.query_one("#breakdown", Static)
        if hit is None:
            self._shown = None
            header.update(Content(""), layout=False)
            detail.clear()
            breakdown.update(Content(""), layout=False)
            breakdown.border_title = Content("why")
            return
        entry = hit.entry
        text, masked = self._entry_text(entry)
        header.update(render.detail_header(entry, masked=masked, revealed=self.revealed),
                      layout=False)
        pattern = render.match_pattern(hit.explanation.terms)
        shown = (entry, pattern.pattern if pattern else None, self.revealed)
        if shown != self._shown:
            # Typing often keeps the same top entry: re-render it only when something changed.
            self._shown = shown
            detail.show(text, pattern)
        breakdown.update(render.breakdown(hit, self._previous, expanded=not self.compact,
                                          width=breakdown.content_region.width), layout=False)
        breakdown.border_title = Content(f"why #{hit.rank}")

    def on_resize(self) -> None:
        # The breakdown's raw-input column is sized to the panel.
        if self._selected is not None and not self.detail_pending:
            self._show_selected()

    def _entry_text(self, entry: Entry, *, limit: int | None = MAX_SHOWN_CHARS) -> tuple[str, int]:
        """The entry as shown: a heading line, then the body with secrets masked unless revealed.

        Display is capped at `limit` characters so a multi-megabyte entry cannot stall the event
        loop while it is masked and wrapped; copying uses the whole entry.
        """
        depth = max(1, min(6, len(entry.heading_path)))
        text = f"{'#' * depth} {entry.title}\n\n{entry.body}" if entry.title else entry.body
        if limit is not None and len(text) > limit:
            hidden = len(text) - limit
            text = (f"{text[:limit]}\n\n… {hidden:,} more characters not shown "
                    "(press e to open the file)")
        return self.memtui.mask(text, revealed=self.revealed)

    # --- status -------------------------------------------------------------------------------

    def _paint_chrome(self) -> None:
        options = self.memtui.options
        root = options.root_label
        self.query_one("#app-title", Static).update(
            Content.assemble(("memtui", "bold $accent"), (" · ", "$muted"), (one_line(root, 80),
                                                                               "$foreground"))
        )
        engine = self.engine
        parts: list[str | tuple[str, str]] = []
        if engine is not None:
            parts.append((f"{len(engine):,} entries", ""))
            days = 0 if self.window_all else options.days
            parts += [(" · ", "$muted"), ("all dates" if not days else f"{days} days", "")]
            hidden = self.result.hidden_by_window if self.result else 0
            if hidden and not self.window_all:
                parts += [(f" (+{hidden:,} older hidden)", "$muted")]
            skipped = len(engine.store.skipped)
            if skipped:
                parts += [(" · ", "$muted"), (f"{skipped} skipped", "$warning")]
        mode = self.watcher_mode if options.watch else WatchMode.OFF
        mode_style = {
            WatchMode.WATCHING: "$success",
            WatchMode.POLLING: "$warning",
            WatchMode.ROOT_MISSING: "bold $error",
        }.get(mode, "$muted")
        if parts:
            parts.append((" · ", "$muted"))
        parts.append((mode.value, mode_style))
        self.query_one("#app-status", Static).update(Content.assemble(*parts), layout=False)

    def _set_status(self, content: Content) -> None:
        self.query_one("#query-status", Static).update(content, layout=False)

    def _paint_status(self, result: RankResult) -> None:
        count = result.total_matches
        noun = "match" if count == 1 else "matches"
        if not self.query_text.strip():
            noun = "entry" if count == 1 else "entries"
        elapsed = "— ms" if self.memtui.options.deterministic else f"{result.elapsed_ms:.1f} ms"
        if self.engine is not None and not self.engine.index_ready:
            elapsed = "indexing…"  # browse results are up; a query waits for the index
        self._set_status(
            Content.assemble((f"{count:,} {noun}", "bold"), (" · ", "$muted"), (elapsed, "$muted"))
        )

    def _banner(self, message: str, *, severity: str = "warning") -> None:
        banner = self.query_one("#banner", Static)
        banner.set_class(severity == "error", "-error")
        banner.update(Content(one_line(message, 300)))
        banner.display = True

    def _hide_banner(self) -> None:
        self.query_one("#banner", Static).display = False

    def _show_empty_state(self, result: RankResult) -> None:
        empty = self.query_one("#empty", Static)
        results = self.query_one(ResultsList)
        has_hits = bool(result.hits)
        if results.display != has_hits:
            results.display = has_hits
            empty.display = not has_hits
        if has_hits:
            return
        empty.update(self._empty_message(result))

    def _empty_message(self, result: RankResult) -> Content:
        engine = self.engine
        lines: list[Content] = []
        if engine is not None and len(engine) == 0:
            root = one_line(str(self.memtui.options.root), 200)
            lines.append(Content.styled("No memory entries here yet", "bold"))
            lines.append(Content(""))
            lines.append(Content.assemble(("folder  ", "$muted"), (root, "")))
            hidden = result.hidden_by_window
            if hidden:
                lines.append(Content(f"{hidden:,} daily entries are older than the date window "
                                     "— press t to load every date."))
            skipped = len(engine.store.skipped)
            if skipped:
                lines.append(Content(f"{skipped} files were skipped — press ! to see why."))
            lines.append(Content(""))
            lines.append(Content.styled(
                "memtui reads MEMORY.md, memory/*.md, daily notes (YYYY-MM-DD.md), topic notes "
                "and HISTORY.md. Entries appear here as soon as your agent writes them.",
                "$muted",
            ))
            return Content("\n").join(lines)
        query = one_line(result.query, 80)
        lines.append(Content.assemble(("No matches for ", "bold"), (query, "bold $accent")))
        lines.append(Content(""))
        if result.unmatched_terms:
            terms = ", ".join(one_line(t, 40) for t in result.unmatched_terms)
            lines.append(Content.assemble(("nothing contains  ", "$muted"), (terms, "")))
        if result.suggestions:
            lines.append(Content.assemble(
                ("did you mean  ", "$muted"),
                (", ".join(one_line(s, 40) for s in result.suggestions[:5]), "bold $success"),
            ))
        if result.hidden_by_window and not self.window_all:
            lines.append(Content.assemble(
                (f"{result.hidden_by_window:,}", "bold"),
                (" daily entries are outside the date window — press t (ctrl+t) to search "
                 "every date", ""),
            ))
        for note in result.notes[:3]:
            lines.append(Content.styled(one_line(note, 200), "$muted"))
        lines.append(Content(""))
        lines.append(Content.styled(
            "Tips: fewer words; a prefix like depl finds deploy; -word excludes; "
            "source:daily, tag:x, after:2026-11-01 filter.", "$muted"))
        return Content("\n").join(lines)

    # --- watching -----------------------------------------------------------------------------

    @work(exclusive=True, group="watch")
    async def watch_root(self) -> None:
        options = self.memtui.options
        assert options.root is not None
        watcher = RootWatcher(options.root, force_polling=options.force_polling)
        self.memtui.watcher = watcher
        self.watcher_mode = WatchMode.WATCHING
        self._paint_chrome()
        try:
            async for batch in watcher:
                previous_mode = self.watcher_mode
                self.watcher_mode = batch.mode
                if batch.mode is WatchMode.ROOT_MISSING:
                    self._banner(
                        f"The memory folder {one_line(str(options.root), 200)} is gone. "
                        "It was moved or deleted; waiting for it to come back…",
                        severity="error",
                    )
                elif previous_mode is WatchMode.ROOT_MISSING:
                    self._hide_banner()
                    self.app.notify("The memory folder is back; reloaded.", markup=False)
                if batch.mode is not previous_mode:
                    self._paint_chrome()  # the banner and the status line change together
                engine = self.engine
                if engine is not None and batch.paths:
                    changes = await asyncio.to_thread(engine.apply_changes, sorted(batch.paths))
                    self._changes_applied(changes)
                self._paint_chrome()
        finally:
            self.watcher_mode = WatchMode.OFF

    def _changes_applied(self, changes: ChangeSet) -> None:
        self.memtui.changes_applied += 1
        if changes.empty:
            return
        self._heap_unsettled = True
        notice = change_notice(changes)
        if notice:
            self.app.notify(notice, timeout=3, markup=False)
        self._paint_chrome()
        self.request_search(keep_selection=True)

    @work(thread=True, group="changes")
    def apply_paths(self, paths: list[Path]) -> None:
        engine = self.engine
        if engine is None:
            return
        changes = engine.apply_changes(paths)
        self.app.call_from_thread(self._changes_applied, changes)

    # --- actions ------------------------------------------------------------------------------

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
        self.query_one(QueryInput).focus()

    def action_focus_results(self) -> None:
        results = self.query_one(ResultsList)
        if results.display:
            results.focus()

    def action_escape(self) -> None:
        query_input = self.query_one(QueryInput)
        if self.focused is query_input and query_input.value:
            query_input.value = ""
        else:
            query_input.focus()

    def action_next_match(self) -> None:
        self.query_one(EntryView).action_next_match()

    def action_edit(self) -> None:
        hit = self._selected
        root = self.memtui.options.root
        if hit is None or root is None:
            self.app.bell()
            return
        path = root / hit.entry.path
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        command = [*shlex.split(editor), f"+{hit.entry.line_start}", str(path)]
        try:
            with self.app.suspend():
                subprocess.run(command, check=False)
        except SuspendNotSupported:
            self.app.notify("Cannot open an editor from here.", severity="warning", markup=False)
            return
        except OSError as exc:
            self.app.notify(f"Could not run {one_line(editor, 60)}: {exc}", severity="error",
                            markup=False)
            return
        self.apply_paths([path])

    def action_copy_entry(self) -> None:
        hit = self._selected
        if hit is None:
            self.app.bell()
            return
        text, masked = self._entry_text(hit.entry, limit=None)
        self.app.copy_to_clipboard(text)
        suffix = f" ({masked} secrets masked)" if masked and not self.revealed else ""
        self.app.notify(f"Copied the entry{suffix}", timeout=2, markup=False)

    def action_copy_citation(self) -> None:
        hit = self._selected
        if hit is None:
            self.app.bell()
            return
        cite = render.citation(hit.entry)
        self.app.copy_to_clipboard(cite)
        self.app.notify(f"Copied {one_line(cite, 120)}", timeout=2, markup=False)

    def action_boost(self, direction: int) -> None:
        hit = self._selected
        if hit is None or self.engine is None:
            self.app.bell()
            return
        path = hit.entry.path
        current = self.engine.session_boosts.get(path, 1.0)
        factor = current * BOOST_STEP if direction > 0 else current / BOOST_STEP
        factor = max(1 / MAX_BOOST, min(MAX_BOOST, factor))
        self._set_boost(path, None if abs(factor - 1.0) < 1e-6 else factor)

    def action_clear_boost(self) -> None:
        hit = self._selected
        if hit is not None and self.engine is not None:
            self._set_boost(hit.entry.path, None)

    def _set_boost(self, path: str, factor: float | None) -> None:
        assert self.engine is not None
        self.engine.set_session_boost(path, factor)
        label = "cleared" if factor is None else f"× {factor:.2f}"
        self.app.notify(f"{one_line(path, 80)}: session boost {label}", timeout=2, markup=False)
        self.request_search(keep_selection=True)

    def action_toggle_breakdown(self) -> None:
        self.compact = not self.compact
        self.set_class(not self.compact, "-expanded")
        self._show_selected()

    def action_expanded_breakdown(self) -> None:
        from memtui.ui.screens.modals import BreakdownScreen

        if self._selected is None:
            self.app.bell()
            return
        self.app.push_screen(BreakdownScreen(self._selected, self._previous))

    def action_toggle_secrets(self) -> None:
        self.revealed = not self.revealed
        self._show_selected()
        self.app.notify("Secrets shown" if self.revealed else "Secrets masked", timeout=2,
                        markup=False)

    def action_toggle_window(self) -> None:
        if self.engine is None:
            return
        self.window_all = not self.window_all
        self.set_window(0 if self.window_all else self.memtui.options.days)

    @work(thread=True, exclusive=True, group="window")
    def set_window(self, days: int) -> None:
        engine = self.engine
        if engine is None:
            return
        engine.set_window(days)
        self.app.call_from_thread(self._window_changed, days)

    def _window_changed(self, days: int) -> None:
        self.app.notify(
            "Showing every date" if days == 0 else f"Showing the last {days} days",
            timeout=2, markup=False,
        )
        self._paint_chrome()
        self.request_search(keep_selection=True)

    def action_weights(self) -> None:
        from memtui.ui.screens.modals import WeightsScreen

        if self.engine is not None:
            self.app.push_screen(WeightsScreen(self))

    def action_filters(self) -> None:
        from memtui.ui.screens.modals import FiltersScreen

        def apply(query: str | None) -> None:
            if query is not None:
                self.set_query(query)

        self.app.push_screen(FiltersScreen(self.query_text), apply)

    def action_warnings(self) -> None:
        from memtui.ui.screens.modals import WarningsScreen

        self.app.push_screen(WarningsScreen(self.memtui.collect_warnings(self.engine)))

    def action_help(self) -> None:
        from memtui.ui.screens.modals import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_next_theme(self) -> None:
        self.memtui.cycle_theme()

    # --- for the weights screen ---------------------------------------------------------------

    @work(thread=True, exclusive=True, group="weights")
    def apply_weights(self, weights: dict[str, float], half_life_days: float) -> None:
        engine = self.engine
        if engine is None:
            return
        engine.set_weights(weights, half_life_days)
        self.app.call_from_thread(self.request_search, keep_selection=True)
