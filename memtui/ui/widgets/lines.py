"""Shared plumbing for the Line API views (results list, entry view)."""

from __future__ import annotations

from math import ceil

from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.widget import Widget


def set_virtual_size(view: ScrollView, size: Size, *, repaint: bool = True) -> None:
    """Change a scroll view's virtual size without a screen-wide layout pass.

    Assigning `virtual_size` re-lays out the whole screen (and so repaints every widget); a
    line view only needs its scrollbars updated, which `_scroll_update` does. This keeps a
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
        view._scroll_update(size)
    if repaint:
        view.refresh()


def _same_vertical_bar(view: ScrollView, before: Size, after: Size) -> bool:
    """True when only the virtual height changes, the vertical scrollbar stays shown, and it
    draws the same thumb (the cells of Textual's `ScrollBarRender.render_bar`)."""
    if before.width != after.width or not view.show_vertical_scrollbar:
        return False
    window = view.container_size.height - view.scrollbar_size_horizontal
    if after.height <= window or view.styles.overflow_y != "auto":
        return False
    track = view.vertical_scrollbar.size.height
    position = view.vertical_scrollbar.position
    return _thumb(track, before.height, window, position) == _thumb(
        track, after.height, window, position
    )


def _thumb(track: int, virtual: int, window: int, position: float) -> tuple[int, int]:
    """Where `render_bar` starts and ends the thumb, in eighths of a cell."""
    if not (window and track and virtual and track != virtual and window < virtual):
        return -1, -1
    thumb = max(1, window / (virtual / track))
    start = int((track - thumb) * (position / (virtual - window)) * 8)
    return start, start + ceil(thumb * 8)
