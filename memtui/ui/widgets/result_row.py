"""One row of the ranked list as styled segments: a pure function of the hit, the width and
the styles, so its layout is tested without a widget, an app or a terminal.

The list (`widgets/results.py`) keeps the cursor, the caches and the styles; this module owns
what a row shows and where: mark gutter, rank, score, stacked factor bar, title, date, source
badge, path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from memtui.core.cite import date_label
from memtui.core.model import Entry, Hit, Source
from memtui.core.sanitize import one_line
from memtui.ui import gone as gone_glyph
from memtui.ui import widths
from memtui.ui.load_line import BADGE, BADGE_CELLS
from memtui.ui.render import BAR_CELLS, SOURCE_LABEL, display_title, stacked_cells
from memtui.ui.titles import fit_pieces, title_pieces

MARK_GLYPH = "✓"
"""The mark gutter's sign for a marked row: a glyph, so a mark reads without colour too."""

ROOT_TAG_CELLS = 8
"""With several memory folders open, each row starts its title with this much of its label."""

TITLE_FIRST_CELLS = 28
"""The date and source columns (then the path) appear only when the title keeps this much room:
a narrow list drops them before it cuts titles. One threshold per width, so columns align."""

FULL_BAR_WIDTH = 50
"""A list narrower than this draws its score bars at half length (same scale: a full bar is a
score of 1), leaving the room to the title."""

RowKey = tuple[
    Entry, int, float, tuple[tuple[str, float], ...], int, bool, int, bool | None, bool, bool, bool
]
"""What one row shows, the key its rendered strip is kept by: entry, rank, score,
contributions, rank column width, is cursor, width, is marked (None: no mark gutter), is past
its agent's load line (the badge), its folder is gone (dimmed), browsing (dates, not scores).
The entry itself, not its id: an edited entry keeps its id and must not show its old title."""

K = TypeVar("K")
V = TypeVar("V")

StyleOf = Callable[[str], Style]
"""A component class name (`results--title`) -> its style, as the list's CSS resolves it."""


def fit(text: str, cells: int) -> str:
    """`text` padded or cut (with an ellipsis) to exactly `cells` terminal cells."""
    if cells <= 0:
        return ""
    if cell_len(text) > cells:
        return set_cell_size(text, cells - 1) + "…"
    return set_cell_size(text, cells)


