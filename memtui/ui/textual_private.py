"""The one module that touches Textual's private API, each use where no public way exists.

Textual 8.2 offers no public call for any of these; each keeps a keystroke cheap or memory flat,
or lets a test read what the terminal shows. `tests/test_textual_private.py` checks that each
still does what memtui relies on, and fingerprints the Textual source behind it, so a Textual
release that changes one fails there, by name, before it misbehaves anywhere else.
`tests/test_textual_public.py` keeps every other module to Textual's public API.
"""

from __future__ import annotations

import asyncio
import codecs
import re
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from rich.text import Text
from textual import events
from textual._styles_cache import StylesCache
from textual._xterm_parser import BRACKETED_PASTE_END, BRACKETED_PASTE_START, XTermParser
from textual.app import App
from textual.drivers import linux_driver
from textual.geometry import Size
from textual.message import Message
from textual.screen import UPDATE_PERIOD, Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey

from memtui.core.sanitize import visible

_Result = TypeVar("_Result")


class LocalsHiddenApp(App[_Result]):
    """An App whose crash report leaves out every frame's local variables.

    Textual's `App._fatal_error` prints the traceback of an unhandled error with the locals
    of each frame (`show_locals=True`): an entry's text with its secrets unmasked, and
    `os.environ`, went to the terminal and its scrollback. Here: Python's own traceback, as
    plain text with its control characters made visible (an error may quote file text)."""

    def _fatal_error(self) -> None:
        self.bell()
        error = sys.exc_info()[1]
        lines = traceback.format_exception(error) if error is not None else ["unknown error"]
        report = "\n".join(visible(line) for line in "".join(lines).splitlines())
        self._exit_renderables.append(Text(report))
        self._close_messages_no_wait()


class PasteKeepingParser(XTermParser):
    """Textual's terminal input parser, with a bracketed paste's text kept out of the keys.

    Textual's parser reads an ESC inside a paste as the start of an escape sequence, and
    reissues one it does not know as key presses: pasting `x␛^Qy` quit the app, and `x␛␛y`
    pressed escape. Here the text between a paste's start and end markers reaches the parser
    as `core.sanitize.visible` shows it (line breaks kept), so it arrives whole, as one Paste
    event, with no ESC to start a sequence and no control character for a widget to write to
    the terminal. A paste whose text holds the end marker itself still ends there: no parser
    can tell it from the real end (terminals such as xterm strip it from what they paste).
    """

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self._pasting = False
        self._held = ""
        """The end of the last read while it may be the start of a paste's end marker."""

    def feed(self, data: str) -> Iterable[Message]:
        return super().feed(self._pastes_made_visible(data) if data else data)

    def _pastes_made_visible(self, data: str) -> str:
        text, self._held = self._held + data, ""
        parts: list[str] = []
        while text:
            if not self._pasting:
                start = text.find(BRACKETED_PASTE_START)
                if start < 0:
                    parts.append(text)
                    break
                start += len(BRACKETED_PASTE_START)
                parts.append(text[:start])
                text, self._pasting = text[start:], True
                continue
            end = text.find(BRACKETED_PASTE_END)
            if end < 0:
                held = _marker_start_at_end(text, BRACKETED_PASTE_END)
                parts.append(_visible_lines(text[: len(text) - held]))
                self._held = text[len(text) - held :]
                break
            parts.append(_visible_lines(text[:end]) + BRACKETED_PASTE_END)
            text, self._pasting = text[end + len(BRACKETED_PASTE_END) :], False
        return "".join(parts)


_LINE_BREAK = re.compile(r"(\r\n|\r|\n)")


def _visible_lines(text: str) -> str:
    """`visible(text)`, but with carriage returns kept: a terminal pastes line breaks as CR."""
    parts = _LINE_BREAK.split(text)  # text, break, text, …: the breaks at odd places
    return "".join(part if place % 2 else visible(part) for place, part in enumerate(parts))


def _marker_start_at_end(text: str, marker: str) -> int:
    """How many characters at the end of `text` could begin `marker` (0 when none)."""
    for length in range(min(len(marker) - 1, len(text)), 0, -1):
        if marker.startswith(text[-length:]):
            return length
    return 0


def read_pastes_as_text() -> None:
    """Have the terminal driver (Linux and macOS) read its input with `PasteKeepingParser`,
    and decode it with `forgiving_decoder`: `LinuxDriver.run_input_thread` makes both by these
    module-level names."""
    linux_driver.XTermParser = PasteKeepingParser  # type: ignore[attr-defined]
    linux_driver.getincrementaldecoder = forgiving_decoder  # type: ignore[attr-defined,assignment]


def forgiving_decoder(encoding: str) -> Callable[[], codecs.IncrementalDecoder]:
    """The terminal's input decoder, with a byte that is not UTF-8 read as `\\xff` (as memtui
    shows an undecodable byte everywhere) instead of raised: Textual's strict decoder ended the
    app, with exit 0, on a pasted `\\xff` or a key typed in a Latin-1 terminal."""
    decoder = codecs.getincrementaldecoder(encoding)
    return lambda: decoder(errors="backslashreplace")


def start_with_theme(app: App[Any], name: str) -> None:
    """Give an app that is not running yet its theme, as `App._watch_theme` does, but without
    the refresh it queues.

    Setting `App.theme` before the app runs queues a full reparse of the stylesheet that runs
    before the first parse and empties the parse cache, and setting it once mounted reparses
    what was parsed: either way the whole CSS was parsed once more at every start (~15 ms).
    Here the stylesheet (made in `App.__init__` with the default theme's variables) takes the
    theme's variables before it is first parsed.
    """
    app.set_reactive(App.theme, name)
    theme = app.current_theme
    classes = {old: False for old in app.classes if old.startswith("-theme-")}
    classes[f"-theme-{theme.name}"] = True
    classes["-dark-mode"] = theme.dark
    classes["-light-mode"] = not theme.dark
    app.update_classes(classes, update=False)
    app._refresh_truecolor_filter(app.ansi_theme)
    app.stylesheet.set_variables(app.get_css_variables())


