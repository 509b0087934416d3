"""UI pieces without a running app: themes, filter editing, config writing, rendering helpers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast, overload

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from rich.style import Style
from textual.app import App, ComposeResult
from textual.strip import Strip
from ui_fakes import FakeEngine, make_entry, make_hit

from memtui.core.model import ChangeSet, Factor, Hit, Source
from memtui.core.search.facets import facets_of
from memtui.core.search.query import FILTER_NAMES
from memtui.core.settings.config import Config
from memtui.ui import filters as ui_filters
from memtui.ui.app import MemtuiApp
from memtui.ui.editor import editor_command
from memtui.ui.filters import QueryFilters, filter_hint, split_query, with_filters
from memtui.ui.options import AppOptions
from memtui.ui.render import bar, display_title, match_pattern, stacked_cells
from memtui.ui.status import change_notice
from memtui.ui.themes import MEMTUI_VARIABLES, load_themes, shipped_theme_files
from memtui.ui.widgets import lines
from memtui.ui.widgets.result_row import RowCache, RowKey
from memtui.ui.widgets.results import ResultsList

if TYPE_CHECKING:
    from memtui.core.live.engine import Engine

REPO = Path(__file__).resolve().parent.parent


# --- themes ------------------------------------------------------------------------------------


def test_three_shipped_themes_load_and_top_level_folder_is_the_same_files() -> None:
    themes = load_themes(Path("/nonexistent"))
    assert not themes.warnings
    assert {"memtui-dark", "memtui-light", "memtui-high-contrast"} <= set(themes.themes)
    assert themes.themes["memtui-light"].dark is False
    packaged = {path.name: path.read_bytes() for path in shipped_theme_files()}
    top_level = {path.name: path.read_bytes() for path in (REPO / "themes").glob("*.toml")}
    assert packaged == top_level


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name = 'x'\nprimary = 12\n", "expected a colour"),
        ("name = 'x'\nprimary = 'notacolour'\n", "not a colour"),
        ("primary = '#ffffff'\n", "name"),
        ("name = 'x'\n", "primary"),
        ("name = 'x'\nprimary = '#fff'\ndark = 'yes'\n", "dark"),
        ("this is [not toml", "invalid TOML"),
    ],
)
def test_a_broken_user_theme_is_skipped_with_a_warning(
    tmp_path: Path, text: str, problem: str
) -> None:
    (tmp_path / "bad.toml").write_text(text, encoding="utf-8")
    (tmp_path / "good.toml").write_text("name = 'mine'\nprimary = '#123456'\n", encoding="utf-8")
    themes = load_themes(tmp_path)
    assert "mine" in themes.themes and "memtui-dark" in themes.themes
    assert len(themes.warnings) == 1 and problem in themes.warnings[0]


async def test_an_unknown_theme_name_falls_back_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("nonsense", encoding="utf-8")
    options = AppOptions(
        root=tmp_path,
        config=Config(),
        today=dt.date(2026, 11, 21),
        days=30,
        theme="no-such-theme\x1b[31m",
        watch=False,
        deterministic=True,
        user_themes_dir=tmp_path,
        engine_factory=lambda o: cast("Engine", FakeEngine(tmp_path, [])),
    )
    app = MemtuiApp(options)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "memtui-dark"
        assert "theme 'no-such-theme␛[31m' not found; using memtui-dark" in app.theme_warnings
        assert any("bad.toml" in warning for warning in app.theme_warnings)


# --- filters -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "words", "filters"),
    [
        ("deploy", "deploy", QueryFilters()),
        ("deploy source:daily tag:ops", "deploy", QueryFilters(sources=["daily"], tags=["ops"])),
        (
            '"exact phrase" -skip file:MEMORY.md after:2026-11-01',
            '"exact phrase" -skip',
            QueryFilters(roles=["MEMORY.md"], after="2026-11-01"),
        ),
        ("weird:thing before:2026", "weird:thing", QueryFilters(before="2026")),
        ("source: x", "source: x", QueryFilters()),
    ],
)
def test_split_query(query: str, words: str, filters: QueryFilters) -> None:
    assert split_query(query) == (words, filters)


def test_with_filters_replaces_only_the_filter_tokens() -> None:
    query = "deploy source:note -draft tag:x"
    updated = with_filters(query, QueryFilters(sources=["daily"], after="2026-11-01"))
    assert updated == "deploy -draft source:daily after:2026-11-01"
    assert with_filters(updated, QueryFilters()) == "deploy -draft"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "deploy",
                "-x",
                "source:daily",
                "tag:a",
                "role:b",
                "after:2026-01-01",
                '"a b"',
                "foo:bar",
            ]
        ),
        max_size=6,
    )
)
def test_filters_round_trip(pieces: list[str]) -> None:
    query = " ".join(pieces)
    words, filters = split_query(query)
    rebuilt = with_filters(query, filters)
    assert split_query(rebuilt) == (words, filters)


# --- rendering helpers -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=4, max_size=4), st.integers(1, 20))
def test_stacked_bar_never_exceeds_its_width(values: list[float], cells: int) -> None:
    total = sum(values) or 1.0
    factors = [
        Factor(name, "", v, 1.0, v / total * min(1.0, total))
        for name, v in zip(("relevance", "source", "recency", "position"), values, strict=True)
    ]
    split = stacked_cells(((f.name, f.contribution) for f in factors), cells)
    assert sum(count for _, count in split) <= cells
    assert all(count > 0 for _, count in split)


@pytest.mark.parametrize(
    ("title", "body", "shown"),
    [
        ("16:30:00 UTC", "- **Deploy** finished\nmore", "16:30 UTC · Deploy finished"),
        ("09:05", "\n\n## Standup notes", "09:05 · Standup notes"),
        ("16:30:00 UTC", "", "16:30 UTC"),
        ("Deploy at 16:30", "body", "Deploy at 16:30"),
    ],
)
def test_time_only_titles_show_the_first_words_of_the_body(
    title: str, body: str, shown: str
) -> None:
    assert display_title(make_entry(1, title, body)) == shown


@pytest.mark.parametrize(("fraction", "expected"), [(0, "    "), (1, "████"), (0.5, "██  ")])
def test_bar(fraction: float, expected: str) -> None:
    assert bar(fraction, 4) == expected


def test_match_pattern_matches_word_starts_only_for_latin_tokens() -> None:
    hit = make_hit(1, make_entry(1, "t", "b"), ["de", "東京"])
    pattern = match_pattern(hit.explanation.terms)
    assert pattern is not None
    assert [m.group() for m in pattern.finditer("Deploy code 在東京")] == ["De", "東京"]


def test_change_notice_names_files_and_counts() -> None:
    changes = ChangeSet(
        added=frozenset({"a", "b"}), per_path=(("MEMORY.md", 2, 0, 0), ("memory/x.md", 0, 1, 1))
    )
    assert change_notice(changes) == (
        "MEMORY.md: 2 entries added\nmemory/x.md: 1 entry removed, 1 entry updated"
    )
    assert change_notice(ChangeSet()) is None


async def test_results_list_renders_only_visible_rows_of_a_huge_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """50,000 hits: set_hits and a repaint touch only what is on screen."""
    built: list[int] = []

    class LazyHits(Sequence[Hit]):
        """50,000 hits built only when indexed, as the ranker's lazy result is."""

        def __len__(self) -> int:
            return 50_000

        @overload
        def __getitem__(self, index: int) -> Hit: ...
        @overload
        def __getitem__(self, index: slice) -> Sequence[Hit]: ...
        def __getitem__(self, index: int | slice) -> Hit | Sequence[Hit]:
            if isinstance(index, slice):
                raise AssertionError("the list must not slice the whole result")
            if not 0 <= index < 50_000:
                raise IndexError(index)
            built.append(index)
            return make_hit(index + 1, make_entry(index, f"entry {index}", "body"))

    hits = LazyHits()

    class Host(App[None]):
        def get_theme_variable_defaults(self) -> dict[str, str]:
            return dict(MEMTUI_VARIABLES)

        def compose(self) -> ComposeResult:
            yield ResultsList(id="results")

    rendered: list[int] = []
    original = RowCache.strip

    def counting(cache: RowCache, key: RowKey, base: Style, **options: Any) -> Strip:
        rendered.append(1)
        return original(cache, key, base, **options)

    app = Host()
    async with app.run_test(size=(100, 20)) as pilot:
        results = app.query_one(ResultsList)
        monkeypatch.setattr(RowCache, "strip", counting)
        results.set_hits(hits, keep_id="e400")
        await pilot.pause()
        assert results.selected is not None and results.selected.entry.id == "e400"
        assert 0 < len(rendered) <= 3 * 20
        visible = results.rendered_rows()
        assert any("entry 400" in row for row in visible)
        assert len(built) < 2_000, "the list walked far more hits than it shows"
        built.clear()
        results.set_hits(hits, keep_id="e40000")  # too deep to look for: no full walk
        await pilot.pause()
        assert results.selected is not None
        assert len(built) < 2_000


