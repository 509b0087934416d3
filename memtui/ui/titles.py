"""Entry titles as shown: inline `code` drawn as code (no backticks), cut to a width in cells.

Titles keep their Markdown (`rank --json` gives them as written); only the UI draws them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.cells import cell_len, set_cell_size
from textual.content import Content

_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")

TitlePiece = tuple[str, bool]
"""Text of a title and whether it is inline code."""


def title_pieces(title: str) -> list[TitlePiece]:
    """A title cut into plain text and `code` spans, the backticks dropped."""
    pieces: list[TitlePiece] = []
    position = 0
    for match in _CODE_SPAN.finditer(title):
        if match.start() > position:
            pieces.append((title[position : match.start()], False))
        pieces.append((match.group(2), True))
        position = match.end()
    if position < len(title):
        pieces.append((title[position:], False))
    return pieces


def fit_pieces(pieces: Sequence[TitlePiece], cells: int) -> list[TitlePiece]:
    """The pieces cut to `cells` terminal cells, the last one an ellipsis."""
    out: list[TitlePiece] = []
    room = max(1, cells) - 1
    for text, code in pieces:
        width = cell_len(text)
        if width > room:
            if room:
                out.append((set_cell_size(text, room), code))
            break
        out.append((text, code))
        room -= width
    return [*out, ("…", False)]


def title_content(title: str, style: str = "") -> Content:
    """A title as `Content` (plain text, never markup), its code in the code colour."""
    return Content.assemble(
        *(
            (text, f"{style} $text-secondary".strip() if code else style)
            for text, code in title_pieces(title)
        )
    )
