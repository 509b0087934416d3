"""Shared plumbing for the Line API views (results list, entry view)."""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView
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
    view.set_reactive(Widget.virtual_size, size)
    view._scroll_update(size)
    if repaint:
        view.refresh()
