"""Shared plumbing for the Line API views (results list, entry view)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from rich.segment import Segment
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.widget import Widget

from memtui.ui.textual_private import update_scrollbars


def set_virtual_size(view: ScrollView, size: Size, *, repaint: bool = True) -> None:
    """Change a scroll view's virtual size without a screen-wide layout pass.

    Assigning `virtual_size` re-lays out the whole screen (and so repaints every widget); a
    line view only needs its scrollbars updated (`update_scrollbars`). This keeps a
    keystroke from costing a full-screen layout every time the match count changes. With
    `repaint=False` the caller repaints the lines that changed itself.
    """
    if size == view.virtual_size:
        return
    before = view.virtual_size
    view.set_reactive(Widget.virtual_size, size)
    if _same_vertical_bar(view, before, size):
        # What the bar draws is unchanged (a 10,000-row list and a 9,000-row one both have a
        # one-cell thumb at the top): repainting it cost ~2 ms of every keystroke's frame.
        view.vertical_scrollbar.set_reactive(ScrollBar.window_virtual_size, size.height)
        view.scroll_y = view.validate_scroll_y(view.scroll_y)
    else:
        update_scrollbars(view, size)
    if repaint:
        view.refresh()


def _same_vertical_bar(view: ScrollView, before: Size, after: Size) -> bool:
    """True when only the virtual height changes, the vertical scrollbar stays shown, and
    Textual's scrollbar renderer draws it the same for both heights."""
    if before.width != after.width or not view.show_vertical_scrollbar:
        return False
    window = view.container_size.height - view.scrollbar_size_horizontal
    if after.height <= window or view.styles.overflow_y != "auto":
        return False
    bar = view.vertical_scrollbar
    track, position, thickness = bar.size.height, bar.position, bar.thickness
    return _drawn(track, before.height, window, position, thickness) == _drawn(
        track, after.height, window, position, thickness
    )


@lru_cache(maxsize=8)
def _drawn(
    track: int, virtual: int, window: int, position: float, thickness: int
) -> tuple[Segment, ...]:
    """The cells Textual's renderer draws for a vertical bar. Kept for the next keystroke,
    whose `before` is this one's `after`: each drawing costs tens of microseconds."""
    drawing = ScrollBar.renderer.render_bar(
        size=track,
        virtual_size=virtual,
        window_size=window if window < virtual else 0,
        position=position,
        thickness=thickness,
    )
    return tuple(drawing.segments)


def line_runs(lines: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Runs of consecutive numbers in ascending `lines`, as (first, count): one refresh each."""
    start = 0
    for at in range(1, len(lines) + 1):
        if at == len(lines) or lines[at] != lines[at - 1] + 1:
            yield lines[start], at - start
            start = at
