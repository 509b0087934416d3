"""The store on real temp folders: scanning, the date window, incremental changes, traps."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import layouts
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.core.live.snapshot import PathIndex, Snapshot
from memtui.core.live.store import Store
from memtui.core.model import Source
from memtui.core.places.loads import session_load
from memtui.core.reading.walk import MAX_DEPTH, MAX_FILE_BYTES

TODAY = dt.date(2026, 11, 21)
MUTATING_EVENTS = frozenset({"os.remove", "os.rename", "os.mkdir", "os.rmdir", "shutil.rmtree"})


def loaded(root: Path, days: int = 30) -> Store:
    store = Store(root, days=days, today=TODAY)
    store.load()
    return store


def reasons(store: Store) -> dict[str, str]:
    return {skipped.path: skipped.reason for skipped in store.skipped}


def titles(store: Store, path: str) -> list[str]:
    return [entry.title for entry in store.entries_in(path)]


def test_loads_every_layout(memory_root: Path) -> None:
    store = loaded(memory_root)
    paths = store.paths()
    for expected in (
        "MEMORY.md",
        ".claude/memory/MEMORY.md",
        "memory/2026-11-20.md",
        "miniclaw/memory/2026-11-21.md",
        "nanobot/memory/HISTORY.md",
        "picoclaw/202611/20261119.md",
        "memory-bank/decisionLog.md",
        "basic-memory/2026-04-17 - store durable decisions.md",
    ):
        assert expected in paths
    assert "memory/2026-09-01.md" not in paths
    assert titles(store, "memory/2026-11-20.md") == ["09:14 — Deploy", "Customer call (20:28 UTC)"]
    assert all(entry.id == key for key, entry in store.entries.items())
    assert store.skipped == ()


def test_window_hides_old_daily_notes_and_counts_them(memory_root: Path) -> None:
    store = loaded(memory_root, days=30)
    assert store.hidden_by_window == 2
    everything = loaded(memory_root, days=0)
    assert everything.hidden_by_window == 0
    assert len(everything.entries) == len(store.entries) + 2
    old_basic_memory = everything.entries_in("basic-memory/2026-04-17 - store durable decisions.md")
    assert old_basic_memory and store.entries_in(old_basic_memory[0].path) == old_basic_memory


def test_hidden_count_follows_changes(memory_root: Path) -> None:
    store = loaded(memory_root, days=30)
    assert store.hidden_by_window == 2
    old = memory_root / "memory/2026-08-01.md"
    old.write_text("## 09:00\n\nx\n\n## 10:00\n\ny\n\n## 11:00\n\nz\n")
    assert store.apply_changes([old]).empty
    assert store.hidden_by_window == 5
    old.unlink()
    store.apply_changes([old])
    assert store.hidden_by_window == 2


def test_counting_hidden_entries_skips_an_old_binary_note(tmp_path: Path) -> None:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory/2026-01-01.md").write_bytes(b"## a\n\x00\x01")
    (tmp_path / "memory/2026-01-02.md").write_text("# 2026-01-02\n\n## a\n\nx\n\n## b\n")
    store = loaded(tmp_path, days=30)
    assert store.skipped == ()
    assert store.hidden_by_window == 2
    assert "binary" in reasons(store)["memory/2026-01-01.md"]
    assert store.set_window(0).paths == ("memory/2026-01-02.md",)


def test_history_is_windowed_per_entry(tmp_path: Path) -> None:
    (tmp_path / "HISTORY.md").write_text(
        "[2026-11-20 10:00] recent\n\n[2026-09-01 10:00] old\n\n[2026-11-01] also recent\n"
    )
    store = loaded(tmp_path, days=30)
    assert titles(store, "HISTORY.md") == ["recent", "also recent"]
    assert store.hidden_by_window == 1


def test_set_window_loads_and_unloads(memory_root: Path) -> None:
    store = loaded(memory_root, days=30)
    before = len(store.entries)
    widened = store.set_window(0)
    assert len(widened.added) == 2
    assert widened.paths == ("memory/2026-09-01.md",)
    assert len(store.entries) == before + 2
    narrowed = store.set_window(30)
    assert narrowed.removed == widened.added
    assert len(store.entries) == before
    assert store.hidden_by_window == 2


def test_entry_ids_are_stable_across_reloads(memory_root: Path) -> None:
    assert set(loaded(memory_root).entries) == set(loaded(memory_root).entries)


def test_edit_reports_added_and_updated(memory_root: Path) -> None:
    store = loaded(memory_root)
    daily = memory_root / "memory/2026-11-20.md"
    daily.write_text(daily.read_text() + "\n## 21:00 — Late\n\nOne more.\n")
    change = store.apply_changes([daily])
    assert len(change.added) == 1
    assert change.paths == ("memory/2026-11-20.md",)
    assert change.per_path[0] == ("memory/2026-11-20.md", 1, 0, 0)  # the others only moved
    assert titles(store, "memory/2026-11-20.md")[-1] == "21:00 — Late"


def test_an_edit_counts_as_updated_only_the_entries_whose_text_changed(tmp_path: Path) -> None:
    """An append moves every entry's place in the file: only the edited one is 'updated'."""
    note = tmp_path / "MEMORY.md"
    note.write_text("## A\n\none\n\n## B\n\ntwo\n\n## C\n\nthree\n")
    store = loaded(tmp_path)
    note.write_text("## A\n\none\n\n## B\n\ntwo, edited\n\n## C\n\nthree\n\n## D\n\nfour\n")
    change = store.apply_changes([note])
    assert change.per_path == (("MEMORY.md", 1, 0, 1),)
    assert len(change.updated) >= 1  # the index still hears of every entry that moved


