"""GFM tables for the entry view: found in lines, laid out for a width with box rules.

Cells arrive already drawn (inline Markdown, query matches) by the caller's `cell` function;
columns keep their natural width when they fit, else the widest shrink and their cells wrap.
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


@dataclass
class Table:
    """A GFM table: header and rows of inline-rendered cells, aligned per column."""

    header: list[Text]
    rows: list[list[Text]]
    aligns: list[JustifyMethod]
    border: Style

    def lines(self, width: int, console: Console) -> list[Text]:
        columns = len(self.aligns)
        natural = [
            max(
                cell_len(row[index].plain) if index < len(row) else 0
                for row in [self.header, *self.rows]
            )
            for index in range(columns)
        ]
        widths = fit_columns([max(1, value) for value in natural], width - 3 * (columns - 1) - 1)
        if widths is None:  # too many columns for the view: one row per line, cells joined
            return [_joined(row, self.border) for row in [self.header, *self.rows]]
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
        cells = [
            (row[index] if index < len(row) else Text()).copy() for index in range(len(widths))
        ]
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


def _joined(cells: list[Text], border: Style) -> Text:
    """Cells on one line between bars (a table too wide for the view)."""
    parts: list[Text] = []
    for index, cell in enumerate(cells):
        if index:
            parts.append(Text(" │ ", style=border))
        parts.append(cell.copy())
    return Text.assemble(*parts)


def fit_columns(natural: list[int], room: int) -> list[int] | None:
    """Column widths that fit `room`: natural widths when they fit, else the widest columns
    shrink first (cells then wrap); None when even 4 cells a column do not fit."""
    if room >= sum(natural):
        return natural
    floor = 4
    if room < floor * len(natural):
        return None
    widths = list(natural)
    while sum(widths) > room:
        widest = max(range(len(widths)), key=lambda index: widths[index])
        widths[widest] -= 1
        if widths[widest] < floor:
            return None
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
