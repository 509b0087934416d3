"""`o` opens the entry in context (Pilot): the whole file, read-only, scrolled to the entry, its
lines marked with a glyph, the query lit, hostile text visible, secrets masked, long files whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from ui_helpers import SIZE, build_app, type_query, wait_loaded, wait_until, write

from memtui.core.sanitize import has_unsafe
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.file_view import FileViewScreen
from memtui.ui.screens.main import MainScreen
from memtui.ui.widgets.file_lines import ENTRY_MARK, FileLines

SECRET = "sk-live-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4"


def long_memory(root: Path, filler: int) -> Path:
    before = "".join(f"## Section {n}\n\nplain words {n}\n\n" for n in range(filler))
    after = "".join(f"## Later {n}\n\nmore words {n}\n\n" for n in range(filler))
    write(
        root / "MEMORY.md",
        f"# Memory\n\n{before}## Quokka facts\n\nThe quokka smiles. \x1b]0;title\x07\n"
        f"Key {SECRET}\n\n{after}",
    )
    return root


async def open_file(pilot: Pilot[Any], app: MemtuiApp, *keys: str) -> FileLines:
    await wait_loaded(pilot, app)
    await type_query(pilot, app, "quokka")
    await pilot.press("tab", *keys, "o")
    await wait_until(
        pilot,
        lambda: (
            isinstance(app.screen, FileViewScreen) and bool(app.screen.query_one(FileLines).lines)
        ),
    )
    await pilot.pause()
    return app.screen.query_one(FileLines)


async def test_o_shows_the_whole_file_scrolled_to_the_entry_with_its_lines_marked(
    tmp_path: Path,
) -> None:
    app = build_app(str(long_memory(tmp_path / "root", 400)), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        view = await open_file(pilot, app)
        shown = view.plain_lines()
        marked = [line for line in shown if line.split()[1:2] == [ENTRY_MARK]]
        first, last = view.entry_lines
        assert [int(line.split()[0]) for line in marked] == list(range(first, last + 1))
        assert any("## Quokka facts" in line for line in marked)
        assert any(line.split()[0] == str(first - 1) for line in shown)  # a little before it
        assert "␛]0;title␇" in "\n".join(shown) and not has_unsafe("\n".join(shown))
        assert SECRET not in "\n".join(shown)
        header = str(app.screen.query_one("#file-header").render())
        assert f"MEMORY.md:{first}-{last}" in header and "1 secret masked" in header

        quokka_line = next(y for y, line in enumerate(shown) if "The quokka smiles" in line)
        lit = [
            segment for segment in view.render_line(quokka_line) if segment.text.lower() == "quokka"
        ]
        assert lit and all(segment.style and segment.style.bgcolor for segment in lit)

        await pilot.press("G")
        await wait_until(pilot, lambda: view.scroll_y == view.max_scroll_y)
        assert view.plain_lines()[-1].split()[0] == str(len(view.lines))
        assert len(view.lines) > 3000
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, MainScreen))


async def test_revealed_secrets_show_in_the_file_too(tmp_path: Path) -> None:
    app = build_app(str(long_memory(tmp_path / "root", 3)), "--no-watch")
    async with app.run_test(size=SIZE) as pilot:
        view = await open_file(pilot, app, "r")
        assert SECRET in "\n".join(view.plain_lines())