def test_same_size_rewrite_with_the_same_mtime_is_still_seen(tmp_path: Path) -> None:
    note = tmp_path / "MEMORY.md"
    note.write_text("## Alpha\n")
    store = loaded(tmp_path)
    stamp = note.stat().st_mtime_ns
    with open(note, "r+") as handle:  # same inode, same size, mtime forced back
        handle.write("## Omega\n")
    os.utime(note, ns=(stamp, stamp))
    store.apply_changes([note])
    assert titles(store, "MEMORY.md") == ["Omega"]


def test_unchanged_hint_is_an_empty_change(memory_root: Path) -> None:
    store = loaded(memory_root)
    assert store.apply_changes(["MEMORY.md", memory_root / "nowhere.md"]).empty


def test_new_file_and_delete(memory_root: Path) -> None:
    store = loaded(memory_root)
    new = memory_root / "memory/2026-11-21.md"
    new.write_text("## 08:00\n\nfresh\n")
    added = store.apply_changes([str(new)])
    assert len(added.added) == 1
    new.unlink()
    removed = store.apply_changes([str(new)])
    assert removed.removed == added.added
    assert "memory/2026-11-21.md" not in store.paths()


def test_atomic_save_via_rename(memory_root: Path) -> None:
    store = loaded(memory_root)
    target = memory_root / "muxcode/build.md"
    temp = memory_root / "muxcode/.build.md.tmp"
    temp.write_text("# Build role\n\n## Only section\n\nx\n")
    os.replace(temp, target)
    change = store.apply_changes([temp, target])
    assert titles(store, "muxcode/build.md") == ["Only section"]
    assert len(change.removed) == 2 and len(change.added) == 1


def test_folder_hint_rescans_the_folder(memory_root: Path) -> None:
    store = loaded(memory_root)
    shutil.rmtree(memory_root / "memory-bank")
    (memory_root / "memory/new").mkdir()
    (memory_root / "memory/new/topic.md").write_text("## Topic\n\nx\n")
    change = store.apply_changes([memory_root / "memory-bank", memory_root / "memory"])
    assert not any(path.startswith("memory-bank/") for path in store.paths())
    assert "memory/new/topic.md" in store.paths()
    assert len(change.added) == 1


def test_one_batch_of_overlapping_hints(memory_root: Path) -> None:
    store = loaded(memory_root)
    (memory_root / "memory/2026-11-21.md").write_text("## 08:00\n")
    (memory_root / "memory/2026-11-20.md").unlink()
    hints: list[str | Path] = [
        memory_root / "memory",
        memory_root / "memory/2026-11-21.md",
        "memory/2026-11-20.md",
    ]
    change = store.apply_changes(hints)
    assert {row[0] for row in change.per_path} == {"memory/2026-11-20.md", "memory/2026-11-21.md"}
    assert (len(change.added), len(change.removed)) == (1, 2)


