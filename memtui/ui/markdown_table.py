"""GFM tables for the entry view: found in lines, laid out for a width with box rules.

Cells arrive already drawn (inline Markdown, query matches) by the caller's `cell` function.
Columns keep their natural width when they fit; else each keeps its longest word, shares the
rest of the room by how much text it holds, and its cells wrap at word boundaries. A table
whose words cannot fit side by side becomes one `key: value` record per row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, JustifyMethod
from rich.style import Style
from rich.text import Text

from memtui.core.reading.structure import TABLE_DELIMITER

MAX_TABLE_COLUMNS = 24
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


LONG_WORD_CELLS = 30
"""A column keeps its longest word whole (an identifier, a path) when the room allows; when it
does not, only words longer than this (a URL) are broken, before the table gives up its grid."""

RECORD_KEY_SHARE = 3
"""In the record layout keys stand beside their values when they take at most a third of
the width, else above them."""


@dataclass
class Table:
    """A GFM table: header and rows of inline-rendered cells, aligned per column."""

    header: list[Text]
    rows: list[list[Text]]
    aligns: list[JustifyMethod]
    border: Style

    def lines(self, width: int, console: Console) -> list[Text]:
        """The table laid out in `width` cells: as a grid when its columns fit with their
        words whole, else as one `key: value` record per row."""
        columns = len(self.aligns)
        table = [self.header, *self.rows]
        natural = [
            max(1, *(cell_len(_cell(row, index).plain) for row in table))
            for index in range(columns)
        ]
        longest = [
            max(1, *(_longest_word(_cell(row, index)) for row in table)) for index in range(columns)
        ]
        room = width - 3 * (columns - 1) - 1
        widths = fit_columns(natural, longest, room) or fit_columns(
            natural, [min(LONG_WORD_CELLS, cells) for cells in longest], room
        )
        if widths is None:
            return self._records(width, console)
        out = self._row(self.header, widths, console, header=True)
        rule = ["─" * (cells + 2) for cells in widths]
        rule[-1] = "─" * (widths[-1] + 1)
        out.append(Text("┼".join(rule), style=self.border))
        for row in self.rows:
            out += self._row(row, widths, console, header=False)
        return out

    def _row(
        self, row: list[Text], widths: list[int], console: Console, *, header: bool
    ) -> list[Text]:
        cells = [_cell(row, index).copy() for index in range(len(widths))]
        wrapped = [
            cell.wrap(console, cells_wide, justify=align, overflow="fold")
            for cell, cells_wide, align in zip(cells, widths, self.aligns, strict=True)
        ]
        height = max((len(lines) for lines in wrapped), default=1)
        out = []
        for line in range(height):
            parts = []
            for column, lines in enumerate(wrapped):
                piece = lines[line].copy() if line < len(lines) else Text()
                piece.pad_right(widths[column] - cell_len(piece.plain))
                if header:
                    piece.stylize_before(Style(bold=True))
                if column:
                    parts.append(Text(" │", style=self.border))
                parts += [Text(" "), piece]
            out.append(Text.assemble(*parts))
        return out

    def _records(self, width: int, console: Console) -> list[Text]:
        """Each row as a block of `key: value` lines (the header's cells are the keys), the
        blocks between rules: what a table too wide for the view still reads as. Keys wider
        than a third of the view stand on their own line, the value indented under them."""
        keys = [Text.assemble(cell, ":") for cell in self.header]
        for key in keys:
            key.stylize_before(Style(bold=True))
        key_cells = max((cell_len(key.plain) for key in keys), default=1)
        beside = key_cells <= width // RECORD_KEY_SHARE
        indent = key_cells + 1 if beside else 2
        value_cells = max(1, width - indent)
        out: list[Text] = []
        for number, row in enumerate(self.rows):
            if number:
                out.append(Text("─" * width, style=self.border))
            for index, key in enumerate(keys):
                value_lines = _cell(row, index).wrap(console, value_cells, overflow="fold")
                if not beside:
                    out += key.wrap(console, width, overflow="fold")
                for line, value in enumerate(value_lines):
                    lead = key.copy() if beside and line == 0 else Text()
                    lead.pad_right(indent - cell_len(lead.plain))
                    out.append(Text.assemble(lead, value))
                if beside and not value_lines:
                    out.append(key.copy())
        return out


def _cell(row: list[Text], index: int) -> Text:
    """A row's cell `index`; a row shorter than the header has empty cells at its end."""
    return row[index] if index < len(row) else Text()


def _longest_word(cell: Text) -> int:
    """Cells of the longest word in `cell`."""
    return max((cell_len(word) for word in cell.plain.split()), default=0)


def fit_columns(natural: list[int], shortest: list[int], room: int) -> list[int] | None:
    """Column widths that fit `room`, sized by content: natural widths when they fit, else
    each column keeps its longest word (`shortest`) and the rest of the room goes to the
    columns in proportion to what they still lack; None when even the words do not fit."""
    if room >= sum(natural):
        return natural
    floor = [min(low, high) for low, high in zip(shortest, natural, strict=True)]
    if room < sum(floor):
        return None
    lacking = [high - low for low, high in zip(floor, natural, strict=True)]
    spare = room - sum(floor)
    total = sum(lacking)
    shares = [spare * lack / total for lack in lacking]
    widths = [low + int(share) for low, share in zip(floor, shares, strict=True)]
    # the cells that rounding down left over go to the columns that lost the most to it
    by_remainder = sorted(
        range(len(widths)), key=lambda i: shares[i] - int(shares[i]), reverse=True
    )
    for index in by_remainder[: room - sum(widths)]:
        widths[index] += 1
    return widths


def starts_table(lines: Sequence[str], index: int) -> bool:
    return (
        index + 1 < len(lines)
        and "|" in lines[index]
        and "-" in lines[index + 1]
        and bool(TABLE_DELIMITER.fullmatch(lines[index + 1]))
    )


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    stripped = stripped[1:] if stripped.startswith("|") else stripped
    stripped = (
        stripped[:-1] if stripped.endswith("|") and not stripped.endswith("\\|") else stripped
    )
    return [cell.strip().replace("\\|", "|") for cell in _CELL_SPLIT.split(stripped)]


def parse_table(
    lines: Sequence[str], index: int, cell: Callable[[str], Text], border: Style, cells: int
) -> tuple[Table, int]:
    """The table starting at `index` (at most about `cells` cells, each drawn by `cell`) and
    the line after it."""
    header = _cells(lines[index])[:MAX_TABLE_COLUMNS]
    aligns: list[JustifyMethod] = []
    for spec in _cells(lines[index + 1])[: len(header)]:
        left, right = spec.startswith(":"), spec.endswith(":")
        aligns.append("center" if left and right else "right" if right else "left")
    aligns += ["left"] * (len(header) - len(aligns))
    rows: list[list[Text]] = []
    index += 2
    room = cells // max(1, len(header)) - 1
    while index < len(lines) and "|" in lines[index] and lines[index].strip() and len(rows) < room:
        rows.append([cell(text) for text in _cells(lines[index])[: len(header)]])
        index += 1
    table = Table([cell(text) for text in header], rows, aligns, border)
    return table, index
