"""One row of the ranked list as styled segments: a pure function of the hit, the width and
the styles, so its layout is tested without a widget, an app or a terminal.

The list (`widgets/results.py`) keeps the cursor, the caches and the styles; this module owns
what a row shows and where: mark gutter, rank, score, stacked factor bar, title, date, source
badge, path.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from memtui.core.cite import UNDATED, date_label
from memtui.core.model import Entry, Hit, Source
from memtui.core.sanitize import one_line
from memtui.core.secrets import mask_secrets
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

Bar = tuple[tuple[str, int], ...]
"""A score bar as drawn: (factor name, cells) per coloured run (`render.stacked_cells`)."""


class RowKey(NamedTuple):
    """What one row shows, the key its rendered strip is kept by.

    The entry itself, not its id: an edited entry keeps its id and must not show its old
    title. The score and the bar as drawn, not the hit's floats: the next letter often moves
    a score in its third decimal only, and such a row is not drawn again.
    """

    entry: Entry
    rank: int
    score: str
    """Two decimals; '' while browsing (rows show dates)."""
    bar: Bar
    rank_width: int
    cursor: bool
    width: int
    marked: bool | None
    """None: no mark gutter."""
    past_load_line: bool
    """Its entry starts or runs past its agent's load line (the badge)."""
    gone: bool
    """Its folder is gone (the row is dimmed)."""
    browse: bool
    """No query terms: the list is newest first, and rows show dates, not scores."""


def row_key(
    hit: Hit,
    width: int,
    *,
    rank_width: int,
    cursor: bool = False,
    marked: bool | None = None,
    past_load_line: bool = False,
    gone: bool = False,
    browse: bool = False,
) -> RowKey:
    """The row `hit` draws at `width` with these options."""
    bar: Bar = () if browse else _bar(hit.contributions, _bar_cells(width))
    score = "" if browse else f"{hit.score:.2f}"
    shown = (rank_width, cursor, width, marked, past_load_line, gone, browse)
    return RowKey(hit.entry, hit.rank, score, bar, *shown)


@lru_cache(maxsize=1024)
def _bar(contributions: tuple[tuple[str, float], ...], cells: int) -> Bar:
    """The bar of these contributions, `cells` long. Kept: a row's key asks for it when the
    list looks for changed rows and again as it paints them."""
    return tuple(stacked_cells(contributions, cells))


def _bar_cells(width: int) -> int:
    return BAR_CELLS if width >= FULL_BAR_WIDTH else BAR_CELLS // 2


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
    """The file name, with its parent folder in front when both fit in `cells`. Split at the
    path's own slashes before anything is made visible: a backslash in a name (or in the
    visible form of an undecodable byte, `\\xff`) is no folder."""
    parts = path.rsplit("/", 2)
    name = one_line(parts[-1], widths.RAW)
    if len(parts) >= 2 and parts[-2]:
        with_parent = f"{one_line(parts[-2], widths.RAW)}/{name}"
        if cell_len(with_parent) <= cells:
            return with_parent
    return name


def file_suffix(entry: Entry, date_shown: str, *, path_shown: bool) -> str:
    """` · file.md` after the title, unless another column already says it: the path column,
    or the date column for a daily note named by its date (`2026-11-26.md`). Shown only
    whole (the row drops it rather than cut it)."""
    name = one_line(mask_secrets(entry.file_name)[0], widths.SHORT)
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
    key = row_key(
        hit,
        width,
        rank_width=rank_width,
        cursor=cursor_style is not None,
        marked=marked,
        past_load_line=past_load_line,
        gone=gone,
        browse=browse,
    )
    segments: list[Segment] = []
    add = _adder(segments, style, cursor_style, gone)
    pieces = _lead_pieces(key)
    for text, component, drawing in pieces:
        add(text, style(component), drawing=drawing)
    fixed = sum(len(text) for text, _, _ in pieces)
    return segments + _entry_part(key, fixed, style, cursor_style)


class RowCache:
    """The list's rendered rows, and the pieces rows are made of, each styled once.

    `strips` holds rows by everything a row shows (`RowKey`). They are kept across reranks:
    typing a word's next letter usually keeps most visible rows as they were. The next
    keystroke's other rows are mostly the same entries at other ranks and scores, so a row
    is put together from kept pieces: the entry's part (title to path, laid out, padded to
    the row's end and styled), kept by entry and layout, and each piece of the lead (rank,
    score, a bar's colour run), kept by its text. Laying out and styling the whole row made
    each of a keystroke's ~30 new rows cost ~3x as much. All of them assume the list's
    styles and hold entries: the list clears them together.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self.strips: OrderedDict[RowKey, Strip] = OrderedDict()
        self._parts: OrderedDict[tuple[object, ...], list[Segment]] = OrderedDict()
        self._pieces: OrderedDict[tuple[object, ...], Segment] = OrderedDict()

    def clear(self) -> None:
        self.strips.clear()
        self._parts.clear()
        self._pieces.clear()

    def strip(
        self,
        key: RowKey,
        base: Style,
        *,
        style: StyleOf,
        cursor_style: Style | None,
        keep: bool = True,
    ) -> Strip:
        """The row `key` describes, kept or made now: `row_segments` on `base`, padded to the
        width and simplified. A made row, and the entry's part of it, are kept (the oldest
        go first once full) only with `keep`: not for hits the list has let go of."""
        strip = self.strips.get(key)
        if strip is not None:
            return strip
        width, gone = key.width, key.gone
        line: list[Segment] = []
        fixed = 0
        for text, component, drawing in _lead_pieces(key):
            _append_merged(
                line, self._piece(text, component, drawing, base, style, cursor_style, gone)
            )
            fixed += len(text)
        if fixed < width:
            part_key = (key.entry, width, fixed, cursor_style, key.past_load_line, gone, key.browse)
            part = self._parts.get(part_key)
            if part is None:
                made = _entry_part(key, fixed, style, cursor_style)
                made = Segment.adjust_line_length(
                    list(Segment.apply_style(made, base)), width - fixed, base
                )
                part = list(Segment.simplify(made))
                if keep:
                    _keep(self._parts, part_key, part, self._size)
            if part:
                _append_merged(line, part[0])
                line += part[1:]
        else:  # no room past the lead (a very narrow list): the lead is cut at the edge
            line = list(Segment.simplify(Segment.adjust_line_length(line, width, base)))
        strip = Strip(line, width)
        if keep:
            _keep(self.strips, key, strip, self._size)
        return strip

    def _piece(
        self,
        text: str,
        component: str,
        drawing: bool,
        base: Style,
        style: StyleOf,
        cursor_style: Style | None,
        gone: bool,
    ) -> Segment:
        """One piece of a row's lead in its style on the row (a kept one when it has been)."""
        key = (text, component, drawing, cursor_style, gone)
        piece = self._pieces.get(key)
        if piece is None:
            piece_style = _on_row(style(component), style, cursor_style, gone, drawing=drawing)
            piece = Segment(text, base + piece_style)
            _keep(self._pieces, key, piece, self._size)
        return piece