def path_column_width(room: int) -> int:
    """Cells for the path column given the row's free room; 0 hides it (the title comes first)."""
    if room < 64:
        return 0
    return min(24, room // 4)


def compact_path(path: str, cells: int) -> str:
    """The file name, with its parent folder in front when both fit in `cells`."""
    parts = one_line(path, widths.RAW).replace("\\", "/").rsplit("/", 2)
    name = parts[-1]
    if len(parts) >= 2 and parts[-2]:
        with_parent = f"{parts[-2]}/{name}"
        if cell_len(with_parent) <= cells:
            return with_parent
    return name


def file_suffix(entry: Entry, date_shown: str, *, path_shown: bool) -> str:
    """` · file.md` after the title, unless another column already says it: the path column,
    or the date column for a daily note named by its date (`2026-11-26.md`). Shown only
    whole (the row drops it rather than cut it)."""
    name = one_line(entry.file_name, widths.SHORT)
    if path_shown or (date_shown.strip() and name.startswith(date_shown.strip())):
        return ""
    return f" · {name}"


def row_segments(
    hit: Hit,
    width: int,
    *,
    rank_width: int,
    style: StyleOf,
    cursor_style: Style | None = None,
    marked: bool | None = None,
    past_load_line: bool = False,
    gone: bool = False,
    browse: bool = False,
) -> list[Segment]:
    """One row: mark gutter, rank, score, stacked factor bar, title, date, badge, path.

    `browse` (no query terms: the list is newest first, not by score) puts the date where
    the score and its bar would be, and leaves out the date column.

    `cursor_style` is the cursor's style on the cursor row (None on every other row);
    `marked` None leaves out the mark gutter (nothing is marked); `past_load_line` puts the
    load-line badge before the title, in the title's own room (the columns stay put);
    `gone` (its folder is gone) dims the row and puts the gone glyph there too.

    Built as segments directly (no Rich layout pass): this runs for every visible row on
    every rerank. Widths are in terminal cells, so wide (CJK) titles truncate correctly.
    """
    lead, fixed = _lead(hit, width, rank_width, style, cursor_style, marked, gone, browse)
    part = _entry_part(hit.entry, width, fixed, style, cursor_style, past_load_line, gone, browse)
    return lead + part


class RowCache:
    """The list's rendered rows, and the entry's part of each (title to path) as laid out.

    `strips` holds rows by everything a row shows (`RowKey`). They are kept across reranks:
    typing a word's next letter usually keeps most visible rows as they were. The next
    keystroke's other rows are mostly the same entries at other ranks and scores, and the
    entry's part, kept by entry and layout, was most of a row's cost. Both hold entries: the
    list clears them together.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self.strips: dict[RowKey, Strip] = {}
        self._parts: dict[tuple[object, ...], list[Segment]] = {}

    def clear(self) -> None:
        self.strips.clear()
        self._parts.clear()

    def strip(
        self,
        hit: Hit,
        key: RowKey,
        base: Style,
        *,
        style: StyleOf,
        cursor_style: Style | None,
        keep: bool = True,
    ) -> Strip:
        """The row of `hit` that `key` describes, kept or made now; a made row is kept (the
        oldest goes first once the cache is full) only with `keep`, as in `row`."""
        strip = self.strips.get(key)
        if strip is None:
            _, _, _, _, rank_width, _, width, marked, past_load_line, gone, browse = key
            segments = self.row(
                hit,
                width,
                base,
                rank_width=rank_width,
                style=style,
                cursor_style=cursor_style,
                marked=marked,
                past_load_line=past_load_line,
                gone=gone,
                browse=browse,
                keep=keep,
            )
            # Strip's own apply_style / crop_extend / simplify make a Strip (and its caches)
            # each; done on the segments, a row costs one.
            line = Segment.adjust_line_length(segments, width, base)
            strip = Strip(list(Segment.simplify(line)), width)
            if keep:
                _keep(self.strips, key, strip, self._size)
        return strip

    def row(
        self,
        hit: Hit,
        width: int,
        base: Style,
        *,
        rank_width: int,
        style: StyleOf,
        cursor_style: Style | None,
        marked: bool | None,
        past_load_line: bool,
        gone: bool,
        browse: bool,
        keep: bool = True,
    ) -> list[Segment]:
        """`row_segments` of these, each segment's style on top of `base`; the entry's part is
        kept only with `keep` (not for rows of hits the list has let go of)."""
        lead, fixed = _lead(hit, width, rank_width, style, cursor_style, marked, gone, browse)
        key = (hit.entry, width, fixed, cursor_style, past_load_line, gone, browse)
        part = self._parts.get(key)
        if part is None:
            made = _entry_part(
                hit.entry, width, fixed, style, cursor_style, past_load_line, gone, browse
            )
            part = list(Segment.apply_style(made, base))
            if keep:
                _keep(self._parts, key, part, self._size)
        return [*Segment.apply_style(lead, base), *part]


def _keep(cache: dict[K, V], key: K, value: V, size: int) -> None:
    """Put `value` in `cache`, first dropping the oldest if `size` are kept already."""
    if len(cache) >= size:
        del cache[next(iter(cache))]
    cache[key] = value


def _adder(
    segments: list[Segment], style: StyleOf, cursor_style: Style | None, gone: bool
) -> Callable[..., None]:
    """`add(text, style, drawing=False)` appending to `segments`. On the cursor row text takes
    the cursor's colour (the theme keeps that readable on the cursor's background); a `drawing`
    (the bar) keeps its own. A gone folder's row is dimmed: its text in the dimmed colour, its
    bar faint. A plain row (most of them) only appends."""
    if cursor_style is not None:
        colour = Style(color=cursor_style.color)

        def add_on_cursor(text: str, piece_style: Style, *, drawing: bool = False) -> None:
            piece_style = cursor_style + piece_style
            segments.append(Segment(text, piece_style if drawing else piece_style + colour))

        return add_on_cursor
    if gone:
        dimmed, faint = style("results--gone"), Style(dim=True)

        def add_dimmed(text: str, piece_style: Style, *, drawing: bool = False) -> None:
            segments.append(Segment(text, piece_style + (faint if drawing else dimmed)))

        return add_dimmed

    def add(text: str, piece_style: Style, *, drawing: bool = False) -> None:
        segments.append(Segment(text, piece_style))

    return add


def _lead(
    hit: Hit,
    width: int,
    rank_width: int,
    style: StyleOf,
    cursor_style: Style | None,
    marked: bool | None,
    gone: bool,
    browse: bool,
) -> tuple[list[Segment], int]:
    """The row's gutter, rank and score area, and the cells they take with the space after."""
    segments: list[Segment] = []
    add = _adder(segments, style, cursor_style, gone)
    gutter = 0 if marked is None else 2
    if marked is not None:
        add(f"{MARK_GLYPH if marked else ' '} ", style("results--mark"))
    add(f"{hit.rank:>{rank_width}} ", style("results--rank"))
    bar_cells = BAR_CELLS if width >= FULL_BAR_WIDTH else BAR_CELLS // 2
    date = date_label(hit.entry)[:10].ljust(10) if browse else ""
    lead = _score_area(hit, date, bar_cells, browse=browse)
    for text, component, drawing in lead:
        add(text, style(component), drawing=drawing)
    score_cells = sum(len(text) for text, _, _ in lead) - 1
    return segments, gutter + rank_width + 1 + score_cells + 1


