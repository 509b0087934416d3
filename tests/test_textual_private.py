"""Each private Textual use in `memtui.ui.textual_private` still does what memtui relies on.

Two kinds of check. The behaviour ones drive a small app through each function. The
fingerprints pin the Textual source each use depends on (and the Textual code memtui mirrors in
public overrides): a Textual release that changes any of it fails here by name, so whoever
upgrades reads that code again before anything misbehaves for a user. After checking that
memtui's use still fits, update the fingerprint.
"""

from __future__ import annotations

import asyncio
import codecs
import gc
import hashlib
import inspect
import weakref
from collections.abc import Callable
from typing import Any, ClassVar

import pytest
import textual
from textual import events
from textual._compositor import Compositor
from textual._parser import Parser
from textual._styles_cache import StylesCache
from textual._xterm_parser import XTermParser
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.color import Color
from textual.drivers import linux_driver
from textual.drivers.linux_driver import LinuxDriver
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Input, Static
from textual.widgets._footer import FooterKey
from textual.widgets._toggle_button import ToggleButton

from memtui.ui.textual_private import (
    LocalsHiddenApp,
    PasteKeepingParser,
    PromptScreen,
    QuietInput,
    forget_styles_caches,
    forgiving_decoder,
    notices,
    painted_strips,
    read_pastes_as_text,
    start_with_theme,
    update_scrollbars,
)
from memtui.ui.widgets.footer import KeysFooter
from memtui.ui.widgets.lines import set_virtual_size

FINGERPRINTS: dict[str, tuple[Callable[..., Any], str]] = {
    # the private code memtui calls
    "Widget._scroll_update (update_scrollbars)": (Widget._scroll_update, "edb9f6257285830d"),
    "Widget._refresh_scrollbars (update_scrollbars)": (
        Widget._refresh_scrollbars,
        "4e52a14aae901b5b",
    ),
    "Compositor.render_strips (painted_strips)": (Compositor.render_strips, "061fb81ef37c720c"),
    "App._on_notify (notices)": (App._on_notify, "65e0eaed1e22eff4"),
    "StylesCache.get_inner_outer (forget_styles_caches)": (
        StylesCache.get_inner_outer,
        "d2509f3e796680df",
    ),
    "Input._watch_value (QuietInput)": (Input._watch_value, "ffa57a58cea18cc5"),
    "Screen._on_timer_update (PromptScreen)": (Screen._on_timer_update, "421401660de142c5"),
    "Screen._on_idle (PromptScreen)": (Screen._on_idle, "05781131b10da971"),
    "Timer._run (PromptScreen)": (Timer._run, "60c942a84c1a8765"),
    "App._watch_theme (start_with_theme)": (App._watch_theme, "a6de38d37b42f581"),
    "FooterKey (keys_born_compact_as)": (FooterKey, "3ee477e7e5814c26"),
    "App._fatal_error (LocalsHiddenApp)": (App._fatal_error, "2474616cec7fa94d"),
    "LinuxDriver.run_input_thread (read_pastes_as_text)": (
        LinuxDriver.run_input_thread,
        "d796af6d69db337d",
    ),
    "XTermParser.parse (PasteKeepingParser)": (XTermParser.parse, "a5834ad1def86544"),
    "Parser.feed (PasteKeepingParser)": (Parser.feed, "390106cde019dd29"),
    # the Textual code memtui's public overrides mirror or rely on
    "ToggleButton.render (filters.TickBox.render)": (ToggleButton.render, "2fc389074f795966"),
    "Reactive._check_watchers (footer.KeysFooter)": (Reactive._check_watchers, "7264430bbdce0b5a"),
    "Footer.compose (footer.KeysFooter.keys_wanted)": (Footer.compose, "8514ae6622cb1844"),
    "Footer.bindings_changed (footer.KeysFooter)": (
        Footer.bindings_changed,
        "eb88714081bd2305",
    ),
    "ScrollBar._render_bar (lines.set_virtual_size)": (ScrollBar._render_bar, "1f4e4e637581fc4f"),
}


def fingerprint(function: Callable[..., Any]) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", FINGERPRINTS)
def test_the_textual_code_behind_each_private_use_is_unchanged(name: str) -> None:
    function, expected = FINGERPRINTS[name]
    assert fingerprint(function) == expected, (
        f"Textual {textual.__version__} changed {name}: check memtui/ui/textual_private.py "
        "(or the override named) against the new code, then update the fingerprint"
    )


class Lines(ScrollView):
    DEFAULT_CSS = "Lines { height: 5; }"


class Sample(App[None]):
    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget
        self.changes: list[str] = []

    def compose(self) -> ComposeResult:
        yield self.widget

    def on_input_changed(self, event: Input.Changed) -> None:
        self.changes.append(event.value)


class Shown(PromptScreen):
    def compose(self) -> ComposeResult:
        yield Static("before")