def _append_merged(line: list[Segment], segment: Segment) -> None:
    """Append `segment` to `line`, joined to the last one when they share a style: what
    `Segment.simplify` makes of the whole line, so rows are the segments they always were."""
    if line and line[-1].style == segment.style:
        line[-1] = Segment(line[-1].text + segment.text, segment.style)
    else:
        line.append(segment)


def _keep(cache: OrderedDict[K, V], key: K, value: V, size: int) -> None:
    """Put `value` in `cache`, first dropping the oldest if `size` are kept already (an
    `OrderedDict` does that at once; a dict's first key is found past every slot its
    deletions left, ~10 µs a row once the cache was full)."""
    if len(cache) >= size:
        cache.popitem(last=False)
    cache[key] = value


def _on_row(
    piece_style: Style,
    style: StyleOf,
    cursor_style: Style | None,
    gone: bool,
    *,
    drawing: bool,
) -> Style:
    """A piece's style on its row. On the cursor row text takes the cursor's colour (the theme
    keeps that readable on the cursor's background); a `drawing` (the bar) keeps its own. A
    gone folder's row is dimmed: its text in the dimmed colour, its bar faint."""
    if cursor_style is not None:
        on_cursor = cursor_style + piece_style
        return on_cursor if drawing else on_cursor + Style(color=cursor_style.color)
    if gone:
        return piece_style + (Style(dim=True) if drawing else style("results--gone"))
    return piece_style


def _adder(
    segments: list[Segment], style: StyleOf, cursor_style: Style | None, gone: bool
) -> Callable[..., None]:
    """`add(text, style, drawing=False)` appending to `segments`, each piece in its style on
    the row (`_on_row`). A plain row (most of them) only appends."""
    if cursor_style is None and not gone:

        def add(text: str, piece_style: Style, *, drawing: bool = False) -> None:
            segments.append(Segment(text, piece_style))

        return add

    def add_on_row(text: str, piece_style: Style, *, drawing: bool = False) -> None:
        segments.append(
            Segment(text, _on_row(piece_style, style, cursor_style, gone, drawing=drawing))
        )

    return add_on_row


def _lead_pieces(key: RowKey) -> list[tuple[str, str, bool]]:
    """The row's mark gutter, rank and score area with the space after, as (text, component
    class, is a drawing): the entry's part starts as many cells in as they have characters.

    While browsing (newest first, where a score would say nothing about the order) the date
    stands where the score and its bar would be, `11-26` when the bar would be half length.
    """
    pieces: list[tuple[str, str, bool]] = []
    if key.marked is not None:
        pieces.append((f"{MARK_GLYPH if key.marked else ' '} ", "results--mark", False))
    pieces.append((f"{key.rank:>{key.rank_width}} ", "results--rank", False))
    bar_cells = _bar_cells(key.width)
    if key.browse:
        date = date_label(key.entry)[:10]
        if bar_cells == BAR_CELLS:
            shown = date.ljust(10)
        else:  # MM-DD; an undated entry gets a dash, not the end of "undated" ("ed")
            shown = ("—" if date == UNDATED else date[5:10]).ljust(5)
        return [*pieces, (f"{shown} ", "results--date", False)]
    pieces.append((f"{key.score} ", "results--score", False))
    used = 0
    for name, cells in key.bar:
        pieces.append(("▆" * cells, f"results--{name}", True))
        used += cells
    pieces.append(("▆" * (bar_cells - used) + " ", "results--bar-empty", True))
    return pieces


def _entry_part(
    key: RowKey, fixed: int, style: StyleOf, cursor_style: Style | None
) -> list[Segment]:
    """The row after its score area, `fixed` cells in: root tag, gone glyph, load-line badge,
    title, file name, date, source badge, path. Only the entry and the row's layout count
    (not its rank or score): the list keeps it for the entry's next row."""
    entry, width, past_load_line, gone, browse = (
        key.entry,
        key.width,
        key.past_load_line,
        key.gone,
        key.browse,
    )
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
        shown_path = compact_path(mask_secrets(entry.path)[0], path_width)  # as titles are
        add(fit(shown_path, path_width), style("results--path"))
    return segments
