"""Markdown as a person expects it, drawn as plain `Text` (never markup, nothing clickable).

The entry view's renderer: headings (their `#` kept, dim), paragraphs with inline code, bold,
italic and strike-through, links as `label ‹url›`, bullet, numbered and task lists with hanging
indents, block quotes, rules, code fences with syntax highlighting, and GFM tables laid out for
the view's width (`markdown_table`). The query's matches are highlighted inside all of them.
Headings, fences and rules are found by the parser's own line tests (`core.reading.structure`),
so a line the parser splits an entry at is the line drawn as a heading.

Every string comes from a file and is treated as text: Rich's `Text` never parses markup, and
links are shown, never made clickable. The caller caps the lines and their length; this module
caps how much code it highlights (`HIGHLIGHT_CHARS`) and how many cells it lays out as tables
(`TABLE_CELLS`), the slow parts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.token import Token
from pygments.util import ClassNotFound
from rich.cells import cell_len
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.color import Color, ColorParseError

from memtui.core.reading.structure import Fence, fence_opening, heading_line, is_rule
from memtui.ui.markdown_table import Table, parse_table, starts_table
from memtui.ui.render import highlight

if TYPE_CHECKING:
    from pygments.token import _TokenType as TokenType  # Pygments has no public name for it

HIGHLIGHT_CHARS = 20_000
"""Code beyond this many characters per entry is shown in the plain code style."""
TABLE_CELLS = 2_000
"""Cells per entry laid out as tables (each is parsed, highlighted and wrapped on its own);
rows past this are shown as the text they are, so a hostile table costs what text costs."""
MAX_NESTING = 3

_LANGUAGE = re.compile(r"\s*([\w+#.-]*)")
"""The language named after a fence's opening marker: ```` ```python {.x} ```` -> `python`."""
_ITEM = re.compile(r"(\s*)([-*+]|\d{1,9}[.)])(\s+)(\[[ xX]\]\s+)?")
_QUOTE = re.compile(r" {0,3}>\s?")
_INLINE_MARKS = re.compile(r"[`\\*_~\[<]")
_INLINE = re.compile(
    r"(?P<code>(?P<ticks>`+)(?!`)(?P<code_text>.+?)(?<!`)(?P=ticks)(?!`))"
    r"|(?P<escape>\\[\\`*_{}\[\]()#+\-.!|~<>])"
    r"|(?P<bold_italic>\*\*\*(?=\S)(?P<bi_text>.+?)(?<=\S)\*\*\*)"
    r"|(?P<bold>\*\*(?=\S)(?P<b_text>.+?)(?<=\S)\*\*|(?<!\w)__(?=\S)(?P<u_text>.+?)(?<=\S)__(?!\w))"
    r"|(?P<italic>(?<![\w*])\*(?=[^\s*])(?P<i_text>.+?)(?<=[^\s*])\*(?![\w*])"
    r"|(?<![\w_])_(?=[^\s_])(?P<j_text>.+?)(?<=[^\s_])_(?![\w_]))"
    r"|(?P<strike>~~(?=\S)(?P<s_text>.+?)(?<=\S)~~)"
    r"|(?P<link>(?P<image>!?)\[(?P<label>[^\]\n]*)\]\((?P<target>(?:[^()\s]|\([^()\s]*\))*)"
    r"(?:\s+\"[^\"\n]*\")?\))"
    r"|(?P<autolink><(?P<url>(?:https?|mailto|ftp):[^>\s]+)>)"
)


@dataclass(frozen=True)
class MarkdownStyles:
    """The entry view's component styles, resolved for the current theme."""

    heading: Style
    code: Style
    """Inline code, and a code block's text before highlighting."""
    quote: Style
    bullet: Style
    link: Style
    muted: Style
    match: Style
    syntax: dict[TokenType, Style] = field(default_factory=dict)
    """Pygments token kinds (`Token.Keyword`, `Token.Literal.String`, …) to the theme's
    readable text colours; a kind without an entry takes its parent's."""


SYNTAX_COLOURS = {
    Token.Keyword: "text-primary",
    Token.Operator.Word: "text-primary",
    Token.Name.Builtin: "text-primary",
    Token.Name.Tag: "text-primary",
    Token.Name.Function: "text-accent",
    Token.Name.Class: "text-accent",
    Token.Name.Decorator: "text-accent",
    Token.Name.Attribute: "text-accent",
    Token.Literal.String: "text-success",
    Token.Literal.Number: "text-warning",
    Token.Comment: "muted",
    Token.Generic.Inserted: "text-success",
    Token.Generic.Deleted: "text-error",
    Token.Generic.Heading: "text-primary",
}
"""Code colours are the theme's text colours, which the app keeps readable on `$panel`."""


