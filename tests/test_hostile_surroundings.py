"""The hostile surroundings (`bench.hostile.build_hostile_surroundings`): history, config, cache
and Claude Code's folder written by an attacker. Every command answers within a bound, with no
traceback and no planted payload reaching the output; each bad config is exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from pty_terminal import Terminal

from memtui.bench import hostile

UP_TO = 60
"""An upper bound (a hang fails the test), not a performance expectation."""


@pytest.fixture(scope="module")
def surroundings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[hostile.HostileSurroundings]:
    built = hostile.build_hostile_surroundings(tmp_path_factory.mktemp("hostile") / "home")
    yield built
    hostile.cleanup_surroundings(built)


def memtui(
    surroundings: hostile.HostileSurroundings, *args: str
) -> subprocess.CompletedProcess[bytes]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        **surroundings.environment,
    }
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args],
        cwd=surroundings.deep_project,
        env=env,
        capture_output=True,
        timeout=UP_TO,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def assert_clean(output: bytes) -> None:
    assert b"Traceback" not in output
    for name, signature in hostile.TERMINAL_SIGNATURES.items():
        assert signature not in output, name
    assert b"\x1bc" not in output


@pytest.mark.parametrize(
    "args",
    [
        ("roots",),
        ("roots", "--all-claude"),
        ("list",),
        ("rank", "-q", "deep"),
        ("cache",),
    ],
    ids=" ".join,
)
def test_commands_answer_cleanly(
    surroundings: hostile.HostileSurroundings, args: tuple[str, ...]
) -> None:
    done = memtui(surroundings, *args)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert_clean(done.stdout + done.stderr)


def test_cache_lists_the_killed_write(surroundings: hostile.HostileSurroundings) -> None:
    done = memtui(surroundings, "cache")
    assert b"did not finish" in done.stdout or b"nested too deeply" in done.stdout


@pytest.mark.parametrize("name", ["nan", "fifo", "zero", "deep"])
def test_each_bad_config_is_exit_2_naming_the_problem(
    surroundings: hostile.HostileSurroundings, name: str
) -> None:
    done = memtui(surroundings, "list", "--config", str(surroundings.bad_configs[name]))
    assert done.returncode == 2
    assert done.stderr.startswith(b"memtui: ") and b"Traceback" not in done.stderr


def test_the_app_over_hostile_surroundings_writes_no_payload(
    surroundings: hostile.HostileSurroundings,
) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        **surroundings.environment,
    }
    argv = [sys.executable, "-m", "memtui", str(surroundings.deep_project), "--no-watch"]
    terminal = Terminal(argv, env, (120, 36))
    try:
        terminal.read_until(lambda: b"entr" in terminal.output)
        for _ in range(40):  # ↑ walks the planted history (loaded in a worker)
            terminal.press(b"\x1b[A")
            if b"recall" in terminal.output:
                break
        terminal.press(b"\x1b[A", times=len(hostile.ESCAPE_PAYLOADS))  # every planted line
        terminal.press(b"\x15\t?")  # the help screen lists the keymap
        terminal.press(b"\x11")
        terminal.wait_exit()
    finally:
        terminal.close()
    assert b"recall" in terminal.output and "␛".encode() in terminal.output  # shown, visible
    assert_clean(bytes(terminal.output))
