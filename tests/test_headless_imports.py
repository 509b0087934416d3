"""Headless commands start without the TUI's libraries: checked in a fresh process each.

`rank`, `list`, `health`, `roots`, `cache`, `--version` and `--help` print and exit; loading
Textual (and Rich under it) would cost them most of their start-up time. Each runs here in its
own interpreter, which reports once the command is done which of those packages `sys.modules`
holds, so a stray import anywhere on the path (a module-level import in a shared helper, say)
is caught, not just imports in the files the layer tests look at. (Not from an exit hook:
`rank`, `list` and `health` leave without running any, see `cli.entry`.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

UI_PACKAGES = ("textual", "rich")

REPORT_WHEN_DONE = """
import sys
from memtui.cli import main

try:
    sys.exit(main(sys.argv[1:]))
finally:  # --version and --help leave from argparse
    loaded = [name for name in {packages!r} if name in sys.modules]
    sys.__stderr__.write("LOADED=" + ",".join(loaded) + "\\n")
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["rank", "--demo", "-q", "deploy"],
        ["rank", "--demo", "-q", "deploy", "--json", "--explain"],
        ["list", "--demo"],
        ["health", "--demo"],
        ["roots"],
        ["cache"],
        ["--version"],
        ["--help"],
    ],
    ids=" ".join,
)
def test_a_headless_command_loads_neither_textual_nor_rich(argv: list[str], tmp_path: Path) -> None:
    env = {
        **os.environ,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "HOME": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "-c", REPORT_WHEN_DONE.format(packages=UI_PACKAGES), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
        env=env,
    )
    assert result.returncode in (0, 1), result.stderr  # `roots` finds no folder here: 1
    assert "Traceback" not in result.stderr, result.stderr
    report = [line for line in result.stderr.splitlines() if line.startswith("LOADED=")]
    assert report == ["LOADED="], f"{' '.join(argv)} loaded {report}"