def _entry_part(
    entry: Entry,
    width: int,
    fixed: int,
    style: StyleOf,
    cursor_style: Style | None,
    past_load_line: bool,
    gone: bool,
    browse: bool,
) -> list[Segment]:
    """The row after its score area, `fixed` cells in: root tag, gone glyph, load-line badge,
    title, file name, date, source badge, path."""
    segments: list[Segment] = []
    add = _adder(segments, style, cursor_style, gone)
    label = date_label(entry)[:10]
    date = "" if browse else label.ljust(10)  # while browsing it is in front
    badge = SOURCE_LABEL.get(entry.source, "?").ljust(5)
    meta_width = (len(date) + 1 if date else 0) + len(badge) + 1
    show_meta = width - fixed - meta_width >= TITLE_FIRST_CELLS
    room = width - fixed - (meta_width if show_meta else 0)
    path_width = path_column_width(room) if show_meta else 0
    title_width = max(4, room - (path_width + 1 if path_width else 0) - 1)
    tag = fit(entry.root, ROOT_TAG_CELLS) + " " if entry.root else ""
    title_width = max(
        4,
        title_width
        - len(tag)
        - (BADGE_CELLS if past_load_line else 0)
        - (gone_glyph.GLYPH_CELLS if gone else 0),
    )
    pieces = title_pieces(display_title(entry))
    date_shown = label if browse or show_meta else ""
    suffix = file_suffix(entry, date_shown, path_shown=bool(path_width))
    title_cells = sum(cell_len(text) for text, _ in pieces)
    if title_cells >= title_width:
        pieces, suffix = fit_pieces(pieces, title_width), ""
        title_cells = title_width
    if cell_len(suffix) > title_width - title_cells:
        suffix = ""  # a cut file name (`· 2026-10-2…`) says nothing: the title keeps the room
    suffix = fit(suffix, title_width - title_cells)
    cursor = cursor_style is not None
    title_style = style("results--title") + Style(bold=True) if cursor else style("results--title")
    if tag:
        add(tag, style("results--path"))
    if gone:
        add(f"{gone_glyph.GLYPH:<{gone_glyph.GLYPH_CELLS}}", style("results--gone"))
    if past_load_line:
        add(f"{BADGE:<{BADGE_CELLS}}", style("results--load-line"))
    for text, code in pieces:
        add(text, title_style + style("results--code") if code else title_style)
    add(suffix + " ", style("results--path"))
    if show_meta:
        if date:
            add(date + " ", style("results--date"))
        source_class = entry.source.value if isinstance(entry.source, Source) else "note"
        add(badge + " ", style(f"results--{source_class}"))
    if path_width:
        add(fit(compact_path(entry.path, path_width), path_width), style("results--path"))
    return segments


def _score_area(
    hit: Hit, date: str, bar_cells: int, *, browse: bool
) -> list[tuple[str, str, bool]]:
    """The row's lead after the rank, as (text, component class, is a drawing): the score and
    its stacked factor bar, or while browsing (newest first, where a score would say nothing
    about the order) the date, `11-26` when the bar would be half length."""
    if browse:
        return [(f"{date if bar_cells == BAR_CELLS else date[5:10]} ", "results--date", False)]
    area = [(f"{hit.score:.2f} ", "results--score", False)]
    used = 0
    for name, cells in stacked_cells(hit.contributions, bar_cells):
        area.append(("▆" * cells, f"results--{name}", True))
        used += cells
    area.append(("▆" * (bar_cells - used) + " ", "results--bar-empty", True))
    return area
