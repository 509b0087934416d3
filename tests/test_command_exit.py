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


def closed(stream: int, command: list[str]) -> list[str]:
    """`command` run by a shell with one of its standard streams closed (`>&-`, `2>&-`)."""
    return ["sh", "-c", f'"$@" {stream}>&-', "sh", *command]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "command", [["rank", "deploy", "--demo", "--no-cache"], ["roots"], ["cache"]]
)
def test_output_that_cannot_be_written_is_an_error_not_a_success(
    env: dict[str, str], command: list[str]
) -> None:
    """`> /dev/full` (a full disk): one line on stderr and exit 2, not a traceback, not 1
    ("no results"), not 0 with nothing written."""
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "memtui", *command],
            stdout=full,
            stderr=subprocess.PIPE,
            env=env,
            timeout=120,
            check=False,
        )
    assert result.returncode == 2
    assert result.stderr == b"memtui: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("command", [["rank", "deploy", "--demo"], ["roots"], ["--version"]])
def test_a_closed_stdout_is_an_error(env: dict[str, str], command: list[str]) -> None:
    result = subprocess.run(
        closed(1, [sys.executable, "-m", "memtui", *command]),
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    if command == ["--version"]:  # the app draws on the terminal, not on stdout
        assert result.returncode == 0
    else:
        assert result.returncode == 2
        assert result.stderr == b"memtui: cannot write the output: standard output is closed\n"


def test_a_closed_stderr_keeps_its_notes_out_of_the_output(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """`memtui rank … --json 2>&-`: with stderr closed, Python's `print(file=sys.stderr)`
    wrote the note for stderr into stdout, ahead of the JSON, and the exit failed."""
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".openclaw" / "workspace").mkdir(parents=True)
    (home / ".openclaw" / "workspace" / "MEMORY.md").write_text("# Agent\n\n## Deploy\nvia ci\n")
    project.mkdir()
    (project / "MEMORY.md").write_text("# Project\n\n## Deploy\nvia make\n")
    command = [sys.executable, "-m", "memtui", "rank", "deploy", "--json"]
    run = {"env": env | {"HOME": str(home)}, "cwd": project, "timeout": 120, "check": False}
    noted = subprocess.run(command, capture_output=True, **run)  # type: ignore[call-overload]
    assert b"more memory folder found" in noted.stderr  # the note is there to be misplaced
    result = subprocess.run(closed(2, command), capture_output=True, **run)  # type: ignore[call-overload]
    assert result.returncode == 0
    assert json.loads(result.stdout)["results"]


PLUGGED = """
import sys
from memtui.standard_streams import plug_closed
plug_closed()
print([stream.fileno() for stream in (sys.__stdin__, sys.stdin, sys.__stderr__, sys.stderr)])
"""


def test_a_closed_stdin_or_stderr_is_a_stream_on_the_null_device(env: dict[str, str]) -> None:
    """`memtui <&-`: Textual's driver takes `sys.__stdin__.fileno()`, and Python had left it
    None, so the app ended at once with exit 1 (a traceback, on a closed stderr, unseen)."""
    result = subprocess.run(
        ["sh", "-c", '"$@" <&- 2>&-', "sh", sys.executable, "-c", PLUGGED],
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout == b"[0, 0, 2, 2]\n"
