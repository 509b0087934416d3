"""`memtui pick`: the app as a picker. enter hands on the marked entries (or the selected one,
or with --multi every result), esc and ctrl+c hand on nothing; the output in every format holds
no control character or escape sequence; the real command in a terminal prints only the choice
to stdout while the app draws on the terminal (see also test_pick_terminal.py)."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from pty_terminal import DOWN, TERMINAL_RESTORED, Terminal
from textual.pilot import Pilot
from ui_helpers import SIZE, TODAY, picker, rows, type_query, wait_loaded, wait_until, write

from memtui.bench import hostile
from memtui.cli import build_parser
from memtui.commands.pick import FORMATS, write_hand_off
from memtui.commands.rank import run_rank
from memtui.core.sanitize import has_unsafe
from memtui.ui.app import MemtuiApp
from memtui.ui.handoff import HandOff

CITATION_LINE = re.compile(r"^(\S.*):(\d+)(?:-(\d+))? \((.+), (long_term|daily|note)\)$")


def printed(handed: HandOff, form: str) -> str:
    stream = io.StringIO()
    write_hand_off(handed, form, stream)
    return stream.getvalue()


async def pick(pilot: Pilot[Any], app: MemtuiApp, query: str, *keys: str) -> None:
    await wait_loaded(pilot, app)
    await type_query(pilot, app, query)
    await pilot.press(*keys)
    await wait_until(pilot, lambda: not app.is_running)


def rank_json(*argv: str) -> dict[str, Any]:
    out = io.StringIO()
    run_rank(build_parser("rank").parse_args([*argv, "--today", TODAY.isoformat(), "--json"]), out)
    loaded: dict[str, Any] = json.loads(out.getvalue())
    return loaded


async def test_enter_hands_on_the_marked_entries_in_every_format(tmp_path: Path) -> None:
    root = write(
        tmp_path / "root" / "MEMORY.md",
        "# M\n\n## Deploy checklist\n\nDeploy after CI.\n\n## Rollback\n\n"
        "Roll back a deploy.\n\n## Deploy keys\n\nsk-live-a1B2c3D4e5F6g7H8i9J0k1L2m3\n",
    ).parent
    app = picker(str(root))
    async with app.run_test(size=SIZE) as pilot:
        await pick(pilot, app, "deploy", "tab", "down", "space", "up", "space", "enter")
    handed = app.handed_off
    assert handed is not None and handed.query == "deploy"
    assert len(handed.picked) == 2
    second, first = (item.hit for item in handed.picked)
    assert second is not None and first is not None and (second.rank, first.rank) == (2, 1)

    cited = printed(handed, "cite").splitlines()
    assert cited == [
        f"MEMORY.md:{hit.entry.line_start}-{hit.entry.line_end}" for hit in (second, first)
    ]
    markdown = printed(handed, "md")
    headings = [line for line in markdown.splitlines() if CITATION_LINE.match(line)]
    assert [line.split(" (")[0] for line in headings] == cited
    assert "\n> Deploy after CI." in markdown or "\n> Roll back a deploy." in markdown

    payload = json.loads(printed(handed, "json"))
    ranked = rank_json("-q", "deploy", str(root))
    rank_result = ranked["results"][0]
    assert [list(item) for item in payload["results"]] == [[*rank_result, "text"]] * 2
    assert all(item["text"].startswith("## ") for item in payload["results"])
    assert [item["rank"] for item in payload["results"]] == [2, 1]
    assert payload["query"] == "deploy" and payload["roots"] == ranked["roots"]


@pytest.mark.parametrize("key", ["escape", "ctrl+c"])
async def test_esc_and_ctrl_c_hand_on_nothing(key: str) -> None:
    app = picker("--demo")
    async with app.run_test(size=SIZE) as pilot:
        await pick(pilot, app, "deploy", "tab", "space", key)
    assert app.handed_off is None


async def test_nothing_marked_hands_on_the_selected_entry_or_with_multi_every_result() -> None:
    app = picker("--demo")
    async with app.run_test(size=SIZE) as pilot:
        await pick(pilot, app, "deploy", "down", "down", "enter")  # enter in the query box
    assert app.handed_off is not None
    assert [item.hit.rank for item in app.handed_off.picked if item.hit] == [3]

    app = picker("--demo", multi=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await type_query(pilot, app, "deploy")
        total = app.screen.result.total_matches  # type: ignore[attr-defined]
        assert rows(app)[0].startswith("  ")  # the picker shows the mark gutter from the start
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.is_running)
    assert app.handed_off is not None
    assert len(app.handed_off.picked) == total > 3


async def test_no_pick_output_from_the_hostile_corpus_holds_a_control_character(
    hostile_corpus: hostile.HostileFactory,
) -> None:
    corpus = hostile_corpus(200)
    for query in ("payload", "named"):
        app = picker(str(corpus.root), "--days", "0")
        async with app.run_test(size=SIZE) as pilot:
            await pick(pilot, app, query, "tab", "ctrl+a", "enter")
        handed = app.handed_off
        assert handed is not None and len(handed.picked) >= 6
        outputs = {form: printed(handed, form) for form in FORMATS}
        assert "␛" in outputs["cite"] + outputs["md"]  # the hostile names and text were there
        for form, output in outputs.items():
            assert not has_unsafe(output), (form, output[:300])
        assert json.loads(outputs["json"])["results"]


def test_the_real_picker_prints_only_the_choice_to_stdout(tmp_path: Path) -> None:
    """As a person would: `memtui pick --demo -q deploy > out.md`, tab, space, ↓, space, enter."""
    out = tmp_path / "out.md"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "OUT": str(out),
    }
    memtui = [
        sys.executable,
        "-m",
        "memtui",
        "pick",
        "--demo",
        "-q",
        "deploy",
        "--no-watch",
        "--today",
        TODAY.isoformat(),
    ]
    terminal = Terminal(["/bin/sh", "-c", 'exec "$@" > "$OUT"', "sh", *memtui], env, (120, 36))
    try:
        terminal.read_until(lambda: b"matches" in terminal.output)
        terminal.settle()
        tabbed = len(terminal.output)
        terminal.press(b"\t")  # to the results, whose footer offers "space Mark"
        terminal.read_until(lambda: b"Mark" in terminal.output[tabbed:])
        for key in (b" ", DOWN, b" "):
            terminal.press(key)
        before = len(terminal.output)
        terminal.press(b"\r")
        code = terminal.wait_exit()
    finally:
        terminal.close()
    assert code == 0
    for sequence in TERMINAL_RESTORED:
        assert sequence in terminal.output[before:], sequence
    written = out.read_bytes()
    assert b"\x1b" not in written and not has_unsafe(written.decode("utf-8"))
    headings = [line for line in written.decode().splitlines() if CITATION_LINE.match(line)]
    top = rank_json("-q", "deploy", "--demo", "-n", "2")["results"]
    assert [line.split(" (")[0] for line in headings] == [
        f"{hit['path']}:{hit['line_start']}-{hit['line_end']}" for hit in top
    ]
