"""Several memory folders in the app: the start picker, opening one or all, switching from the
palette, root labels in the results, root checkboxes in the filters and a root vanishing."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable
from ui_helpers import (
    SIZE,
    build_app,
    main_screen,
    rows,
    static_text,
    type_query,
    wait_loaded,
    wait_until,
    write,
)

from memtui.core.places import claude
from memtui.ui.app import MemtuiApp
from memtui.ui.gone import GLYPH as GONE_GLYPH
from memtui.ui.screens.filters import FiltersScreen
from memtui.ui.screens.roots import RootsScreen
from memtui.ui.textual_private import notices, painted_strips
from memtui.ui.widgets.results import ResultsList


@pytest.fixture
def found_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A Cline memory bank named by `$MEMTUI_DIR`, and an OpenClaw workspace in the (fake)
    home, seen from a folder with no memory of its own (so memtui asks which to open)."""
    work = tmp_path / "shop"
    bank = write(
        work / "memory-bank" / "activeContext.md",
        "# Active\n\n## Focus\n\nDeploy previews for the shop.\n",
    ).parent
    workspace = write(
        Path.home() / ".openclaw" / "workspace" / "MEMORY.md",
        "# Memory\n\n## Deploy checklist\n\nCanary first.\n",
    ).parent
    stamp = dt.datetime(2026, 3, 4, 12, 0).timestamp()
    for folder in (bank, workspace):
        for path in folder.glob("*.md"):
            os.utime(path, (stamp, stamp))
    monkeypatch.setenv("MEMTUI_DIR", str(bank))
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    return bank, workspace


def table_text(app: MemtuiApp) -> list[str]:
    table = app.screen.query_one(DataTable)
    return [
        " ".join(str(cell) for cell in table.get_row_at(index)) for index in range(table.row_count)
    ]


async def surveyed(pilot: Pilot[Any], app: MemtuiApp) -> list[str]:
    """The picker's rows once every candidate has been counted."""
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, RootsScreen)
            and len(app.screen.surveys) == len(app.screen.candidates) > 0
        ),
    )
    return table_text(app)


