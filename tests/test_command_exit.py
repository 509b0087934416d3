"""How `rank`, `list` and `health` leave (`cli.entry`): without tearing the interpreter down,
but never before every byte of their output reached the caller, and never with a lost write
reported as success."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memtui.bench.corpus import write_corpus

TODAY = "2026-11-21"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "NO_COLOR": "1",
    }


def memtui(*args: str) -> list[str]:
    return [sys.executable, "-m", "memtui", *args, "--today", TODAY]


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A listing of several hundred kilobytes: more than a pipe holds."""
    root = tmp_path_factory.mktemp("big")
    write_corpus(root, 3000, today=dt.date.fromisoformat(TODAY))
    return root


def test_the_whole_output_reaches_a_pipe(big_folder: Path, env: dict[str, str]) -> None:
    result = subprocess.run(
        memtui("list", str(big_folder), "--json", "--days", "0"),
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert len(result.stdout) > 200_000
    assert len(json.loads(result.stdout)["entries"]) == 3000


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED"])
def test_a_reader_that_leaves_early_ends_it_quietly_as_cut_off(
    big_folder: Path, env: dict[str, str], unbuffered: str
) -> None:
    """`memtui list | head -1`: no traceback, the status the shell gives `cat` killed by
    SIGPIPE (a cut-off listing is not a whole answer), and the cache written all the same."""
    with subprocess.Popen(
        memtui("list", str(big_folder), "--days", "0"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env | {"PYTHONUNBUFFERED": unbuffered},
    ) as listing:
        assert listing.stdout is not None and listing.stderr is not None
        assert listing.stdout.readline()
        listing.stdout.close()
        errors = listing.stderr.read()
        assert listing.wait(timeout=120) == 141
    assert errors == b""
    cache = Path(env["XDG_CACHE_HOME"]) / "memtui"
    deadline = time.monotonic() + 60  # written in a detached child
    while not list(cache.glob("*.cache")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(cache.glob("*.cache"))


FULL_DISK = """
import errno, io, sys
from memtui.cli import entry


class FullDisk(io.StringIO):
    def flush(self):
        raise OSError(errno.ENOSPC, "No space left on device")


sys.stdout = FullDisk()
sys.argv = ["memtui", *sys.argv[1:]]
entry()
"""


def test_output_that_cannot_be_written_is_a_failure_not_a_success(env: dict[str, str]) -> None:
    command = ["rank", "--demo", "-q", "deploy", "--today", TODAY, "--no-cache"]
    result = subprocess.run(
        [sys.executable, "-c", FULL_DISK, *command],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0  # 1 from the error, 120 once Python too fails to flush
    assert b"OSError: [Errno 28] No space left on device" in result.stderr
