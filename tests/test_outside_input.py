"""Everything from outside reaches the terminal, stderr, JSON or the clipboard in visible form.

File text and file names are covered over the whole hostile corpus elsewhere; here each other
way in — ROOT, `--config`, a bad argument, the `-q` query, config values, the environment — is
fed an ESC/OSC/C1/BEL payload, and a file name that is not UTF-8 goes through every output.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Static
from ui_helpers import wait_until

from memtui.bench import hostile
from memtui.cli import build_tui_parser
from memtui.commands.common import dump_json
from memtui.commands.tui import create_app

PAYLOAD = "zebra \x1b]0;QARG-TITLE\x07 \x9b31m x"
RAW = (b"\x1b", b"\x07", "\x9b".encode())


def run_memtui(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args],
        capture_output=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict", **(env or {})},
    )


def assert_visible(output: bytes) -> None:
    assert not [raw for raw in RAW if raw in output], output
    output.decode("utf-8")  # valid UTF-8: no surrogate or stray byte slipped through


@pytest.mark.parametrize(
    "argv",
    [
        ["list", f"/nonexistent/{PAYLOAD}"],
        ["list", "--demo", "--config", f"/nonexistent/{PAYLOAD}.toml"],
        ["rank", "--demo", "-q", "deploy", "--today", PAYLOAD],
        ["list", "--demo", "--bogus", PAYLOAD],
        ["rank", "--demo", "-q", PAYLOAD],
        ["rank", "--demo", "-q", PAYLOAD, "--json"],
    ],
    ids=["root", "config-path", "bad-value", "unknown-argument", "query", "query-json"],
)
def test_arguments_come_back_visible(argv: list[str]) -> None:
    result = run_memtui(*argv)
    assert result.returncode in (0, 1, 2), result.stderr
    assert_visible(result.stdout + result.stderr)


def test_config_values_come_back_visible(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        f'days = "{PAYLOAD}"\n"{PAYLOAD}" = 1\n'.replace("\x1b", "\\u001b")
        .replace("\x07", "\\u0007")
        .replace("\x9b", "\\u009b")
    )
    result = run_memtui("list", "--demo", "--config", str(config))
    assert_visible(result.stdout + result.stderr)
    assert b"QARG-TITLE" in result.stderr


def test_the_environment_comes_back_visible(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "memtui", "list"],
        capture_output=True,
        timeout=120,
        check=False,
        cwd=empty,
        env={
            **os.environ,
            "PYTHONIOENCODING": "utf-8:strict",
            "HOME": str(empty),
            "MEMTUI_DIR": f"/nonexistent/{PAYLOAD}",
        },
    )
    assert result.returncode == 2
    assert b"MEMTUI_DIR" in result.stderr
    assert_visible(result.stderr)


async def test_the_query_argument_is_shown_visibly_in_the_box() -> None:
    args = build_tui_parser().parse_args(["--demo", "--no-watch", "-q", PAYLOAD])
    app = create_app(args, deterministic=True)
    async with app.run_test(size=(120, 36)):
        value = app.screen.query_one("#query").value  # type: ignore[attr-defined]
        assert "\x1b" not in value and "\x07" not in value and "\x9b" not in value
        assert "␛]0;QARG-TITLE␇" in value


@pytest.fixture
def latin1_root(tmp_path: Path) -> Path:
    """A root holding `café.md` named in latin-1: not valid UTF-8 (the name has byte 0xE9)."""
    root = tmp_path / "memory"
    root.mkdir()
    name = os.fsdecode(b"caf\xe9.md")
    (root / name).write_text("## Cafe opening hours\nThe cafe opens at eight.\n")
    (root / "MEMORY.md").write_text("## Other\nnothing here\n")
    return root


@pytest.mark.parametrize(
    "argv",
    [["list", "--json"], ["rank", "-q", "cafe", "--json"], ["list"], ["rank", "-q", "cafe"]],
    ids=["list-json", "rank-json", "list", "rank"],
)
def test_a_non_utf8_file_name_is_shown_as_its_bytes(latin1_root: Path, argv: list[str]) -> None:
    command, *rest = argv
    result = run_memtui(command, str(latin1_root), *rest, "--days", "0")
    assert result.returncode == 0, result.stderr
    assert_visible(result.stdout + result.stderr)
    assert b"caf\\xe9.md" in result.stdout.replace(b"\\\\", b"\\")
    if "--json" in rest:
        payload = json.loads(result.stdout)
        paths = [item["path"] for item in payload.get("entries", payload.get("results", []))]
        assert "caf\\xe9.md" in paths


@pytest.mark.parametrize("command", ["rank", "list", "health"])
def test_a_non_utf8_folder_reads_the_same_in_root_and_root_label(
    tmp_path: Path, command: str
) -> None:
    """With several roots each entry names its folder twice, as a path and as a label."""
    latin1 = tmp_path / os.fsdecode(b"caf\xe9")
    other = tmp_path / "notes"
    for folder in (latin1, other):
        folder.mkdir()
        (folder / "MEMORY.md").write_text("## Cafe opening hours\nThe cafe opens at eight.\n")
    query = ["-q", "cafe"] if command == "rank" else []
    result = run_memtui(command, str(latin1), str(other), *query, "--days", "0", "--json")
    assert result.returncode == (1 if command == "health" else 0), result.stderr  # duplicates
    payload = json.loads(result.stdout)
    items = [
        item
        for key in ("results", "entries")
        if isinstance(payload.get(key), list)
        for item in payload[key]
    ]
    labels = {item["root_label"]: item["root"] for item in items if "root_label" in item}
    labels |= {root["label"]: root["path"] for root in payload.get("roots", [])}
    assert "caf\\xe9" in labels
    for label, path in labels.items():
        assert Path(path).name == label


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (os.fsdecode(b"caf\xe9"), "caf\\xe9"),  # an undecodable file-name byte: its bytes
        ("a\ud800b", "a\ud800b"),  # any other lone surrogate: kept as the same JSON value
        ("bidi\u202eevil", "bidi\u202eevil"),
    ],
)
def test_json_output_is_valid_utf8_and_escapes_what_a_terminal_must_not_get(
    value: str, shown: str
) -> None:
    out = io.StringIO()
    dump_json({"path": value}, out)
    written = out.getvalue()
    written.encode("utf-8")  # a raw lone surrogate cannot be written to a UTF-8 stream
    assert "\u202e" not in written
    assert json.loads(written) == {"path": shown}


def test_hostile_payloads_are_planted_as_expected() -> None:
    """Guard: the payload used here is one the hostile corpus also checks for."""
    assert hostile.ESCAPE_PAYLOADS["osc0_title"].startswith("\x1b]0;")


async def test_the_warnings_view_shows_a_non_utf8_name_as_its_bytes(latin1_root: Path) -> None:
    (latin1_root / os.fsdecode(b"bin\xe9.md")).write_bytes(b"## x\n\x00binary")
    args = build_tui_parser().parse_args([str(latin1_root), "--no-watch", "--days", "0"])
    app = create_app(args, deterministic=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: getattr(app.screen, "engine", None) is not None)
        await pilot.press("tab", "exclamation_mark")
        await wait_until(pilot, lambda: bool(app.screen.query("#warnings-body")))
        body = str(app.screen.query_one("#warnings-body", Static).render())
        assert "bin\\xe9.md" in body and "binary file" in body
        body.encode("utf-8")
