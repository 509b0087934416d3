"""The on-disk cache: a warm start equals a fresh load, file by file validation, the folder's
rules (where, how many, never under a root), and a damaged cache is rebuilt, never trusted."""

from __future__ import annotations

import datetime as dt
import os
import threading
import time
from pathlib import Path
from typing import Any

import layouts
import pytest
from cache_helpers import TODAY, assert_same_engine, cached_engine, fresh_engine

from memtui.core.cache import entry_columns, entry_table
from memtui.core.cache.folder import CacheFolder, default_cache_folder
from memtui.core.live.engine import Engine
from memtui.core.live.warm import RootCaches
from memtui.core.settings.config import Config


def cache_file(root: Path) -> Path:
    return CacheFolder().file_for(root)


def test_a_warm_start_equals_a_fresh_load_with_the_index_ready_at_once(
    memory_root: Path,
) -> None:
    cold = cached_engine(memory_root)
    assert cold.cache_stale
    assert cold.save_cache() > 0
    assert not cold.cache_stale
    assert cache_file(memory_root).is_file()
    assert default_cache_folder() == Path(os.environ["XDG_CACHE_HOME"]) / "memtui"
    warm = Engine(memory_root, Config(), today=TODAY, days=0, cache=CacheFolder())
    warm.load_store()
    assert warm.index_ready  # phase 2 has nothing left to build
    warm.build_index()
    assert not warm.cache_stale and warm.warnings == []
    assert_same_engine(warm, fresh_engine(memory_root))


@pytest.mark.parametrize("piece", [1, 2, 5, entry_table.BODY_PIECE])
def test_bodies_decode_a_piece_at_a_time_whatever_their_script(
    memory_root: Path, monkeypatch: pytest.MonkeyPatch, piece: int
) -> None:
    """Bodies are read BODY_PIECE entries at a time and cut at byte offsets: ASCII pieces,
    pieces with multi-byte characters and undecodable bytes all come back as they were
    parsed."""
    (memory_root / "notes/mixed.md").write_text(
        "# Mixed\n\n## Café\n\nNaïve crème ✓ deploy.\n\n## Plain\n\nascii deploy\n\n"
        "## 数据\n\n数据 deploy 🚀\n",
        "utf-8",
    )
    (memory_root / "notes/latin.md").write_bytes(b"# Latin\n\n## Odd\n\nbad \xff byte deploy\n")
    monkeypatch.setattr(entry_columns, "BODY_PIECE", piece)
    monkeypatch.setattr(entry_table, "BODY_PIECE", piece)
    cached_engine(memory_root).save_cache()
    warm = cached_engine(memory_root)
    assert warm.warnings == [] and not warm.cache_stale
    assert_same_engine(warm, fresh_engine(memory_root))
    assert {entry.body for entry in warm.loaded_entries()} == {
        entry.body for entry in fresh_engine(memory_root).loaded_entries()
    }


def test_changed_new_and_deleted_files_are_read_again(memory_root: Path) -> None:
    cached_engine(memory_root).save_cache()
    daily = memory_root / "memory/2026-11-20.md"
    daily.write_text(daily.read_text() + "\n## 22:00 — Deploy again\n\nDeployment of v2.2.\n")
    (memory_root / "notes/loose.md").unlink()
    (memory_root / "notes/new.md").write_text("# New\n\n## Invoice deploy\n\nInvoice run.\n")
    warm = cached_engine(memory_root)
    assert warm.cache_stale  # the changes are applied on top of the cached index
    assert_same_engine(warm, fresh_engine(memory_root))
    warm.save_cache()  # saved from a live index with a delta segment and dead slots
    again = cached_engine(memory_root)
    assert not again.cache_stale
    assert_same_engine(again, fresh_engine(memory_root))