def syntax_styles(variables: Mapping[str, str]) -> dict[TokenType, Style]:
    """Token kinds to styles from the theme's (already contrast-checked) CSS variables."""
    styles: dict[TokenType, Style] = {}
    for kind, name in SYNTAX_COLOURS.items():
        try:
            color = Color.parse(variables[name])
        except (KeyError, ColorParseError):
            continue
        styles[kind] = Style(color=color.rich_color, italic=kind is Token.Comment)
    return styles


# --- blocks that lay themselves out for a width ------------------------------------------------


@dataclass
class Hanging:
    """A paragraph under a prefix (a bullet, a quote bar); wrapped lines align under the text,
    so a list item's second line never runs back under its bullet."""

    prefix: Text
    body: Text
    continuation: Text

    def lines(self, width: int, console: Console) -> list[Text]:
        room = max(8, width - cell_len(self.prefix.plain))
        out = []
        for index, piece in enumerate(self.body.wrap(console, room, overflow="fold")):
            lead = self.prefix if index == 0 else self.continuation
            out.append(Text.assemble(lead.copy(), piece))
        return out or [self.prefix.copy()]


@dataclass
class CodeLine:
    """A line of a code block: never word-wrapped but folded at the edge, so its spaces stay
    and nothing is cut off (a match past the edge was counted by `n` and never shown); its
    background runs to the edge."""

    text: Text
    background: Style

    def lines(self, width: int, console: Console) -> list[Text]:
        pieces = _folded(self.text, width) if cell_len(self.text.plain) > width else [self.text]
        out = []
        for piece in pieces:
            padded = piece.copy()
            padded.pad_right(max(0, width - cell_len(padded.plain)))
            padded.stylize_before(self.background)
            out.append(padded)
        return out


def _folded(text: Text, width: int) -> list[Text]:
    """`text` cut every `width` cells, wherever that falls (a wide character is not split)."""
    plain = text.plain
    if plain.isascii():
        return list(text.divide(range(width, len(plain), width)))
    offsets: list[int] = []
    cells = 0
    for index, char in enumerate(plain):
        size = cell_len(char)
        if cells + size > width:
            offsets.append(index)
            cells = 0
        cells += size
    return list(text.divide(offsets))


@dataclass
class Rule:
    style: Style

    def lines(self, width: int, console: Console) -> list[Text]:
        return [Text("─" * width, style=self.style)]


Block = Text | Hanging | CodeLine | Rule | Table
"""A logical line or block; `Text` wraps plainly, the others lay themselves out."""


# --- inline ------------------------------------------------------------------------------------


def inline(line: str, styles: MarkdownStyles, depth: int = 0) -> Text:
    """Inline code, emphasis, strike-through, escapes and links; link targets become inert."""
    if not _INLINE_MARKS.search(line):
        return Text(line)  # most lines: nothing to render, and the big pattern is not cheap
    text = Text()
    position = 0
    for match in _INLINE.finditer(line):
        text.append(line[position : match.start()])
        position = match.end()
        if match.group("code"):
            text.append(match.group("code_text").strip() or match.group("code_text"), styles.code)
        elif match.group("escape"):
            text.append(match.group()[1])
        elif match.group("link"):
            _link(text, match, styles)
        elif match.group("autolink"):
            text.append(match.group("url"), styles.link)
        elif depth >= MAX_NESTING:
            text.append(match.group())
        else:
            inner, style = _emphasis(match)
            text.append_text(_styled(inline(inner, styles, depth + 1), style))
    text.append(line[position:])
    return text


def _emphasis(match: re.Match[str]) -> tuple[str, Style]:
    if match.group("bold_italic"):
        return match.group("bi_text"), Style(bold=True, italic=True)
    if match.group("bold"):
        return match.group("b_text") or match.group("u_text"), Style(bold=True)
    if match.group("strike"):
        return match.group("s_text"), Style(strike=True)
    return match.group("i_text") or match.group("j_text"), Style(italic=True)


def _styled(text: Text, style: Style) -> Text:
    text.stylize_before(style)
    return text


def _link(text: Text, match: re.Match[str], styles: MarkdownStyles) -> None:
    label, target = match.group("label"), match.group("target")
    if match.group("image"):
        text.append("🖼 ", styles.muted)
    text.append(label or target, styles.link)
    if target and label:
        text.append(f" ‹{target}›", styles.muted)