def test_file_replaced_by_folder(memory_root: Path) -> None:
    store = loaded(memory_root)
    target = memory_root / "notes/loose.md"
    target.unlink()
    target.mkdir()
    (target / "inner.md").write_text("## Inner\n")
    store.apply_changes([target])
    assert "notes/loose.md" not in store.paths()
    assert "notes/loose.md/inner.md" in store.paths()


def test_root_vanishes_and_comes_back(memory_root: Path, tmp_path: Path) -> None:
    store = loaded(memory_root)
    count = len(store.entries)
    moved = tmp_path / "moved"
    memory_root.rename(moved)
    gone = store.apply_changes([memory_root / "MEMORY.md"])
    assert len(gone.removed) == count
    assert store.entries == {}
    moved.rename(memory_root)
    back = store.apply_changes([memory_root])
    assert len(back.added) == count


def test_relative_root(memory_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(memory_root.parent)
    store = loaded(Path(memory_root.name))
    assert store.root == memory_root
    assert "MEMORY.md" in store.paths()
    monkeypatch.chdir("/")
    assert store.apply_changes([memory_root / "MEMORY.md"]).empty


def test_missing_root_loads_nothing(tmp_path: Path) -> None:
    store = loaded(tmp_path / "absent")
    assert store.entries == {} and store.paths() == []
    (tmp_path / "absent").mkdir()
    (tmp_path / "absent/MEMORY.md").write_text("## A\n")
    assert len(store.apply_changes([tmp_path / "absent/MEMORY.md"]).added) == 1


def test_hints_outside_the_root_are_ignored(memory_root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("## Outside\n")
    store = loaded(memory_root)
    assert store.apply_changes([outside, "../outside.md"]).empty


# --- file-system traps ---------------------------------------------------------------------------


def test_symlinks(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    outside = tmp_path / "secret.md"
    outside.write_text("## Secret\n")
    (root / "real.md").write_text("## Real\n")
    (root / "leak.md").symlink_to(outside)
    (root / "alias.md").symlink_to(root / "real.md")
    (root / "loop.md").symlink_to(root / "loop.md")
    (root / "broken.md").symlink_to(root / "nowhere.md")
    (root / "sub").mkdir()
    (root / "sub/up").symlink_to(root)
    (root / "escape").symlink_to(tmp_path)
    store = loaded(root)
    assert store.paths() == ["real.md"]
    why = reasons(store)
    assert why["alias.md"] == "symlink to real.md, read under its own name"
    assert "leaves the memory folder" in why["leak.md"]
    assert "leaves the memory folder" in why["escape"]
    assert "not followed" in why["sub/up"]
    assert "loop.md" in why and "broken.md" in why
    assert all("Secret" not in entry.title for entry in store.entries.values())


def test_a_link_to_a_file_read_under_its_own_name_is_read_once(tmp_path: Path) -> None:
    """`memory/MEMORY.md -> ../MEMORY.md` and `CLAUDE.md -> AGENTS.md` gave every entry twice.
    A link still brings in a target the scan passes over, and a watcher's rescan of the link
    decides the same way."""
    root = tmp_path / "root"
    (root / "memory").mkdir(parents=True)
    (root / "node_modules").mkdir()
    (root / "MEMORY.md").write_text("## Deploy\ndeploy on fridays\n")
    (root / "memory" / "MEMORY.md").symlink_to("../MEMORY.md")
    (root / "AGENTS.md").write_text("## Agents\nagent notes\n")
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    (root / "node_modules" / "kept.md").write_text("## Kept\nonly reachable by its link\n")
    (root / "kept.md").symlink_to("node_modules/kept.md")
    store = loaded(root)
    assert store.paths() == ["AGENTS.md", "MEMORY.md", "kept.md"]
    assert reasons(store)["memory/MEMORY.md"] == "symlink to MEMORY.md, read under its own name"
    (root / "memory" / "MEMORY.md").touch()
    store.apply_changes([root / "memory" / "MEMORY.md", root / "CLAUDE.md"])
    assert store.paths() == ["AGENTS.md", "MEMORY.md", "kept.md"]
    limited = Store(root, days=30, today=TODAY, only=("CLAUDE.md",))
    limited.load()
    assert limited.paths() == ["CLAUDE.md"]  # its target is outside what this root reads
    loads = {file.path for file in session_load("claude", root).files}
    assert {"CLAUDE.md", "AGENTS.md"} <= loads  # an agent reads both names


def test_a_file_the_root_names_is_read_through_a_link_that_leaves_it(tmp_path: Path) -> None:
    """`~/.claude/CLAUDE.md -> ~/dotfiles/CLAUDE.md` (stow, chezmoi): the agent loads the file
    by that name, so its text is what the agent sees; skipping it left the user's instructions
    out without a word on stderr. Any other link out of the root is still not followed, and a
    link to a folder or a device never is."""
    dotfiles, claude = tmp_path / "dotfiles", tmp_path / "claude"
    dotfiles.mkdir()
    claude.mkdir()
    (dotfiles / "CLAUDE.md").write_text("## Style\nprefer small commits\n")
    (dotfiles / "other.md").write_text("## Other\nnot named\n")
    (claude / "CLAUDE.md").symlink_to(dotfiles / "CLAUDE.md")
    (claude / "rules").mkdir()
    (claude / "rules" / "other.md").symlink_to(dotfiles / "other.md")
    (claude / "CLAUDE.local.md").symlink_to("/dev/zero")
    named = ("CLAUDE.md", "CLAUDE.local.md", "rules")
    store = Store(claude, days=30, today=TODAY, only=named)
    store.load()
    assert store.paths() == ["CLAUDE.md"]
    assert [entry.title for entry in store.entries.values()] == ["Style"]
    why = reasons(store)
    assert why["rules/other.md"] == "symlink leaves the memory folder (not followed)"
    assert "never opened" in why["CLAUDE.local.md"]
    (dotfiles / "CLAUDE.md").write_text("## Style\nprefer small commits\n## Tests\nrun them\n")
    store.apply_changes([claude / "CLAUDE.md"])  # the watcher's rescan decides the same way
    assert [entry.title for entry in store.entries.values()] == ["Style", "Tests"]
    loads = session_load("claude-md", claude, named).files
    assert [(file.path, file.loaded) for file in loads] == [("CLAUDE.md", 48)]


def test_fifo_socket_and_device_are_never_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "sock.md"))
        (tmp_path / "dev.md").symlink_to("/dev/zero")
        (tmp_path / "ok.md").write_text("## Fine\n")
        store = loaded(tmp_path)
    assert store.paths() == ["ok.md"]
    why = reasons(store)
    assert "never opened" in why["pipe.md"]
    assert "never opened" in why["sock.md"]
    assert "dev.md" in why


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything")
def test_unreadable_file_and_folder(tmp_path: Path) -> None:
    (tmp_path / "locked.md").write_text("## Locked\n")
    (tmp_path / "locked.md").chmod(0)
    (tmp_path / "closed").mkdir()
    (tmp_path / "closed/a.md").write_text("## A\n")
    (tmp_path / "closed").chmod(0)
    try:
        why = reasons(loaded(tmp_path))
    finally:
        (tmp_path / "closed").chmod(0o700)
    assert "permission denied" in why["locked.md"]
    assert "permission denied" in why["closed"]


def test_deep_tree_has_no_recursion_error(tmp_path: Path) -> None:
    folder = tmp_path
    descriptor = os.open(tmp_path, os.O_RDONLY)
    try:
        for _ in range(1200):  # build relative to a descriptor: absolute paths get too long
            os.mkdir("d", dir_fd=descriptor)
            child = os.open("d", os.O_RDONLY, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = child
        with open(os.open("deep.md", os.O_WRONLY | os.O_CREAT, dir_fd=descriptor), "w") as f:
            f.write("## Deep\n")
    finally:
        os.close(descriptor)
    (folder / "top.md").write_text("## Top\n")
    try:
        store = loaded(tmp_path)
        assert store.paths() == ["top.md"]
        (deepest,) = store.skipped
        assert deepest.path.count("/") == MAX_DEPTH
        assert "deeper than" in deepest.reason
    finally:
        flatten_and_remove(tmp_path / "d")


def flatten_and_remove(top: Path) -> None:
    """Delete a very deep d/d/d… chain level by level (shutil.rmtree would recurse too deep)."""
    spare = top.with_name("spare")
    while (top / "d").exists():
        os.rename(top / "d", spare)
        shutil.rmtree(top)
        os.rename(spare, top)
    shutil.rmtree(top)


def test_folder_named_like_markdown_and_ignored_folders(tmp_path: Path) -> None:
    (tmp_path / "x.md").mkdir()
    (tmp_path / "x.md/inside.md").write_text("## Inside\n")
    for name in (".git", "node_modules", ".venv"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "README.md").write_text("## Tooling\n")
    (tmp_path / ".claude/memory").mkdir(parents=True)
    (tmp_path / ".claude/memory/MEMORY.md").write_text("## Kept\n")
    (tmp_path / "notes.txt").write_text("not markdown")
    store = loaded(tmp_path)
    assert store.paths() == [".claude/memory/MEMORY.md", "x.md/inside.md"]
    assert set(reasons(store)) == {".git", "node_modules", ".venv"}
    assert store.apply_changes([tmp_path / "node_modules/README.md"]).empty


def test_thousands_of_files(tmp_path: Path) -> None:
    for index in range(3000):
        (tmp_path / f"n{index}.md").write_text(f"## Note {index}\n")
    assert len(loaded(tmp_path).entries) == 3000


def test_binary_and_invalid_utf8(tmp_path: Path) -> None:
    (tmp_path / "image.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (tmp_path / "latin1.md").write_bytes("## Caf\xe9\n".encode("latin-1"))
    store = loaded(tmp_path)
    assert "binary" in reasons(store)["image.md"]
    (entry,) = store.entries_in("latin1.md")
    assert entry.title == "Caf\ufffd"
    assert entry.warnings == ("invalid UTF-8: 1 byte replaced",)


def test_oversized_file_is_truncated_with_a_notice(tmp_path: Path) -> None:
    section = "## Section\n\n" + "x" * 1000 + "\n\n"
    big = tmp_path / "big.md"
    big.write_text(section * (MAX_FILE_BYTES // len(section) + 200) + "## Beyond\n")
    entries = loaded(tmp_path).entries_in("big.md")
    assert entries[-1].title.startswith("Section")
    assert any("truncated" in warning for warning in entries[-1].warnings)
    assert not any("truncated" in warning for warning in entries[0].warnings)


def test_empty_file_loads_with_no_entries(tmp_path: Path) -> None:
    (tmp_path / "empty.md").write_text("")
    store = loaded(tmp_path)
    assert store.paths() == ["empty.md"] and store.entries == {}


# --- read-only ----------------------------------------------------------------------------------


@pytest.fixture
def write_audit(memory_root: Path) -> Iterator[list[str]]:
    """Collect every audited write-like operation that touches the memory root."""
    hits: list[str] = []
    root = str(memory_root)
    active = [True]

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if not active[0]:
            return
        if event == "open" and args and root in str(args[0]):
            mode, flags = args[1], args[2]
            writing = isinstance(mode, str) and any(c in mode for c in "wax+")
            if writing or (isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR)):
                hits.append(f"open {args[0]}")
        elif event in MUTATING_EVENTS and args and root in str(args[0]):
            hits.append(f"{event} {args[0]}")

    sys.addaudithook(hook)
    yield hits
    active[0] = False


def test_store_never_writes_under_the_root(memory_root: Path, write_audit: list[str]) -> None:
    store = loaded(memory_root)
    store.apply_changes([memory_root, memory_root / "MEMORY.md"])
    store.set_window(0)
    assert store.hidden_by_window == 0
    assert write_audit == []


def test_sources_are_assigned(memory_root: Path) -> None:
    store = loaded(memory_root, days=0)
    by_source = {entry.path: entry.source for entry in store.entries.values()}
    assert by_source["MEMORY.md"] is Source.LONG_TERM
    assert by_source["nanobot/memory/HISTORY.md"] is Source.DAILY
    assert by_source["muxcode/build.md"] is Source.NOTE


def test_layout_builders_are_independent(tmp_path: Path) -> None:
    for name, build in layouts.LAYOUTS.items():
        folder = tmp_path / name
        folder.mkdir()
        build(folder)
        assert loaded(folder, days=0).entries, name


# --- incremental equals full ----------------------------------------------------------------------

NAMES = (
    "MEMORY.md",
    "memory/2026-11-20.md",
    "memory/2026-09-01.md",
    "notes/a.md",
    "notes",
    "HISTORY.md",
)
FUNCTION_SCOPED = HealthCheck.function_scoped_fixture
TEXTS = (
    "## A\n\nx\n",
    "## A\n\ny\n\n## B\n",
    "",
    "[2026-11-20 10:00] h\n",
    "# T\n\n## 09:00\n",
    "[2026-09-01 10:00] old\n\n[2026-11-20] new\n",
)


@settings(max_examples=25, deadline=None, suppress_health_check=[FUNCTION_SCOPED])
@given(st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from((*TEXTS, None))), max_size=8))
def test_apply_changes_matches_a_fresh_load(tmp_path: Path, operations: list[Any]) -> None:
    root = Path(tempfile.mkdtemp(dir=tmp_path))
    try:
        store = loaded(root)
        for name, text in operations:
            apply_operation(root / name, text)
            store.apply_changes([root / name])
            assert store.hidden_by_window >= 0  # known from here on: updates keep it current
        fresh = loaded(root)
        assert dict(store.entries) == dict(fresh.entries)
        assert store.paths() == fresh.paths()
        assert store.skipped == fresh.skipped
        assert store.hidden_by_window == fresh.hidden_by_window
    finally:
        shutil.rmtree(root)


NESTED = ("notes", "notes/a.md", "notes/deep/b.md", "notes-x.md", "notes/deep")


@settings(max_examples=25, deadline=None, suppress_health_check=[FUNCTION_SCOPED])
@given(
    st.lists(
        st.tuples(st.sampled_from((*NAMES, *NESTED)), st.sampled_from((*TEXTS, None))), max_size=8
    ),
    st.booleans(),
)
def test_one_batch_of_hints_matches_a_fresh_load(
    tmp_path: Path, operations: list[Any], hint_parents: bool
) -> None:
    """Many operations, then one batch holding every hint (nested folder and file hints too)."""
    root = Path(tempfile.mkdtemp(dir=tmp_path))
    try:
        store = loaded(root)
        assert store.hidden_by_window == 0  # known before the batch: the batch keeps it current
        for name, text in operations:
            apply_operation(root / name, text)
        hints = {root / name for name, _ in operations}
        if hint_parents:
            hints |= {hint.parent for hint in hints}
        store.apply_changes(sorted(hints))
        fresh = loaded(root)
        assert dict(store.entries) == dict(fresh.entries)
        assert store.paths() == fresh.paths()
        assert store.skipped == fresh.skipped
        assert store.hidden_by_window == fresh.hidden_by_window
    finally:
        shutil.rmtree(root)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.dictionaries(st.integers(0, 40), st.integers(), max_size=12),
            st.sets(st.integers(0, 40), max_size=12),
        ),
        max_size=40,
    )
)
def test_snapshot_versions_behave_like_dicts(steps: list[tuple[dict[int, int], set[int]]]) -> None:
    """Each version equals the dict it models, and older versions never change."""
    snapshot: Snapshot[int, int] = Snapshot()
    model: dict[int, int] = {}
    history: list[tuple[Snapshot[int, int], dict[int, int]]] = []
    for assign, delete in steps:
        snapshot = snapshot.evolve(assign, delete)
        for key in delete:
            model.pop(key, None)
        model.update(assign)
        history.append((snapshot, dict(model)))
        assert len(snapshot) == len(model)
        assert dict(snapshot.items()) == model
        assert dict(snapshot.view()) == model
        assert all((key in snapshot) == (key in model) for key in range(41))
    for version, expected in history:
        assert dict(version) == expected