def test_a_same_size_rewrite_in_the_same_tick_is_caught_by_the_content_digest(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    note = root / "MEMORY.md"
    root.mkdir()
    note.write_text("## Deploy\n\nThe canary goes first.\n")
    cached_engine(root).save_cache()
    before = note.stat()
    note.write_text("## Deploy\n\nThe ledger goes first.\n")  # same size, same inode
    os.utime(note, ns=(before.st_atime_ns, before.st_mtime_ns))  # same timestamp tick
    after = note.stat()
    assert (after.st_mtime_ns, after.st_size, after.st_ino) == (
        before.st_mtime_ns,
        before.st_size,
        before.st_ino,
    )
    warm = cached_engine(root)
    assert [hit.entry.body for hit in warm.search("ledger").hits] == ["The ledger goes first."]
    assert_same_engine(warm, fresh_engine(root), ["ledger", "canary", ""])


def test_a_same_size_rewrite_with_another_mtime_is_read_again_on_a_warm_start(
    tmp_path: Path,
) -> None:
    """Long after its last change a file is cached without a content digest, so its stat is
    all that says it changed: an edit that keeps size and inode must still be seen."""
    root = tmp_path / "root"
    note = root / "MEMORY.md"
    root.mkdir()
    note.write_text("## Deploy\n\nThe canary goes first.\n")
    an_hour_ago = time.time_ns() - 3_600 * 10**9
    os.utime(note, ns=(an_hour_ago, an_hour_ago))  # long settled: no digest is kept
    cached_engine(root).save_cache()
    before = note.stat()
    note.write_text("## Deploy\n\nThe ledger goes first.\n")  # same size, same inode
    half_an_hour_ago = an_hour_ago + 1_800 * 10**9
    os.utime(note, ns=(half_an_hour_ago, half_an_hour_ago))  # another mtime, also settled
    after = note.stat()
    assert (after.st_size, after.st_ino) == (before.st_size, before.st_ino)
    assert after.st_mtime_ns != before.st_mtime_ns
    warm = cached_engine(root)
    assert [hit.entry.body for hit in warm.search("ledger").hits] == ["The ledger goes first."]
    assert_same_engine(warm, fresh_engine(root), ["ledger", "canary", ""])


@pytest.mark.parametrize(
    ("days", "today"), [(0, TODAY), (30, TODAY), (3, TODAY), (30, TODAY.replace(day=28))]
)
def test_another_window_or_day_than_the_cached_one(
    memory_root: Path, days: int, today: object
) -> None:
    cached_engine(memory_root, days=30).save_cache()
    assert isinstance(today, type(TODAY))
    warm = cached_engine(memory_root, days=days, today=today)
    assert_same_engine(warm, fresh_engine(memory_root, days=days, today=today))


@pytest.mark.parametrize("shift", [-4, 0, 3])
def test_an_old_daily_note_the_cache_left_unread_is_trusted_only_while_the_window_holds(
    tmp_path: Path, shift: int
) -> None:
    """A cache keeps where its window started: a note it left unread is still hidden while
    the window starts no earlier, without its path being classified again (a tenth of a warm
    50k `rank`). A window that starts earlier (the clock went back) reads it as a fresh load
    does."""
    memory = tmp_path / "memory"
    memory.mkdir()
    for age in (1, 5, 10, 40):
        day = TODAY - dt.timedelta(days=age)
        note = memory / f"{day.isoformat()}.md"
        note.write_text(f"## Day {age}\ndeploy notes {age}\n")
        an_hour_ago = time.time_ns() - 3_600 * 10**9  # settled: its entry count is kept
        os.utime(note, ns=(an_hour_ago, an_hour_ago))
    cold = cached_engine(tmp_path, days=7)
    assert cold.search("deploy").hidden_by_window == 2  # counted, so the cache keeps the counts
    cold.save_cache()
    snapshot = CacheFolder().read(tmp_path, "", days=7)[0]
    assert snapshot is not None and snapshot.unread_before == TODAY - dt.timedelta(days=7)
    today = TODAY + dt.timedelta(days=shift)
    warm = cached_engine(tmp_path, days=7, today=today)
    assert_same_engine(warm, fresh_engine(tmp_path, days=7, today=today), ["deploy", ""])
    oldest = warm.stores[0].records()[f"memory/{(TODAY - dt.timedelta(days=40)).isoformat()}.md"]
    assert oldest.outside and oldest.entries is None
    assert (oldest.known_kind is None) == (shift >= 0)


def test_a_file_name_that_is_not_utf8_stays_warm(memory_root: Path) -> None:
    """Its undecodable byte is a lone surrogate in the cached JSON, which msgspec's decoder
    refuses: the json module reads that section instead, and the start is as warm."""
    name = os.path.join(os.fsencode(memory_root), b"notes", b"caf\xe9.md")
    with open(name, "wb") as note:
        note.write(b"# Caf\xc3\xa9\n\n## Menu\n\ncroissant deploy\n")
    cached_engine(memory_root).save_cache()
    warm = cached_engine(memory_root)
    assert warm.warnings == [] and not warm.cache_stale
    assert any("\udce9" in entry.path for entry in warm.loaded_entries())
    assert_same_engine(warm, fresh_engine(memory_root), ["croissant", "deploy"])


def test_each_window_keeps_a_file_of_its_own_so_alternating_stays_warm(
    memory_root: Path,
) -> None:
    """A script that alternates windows (`rank` every turn, `health --days 0` now and then)
    rewrote the root's one file at each switch and paid a rebuild each time: each window now
    has its file. A window that has none yet starts from the root's widest other file."""
    cached_engine(memory_root, days=30).save_cache()
    wide = cached_engine(memory_root, days=0)  # no file of its own yet: from the 30-day one
    assert wide.warnings == [] and wide.cache_stale
    assert_same_engine(wide, fresh_engine(memory_root, days=0))
    wide.save_cache()
    for days in (30, 0, 30, 0):
        warm = cached_engine(memory_root, days=days)
        assert warm.warnings == [] and not warm.cache_stale
        assert_same_engine(warm, fresh_engine(memory_root, days=days))
    folder = CacheFolder()
    assert sorted(item.days for item in folder.listing() if item.days is not None) == [0, 30]
    all_dates = folder.read(memory_root, "", days=0)[0]
    thirty = folder.read(memory_root, "", days=30)[0]
    narrow = folder.read(memory_root, "", days=7)[0]  # no file: the widest, all dates
    assert all_dates is not None and thirty is not None and narrow is not None
    assert narrow.files == all_dates.files != thirty.files


@pytest.mark.parametrize(("days", "whole"), [(0, True), (7, False)])
def test_a_cached_index_over_every_files_entries_says_so(
    memory_root: Path, days: int, whole: bool
) -> None:
    """All dates: the slots are the files' entries file after file, so a warm start takes a
    file it kept as unchanged without comparing it. 7 days: the window hides part of
    nanobot's HISTORY.md from the index, and files are compared slot by slot."""
    cached_engine(memory_root, days=days).save_cache()
    snapshot = CacheFolder().read(memory_root, "", days=days)[0]
    assert snapshot is not None and snapshot.index is not None
    assert snapshot.index.whole_files is whole
    in_files = [entry for file in snapshot.files for entry in file.entries or ()]
    assert (in_files == list(snapshot.index.slots)) is whole
    history = memory_root / "nanobot/memory/HISTORY.md"
    history.write_text(history.read_text() + "\n[2026-11-21 09:00] Deploy notes moved.\n")
    warm = cached_engine(memory_root, days=days)
    assert warm.warnings == [] and warm.cache_stale
    assert_same_engine(warm, fresh_engine(memory_root, days=days))


def test_one_root_cache_serves_it_among_several_and_back(tmp_path: Path) -> None:
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    layouts.openclaw(alpha)
    layouts.memory_bank(beta)
    cached_engine(alpha).save_cache()  # written with no label
    several = cached_engine(alpha, beta)  # alpha relabelled; beta not cached yet
    assert_same_engine(several, fresh_engine(alpha, beta))
    several.save_cache()
    warm = cached_engine(alpha, beta)
    assert warm.index_ready and not warm.cache_stale
    assert_same_engine(warm, fresh_engine(alpha, beta))
    alone = cached_engine(beta)  # written with label "beta", read with none
    assert_same_engine(alone, fresh_engine(beta))


def test_a_cache_read_under_another_label_is_relabelled_without_making_entries(
    tmp_path: Path,
) -> None:
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    layouts.openclaw(alpha)
    layouts.memory_bank(beta)
    cached_engine(alpha).save_cache()  # written with no label
    snapshot = CacheFolder().read(alpha, "alpha")[0]
    assert snapshot is not None and snapshot.index is not None
    views = [file.entries for file in snapshot.files if file.entries is not None]
    assert views and all(isinstance(view, entry_table.TableView) for view in views)
    assert snapshot.index.whole_files  # the index's slots are the table's rows, as unlabelled
    relabelled = [(entry.root, entry.id) for view in views for entry in view]
    fresh = fresh_engine(alpha, beta).loaded_entries()
    assert sorted(relabelled) == sorted((e.root, e.id) for e in fresh if e.root == "alpha")
    assert [entry.id for entry in snapshot.index.slots] == [id for _, id in relabelled]


def test_the_cache_is_capped_to_the_most_recently_used_roots(tmp_path: Path) -> None:
    folder = CacheFolder(keep=3)
    roots = [tmp_path / f"root{number}" for number in range(4)]
    for age, root in enumerate(roots[:3]):
        layouts.openclaw(root)
        cached_engine(root, cache=folder).save_cache()
        os.utime(folder.file_for(root), (1_000_000 + age, 1_000_000 + age))  # 0 is the oldest
    cached_engine(roots[0], cache=folder)  # reading root0 makes it the most recently used
    layouts.openclaw(roots[3])
    cached_engine(roots[3], cache=folder).save_cache()  # a fourth root: root1 has to go
    kept = {item.root for item in folder.listing()}
    assert kept == {os.path.realpath(roots[number]) for number in (0, 2, 3)}
    assert folder.clear()[0] == 3 and folder.listing() == []


def test_a_cache_folder_inside_the_root_is_never_written(tmp_path: Path) -> None:
    root = tmp_path / "home"
    layouts.openclaw(root)
    folder = CacheFolder(root / ".cache" / "memtui")
    engine = cached_engine(root, cache=folder)
    assert engine.save_cache() == 0
    assert not (root / ".cache").exists()
    assert any("never writes there" in warning for warning in engine.warnings)
    assert_same_engine(engine, fresh_engine(root))


def test_an_unwritable_cache_folder_is_a_warning(tmp_path: Path, memory_root: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    engine = cached_engine(memory_root, cache=CacheFolder(blocker / "memtui"))
    assert engine.save_cache() == 0
    assert any("could not write the cache" in warning for warning in engine.warnings)


def test_two_writers_and_a_reader_never_see_half_a_file(memory_root: Path) -> None:
    """Two instances saving at once, a third starting meanwhile: every read is a whole file."""
    engines = [cached_engine(memory_root) for _ in range(2)]
    problems: list[str] = []
    done = threading.Event()

    def write(engine: Engine) -> None:
        for _ in range(6):
            engine._caches.dirty = True
            engine.save_cache()

    def read() -> None:
        while not done.is_set():
            _, problem = CacheFolder().read(memory_root, "")
            if problem:
                problems.append(problem)

    reader = threading.Thread(target=read)
    writers = [threading.Thread(target=write, args=(engine,)) for engine in engines]
    reader.start()
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    reader.join()
    assert problems == []
    assert not [path for path in CacheFolder().folder.iterdir() if path.name.startswith(".tmp")]
    assert_same_engine(cached_engine(memory_root), fresh_engine(memory_root))


def test_a_write_that_a_change_overtakes_is_not_remembered(
    memory_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file changed while the cache was being written: what was written holds the file's old
    entries, so the engine must neither call the cache current nor keep those entries."""
    engine = Engine(memory_root, Config(), today=TODAY, days=0, cache=CacheFolder())
    engine.load()
    changed = memory_root / "MEMORY.md"
    write = RootCaches.write

    def overtaken(caches: RootCaches, *args: Any) -> Any:
        written = write(caches, *args)
        changed.write_text(changed.read_text("utf-8") + "\n## Overtaken\n\nlate words\n")
        engine.apply_changes([changed])
        return written

    monkeypatch.setattr(RootCaches, "write", overtaken)
    engine.save_cache()
    assert engine.cache_stale and engine._caches.cached == [None]
    assert engine.search("overtaken").total_matches == 1
