"""The main screen: query box, ranked results, the selected entry and why it ranked there.

`MainScreen` is the keys and what they do over `LiveResultsScreen` (`screens/live_results.py`),
which owns the engine and keeps the results current: moving and focus, acting on the selected
entry (edit, open, boost), handing entries on (copy, cite, `memtui pick`: which ones is
`ui.hand_off_flow`'s), view toggles and the other screens, which report back through the
callables it gives them. The keys are in `ui.bindings`, the palette's commands in `ui.palette`,
the editor in `ui.editor`. Of the app the screen uses only Textual's own API (notify,
push_screen, exit); what memtui's app adds reaches it through its `AppLink`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import ClassVar

from textual import events, on, work
from textual.binding import BindingType
from textual.command import Provider

from memtui.core import cite
from memtui.core.live.engine import Engine
from memtui.core.live.watch import RootWatcher
from memtui.core.live.watch_roots import RootsWatcher
from memtui.core.model import Entry, Hit
from memtui.core.sanitize import one_line
from memtui.ui import clipboard, messages, render, search_work, widths
from memtui.ui.app_link import AppLink
from memtui.ui.bindings import MAIN_BINDINGS, PICK_BINDINGS
from memtui.ui.editor import open_editor
from memtui.ui.hand_off_flow import resolved, wanted_ids
from memtui.ui.handoff import HandOff, Purpose, copied_notice
from memtui.ui.key_order import ListWaiter, after_results
from memtui.ui.options import AppOptions
from memtui.ui.palette import MainCommands
from memtui.ui.screens.breakdown import BreakdownScreen
from memtui.ui.screens.file_view import FileViewScreen
from memtui.ui.screens.filters import FiltersScreen
from memtui.ui.screens.health import HealthScreen
from memtui.ui.screens.help import HelpScreen
from memtui.ui.screens.live_results import LiveResultsScreen
from memtui.ui.screens.warnings import WarningsScreen, collect_warnings
from memtui.ui.screens.weights import WeightsScreen
from memtui.ui.widgets.detail import EntryView
from memtui.ui.widgets.query import QueryInput
from memtui.ui.widgets.results import ResultsList


class MainScreen(LiveResultsScreen):
    """Query on top, results left, entry and breakdown right; the keys act on them."""

    AUTO_FOCUS = "#query"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {MainCommands}
    BINDINGS: ClassVar[list[BindingType]] = [*MAIN_BINDINGS, *PICK_BINDINGS]

    def __init__(self, options: AppOptions, link: AppLink) -> None:
        super().__init__(options, link)
        self._waiting_hand_off: Purpose | None = None
        """A copy or pick asked for while `ctrl+a` was still marking."""
        self.list_waiter = self.searches.waiter = ListWaiter(self._results_current)
        self.keys_closed = False
        """`memtui pick` has its enter: keys typed after it no longer change what is picked."""

    def _results_current(self) -> bool:
        """The list shows what the box holds, ranked: its newest search has settled, and the
        index it needs is built (`ui.key_order`)."""
        engine = self.engine
        if engine is None:
            return not self.engine_loading  # the load failed: an empty list is all there is
        return (
            (engine.index_ready or not self.query_text.strip())
            and self.searches.newest_settled()
            and self.query_text == self.query_one(QueryInput).value
        )

    @property
    def watcher(self) -> RootWatcher | RootsWatcher | None:
        return self.watching.watcher if self.watching is not None else None

    @property
    def detail_pending(self) -> bool:
        """True while the entry and breakdown panes still show an earlier selection."""
        return self.pane.pending

    @property
    def keys_in_force(self) -> Mapping[str, str]:
        """The `[keymap]` remaps in force (the palette names the keys they give)."""
        return self.link.keymap

    # --- the query box and the list -----------------------------------------------------------

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Acting on the results (focus leaves the box for them) keeps the query in history."""
        if not isinstance(event.widget, QueryInput):
            self.query_one(QueryInput).remember()

    def set_query(self, text: str) -> None:
        """Replace the query text (filters screen, palette) and rerank."""
        self.query_one(QueryInput).value = text
        self.query_one(QueryInput).cursor_position = len(text)

    @on(ResultsList.Chosen)
    def _chosen(self) -> None:
        self.action_open_entry()

    def action_open_entry(self) -> None:
        """Enter in the list: focus the entry now (not `focus()`, which queues), so `z` typed
        right behind enter zooms the entry, not the list."""
        if self.query_one(ResultsList).hits:
            self.set_focus(self.query_one(EntryView))

    def on_resize(self) -> None:
        self.pane.refit()

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

    @work(thread=True, group="changes")
    def apply_paths(self, paths: list[Path]) -> None:
        engine = self.engine
        if engine is None:
            return
        self.post_message(search_work.apply_changes(engine, paths))

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
                cite.cited_path(engine, hit.entry),
                render.match_pattern(hit.explanation.terms),
                mask=mask,
            )
        )

    @after_results
    def action_copy_entry(self) -> None:
        self._hand_off_chosen(Purpose.MARKDOWN)

    @after_results
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
        """Enter in `memtui pick`. A priority key runs as it arrives, before the keys typed
        ahead of it have reached the box or the list: the pick waits behind them in the
        focused widget's queue, then for their results. Keys typed after it are dropped, as
        the picker is ending (until it rings: nothing to pick)."""
        (self.focused or self).call_later(self._enter_reached)

    def _enter_reached(self) -> None:
        self.keys_closed = True
        self._pick()

    @after_results
    def _pick(self) -> None:
        self._hand_off_chosen(Purpose.PICK)

    def _hand_off_chosen(self, purpose: Purpose) -> None:
        """Hand on the marked entries, else the selected one (`pick --multi`: every result);
        after `ctrl+a` has finished marking, if it is still at it."""
        results = self.query_one(ResultsList)
        if results.collecting:
            self._waiting_hand_off = purpose
            return
        self._hand_off(
            purpose, wanted_ids(purpose, self.options.hand_off, results.marks, results.selected)
        )

    def action_cancel_pick(self) -> None:
        self.app.exit()

    def _hand_off(self, purpose: Purpose, entry_ids: list[str] | None) -> None:
        """Hand on `entry_ids` (None: every result) once a worker has looked them up."""
        if entry_ids == [] or self.engine is None:
            self._nothing_handed()
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
            self._nothing_handed()
        elif message.purpose is Purpose.PICK:
            assert self.engine is not None
            self.link.hand_off(
                HandOff(self.engine, self.query_text, message.picked, self.pane.revealed)
            )
        else:
            copied = copied_notice(message.purpose, len(message.picked), message.masked)
            clipboard.copy(self.app, message.text, copied, self.options.config.clipboard)

    @on(messages.EngineFailed)
    def _load_failed_here(self) -> None:
        """What waited for results runs on the empty list once the failure is shown (a pick
        rings), rather than waiting for results that will not come."""
        self.call_later(self.list_waiter.caught_up)

    def _nothing_handed(self) -> None:
        """Nothing to copy or pick: a bell, and the keys open again."""
        self.keys_closed = False
        self.app.bell()

    @on(ResultsList.MarksChanged)
    def _marks_changed(self) -> None:
        self._paint_chrome()
        waiting, self._waiting_hand_off = self._waiting_hand_off, None
        if waiting is not None:
            self._hand_off_chosen(waiting)

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
        self.app.push_screen(BreakdownScreen(self.pane.shown_hit(hit), self.pane.previous))

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