async def test_wide_titles_keep_rows_exactly_one_line_wide() -> None:
    entries = [
        make_entry(0, "東京オフサイトの会場候補と予算の確認" * 3, "body"),
        make_entry(1, "plain title", "body", path="a/very/long/path/" * 6 + "x.md"),
    ]
    hits = [make_hit(i + 1, entry) for i, entry in enumerate(entries)]

    class Host(App[None]):
        def get_theme_variable_defaults(self) -> dict[str, str]:
            return dict(MEMTUI_VARIABLES)

        def compose(self) -> ComposeResult:
            yield ResultsList(id="results")

    for width in (44, 70, 120):
        app = Host()
        async with app.run_test(size=(width, 10)) as pilot:
            results = app.query_one(ResultsList)
            results.set_hits(hits, keep_id=None)
            await pilot.pause()
            for y in range(2):
                assert results.render_line(y).cell_length == results.size.width
            assert "東京" in results.rendered_rows()[0]


def test_editor_command_prefers_visual_and_splits_like_a_shell() -> None:
    assert editor_command(Path("/m/a.md"), 7, {"VISUAL": "code --wait", "EDITOR": "vi"}) == [
        "code",
        "--wait",
        "+7",
        "/m/a.md",
    ]
    assert editor_command(Path("x.md"), 1, {"EDITOR": "'my editor' -n"}) == [
        "my editor",
        "-n",
        "+1",
        "x.md",
    ]
    assert editor_command(Path("x.md"), 1, {}) == ["vi", "+1", "x.md"]


