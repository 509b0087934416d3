"""Marks and copies in the app (Pilot): `space` marks, the marks follow their entries across
reranks, edits and deletions, and `y`/`Y` copy the marked entries as Markdown quotes or
citations, through a clipboard that never receives a control character or escape sequence."""

from __future__ import annotations

import base64
import os
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.drivers.headless_driver import HeadlessDriver
from textual.pilot import Pilot
from ui_helpers import (
    SIZE,
    build_app,
    rows,
    static_text,
    type_query,
    wait_loaded,
    wait_until,
    write,
)

from memtui.bench import hostile
from memtui.core.sanitize import has_unsafe
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.main import MainScreen
from memtui.ui.textual_private import notices
from memtui.ui.widgets.result_row import MARK_GLYPH
from memtui.ui.widgets.results import ResultsList

OSC52 = re.compile("\x1b\\]52;c;([A-Za-z0-9+/=]*)\x07")
SECRET = "sk-live-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4"


@pytest.fixture
def clipboard_payloads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every OSC 52 payload the app sends to the terminal, decoded as a terminal would."""
    written: list[str] = []

    def record(driver: HeadlessDriver, data: str) -> None:
        written.extend(base64.b64decode(payload).decode("utf-8") for payload in OSC52.findall(data))

    monkeypatch.setattr(HeadlessDriver, "write", record)
    return written


def memory(root: Path) -> Path:
    write(
        root / "MEMORY.md",
        "# Memory\n\n## Deploy checklist\n\nDeploy steps: CI green, then tag.\n\n"
        "## Rollback plan\n\nRoll back when a deploy fails.\n\n"
        f"## Billing keys\n\nThe billing deploy key is {SECRET}.\n",
    )
    write(root / "memory" / "2026-11-20.md", "## 14:30 Deploy staging\n\nDeployed staging.\n")
    return root


def marked_ids(app: MemtuiApp) -> list[str]:
    return app.screen.query_one(ResultsList).marks.ids


def shown_marks(app: MemtuiApp) -> list[tuple[bool, str]]:
    """(row shows the mark glyph, entry id) for every row on screen."""
    results = app.screen.query_one(ResultsList)
    return [
        (row.startswith(MARK_GLYPH), results.hits[int(results.scroll_y) + index].entry.id)
        for index, row in enumerate(rows(app))
    ]


async def focus_results_and_mark(pilot: Pilot[Any], *keys: str) -> None:
    await pilot.press("tab", *keys)
    await pilot.pause()


async def test_marks_follow_entries_across_reranks_and_copy_in_marking_order(
    tmp_path: Path, clipboard_payloads: list[str]
) -> None:
    app = build_app(str(memory(tmp_path / "root")), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        assert rows(app)[0][0] != MARK_GLYPH  # no gutter before the first mark
        await focus_results_and_mark(pilot, "down", "space", "up", "space")
        first, second = marked_ids(app)  # #2, then #1: handed on in this order
        assert screen.result is not None
        assert [first, second] == [hit.entry.id for hit in screen.result.hits[1::-1]]
        assert "2 marked" in static_text(app, "#app-status")
        assert [marked for marked, _ in shown_marks(app)][:3] == [True, True, False]

        await pilot.press("slash", "ctrl+u")
        await type_query(pilot, app, "deploy rollback")
        for marked, entry_id in shown_marks(app):  # the glyph follows the ids, not the rows
            assert marked == (entry_id in (first, second))
        assert marked_ids(app) == [first, second]

        await pilot.press("tab", "y")
        await wait_until(pilot, lambda: len(clipboard_payloads) == 1)
        entries = {hit.entry.id: hit.entry for hit in screen.result.hits}
        cited = [
            f"{entries[entry_id].path}:{entries[entry_id].line_start}-{entries[entry_id].line_end}"
            for entry_id in (first, second)
        ]
        copied = clipboard_payloads[0]
        assert copied == app.clipboard
        headings = [line for line in copied.split("\n") if line and not line.startswith(">")]
        assert [line.split(" (")[0] for line in headings] == cited
        assert f"# {entries[first].title}\n>\n> Deployed staging." in copied

        await pilot.press("Y")
        await wait_until(pilot, lambda: len(clipboard_payloads) == 2)
        assert clipboard_payloads[1] == "\n".join(cited)


async def test_a_mark_follows_an_edit_and_is_dropped_with_a_notice_when_deleted(
    tmp_path: Path, clipboard_payloads: list[str]
) -> None:
    root = memory(tmp_path / "root")
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        assert screen.result is not None
        titles = [hit.entry.title for hit in screen.result.hits]
        daily = titles.index("14:30 Deploy staging")
        checklist = titles.index("Deploy checklist")
        await pilot.press(
            "tab", "home", *["down"] * checklist, "space", "home", *["down"] * daily, "space"
        )
        assert len(marked_ids(app)) == 2

        memory_file = root / "MEMORY.md"
        memory_file.write_text(memory_file.read_text().replace("CI green", "CI EDITED green"))
        applied = app.changes_applied
        screen.apply_paths([memory_file])
        await wait_until(pilot, lambda: app.changes_applied > applied)
        await pilot.press("y")
        await wait_until(pilot, lambda: len(clipboard_payloads) == 1)
        assert "CI EDITED green" in clipboard_payloads[0]

        (root / "memory" / "2026-11-20.md").unlink()
        applied = app.changes_applied
        screen.apply_paths([root / "memory" / "2026-11-20.md"])
        await wait_until(pilot, lambda: app.changes_applied > applied)
        await pilot.pause()
        assert len(marked_ids(app)) == 1
        assert "1 marked" in static_text(app, "#app-status")
        shown = notices(app)
        assert any(
            "Unmarked 1 entry" in notice and "Deploy staging" in notice for notice in shown
        ), shown
        await pilot.press("y")
        await wait_until(pilot, lambda: len(clipboard_payloads) == 2)
        assert "Deploy staging" not in clipboard_payloads[1]
        assert clipboard_payloads[1].startswith("MEMORY.md:")


async def test_mark_all_clear_and_secrets_stay_masked_unless_revealed(
    tmp_path: Path, clipboard_payloads: list[str]
) -> None:
    app = build_app(str(memory(tmp_path / "root")), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        assert screen.result is not None
        await focus_results_and_mark(pilot, "ctrl+a")
        await wait_until(pilot, lambda: len(marked_ids(app)) == 4)
        assert screen.result.total_matches == 4
        assert f"{screen.result.total_matches} marked" in static_text(app, "#app-status")
        await pilot.press("y")
        await wait_until(pilot, lambda: len(clipboard_payloads) == 1)
        assert SECRET not in clipboard_payloads[0] and "Billing keys" in clipboard_payloads[0]
        assert any("secret masked" in notice for notice in notices(app))
        await pilot.press("r", "y")
        await wait_until(pilot, lambda: len(clipboard_payloads) == 2)
        assert SECRET in clipboard_payloads[1]

        await pilot.press("ctrl+u")
        await pilot.pause()
        assert marked_ids(app) == [] and "marked" not in static_text(app, "#app-status")
        await pilot.press("y")  # nothing marked: the selected entry alone
        await wait_until(pilot, lambda: len(clipboard_payloads) == 3)
        assert clipboard_payloads[2].count("\n> ## ") == 1


async def test_a_citation_of_a_file_name_that_is_not_utf8_is_copied_visibly(
    tmp_path: Path, clipboard_payloads: list[str]
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    with open(os.path.join(os.fsencode(root), b"caf\xe9.md"), "wb") as handle:
        handle.write(b"## Latin-1 name\n\nbody\n")
    app = build_app(str(root), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await pilot.press("tab", "Y")  # used to raise UnicodeEncodeError and end the app
        await wait_until(pilot, lambda: bool(clipboard_payloads))
        assert clipboard_payloads == ["caf\\xe9.md:1-3"]
        assert app.is_running and isinstance(app.screen, MainScreen)
        # The app's one choke point, whoever copies: escapes and stray bytes made visible.
        app.copy_to_clipboard("a\x1b]0;x\x07b " + os.fsdecode(b"\xe9") + "\x9b\n\tc")
        assert clipboard_payloads[-1] == "a␛]0;x␇b \\xe9<U+009B>\n\tc"
    assert app.return_code in (None, 0)


async def test_no_clipboard_payload_from_the_hostile_corpus_holds_a_control_character(
    hostile_corpus: hostile.HostileFactory, clipboard_payloads: list[str]
) -> None:
    corpus = hostile_corpus(200)
    app = build_app(str(corpus.root), "--no-watch", "--days", "0")
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)

        def copied(expected: int) -> bool:
            return len(clipboard_payloads) == expected

        copies = 0
        for query in ("payload", "named", "heading"):
            await type_query(pilot, app, query)
            await pilot.press("tab")
            for _ in range(min(12, len(rows(app)))):
                await pilot.press("y", "Y", "down")
                copies += 2
                await wait_until(pilot, partial(copied, copies))
            await pilot.press("ctrl+a", "y")  # y waits for ctrl+a to have marked them all
            await wait_until(pilot, partial(copied, copies + 1))
            await pilot.press("Y", "ctrl+u", "slash", "ctrl+u")
            copies += 2
            await wait_until(pilot, partial(copied, copies))
    assert any("␛]52;c;" in payload for payload in clipboard_payloads)  # the names were copied
    assert any("\\x" in payload or "<U+" in payload for payload in clipboard_payloads)
    for payload in clipboard_payloads:
        assert not has_unsafe(payload), payload[:200]