# --- blocks ------------------------------------------------------------------------------------


def blocks(
    lines: Sequence[str], styles: MarkdownStyles, pattern: re.Pattern[str] | None
) -> tuple[list[Block], int]:
    """The blocks of already-capped lines and how many query matches they show."""
    out: list[Block] = []
    found = 0
    budget = HIGHLIGHT_CHARS
    cells = TABLE_CELLS
    index = 0
    while index < len(lines):
        line = lines[index].replace("\t", "    ")
        fence = fence_opening(line)
        if fence:
            end = _fence_end(lines, index, fence)
            code = [item.replace("\t", "    ") for item in lines[index + 1 : end]]
            budget -= sum(len(item) + 1 for item in code)
            language = _language(fence)
            label = Text(language or " ", style=styles.muted)
            found += highlight(label, pattern, styles.match)
            out.append(label)
            for text in _code(code, language, styles, highlighted=budget >= 0):
                found += highlight(text, pattern, styles.match)
                out.append(CodeLine(text, Style(bgcolor=styles.code.bgcolor)))
            index = end + 1
            continue
        if cells > 0 and starts_table(lines, index):
            table, index = parse_table(
                lines, index, lambda cell: inline(cell, styles), styles.muted, cells
            )
            cells -= len(table.header) * (1 + len(table.rows))
            for row in [table.header, *table.rows]:
                found += sum(highlight(cell, pattern, styles.match) for cell in row)
            out.append(table)
            continue
        block = _line(line, styles)
        for text in _texts(block):
            found += highlight(text, pattern, styles.match)
        out.append(block)
        index += 1
    return out, found


def _texts(block: Block) -> Iterable[Text]:
    if isinstance(block, Text):
        yield block
    elif isinstance(block, Hanging):
        yield block.body


def _line(line: str, styles: MarkdownStyles) -> Block:
    heading = heading_line(line)
    if heading:
        level, title = heading
        marks = Text("#" * level + " ", style=styles.muted)
        return Text.assemble(marks, _styled(inline(title, styles), styles.heading))
    if is_rule(line):
        return Rule(styles.muted)
    prefix = Text()
    rest = line
    quote = _QUOTE.match(rest)
    while quote:
        prefix.append("▌ ", styles.muted)
        rest = rest[quote.end() :]
        quote = _QUOTE.match(rest)
    item = _ITEM.match(rest)
    if item:
        indent, marker, task = item.group(1), item.group(2), item.group(4)
        shown = ("◦" if len(indent) >= 2 else "•") if marker in "-*+" else marker
        prefix.append(indent + shown + " ", styles.bullet)
        if task:
            prefix.append("[x] " if task[1] in "xX" else "[ ] ", styles.bullet)
        rest = rest[item.end() :]
    body = inline(rest, styles)
    if prefix.plain.startswith("▌"):
        body.stylize_before(styles.quote)
    if not prefix:
        return body
    quotes = prefix.plain.count("▌")
    continuation = Text("▌ " * quotes, style=styles.muted)
    continuation.append(" " * (cell_len(prefix.plain) - 2 * quotes))
    return Hanging(prefix, body, continuation)


def _fence_end(lines: Sequence[str], start: int, fence: Fence) -> int:
    for index in range(start + 1, len(lines)):
        if fence.closes(lines[index]):
            return index
    return len(lines)


def _language(fence: Fence) -> str:
    found = _LANGUAGE.match(fence.info)
    return found.group(1) if found else ""


def _code(
    code: list[str], language: str, styles: MarkdownStyles, *, highlighted: bool
) -> list[Text]:
    lexer = _lexer(language) if highlighted and styles.syntax else None
    if lexer is None:
        return [Text(line, style=styles.code) for line in code]
    out: list[Text] = [Text(style=styles.code)]
    for kind, value in lexer.get_tokens("\n".join(code)):
        style = _token_style(kind, styles.syntax)
        for index, piece in enumerate(value.split("\n")):
            if index:
                out.append(Text(style=styles.code))
            if piece:
                out[-1].append(piece, style)
    return out[: len(code)] if code else []


def _lexer(language: str) -> Lexer | None:
    if not language:
        return None
    try:
        return get_lexer_by_name(language.lower(), stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def _token_style(kind: TokenType, syntax: dict[TokenType, Style]) -> Style | None:
    while kind is not None and kind is not Token:
        if kind in syntax:
            return syntax[kind]
        kind = kind.parent
    return None