def test_filters_the_form_does_not_edit_are_kept_as_they_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ui_filters, "FILTER_NAMES", (*FILTER_NAMES, "mood"))
    words, filters = split_query("deploy mood:work before:2026-12")
    assert (words, filters.before) == ("deploy mood:work", "2026-12")
    assert with_filters("deploy mood:work tag:x", QueryFilters(tags=["y"])) == (
        "deploy mood:work tag:y"
    )


def test_root_filters_are_edited_by_the_form() -> None:
    words, filters = split_query("deploy root:work root:~/x* tag:a")
    assert (words, filters.roots) == ("deploy", ["work", "~/x*"])
    assert with_filters("deploy root:work", QueryFilters(roots=["beta"])) == "deploy root:beta"


def test_the_placeholder_offers_only_filters_this_memory_has() -> None:
    long_term = make_entry(0, "t", "b", source=Source.LONG_TERM, path="MEMORY.md", date=None)
    assert filter_hint(facets_of([long_term])) == 'search memory…  "exact phrase"  -word'
    tagged = [
        make_entry(1, "t", "b", tags=("deploy",), role="ops"),
        make_entry(2, "t", "b", tags=("deploy", "two words", "billing")),
        long_term,
    ]
    hint = filter_hint(facets_of(tagged))
    assert hint.startswith("search memory…  source:daily  tag:deploy  role:ops  after:2026-11-01")
    assert "source:daily" not in filter_hint(facets_of([long_term, replace(long_term, id="x")]))


def test_the_placeholder_never_offers_a_value_that_cannot_be_typed() -> None:
    hostile = make_entry(1, "t", "b", tags=("a b", "\x1b[31m", "x" * 200), role="two words")
    hint = filter_hint(facets_of([hostile]))
    assert "tag:" not in hint and "role:" not in hint and "\x1b" not in hint


@pytest.mark.parametrize(
    ("before", "after", "same"),
    [(10_000, 9_000, True), (100, 50, False), (10_000, 10_000, True), (40, 41, False)],
)
def test_the_scrollbar_is_redrawn_only_when_textual_would_draw_it_differently(
    before: int, after: int, same: bool
) -> None:
    """A 10,000-row list and a 9,000-row one both draw a one-cell thumb at the top of a
    30-row track, so a keystroke that changes the match count between them leaves the bar."""
    assert (lines._drawn(30, before, 30, 0.0, 1) == lines._drawn(30, after, 30, 0.0, 1)) is same
