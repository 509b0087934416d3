"""One list row, laid out by the pure `row_segments`: no app, no widget, no terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from ui_fakes import make_entry, make_hit
from ui_helpers import SIZE, build_app, rows, type_query, wait_loaded, wait_until, write

from memtui.core.model import Hit, Source
from memtui.ui.load_line import BADGE
from memtui.ui.screens.main import MainScreen
from memtui.ui.widgets.result_row import (
    MARK_GLYPH,
    TITLE_FIRST_CELLS,
    RowCache,
    RowKey,
    compact_path,
    path_column_width,
    row_key,
    row_segments,
)
from memtui.ui.widgets.results import ResultsList

STYLES = {
    "results--title": Style(color="white"),
    "results--code": Style(color="cyan"),
    "results--score": Style(color="yellow"),
    "results--gone": Style(color="grey50"),
}


def style_of(name: str) -> Style:
    return STYLES.get(name, Style())


def text(segments: list[Segment]) -> str:
    return "".join(segment.text for segment in segments)


def row(hit: Hit, width: int, **options: object) -> str:
    return text(row_segments(hit, width, rank_width=2, style=style_of, **options))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("path", "cells", "shown"),
    [
        ("memory/2026-11-21.md", 24, "memory/2026-11-21.md"),
        ("a/very/deep/folder/notes.md", 24, "folder/notes.md"),
        ("a/very/deep/long-folder-name/notes.md", 16, "notes.md"),
        ("MEMORY.md", 24, "MEMORY.md"),
        ("memory/a\\b.md", 24, "memory/a\\b.md"),  # a backslash in a name is no folder
        ("memory/bad-\udcff.md", 24, "memory/bad-\\xff.md"),  # an undecodable byte, visible
    ],
)
def test_compact_path_keeps_the_file_name_and_the_parent_when_it_fits(
    path: str, cells: int, shown: str
) -> None:
    assert compact_path(path, cells) == shown


def test_narrow_rows_drop_the_path_column_before_the_title() -> None:
    assert path_column_width(40) == 0
    assert 0 < path_column_width(100) <= 100 // 4


def test_a_wide_row_shows_rank_score_title_date_source_and_path() -> None:
    hit = make_hit(3, make_entry(0, "Deploy the `api` service", "body"), score=0.42)
    shown = row(hit, 120)
    assert shown.startswith(" 3 0.42 ")
    assert "Deploy the api service" in shown  # backticks dropped, the code span styled
    assert "2026-11-01" in shown and "daily" in shown
    assert shown.rstrip().endswith("memory/2026-11-01.md")


def test_a_narrow_row_drops_the_date_and_source_before_it_cuts_the_title() -> None:
    hit = make_hit(1, make_entry(0, "A title of moderate length here", "body"))
    shown = row(hit, 50)
    assert "daily" not in shown
    assert "A title of moderate length here" in shown


def test_a_code_span_in_the_title_takes_the_code_style() -> None:
    hit = make_hit(1, make_entry(0, "Use `uv run`", "body"))
    segments = row_segments(hit, 100, rank_width=2, style=style_of)
    code = [segment for segment in segments if segment.text == "uv run"]
    assert code and code[0].style is not None and code[0].style.color == Style(color="cyan").color


def test_the_cursor_row_takes_the_cursor_colour_and_a_bold_title() -> None:
    hit = make_hit(1, make_entry(0, "Title", "body"))
    cursor = Style(color="black", bgcolor="green")
    segments = row_segments(hit, 100, rank_width=2, style=style_of, cursor_style=cursor)
    title = next(segment for segment in segments if segment.text == "Title")
    assert title.style is not None and title.style.bold and title.style.bgcolor == cursor.bgcolor
    assert title.style.color == cursor.color


def test_the_mark_gutter_appears_only_when_asked_and_shows_the_glyph() -> None:
    hit = make_hit(1, make_entry(0, "Title", "body"))
    assert row(hit, 80).startswith(" 1 ")
    assert row(hit, 80, marked=True).startswith(f"{MARK_GLYPH}  1 ")
    assert row(hit, 80, marked=False).startswith("   1 ")


def test_badges_take_the_titles_room_and_the_columns_stay_put() -> None:
    hit = make_hit(1, make_entry(0, "Title", "body"))
    plain, badged = row(hit, 120), row(hit, 120, past_load_line=True)
    assert BADGE in badged
    assert plain.index("2026-11-01") == badged.index("2026-11-01")


def test_a_gone_folder_dims_the_row() -> None:
    hit = make_hit(1, make_entry(0, "Title", "body"))
    segments = row_segments(hit, 100, rank_width=2, style=style_of, gone=True)
    title = next(segment for segment in segments if segment.text == "Title")
    assert title.style is not None and title.style.color == STYLES["results--gone"].color


def test_the_title_keeps_its_room_before_the_meta_columns_appear() -> None:
    """At the narrowest width that shows the date, the title still has TITLE_FIRST_CELLS."""
    hit = make_hit(1, make_entry(0, "x" * 200, "body"))
    for width in range(30, 140):
        shown = row(hit, width)
        if "2026-11-01" in shown:
            # the title, its ellipsis and the space before the date
            assert shown.count("x") + 2 >= TITLE_FIRST_CELLS


@settings(max_examples=150, deadline=None)
@given(
    title=st.text(min_size=1, max_size=80).filter(lambda t: t.strip()),
    width=st.integers(min_value=36, max_value=240),  # the list's min-width
    marked=st.sampled_from([None, True, False]),
    past_load_line=st.booleans(),
    gone=st.booleans(),
    root=st.sampled_from(["", "work", "a-very-long-root-label"]),
)
def test_a_row_never_runs_past_its_width(
    title: str, width: int, marked: bool | None, past_load_line: bool, gone: bool, root: str
) -> None:
    """Whatever the title (wide CJK, control characters, backticks), a row fits its width:
    the list crops nothing that a row meant to show."""
    hit = make_hit(9, make_entry(0, title, "body", root=root))
    shown = row(hit, width, marked=marked, past_load_line=past_load_line, gone=gone)
    assert cell_len(shown) <= width


def test_the_title_is_not_followed_by_a_file_name_another_column_already_shows() -> None:
    """At 80 cells the date column shows but not the path: a daily note's name is its date,
    so only a file name that says something else follows the title."""
    daily = make_hit(1, make_entry(0, "Deploy", "body"))
    note = make_hit(2, make_entry(1, "Recent changes", "body", path="activeContext.md"))
    narrow_daily = row(daily, 50)
    assert "2026-11-01" in row(daily, 80) and "2026-11-01.md" not in row(daily, 80)
    assert "Recent changes · activeContext.md" in row(note, 80)
    assert "Deploy · 2026-11-01.md" in narrow_daily  # no date column: the name says when


def test_a_file_name_that_does_not_fit_whole_is_left_out_not_cut() -> None:
    hit = make_hit(1, make_entry(0, "A title that takes most of the room", "body"))
    shown = row(hit, 60)
    assert "A title that takes most of the room" in shown and "·" not in shown


@pytest.mark.parametrize(("width", "shown"), [(100, "2026-11-01"), (44, "11-01")])
def test_while_browsing_a_row_shows_its_date_where_the_score_would_be(
    width: int, shown: str
) -> None:
    hit = make_hit(1, make_entry(0, "Deploy", "body"), score=0.27)
    browsing = row(hit, width, browse=True)
    assert browsing.startswith(f" 1 {shown} Deploy")
    assert "0.27" not in browsing and "▆" not in browsing
    assert "2026-11-01 daily" not in browsing  # no second date column (the path may say it)


@pytest.mark.parametrize(("width", "shown"), [(100, "undated   "), (44, "—    ")])
def test_an_undated_row_says_so_in_either_width(width: int, shown: str) -> None:
    """Not the end of "undated" cut to five cells ("ed"), as 80–110 columns showed."""
    hit = make_hit(1, make_entry(0, "Focus", "body", date=None, source=Source.NOTE))
    assert row(hit, width, browse=True).startswith(f" 1 {shown} Focus")


@pytest.mark.parametrize("width", [12, 30, 60, 140])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"cursor_style": Style(bgcolor="blue"), "marked": True},
        {"past_load_line": True, "gone": True},
        {"browse": True, "marked": False},
    ],
)
def test_cached_rows_are_the_rows_laid_out_each_time(
    width: int, options: dict[str, object]
) -> None:
    """A row from the cache is `row_segments` on the list's base style, padded to the width
    and simplified, segment for segment: also when its entry's part and its lead's pieces
    were kept from the same entry at another rank and score."""
    base = Style(color="green", bgcolor="black")
    cache = RowCache(8)
    entry = make_entry(3, "Deploy `billing-api` v2.15.1", "Deployed to staging, then prod.")
    settings: dict[str, Any] = {
        "cursor_style": None,
        "past_load_line": False,
        "gone": False,
        "browse": False,
        "marked": None,
        **options,
    }
    cursor_style = settings.pop("cursor_style")
    for rank, score in ((1, 0.91), (2, 0.87), (12, 0.5), (2, 0.87)):
        hit = make_hit(rank, entry, score=score)
        laid_out = row_segments(
            hit, width, rank_width=2, style=style_of, cursor_style=cursor_style, **settings
        )
        line = Segment.adjust_line_length(list(Segment.apply_style(laid_out, base)), width, base)
        key = row_key(hit, width, rank_width=2, cursor=cursor_style is not None, **settings)
        cached = cache.strip(key, base, style=style_of, cursor_style=cursor_style)
        assert list(cached) == list(Segment.simplify(line))
        assert cached.cell_length == width


def test_a_row_key_is_what_the_row_shows_not_the_hit_s_floats() -> None:
    """A score that moved in its third decimal draws the same row (the list does not paint
    it again); one that moved the shown score, or the bar by a cell, does not."""
    entry = make_entry(3, "Deploy", "body")

    def key(score: float, relevance: float = 0.5) -> RowKey:
        explanation = make_hit(1, entry, score=score).explanation
        factors = tuple(
            replace(factor, contribution=relevance) if factor.name == "relevance" else factor
            for factor in explanation.factors
        )
        hit = Hit(1, entry, score, replace(explanation, factors=factors))
        return row_key(hit, 100, rank_width=2)

    assert key(0.5012) == key(0.5049)
    assert key(0.5012) != key(0.5112)
    assert key(0.5, 0.5) == key(0.5, 0.501)
    assert key(0.5, 0.5) != key(0.5, 0.2)
    assert row_key(make_hit(1, entry), 100, rank_width=2, browse=True).score == ""


async def test_the_rank_column_fits_the_ranks_on_screen_so_titles_stay_put(
    tmp_path: Path,
) -> None:
    """With 150 hits the first screen shows ranks 1 to ~30: two cells, as with 30 hits, so the
    titles do not move while typing changes the number of hits; scrolled to rank 150, three."""
    sections = "".join(f"## Kiwi note {number}\nkiwi\n\n" for number in range(150))
    root = write(tmp_path / "memory" / "MEMORY.md", sections).parent
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "kiwi")
        first = rows(app)[0]
        assert first.startswith(" 1 "), first
        title_at = first.index("Kiwi")
        for key in ("space", "1", "4"):  # "kiwi 14": a dozen hits, the same column
            await pilot.press(key)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        await wait_until(
            pilot,
            lambda: screen.query_text == "kiwi 14" and app.painted_generation >= screen.generation,
        )
        assert rows(app)[0].index("Kiwi") == title_at
        results = app.screen.query_one(ResultsList)
        results.focus()
        await pilot.press("end")
        await wait_until(pilot, lambda: any(row.startswith("150 ") for row in rows(app)))
