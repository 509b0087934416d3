"""`rank`, `list` and `health` start from the verified cache like the app, write it back after
their output in a detached child, honour `--no-cache` and `cache = false`, and two of them
writing at once leave one whole cache.

The commands run as real processes under a small launcher that adopts their detached
grandchildren (Linux's child subreaper) and waits for every one, so a test sees the cache
only once every write has finished, without sleeping or polling.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cache_helpers import assert_same_engine, fresh_engine

from memtui.core.cache.folder import CacheFolder
from memtui.core.live.engine import Engine
from memtui.core.live.fork import run_detached
from memtui.core.settings.config import Config

LAUNCHER = """
import ctypes, json, os, subprocess, sys
PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
commands = json.loads(sys.argv[1])
running = [
    subprocess.Popen([sys.executable, "-m", "memtui", *argv], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
    for argv in commands
]
results = [(p.returncode, out, err) for p in running for out, err in [p.communicate()]]
while True:  # the detached cache writers were adopted by this process: wait for each one
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        break
print(json.dumps(results))
"""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="child subreaper")


def run_all(*commands: list[str]) -> list[tuple[int, str, str]]:
    """Run the memtui commands at once; (exit code, stdout, stderr) of each, once they and
    every cache write they left behind have finished."""
    done = subprocess.run(
        [sys.executable, "-c", LAUNCHER, json.dumps(commands)],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ.copy(),
    )
    return [(code, out, err) for code, out, err in json.loads(done.stdout)]


def timeless(output: str) -> str:
    """Output without its own timings (`Found 7 (showing 5) in 0.4 ms`, `· 13 ms`)."""
    return re.sub(r"( in | · )[0-9.]+ ms", r"\1… ms", output)


def cached_roots() -> list[str]:
    return [item.root or "" for item in CacheFolder().listing() if item.problem is None]


def readable(root: Path) -> bool:
    snapshot, problem = CacheFolder().read(root, "")
    return snapshot is not None and snapshot.index is not None and problem is None


TODAY = dt.date(2026, 11, 21)
RANK = ["rank", "-q", "deploy", "--days", "0", "--today", TODAY.isoformat()]


def exit_code(command: list[str]) -> int:
    """What a command exits with on the layouts folder: `health` finds things (1)."""
    return 1 if command[0] == "health" else 0


@pytest.mark.parametrize(
    "command",
    [RANK, ["list", "--days", "0"], ["health", "--days", "0", "--today", "2026-11-21"]],
    ids=lambda argv: argv[0],
)
def test_a_command_writes_the_cache_the_next_one_starts_from(
    memory_root: Path, command: list[str]
) -> None:
    ((code, first, _),) = run_all([*command, str(memory_root)])
    assert code == exit_code(command)
    assert cached_roots() == [os.path.realpath(memory_root)] and readable(memory_root)
    warm = Engine(memory_root, Config(), today=TODAY, days=0, cache=CacheFolder())
    warm.load_store()
    assert warm.index_ready  # the index came from the cache: no file was parsed
    ((again, second, warnings),) = run_all([*command, str(memory_root)])
    assert (again, timeless(second), warnings) == (code, timeless(first), "")


def test_a_changed_file_is_read_again_and_the_cache_rewritten(memory_root: Path) -> None:
    run_all([*RANK, str(memory_root)])
    note = memory_root / "memory" / "2026-11-20.md"
    note.write_text("# 2026-11-20\n\n## Zephyrine deploy\n\nRolled the zephyrine build.\n")
    ((code, out, _),) = run_all([*RANK, "-n", "0", str(memory_root)])
    assert code == 0 and "Zephyrine deploy" in out
    snapshot, _ = CacheFolder().read(memory_root, "")
    assert snapshot is not None and snapshot.index is not None
    assert any(entry.title == "Zephyrine deploy" for entry in snapshot.index.slots)


@pytest.mark.parametrize("off", ["--no-cache", "config"])
def test_no_cache_reads_and_writes_nothing(memory_root: Path, tmp_path: Path, off: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text("cache = false\n")
    option = ["--no-cache"] if off == "--no-cache" else ["--config", str(config)]
    for command in (RANK, ["list"], ["health"]):
        ((code, _, _),) = run_all([*command, *option, str(memory_root)])
        assert code == exit_code(command)
    assert cached_roots() == []


def test_a_corrupt_cache_is_ignored_with_a_warning_and_rebuilt(memory_root: Path) -> None:
    ((_, fresh, _),) = run_all([*RANK, "--no-cache", str(memory_root)])
    CacheFolder().folder.mkdir(parents=True)
    CacheFolder().file_for(memory_root).write_bytes(b"memtui-cache\nnot really")
    ((code, out, warnings),) = run_all([*RANK, str(memory_root)])
    assert (code, timeless(out)) == (0, timeless(fresh))
    assert "ignored and rebuilt" in warnings
    assert readable(memory_root)


def test_two_commands_writing_at_once_leave_one_whole_cache(memory_root: Path) -> None:
    results = run_all(*([*command, str(memory_root)] for command in (RANK, ["health"], RANK)))
    assert [code for code, _, _ in results] == [0, 1, 0]  # health: the layouts have findings
    assert readable(memory_root)
    folder = CacheFolder().folder
    assert [path.name for path in folder.iterdir() if path.name.startswith(".tmp-")] == []


def test_detached_work_runs_elsewhere_with_no_terminal_or_pipe_of_ours() -> None:
    """The command goes on at once; what it left runs in another process and session, and
    writes nothing to the streams a caller reads the command's output from."""
    reader, writer = os.pipe()

    def report() -> None:
        streams = [os.readlink(f"/proc/self/fd/{fd}") for fd in (0, 1, 2)]
        facts = [os.getpid(), os.getsid(0), streams]
        os.write(writer, json.dumps(facts).encode())

    assert run_detached(report)
    os.close(writer)
    with os.fdopen(reader) as answer:
        pid, session, streams = json.loads(answer.read())
    assert pid != os.getpid() and session != os.getsid(0)
    assert streams == [os.devnull] * 3


def test_a_commands_engine_ranks_exactly_as_the_apps(memory_root: Path) -> None:
    """Without typo buckets and prefix sums made at load, every query (typos and one-letter
    prefixes included) still ranks the same ids with the same scores and explanations."""
    one_shot = Engine(memory_root, Config(), today=TODAY, days=0, prepare=False)
    one_shot.load()
    assert_same_engine(one_shot, fresh_engine(memory_root))