def keys_born_compact_as(footer: Footer, widgets: Iterable[Widget]) -> Iterator[Widget]:
    """`widgets` (what `Footer.compose` yields), each key given the footer's `compact` before
    it mounts.

    A `FooterKey` starts compact, and the footer's data binding then sets it to the footer's
    own: each key was styled twice as it mounted, ~15 ms of every start, on the main thread
    while the memory loads. The command palette's key is not bound, and stays compact as
    Textual draws it. `FooterKey` is not exported by `textual.widgets`.
    """
    for widget in widgets:
        if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
            widget.set_reactive(FooterKey.compact, footer.compact)
        yield widget


def update_scrollbars(view: Widget, virtual_size: Size) -> None:
    """Show, hide and size `view`'s scrollbars for its new `virtual_size`, without a layout pass.

    The public way, assigning `virtual_size`, re-lays out the whole screen; Textual's own
    `OptionList` also calls `Widget._scroll_update` for this.
    """
    view._scroll_update(virtual_size)


def painted_strips(screen: Screen[Any]) -> list[Strip]:
    """The screen's lines as its compositor draws them now: what the terminal shows.

    The public `App.export_screenshot` gives the same as SVG only.
    """
    return screen._compositor.render_strips()


def notices(app: App[Any]) -> list[str]:
    """The notifications the app shows now, oldest first (for tests to read what a user sees).

    Textual offers `App.notify` and no public way to read the notifications back.
    """
    return [str(notification.message) for notification in app._notifications]


def forget_styles_caches() -> None:
    """Empty Textual's memo of `StylesCache.get_inner_outer` (an `lru_cache` of 1024 calls).

    It keeps the styles caches of up to 1024 removed widgets alive with their rendered lines: a
    notice per applied change made RSS creep by a few KB per change until it was full.
    """
    StylesCache.get_inner_outer.cache_clear()


class QuietInput(Input):
    """An `Input` whose value watcher leaves out the screen-wide layout pass.

    Textual's `Input._watch_value` grows the virtual width with the text by assigning
    `virtual_size`, which re-lays out (and so repaints) the whole screen on every keystroke.
    A box of fixed size only needs its scroll range updated: subclasses do that, and anything
    else a change needs, in `value_changed`. No suggester is run. The rest is Input's: the
    first change ends its `_initial_value` state (until then a caret move does not scroll the
    caret into view, and a query longer than the box hid what was being typed), and later
    ones check the selection against the new length.
    """

    def _watch_value(self, value: str) -> None:
        self._suggestion = ""
        self.value_changed(value)
        if self._initial_value:
            self.cursor_position = len(self.value)
            self._initial_value = False
        else:
            self.selection = self.selection

    def value_changed(self, value: str) -> None:
        """The value changed: announce it as `Input` does."""
        validation = self.validate(value) if "changed" in self.validate_on else None
        self.post_message(self.Changed(self, value, validation))


class PromptScreen(Screen[None]):
    """A screen that can send its next frame as soon as it is due (`paint_promptly`), at most
    one per UPDATE_PERIOD, instead of at the update timer's next tick.

    Textual paints from the screen's 60 Hz update timer. After each frame the timer sleeps to
    a grid point even while paused, and after a pause its catch-up lands one point further, so
    the next frame left 17–33 ms after the last: a keystroke's results, ready a few
    milliseconds after a frame, waited up to 25 ms more (bench: 10–13 ms at p95 from the
    release of the held frame to the tick). Only a frame asked for this way goes out early;
    every other one keeps Textual's pace (an entry pane filled just after the first results
    paints with the next keystroke's frame rather than in front of it).
    """

    _last_frame_at = 0.0
    _prompt = False
    _frame_call: asyncio.TimerHandle | None = None

    def paint_promptly(self) -> None:
        """Send the next frame once its widgets have asked for it and the last frame is
        UPDATE_PERIOD old, whichever is later."""
        self._prompt = True
        self.check_idle()

    def _on_timer_update(self) -> None:
        if self.is_current and not self.app._batch_count:
            # A tick while the app's paint is held (a keystroke waiting for its results) sends
            # nothing: counted as a frame, it kept the held frame back up to UPDATE_PERIOD more
            # once the results were in.
            self._last_frame_at = time.monotonic()
            self._prompt = False
        super()._on_timer_update()

    async def _on_idle(self, event: events.Idle) -> None:
        # Dispatched before `Screen._on_idle`, which then has nothing left to resume the
        # timer for, and runs the after-refresh callbacks of this frame.
        if self._prompt and self._frame_call is None:
            self._paint_when_due()

    def _paint_when_due(self) -> None:
        if self.app._batch_count or not self.is_current or not self._frame_pending():
            return
        wait = self._last_frame_at + UPDATE_PERIOD - time.monotonic()
        if wait <= 0:
            self._on_timer_update()
        else:
            self._frame_call = asyncio.get_running_loop().call_later(wait, self._frame_due)

    def _frame_due(self) -> None:
        self._frame_call = None
        if self._prompt and self.is_attached:
            self._paint_when_due()

    def _frame_pending(self) -> bool:
        return bool(
            self._layout_required
            or self._scroll_required
            or self._repaint_required
            or self._dirty_widgets
        )
