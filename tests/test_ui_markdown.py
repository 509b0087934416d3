"""The entry's Markdown as a person expects it: tables, code, emphasis, lists and quotes,
with the query's matches highlighted everywhere, no markup injection and nothing clickable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.token import Token
from rich.cells import cell_len
from rich.console import Console
from rich.style import Style
from rich.text import Text
from ui_helpers import build_app, detail_lines, rows, type_query, wait_loaded, wait_until, write

from memtui.core.reading.structure import scan
from memtui.ui import markdown
from memtui.ui.markdown_table import Table, fit_columns
from memtui.ui.titles import fit_pieces, title_pieces

MATCH = Style(bgcolor="yellow", bold=True)
CODE = Style(color="magenta", bgcolor="grey15")
STYLES = markdown.MarkdownStyles(
    heading=Style(color="blue", bold=True),
    code=CODE,
    quote=Style(italic=True),
    bullet=Style(color="red"),
    link=Style(underline=True),
    muted=Style(color="grey50"),
    match=MATCH,
    syntax={Token.Keyword: Style(color="green")},
)
CONSOLE = Console(width=200)
TABLE = """\
| Claim | Verdict | n |
|---|:---:|---:|
| deploy is **fast** | `yes` | 10 |
| rollback \\| retry works everywhere we tried it, even on the old cluster | mostly | 7 |
"""


def laid_out(source: str, width: int = 60, query: str | None = None) -> list[Text]:
    pattern = re.compile(query, re.IGNORECASE) if query else None
    found, _ = markdown.blocks(source.split("\n"), STYLES, pattern)
    out: list[Text] = []
    for block in found:
        if isinstance(block, Text):
            out += block.wrap(CONSOLE, width)
        else:
            out += block.lines(width, CONSOLE)
    return out


def spans_of(lines: list[Text], style: Style) -> list[str]:
    return [
        line.plain[span.start : span.end]
        for line in lines
        for span in line.spans
        if span.style == style
    ]


@pytest.mark.parametrize("width", [30, 44, 60, 100])
def test_a_table_is_drawn_as_a_table_that_fits(width: int) -> None:
    lines = [line.plain for line in laid_out(TABLE, width)]
    assert all(len(line) <= width for line in lines)
    header, rule = lines[0], lines[1]
    assert "Claim" in header and "│" in header and set(rule) <= {"─", "┼"}
    bars = {line.index("│") for line in lines if "│" in line}
    assert len(bars) == 1  # every row's first column ends at the same place
    assert "rollback |" in " ".join(lines)  # an escaped pipe is text, not a column
    assert not any(line.lstrip().startswith("|") for line in lines)


TESTS_TABLE = """\
| Test | What it checks | Status |
|---|---|---|
| `test_webhook_retry` | the webhook is retried three times with backoff when the endpoint \
is down | flaky |
| `test_invoice_numbering_is_gapless` | numbers never skip | ok |
"""


@pytest.mark.parametrize("width", [60, 80, 100])
def test_table_cells_wrap_at_word_boundaries_in_columns_sized_by_content(width: int) -> None:
    """Identifiers stay whole, and the long prose column gets the room, not an equal share."""
    lines = [line.plain for line in laid_out(TESTS_TABLE, width)]
    assert all(len(line) <= width for line in lines)
    assert "│" in lines[0]
    shown = "\n".join(lines)
    assert "test_webhook_retry" in shown and "test_invoice_numbering_is_gapless" in shown
    words = set(TESTS_TABLE.replace("|", " ").replace("`", " ").split())
    for line in lines[2:]:
        for cell in line.split("│"):
            assert set(cell.split()) <= words, f"a word was broken: {cell!r}"
    _, prose, status = lines[0].split("│")
    assert len(prose) > len(status) + 4  # the room goes by content, not in equal shares


@pytest.mark.parametrize("width", [24, 30, 44, 48])
def test_a_table_whose_words_cannot_fit_becomes_one_record_per_row(width: int) -> None:
    lines = [line.plain.rstrip() for line in laid_out(TESTS_TABLE, width) if line.plain.strip()]
    assert all(len(line) <= width for line in lines)
    assert not any("│" in line for line in lines)
    assert sum(set(line) == {"─"} for line in lines) == 1  # a rule between the two records
    first = " ".join(" ".join(lines[: lines.index("─" * width)]).split())
    assert first == (
        "Test: test_webhook_retry What it checks: the webhook is retried three times with "
        "backoff when the endpoint is down Status: flaky"
    )


def test_short_keys_stand_beside_their_values_in_a_record() -> None:
    source = "| a | b |\n|---|---|\n| " + "x" * 40 + " | " + "y" * 40 + " |\n"
    lines = [line.plain.rstrip() for line in laid_out(source, 50) if line.plain.strip()]
    assert lines == ["a: " + "x" * 40, "b: " + "y" * 40]


def test_columns_keep_their_natural_widths_when_they_fit_and_their_words_when_not() -> None:
    assert fit_columns([5, 40, 3], [5, 9, 3], 60) == [5, 40, 3]
    widths = fit_columns([5, 40, 20], [5, 9, 8], 40)
    assert widths is not None and sum(widths) == 40 and widths[0] == 5
    assert widths[1] > widths[2] >= 8  # the longer text gets more of the spare room
    assert fit_columns([30, 30], [20, 25], 40) is None


def test_table_cells_keep_inline_code_emphasis_and_matches() -> None:
    lines = laid_out(TABLE, 80, query="deploy|yes")
    assert "yes" in spans_of(lines, CODE) or "yes" in spans_of(lines, MATCH)
    assert "deploy" in spans_of(lines, MATCH)
    assert not any("`" in line.plain or "**" in line.plain for line in lines)


@pytest.mark.parametrize(
    ("source", "shown", "style"),
    [
        ("run `make deploy` now", "run make deploy now", CODE),
        ("a **bold** word", "a bold word", Style(bold=True)),
        ("an *italic* and _also_", "an italic and also", Style(italic=True)),
        ("~~gone~~ now", "gone now", Style(strike=True)),
        ("escaped \\*stars\\*", "escaped *stars*", None),
        ("## Deploy `billing-api`", "## Deploy billing-api", CODE),
    ],
)
def test_inline_markdown_is_rendered_not_shown(
    source: str, shown: str, style: Style | None
) -> None:
    line = laid_out(source)[0]
    assert line.plain == shown
    if style is not None:
        assert any(
            style == span.style or (style.bold and span.style == style) for span in line.spans
        ) or spans_of([line], style)


def test_lists_hang_under_their_text_and_quotes_keep_their_bar() -> None:
    source = (
        "- " + "deploy words " * 12 + "\n  - nested\n- [x] done\n1. first\n"
        "> " + "quoted words " * 10
    )
    lines = [line.plain for line in laid_out(source, 40)]
    assert lines[0].startswith("• ") and lines[1].startswith("  ") and lines[1].strip()
    assert any(line.startswith("  ◦ nested") for line in lines)
    assert "• [x] done" in lines and "1. first" in lines
    quoted = [line for line in lines if "quoted" in line]
    assert len(quoted) >= 2 and all(line.startswith("▌ ") for line in quoted)


def test_code_fences_are_highlighted_and_their_markers_hidden() -> None:
    lines = laid_out("```python\ndef deploy():\n    return 1\n```\nafter", 40, query="deploy")
    plain = [line.plain.rstrip() for line in lines]
    assert plain[0] == "python" and "```" not in "\n".join(plain)
    assert plain[1] == "def deploy():" and plain[-1] == "after"
    assert "def" in spans_of(lines, Style(color="green"))  # a keyword, coloured
    assert "deploy" in spans_of(lines, MATCH)  # matches stay visible inside code
    assert all(len(line.plain) == 40 for line in lines[1:3])  # the code background is a block


@pytest.mark.parametrize("filler", ["x", "字"], ids=["ascii", "wide"])
def test_a_long_code_line_folds_at_the_edge_and_keeps_every_match(filler: str) -> None:
    """A code line longer than the pane was cut at its edge: `n` counted a match past it that
    was never drawn."""
    code = "    " + filler * 60 + " deploy(now)"
    lines = laid_out(f"```\n{code}\n```", 30, query="deploy")
    body = [line for line in lines if line.plain.strip()]
    assert all(cell_len(line.plain) == 30 for line in body)
    assert "".join(line.plain for line in body).rstrip() == code
    assert "deploy" in spans_of(lines, MATCH)


def test_highlighting_stops_at_its_cap() -> None:
    big = "\n".join(["def f():"] * (markdown.HIGHLIGHT_CHARS // 8 + 10))
    lines = laid_out(f"```python\n{big}\n```", 40)
    assert not spans_of(lines, Style(color="green"))  # too much code: plain code style


def test_a_huge_table_is_laid_out_only_up_to_its_cap() -> None:
    columns = 10
    row = "|" + "|".join(["cell"] * columns) + "|"
    source = "\n".join([row, "|" + "---|" * columns] + [row] * 1000)
    found, _ = markdown.blocks(source.split("\n"), STYLES, None)
    tables = [block for block in found if isinstance(block, Table)]
    assert len(tables) == 1
    cells = columns * (1 + len(tables[0].rows))
    assert markdown.TABLE_CELLS - columns <= cells <= markdown.TABLE_CELLS
    assert isinstance(found[-1], Text) and found[-1].plain == row  # the rest stays text


@pytest.mark.parametrize(
    ("hostile", "literal"),
    [
        ("[@click=app.quit]quit[/] [bold red]x[/bold red]", "[@click=app.quit]quit[/] [bold red]x"),
        ("[link](javascript:alert(1)) and ![img](http://x/y.png)", "link ‹javascript:alert(1)›"),
        ("| [@click=app.quit] | b |\n|---|---|\n| [red]x[/red] | <https://evil> |", "[red]x[/red]"),
    ],
)
def test_file_text_is_never_markup_and_nothing_is_clickable(hostile: str, literal: str) -> None:
    lines = laid_out(hostile, 80)
    assert literal in " ".join(line.plain for line in lines)  # shown as written, not obeyed
    for line in lines:
        for span in line.spans:
            style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
            assert style.link is None and not style.meta  # no hyperlink, no @click action


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet="ab |-:*_`#>[]()!\\~\n 1.", max_size=300),
    st.integers(min_value=12, max_value=90),
)
def test_any_text_lays_out_within_the_width(source: str, width: int) -> None:
    for line in laid_out(source, width, query="a"):
        assert line.cell_len <= width


def test_titles_show_code_without_backticks_and_cut_to_their_cells() -> None:
    pieces = title_pieces("Fix `TypeError` in `sync_state` now")
    assert pieces == [
        ("Fix ", False),
        ("TypeError", True),
        (" in ", False),
        ("sync_state", True),
        (" now", False),
    ]
    cut = fit_pieces(pieces, 12)
    assert "".join(text for text, _ in cut) == "Fix TypeErr…" and cut[1] == ("TypeErr", True)


async def test_the_entry_pane_and_the_list_render_a_real_table(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    write(root / "MEMORY.md", f"# Memory\n\n## Verdict on `deploy`\n\n{TABLE}\nThe end.\n")
    app = build_app(str(root), "--no-watch", "--days", "0")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        await wait_until(pilot, lambda: screen.pane.hit is not None)
        shown = detail_lines(app)
        assert shown[0] == "## Verdict on deploy"
        assert any("Claim" in line and "│" in line for line in shown)
        assert not any("|---" in line or line.startswith("| ") for line in shown)
        assert "Verdict on deploy" in rows(app)[0] and "`" not in rows(app)[0]


@pytest.mark.parametrize(
    "source",
    [
        "# Title\n## A\n#tag\n\\## escaped\n#\n## closing ##\n    # four spaces in",
        "- item\n\t```\n\t# inside a tab-indented fence\n\t```\n## after",
        "```\n# inside\n``` )\n# still inside\n```\n## out",
        "~~~~\n~~~\n# inside\n~~~~\n## out",
        "```a`b\n# a heading: a backtick after the marker makes it inline code",
    ],
)
def test_the_view_draws_as_headings_exactly_what_the_parser_splits_at(source: str) -> None:
    """One structure scanner: a line the parser cuts at is the line the view draws as one."""
    parsed = [heading.text for heading in scan(source, 0).headings]
    drawn = [
        block.plain.split(" ", 1)[1]
        for block in markdown.blocks(source.split("\n"), STYLES, None)[0]
        if isinstance(block, Text) and block.plain.startswith("#") and block.spans
    ]
    assert drawn == parsed