@pytest.mark.parametrize(
    ("scope", "expected"),
    [
        ("", [".", "a", "a-b.md", "a.md", "a/b.md", "a/c/d.md", "ab/x.md"]),
        ("a", ["a", "a/b.md", "a/c/d.md"]),
        ("a/c", ["a/c/d.md"]),
        ("a.md", ["a.md"]),
        ("b", []),
    ],
)
def test_path_index_finds_a_path_and_everything_below_it(scope: str, expected: list[str]) -> None:
    index = PathIndex(["a/c/d.md", "a.md", "ab/x.md", "a", "a/b.md", "a-b.md", "."])
    assert index.under(scope) == expected


def test_path_index_add_and_discard_keep_it_sorted_and_unique() -> None:
    index = PathIndex()
    for path in ("m/x.md", "a.md", "m/x.md", "z.md"):
        index.add(path)
    index.discard("a.md")
    index.discard("missing.md")
    assert index.under("") == ["m/x.md", "z.md"]


def apply_operation(target: Path, text: str | None) -> None:
    """Delete whatever is at `target`, then write `text` there (None: leave it deleted)."""
    if target.is_dir():
        shutil.rmtree(target)
    elif target.exists():
        target.unlink()
    if text is None:
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        return  # an ancestor is a file: nothing can be written there
    target.write_text(text)