async def test_several_candidates_start_on_the_picker_and_enter_opens_one(
    found_twice: tuple[Path, Path],
) -> None:
    bank, _ = found_twice
    app = build_app("--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        shown = await surveyed(pilot, app)
        assert shown[0].startswith(" memtui-dir shop 1 2026-03-04 /")
        assert shown[0].endswith("shop/memory-bank")  # a long path is cut in the middle
        assert shown[1] == " openclaw openclaw 1 2026-03-04 ~/.openclaw/workspace"
        await pilot.pause()
        painted = "\n".join(strip.text for strip in painted_strips(app.screen))
        assert painted.count("2026-03-04") == 2  # QA: at times cut to `2026-0` until a resize
        await pilot.press("enter")
        screen = await wait_loaded(pilot, app)
        assert screen.engine is not None and not screen.engine.several_roots
        assert [root.path for root in screen.engine.roots] == [bank]
        assert "memory-bank" in static_text(app, "#app-title")
        await type_query(pilot, app, "deploy")
        assert len(rows(app)) == 1 and " shop " not in rows(app)[0]


async def test_a_opens_every_candidate_with_labels_in_the_results(
    found_twice: tuple[Path, Path],
) -> None:
    app = build_app("--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await surveyed(pilot, app)
        await pilot.press("a")
        screen = await wait_loaded(pilot, app)
        assert screen.engine is not None and screen.engine.several_roots
        assert "2 folders: shop, openclaw" in static_text(app, "#app-title")
        await type_query(pilot, app, "deploy")
        shown = rows(app)
        assert len(shown) == 2
        assert {row.split()[3] for row in shown} == {"shop", "openclaw"}


async def test_palette_switches_memory_folder_and_esc_goes_back(
    found_twice: tuple[Path, Path],
) -> None:
    bank, workspace = found_twice
    app = build_app(str(bank), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_loaded(pilot, app)
        titles = {command.title for command in app.get_system_commands(first)}
        assert "Switch memory folder" in titles
        app.action_switch_roots()
        shown = await surveyed(pilot, app)
        assert shown[0].startswith("● memtui-dir") and shown[1].startswith(" openclaw")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is first)
        app.action_switch_roots()
        await surveyed(pilot, app)
        await pilot.press("down", "enter")
        screen = await wait_loaded(pilot, app)
        assert screen is not first and not first.is_attached
        assert screen.engine is not None and [r.path for r in screen.engine.roots] == [workspace]
        assert len(app.screen_stack) == 2


@pytest.fixture
def alpha_beta(tmp_path: Path) -> tuple[Path, Path]:
    """Two folders named on the command line, both with a `MEMORY.md` about deploys."""
    alpha = write(tmp_path / "alpha" / "MEMORY.md", "## Deploy\n\nalpha way\n").parent
    beta = write(tmp_path / "beta" / "MEMORY.md", "## Deploy\n\nbeta way\n\n## Team\n\nx\n").parent
    return alpha, beta


async def test_filters_screen_ticks_roots(alpha_beta: tuple[Path, Path]) -> None:
    app = build_app(*map(str, alpha_beta), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy root:~/nowhere*")
        await pilot.press("ctrl+f")
        await wait_until(pilot, lambda: isinstance(app.screen, FiltersScreen))
        boxes = [box for box in app.screen.query(Checkbox) if (box.id or "").startswith("root-")]
        assert [str(box.label) for box in boxes] == ["alpha", "beta"]
        boxes[1].value = True
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen)
        assert screen.query_text == "deploy root:beta root:~/nowhere*"
        screen.set_query("deploy root:beta")
        await wait_until(
            pilot, lambda: screen.result is not None and screen.result.query == "deploy root:beta"
        )
        assert screen.result is not None
        assert [hit.entry.root for hit in screen.result.hits] == ["beta"]


async def test_boost_names_the_entrys_root(alpha_beta: tuple[Path, Path]) -> None:
    app = build_app(*map(str, alpha_beta), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        await pilot.press("enter")
        await pilot.pause()
        top = screen.pane.hit
        assert top is not None and top.entry.root in ("alpha", "beta")
        await pilot.press("plus")
        await pilot.pause()
        assert screen.engine is not None
        assert dict(screen.engine.session_boosts) == {f"{top.entry.root}/MEMORY.md": 1.5}


async def test_a_vanished_root_dims_only_its_entries(
    alpha_beta: tuple[Path, Path], tmp_path: Path
) -> None:
    """Its entries stay where they ranked, dimmed with the gone glyph, and the entry pane says
    it shows them as last read; `e` refuses; all of it goes when the folder is back."""
    alpha, beta = alpha_beta
    app = build_app(str(alpha), str(beta), deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await wait_until(
            pilot, lambda: screen.watcher is not None and screen.watcher.live.is_set(), steps=1500
        )
        await type_query(pilot, app, "deploy")
        shown = rows(app)
        assert len(shown) == 2 and not any(GONE_GLYPH in row for row in shown)
        beta.rename(tmp_path / "away")
        banner = app.screen.query_one("#banner")
        await wait_until(
            pilot,
            lambda: banner.display and any(GONE_GLYPH in row for row in rows(app)),
            steps=1500,
        )
        assert str(beta) in static_text(app, "#banner")
        gone_rows = [row for row in rows(app) if GONE_GLYPH in row]
        assert len(rows(app)) == 2 and len(gone_rows) == 1 and "beta" in gone_rows[0]
        results = screen.query_one(ResultsList)
        beta_row = next(y for y, row in enumerate(rows(app)) if GONE_GLYPH in row)
        results.move_to(1 - beta_row)  # the cursor off it: the row shows its own dimmed colour
        await pilot.pause()
        dimmed = results.get_component_rich_style("results--gone").color
        title = next(
            segment for segment in results.render_line(beta_row) if "Deploy" in segment.text
        )
        assert title.style is not None and title.style.color == dimmed
        results.move_to(beta_row)
        await wait_until(pilot, lambda: "is gone" in static_text(app, "#detail-rule"))
        results.focus()
        await pilot.press("e")
        await wait_until(pilot, lambda: any("folder is gone" in notice for notice in notices(app)))
        (tmp_path / "away").rename(beta)
        await wait_until(
            pilot,
            lambda: not banner.display and not any(GONE_GLYPH in row for row in rows(app)),
            steps=1500,
        )
        assert len(rows(app)) == 2 and main_screen(app) is screen
        await wait_until(pilot, lambda: "is gone" not in static_text(app, "#detail-rule"))


async def test_this_folders_memory_opens_directly_and_the_picker_is_a_key_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "shop" / "memory-bank" / "activeContext.md", "## Focus\n\nDeploys.\n")
    write(Path.home() / ".openclaw" / "workspace" / "MEMORY.md", "## Canary\n\nFirst.\n")
    monkeypatch.chdir(tmp_path / "shop")
    app = build_app("--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        assert "1 more found" in static_text(app, "#app-title")
        await pilot.press("ctrl+s")
        shown = await surveyed(pilot, app)
        assert shown[0].startswith("● memory-bank") and shown[1].startswith(" openclaw")
        await pilot.press("down", "enter")
        await wait_loaded(pilot, app)
    again = build_app("--no-watch")  # the choice is remembered for this folder
    async with again.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, again)
        assert screen.engine is not None
        assert [root.label for root in screen.engine.roots] == ["openclaw"]


async def test_open_all_is_offered_only_for_several_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "shop" / "memory-bank" / "activeContext.md", "## Focus\n\nDeploys.\n")
    monkeypatch.chdir(tmp_path / "shop")
    app = build_app("--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        app.action_switch_roots()
        await surveyed(pilot, app)
        assert "a opens all" not in static_text(app, "#roots-help")
        assert app.screen.check_action("open_all", ()) is False


async def test_from_a_folder_with_no_memory_the_picker_offers_other_projects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "code" / "shop"
    project.mkdir(parents=True)
    memory = Path.home() / ".claude" / "projects" / claude.encodings(project)[0] / "memory"
    write(memory / "MEMORY.md", "## Deploys\n\nBlue-green, never on Fridays.\n")
    (memory.parent / "s.jsonl").write_text(json.dumps({"cwd": str(project)}) + "\n")
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path / "empty")
    app = build_app("--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        shown = await surveyed(pilot, app)
        assert len(shown) == 1 and shown[0].startswith(" claude-other shop-claude 1 ")
        assert shown[0].endswith("shop (another project)")
        assert "a opens all" not in static_text(app, "#roots-help")
        await pilot.press("enter")
        screen = await wait_loaded(pilot, app)
        assert screen.engine is not None and [r.path for r in screen.engine.roots] == [memory]
