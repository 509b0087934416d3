"""A cache is an untrusted file: deep nesting, huge claimed counts and leftovers of a killed write
are damage to warn about and rebuild, never a lock-out or a traceback; a same-size rewrite with
its mtime restored is seen, because a file's signature holds its ctime."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cache_helpers import assert_same_engine, cached_engine, fresh_engine
from test_cache_corrupt import rewritten, sections_of

from memtui.cli import main
from memtui.core.cache import container
from memtui.core.cache.container import MAGIC
from memtui.core.cache.folder import CacheFolder

DEEP = 200_000


def nested_header(path: Path) -> None:
    """A well-formed file around a header of 200,000 nested brackets (RecursionError once)."""
    header = b"[" * DEEP + b"]" * DEEP
    path.write_bytes(MAGIC + header + struct.pack("<Q", len(header)) + MAGIC)


def claimed_count(count: int) -> Callable[[Path], None]:
    """The first file record claims `count` entries (a list of that many paths was made)."""

    def damage(path: Path) -> None:
        _, sections = sections_of(path)
        rows = json.loads(sections["files"])
        rows[0][6] = count
        rewritten(section="files", data=json.dumps(rows).encode())(path)

    return damage


DAMAGES: dict[str, Callable[[Path], None]] = {
    "a header nested 200k deep": nested_header,
    "file records nested 200k deep, with a valid CRC": rewritten(
        section="files", data=b"[" * DEEP + b"]" * DEEP
    ),
    "a file record claiming 10^13 entries": claimed_count(10**13),
    "a file record claiming 3x10^8 entries": claimed_count(3 * 10**8),
    "a negative entry count": claimed_count(-5),
}


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_hostile_cache_files_are_ignored_and_rebuilt(
    memory_root: Path, damage: Callable[[Path], None]
) -> None:
    cached_engine(memory_root).save_cache()
    damage(CacheFolder().file_for(memory_root))
    warm = cached_engine(memory_root)
    assert len(warm.warnings) == 1 and "ignored and rebuilt" in warm.warnings[0]
    assert_same_engine(warm, fresh_engine(memory_root))
    warm.save_cache()
    assert cached_engine(memory_root).warnings == []


def test_rank_answers_when_its_cache_header_is_nested_200k_deep(
    memory_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cached_engine(memory_root).save_cache()
    nested_header(CacheFolder().file_for(memory_root))
    assert main(["rank", "-q", "deploy", str(memory_root)]) == 0
    captured = capsys.readouterr()
    assert "deploy" in captured.out.lower() and "Traceback" not in captured.err
    nested_header(CacheFolder().folder / ("f" * 32 + ".cache"))  # rank rebuilt its own
    assert main(["cache"]) == 0
    listed = capsys.readouterr().out
    assert "Traceback" not in listed and "nested too deeply" in listed


def test_a_fifo_in_place_of_the_cache_file_is_damage_not_a_hang(memory_root: Path) -> None:
    """Opening a FIFO for reading blocks until something writes to it: `rank` and `cache`
    waited forever. A separate process each, so a regression fails on the timeout."""
    cached_engine(memory_root).save_cache()
    cache_file = CacheFolder().file_for(memory_root)
    cache_file.unlink()
    os.mkfifo(cache_file)

    def memtui(*args: str) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-m", "memtui", *args]
        return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)

    listed = memtui("cache")
    assert listed.returncode == 0 and "unreadable: not a regular file" in listed.stdout
    ranked = memtui("rank", "-q", "deploy", str(memory_root), "--days", "0")
    assert ranked.returncode == 0 and "deploy" in ranked.stdout.lower()
    assert "ignored and rebuilt: not a regular file" in ranked.stderr
    deadline = time.monotonic() + 60  # rank writes its cache in a detached child
    while not cache_file.is_file() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert cache_file.is_file()


def test_a_cache_file_evicted_between_the_listing_and_the_open_is_a_plain_miss(
    memory_root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another process's write evicts the least recently used file; a reader that saw it a
    moment before finds it gone. Fault-injected: the open raises what the race gives."""
    cached_engine(memory_root).save_cache()

    def evicted(path: Path) -> int:
        raise FileNotFoundError(2, "No such file or directory", str(path))

    monkeypatch.setattr(container, "open_regular", evicted)
    engine = cached_engine(memory_root)
    assert engine.warnings == []
    assert_same_engine(engine, fresh_engine(memory_root))
    assert main(["cache"]) == 0
    assert "unreadable" not in capsys.readouterr().out


def test_a_killed_write_is_shown_by_cache_and_removed_on_the_next_start(
    memory_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cached_engine(memory_root).save_cache()
    folder = CacheFolder()
    dead = folder.folder / ".tmp-999999999-k1ll3d.part"  # no process has this pid
    dead.write_bytes(b"x" * 1000)
    alive = folder.folder / f".tmp-{os.getpid()}-wr1t1n.part"  # a write still under way
    alive.write_bytes(b"y")
    assert main(["cache"]) == 0
    listed = capsys.readouterr().out
    assert dead.name in listed and "did not finish" in listed and alive.name not in listed
    assert main(["cache", "--json"]) == 0
    leftovers = json.loads(capsys.readouterr().out)["unfinished_writes"]
    assert leftovers == [{"file": dead.name, "bytes": 1000}]
    cached_engine(memory_root)  # the next start
    assert not dead.exists() and alive.exists()


def test_a_same_size_rewrite_with_its_mtime_restored_is_seen(memory_root: Path) -> None:
    target = memory_root / "MEMORY.md"
    target.write_text("# Memory\n\n## Alpha\n\nThe old zebracorn.\n", encoding="utf-8")
    os.utime(target, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    cached_engine(memory_root).save_cache()
    before = os.stat(target)
    target.write_text("# Memory\n\n## Alpha\n\nThe new unicornss.\n", encoding="utf-8")
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))  # as `touch -r` does
    after = os.stat(target)
    assert (after.st_mtime_ns, after.st_size, after.st_ino) == (
        before.st_mtime_ns,
        before.st_size,
        before.st_ino,
    )
    warm = cached_engine(memory_root)
    bodies = " ".join(entry.body for entry in warm.loaded_entries())
    assert "unicornss" in bodies and "zebracorn" not in bodies


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read a mode-000 folder")
def test_a_cache_folder_that_cannot_be_read_is_a_warning(
    memory_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = CacheFolder().folder
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0)
    try:
        assert main(["rank", "-q", "deploy", str(memory_root)]) == 0
        assert "ignored: Permission denied" in capsys.readouterr().err
        assert main(["cache"]) == 0
        assert "the folder cannot be read: Permission denied" in capsys.readouterr().out
    finally:
        folder.chmod(0o700)