class PromptSample(App[None]):
    def get_default_screen(self) -> Screen[Any]:
        return Shown()


async def test_a_prompt_screen_sends_the_frame_it_is_asked_for_without_the_update_timer() -> None:
    """`paint_promptly` sends the next frame from the screen's own idle: with the update
    timer stopped, a change stays unpainted until it is asked for."""
    async with PromptSample().run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, Shown)
        screen._update_timer.stop()
        screen.query_one(Static).update("after")
        await asyncio.sleep(0.1)  # not `Pilot.pause`, which itself sends a frame
        last_frame = screen._last_frame_at
        assert screen._dirty_widgets, "painted without the timer, unasked"
        screen.paint_promptly()
        for _ in range(100):
            await asyncio.sleep(0.02)
            if screen._last_frame_at > last_frame:
                break
        assert not screen._dirty_widgets and screen._last_frame_at > last_frame
        assert painted_strips(screen)[0].text.startswith("after")


async def test_a_tick_while_the_paint_is_held_is_not_a_frame() -> None:
    """A keystroke holds the app's paint until its results are in; an update tick meanwhile
    sends nothing, so it must not count as the last frame (the held frame then waited up to
    UPDATE_PERIOD more once released)."""
    async with PromptSample().run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, Shown)
        screen._update_timer.stop()
        last_frame = screen._last_frame_at
        with pilot.app.batch_update():
            screen._on_timer_update()
            assert screen._last_frame_at == last_frame
        screen._on_timer_update()
        assert screen._last_frame_at > last_frame


class Themed(App[None]):
    CSS = "Static { color: $primary; }"

    def __init__(self, theme: str) -> None:
        super().__init__()
        start_with_theme(self, theme)

    def compose(self) -> ComposeResult:
        yield Static("themed")


async def test_start_with_theme_styles_the_first_frame_with_it_and_parses_once() -> None:
    app = Themed("textual-light")
    reparses: list[None] = []
    original = app.stylesheet.reparse

    def reparse() -> None:
        reparses.append(None)
        original()

    app.stylesheet.reparse = reparse  # type: ignore[method-assign]
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        theme = app.get_theme("textual-light")
        assert theme is not None and app.theme == "textual-light"
        assert {"-theme-textual-light", "-light-mode"} <= app.classes
        assert "-dark-mode" not in app.classes
        assert app.query_one(Static).styles.color == Color.parse(theme.primary)
        assert reparses == []


async def test_update_scrollbars_shows_and_hides_the_bar_for_a_new_virtual_size() -> None:
    lines = Lines()
    async with Sample(lines).run_test(size=(40, 10)) as pilot:
        lines.set_reactive(Widget.virtual_size, Size(20, 50))
        update_scrollbars(lines, Size(20, 50))
        assert lines.show_vertical_scrollbar
        assert lines.vertical_scrollbar.window_virtual_size == 50
        await pilot.pause()
        lines.set_reactive(Widget.virtual_size, Size(20, 3))
        update_scrollbars(lines, Size(20, 3))
        assert not lines.show_vertical_scrollbar


async def test_painted_strips_are_the_lines_on_screen() -> None:
    async with Sample(Static("painted words")).run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        lines = [strip.text for strip in painted_strips(pilot.app.screen)]
        assert len(lines) == 5 and lines[0].startswith("painted words")


async def test_notices_are_the_notifications_shown() -> None:
    async with Sample(Static("x")).run_test() as pilot:
        pilot.app.notify("Copied 1 entry", markup=False)
        pilot.app.notify("Second")
        await pilot.pause()
        assert notices(pilot.app) == ["Copied 1 entry", "Second"]


def test_forget_styles_caches_frees_the_styles_of_removed_widgets() -> None:
    """Textual memoises a method per styles cache: 1024 removed widgets (a notice per applied
    change) stayed alive with their rendered lines, a few KB per change."""
    styles = StylesCache()
    styles.get_inner_outer(Color(0, 0, 0), Color(20, 20, 20))
    gone = weakref.ref(styles)
    del styles
    gc.collect()
    assert gone() is not None  # held by the memo...
    forget_styles_caches()
    gc.collect()
    assert gone() is None  # ...until it is emptied


async def test_quiet_input_announces_each_change_once_without_growing() -> None:
    """Textual's own value watcher would also run if it were renamed: two `Changed` messages
    per keystroke and a virtual width that grows with the text (a screen-wide layout)."""
    box = QuietInput()
    sample = Sample(box)
    async with sample.run_test() as pilot:
        await pilot.pause()
        width = box.virtual_size
        await pilot.press("a", "b")
        await pilot.pause()
        assert sample.changes == ["a", "ab"]
        assert box.value == "ab" and box.virtual_size == width


