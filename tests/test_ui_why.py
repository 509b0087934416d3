"""The why pane is honest: its bars are contributions on the list's scale, nothing is dropped
silently (`+N more`, scrolling), and it fits an 80-column terminal."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from ui_fakes import make_entry, make_hit
from ui_helpers import demo_app, wait_loaded, wait_until

from memtui.core.model import Explanation, Factor, MatchKind, TermMatch, TokenMatch
from memtui.ui import render
from memtui.ui.app import MemtuiApp
from memtui.ui.textual_private import painted_strips
from memtui.ui.widgets.entry_pane import WhyPane

NINE_WORDS = "deploy billing invoice stripe key rotate grafana rollback checklist"


def explanation(*factors: tuple[str, float, float]) -> Explanation:
    rows = tuple(
        Factor(name, "input", value, weight, value * weight) for name, value, weight in factors
    )
    base = sum(row.contribution for row in rows)
    return Explanation(factors=rows, terms=(), multipliers=(), base=base, score=base)


def bar_cells(row: str) -> float:
    """How much of a bar a rendered row draws, in cells (eighths counted)."""
    return sum(
        1.0 if char == "█" else (render.EIGHTHS.index(char) / 8)
        for char in row
        if char in render.EIGHTHS[1:]
    )


def test_bars_are_contributions_not_factor_values() -> None:
    """The issue's case: source 0.50 × 0.06 = 0.030 drew as long as recency 0.52 × 0.12."""
    rows = render.factor_rows(
        explanation(("source", 0.50, 0.06), ("recency", 0.52, 0.12)), compact=True
    )
    source, recency = (bar_cells(row.plain) for row in rows)
    assert source == pytest.approx(0.030 * render.BAR_CELLS, abs=1 / 8)
    assert recency == pytest.approx(0.0624 * render.BAR_CELLS, abs=1 / 8)
    assert recency > source


@pytest.mark.parametrize("contribution", [0.0, 0.125, 0.5, 0.7, 1.0])
def test_a_full_bar_is_a_score_of_one_as_in_the_list(contribution: float) -> None:
    row = render.factor_rows(explanation(("relevance", contribution, 1.0)))[0]
    assert bar_cells(row.plain) == pytest.approx(contribution * render.BAR_CELLS, abs=1 / 16)
    listed = sum(
        cells for _, cells in render.stacked_cells([("relevance", contribution)], render.BAR_CELLS)
    )
    assert abs(listed - bar_cells(row.plain)) <= 0.5


def test_compact_terms_say_how_many_tokens_they_leave_out() -> None:
    tokens = tuple(
        TokenMatch(f"deploy{suffix}", MatchKind.PREFIX, 0.9, 0, 1)
        for suffix in ("", "ed", "ment", "ments", "ing")
    )
    term = TermMatch("depl", 1.0, 1.0, tokens)
    row = render.term_rows([term], expanded=False, width=40)[0].plain
    assert len(row) <= 40 and row.endswith("more")
    shown = row.count("prefix")
    assert f"+{5 - shown} more" in row


async def loaded(pilot: Pilot[Any], app: MemtuiApp) -> None:
    screen = await wait_loaded(pilot, app)
    await wait_until(pilot, lambda: screen.pane.hit is not None and not screen.detail_pending)
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_the_why_pane_fits_and_nothing_goes_missing(size: tuple[int, int]) -> None:
    app = demo_app("-q", NINE_WORDS)
    async with app.run_test(size=size) as pilot:
        await loaded(pilot, app)
        why = app.screen.query_one(WhyPane)
        region = why.content_region
        lines = [
            strip.text[region.x : region.right].rstrip()  # the screen's columns of the pane
            for strip in painted_strips(app.screen)[region.y : region.bottom]
        ]
        assert lines and "score" in lines[0]  # the pane's own columns: its score line first
        content = str(app.screen.query_one("#breakdown").render()).split("\n")
        # every line of the breakdown is laid out for the pane, so the pane cuts none of them
        assert all(len(line) <= why.text_width for line in content), content
        assert why.lines > region.height  # nine terms do not fit in the compact pane...
        hidden = why.lines - region.height
        assert str(why.border_subtitle) == f"+{hidden} more ↓"  # ...and it says so
        why.scroll_end(animate=False)
        await pilot.pause()
        assert str(why.border_subtitle) == ""
        shown = str(app.screen.query_one("#breakdown").render())
        for word in NINE_WORDS.split():
            assert word in shown


@pytest.mark.parametrize("width", [38, 120])
def test_the_expanded_header_names_the_columns_its_rows_have(width: int) -> None:
    """A narrow panel's rows drop `value × weight =`: its header drops `val` and `wt` too
    (at 80 columns the contribution stood under "val")."""
    hit = make_hit(1, make_entry(0, "Deploy", "body"))
    header, first = render.breakdown(hit, None, expanded=True, width=width).plain.splitlines()[1:3]
    arithmetic = "×" in first
    assert ("val" in header.split()) is arithmetic and ("wt" in header.split()) is arithmetic
    part = header.index("part")
    assert first[part : part + 5] == "0.560"  # the contribution, under "part"
    assert header.index("bar") == first.index("█")