async def test_quiet_input_keeps_the_caret_in_view_as_input_does() -> None:
    """Without the end of Input's first-change state, the box never scrolled: the text typed
    past its width went on out of sight."""

    class GrowingInput(QuietInput):
        def value_changed(self, value: str) -> None:  # as the query box does
            set_virtual_size(self, Size(self.content_width, 1))
            super().value_changed(value)

    box = GrowingInput()
    box.styles.width = 12
    async with Sample(box).run_test() as pilot:
        await pilot.press(*"a long query past the box")
        await pilot.pause()
        assert box.max_scroll_x > 0 and box.scroll_x == box.max_scroll_x
        await pilot.press("home")  # Input's own: the caret to the start, and the view with it
        await pilot.pause()
        assert box.cursor_position == 0 and box.scroll_x == 0


class Keyed(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [("x", "bell", "Ring"), ("y", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield KeysFooter()


async def test_footer_keys_are_born_with_the_footers_compact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No key bound to the footer's `compact` is restyled as it mounts; the palette's key,
    not bound, stays compact as Textual draws it."""
    restyled: list[Widget] = []
    update = FooterKey.update_node_styles

    def counted(key: FooterKey, animate: bool = True) -> None:
        restyled.append(key)
        update(key, animate)

    monkeypatch.setattr(FooterKey, "update_node_styles", counted)
    app = Keyed()
    async with app.run_test() as pilot:
        await pilot.pause()
        keys = list(app.query(FooterKey))
        bound = [key for key in keys if not key.has_class("-command-palette")]
        assert len(bound) == 2
        assert all(not key.compact and not key.has_class("-compact") for key in bound)
        assert all(key.compact for key in keys if key not in bound)
        assert not [key for key in restyled if key in bound]


TOKEN_REVERSED = "pOnMlKjIhGfEdCbAzYxH15_evil_ks"


class Crashing(LocalsHiddenApp[None]):
    def on_mount(self) -> None:
        token = "".join(reversed(TOKEN_REVERSED))  # a local of the failing frame, not its source
        raise ValueError(f"boom after {len(token)} characters")


async def test_a_crash_report_shows_the_error_but_no_local_variables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Textual's report printed every frame's locals: an entry's secrets, os.environ."""
    with pytest.raises(ValueError, match="boom"):
        async with Crashing().run_test():
            pass
    text = capsys.readouterr().err
    assert "ValueError: boom after 30 characters" in text
    assert "sk_live" not in text  # Textual's App shows `token = 'sk_live_51…'` here


PASTED = "\x1b[200~x\x1b\x11y\r\nz\x07\x1b[201~q"
"""A paste of `x ESC ^Q y CRLF z BEL`, then `q` typed."""


def parsed(parser: XTermParser, *pieces: str) -> list[tuple[str, str]]:
    events_read = [event for piece in pieces for event in parser.feed(piece)]
    return [
        ("paste", event.text) if isinstance(event, events.Paste) else ("key", event.key)
        for event in events_read
        if isinstance(event, events.Paste | events.Key)
    ]


def test_textual_own_parser_still_turns_a_pasted_escape_into_key_presses() -> None:
    """Why `PasteKeepingParser` exists: when this fails, Textual keeps pastes whole itself."""
    keys = parsed(XTermParser(), PASTED)
    assert ("key", "ctrl+q") in keys


@pytest.mark.parametrize("cut", range(len("\x1b[200~"), len(PASTED) + 1))
def test_a_paste_arrives_whole_and_visible_however_its_reads_are_cut(cut: int) -> None:
    assert parsed(PasteKeepingParser(), PASTED[:cut], PASTED[cut:]) == [
        ("paste", "x␛␑y\r\nz␇"),
        ("key", "q"),
    ]


def test_keys_around_pastes_are_still_keys() -> None:
    parser = PasteKeepingParser()
    assert parsed(parser, "a\x1b[A", "\x1b[200~one\x1b[201~", "\x1b[200~two\x1b[201~b") == [
        ("key", "a"),
        ("key", "up"),
        ("paste", "one"),
        ("paste", "two"),
        ("key", "b"),
    ]


def test_the_terminal_driver_reads_with_the_paste_keeping_parser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(linux_driver, "XTermParser", XTermParser)  # restored after the test
    monkeypatch.setattr(linux_driver, "getincrementaldecoder", codecs.getincrementaldecoder)
    read_pastes_as_text()
    assert vars(linux_driver)["XTermParser"] is PasteKeepingParser
    assert vars(linux_driver)["getincrementaldecoder"] is forgiving_decoder


def test_input_that_is_not_utf_8_reads_as_escaped_bytes_not_an_error() -> None:
    """QA: a pasted `\\xff` ended the app (exit 0) with Textual's strict decoder."""
    with pytest.raises(UnicodeDecodeError):
        codecs.getincrementaldecoder("utf-8")().decode(b"ab\xff")
    decode = forgiving_decoder("utf-8")().decode
    assert decode(b"ab\xff\xfecd") == "ab\\xff\\xfecd"
    assert (decode(b"caf\xc3"), decode(b"\xa9!")) == ("caf", "é!")  # split reads still join
