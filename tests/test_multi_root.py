"""Several memory folders in one engine (`memtui A B`, `--all`): one corpus, every entry with
its root, ids distinct across roots, `root:` filtering, per-root changes, JSON fields."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.cli import main
from memtui.core.live.engine import Engine
from memtui.core.live.roots import MemoryRoot, distinct_labels, folder_label, make_roots
from memtui.core.model import Entry
from memtui.core.reading.parse import entry_id
from memtui.core.settings.config import Config

TODAY = dt.date(2026, 11, 21)


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def two_roots(tmp_path: Path) -> tuple[Path, Path]:
    """Two agents' folders that both hold `MEMORY.md` (same relative path, other content)."""
    alpha, beta = tmp_path / "alpha", tmp_path / "beta"
    write(alpha, "MEMORY.md", "## Deploy checklist\nRun the canary first.\n\n## Team\nAna.\n")
    write(alpha, "memory/2026-11-20.md", "## 10:00\nPaired on the ledger.\n")
    write(beta, "MEMORY.md", "## Deploy freeze\nNo deploys at month end.\n\n## Team\nBo.\n")
    return alpha, beta


def open_engine(*folders: Path) -> Engine:
    roots = make_roots((folder_label(folder), folder) for folder in folders)
    engine = Engine(roots, Config(), today=TODAY, days=0)
    engine.load()
    return engine


def test_one_root_keeps_plain_paths_and_ids(two_roots: tuple[Path, Path]) -> None:
    alpha, _ = two_roots
    engine = Engine(alpha, Config(), today=TODAY, days=0)
    engine.load()
    assert not engine.several_roots
    for entry in engine.loaded_entries():
        assert entry.root == "" and entry.qualified_path == entry.path
        assert entry.id == entry_id(entry.path, entry.heading_path, 0)


def test_same_relative_path_in_two_roots_gives_distinct_stable_ids(
    two_roots: tuple[Path, Path],
) -> None:
    engine = open_engine(*two_roots)
    entries = engine.loaded_entries()
    memory = [entry for entry in entries if entry.path == "MEMORY.md"]
    assert {(entry.root, entry.title) for entry in memory} == {
        ("alpha", "Deploy checklist"),
        ("alpha", "Team"),
        ("beta", "Deploy freeze"),
        ("beta", "Team"),
    }
    assert len({entry.id for entry in entries}) == len(entries) == 5
    again = open_engine(*two_roots)
    assert {entry.id for entry in again.loaded_entries()} == {entry.id for entry in entries}
    assert {engine.file_of(entry) for entry in memory} == {
        two_roots[0] / "MEMORY.md",
        two_roots[1] / "MEMORY.md",
    }


def test_a_query_ranks_matches_from_both_roots(two_roots: tuple[Path, Path]) -> None:
    engine = open_engine(*two_roots)
    hits = engine.search("deploy").hits
    assert {(hit.entry.root, hit.entry.title) for hit in hits} == {
        ("alpha", "Deploy checklist"),
        ("beta", "Deploy freeze"),
    }
    explanation = engine.explain(hits[0].entry.id, "deploy")
    assert explanation is not None and explanation.score == hits[0].score


@pytest.mark.parametrize(
    ("query", "roots"),
    [
        ("team root:alpha", {"alpha"}),
        ("team root:BET", {"beta"}),
        ("team root:alpha root:beta", {"alpha", "beta"}),
        ("team root:*/beta", {"beta"}),
        ("team root:nothing", set()),
    ],
)
def test_root_filter_globs_on_label_or_path(
    two_roots: tuple[Path, Path], query: str, roots: set[str]
) -> None:
    engine = open_engine(*two_roots)
    assert {hit.entry.root for hit in engine.search(query).hits} == roots


def test_root_filter_matches_the_home_folder_as_tilde(tmp_path: Path) -> None:
    work = Path.home() / "notes"
    write(work, "MEMORY.md", "## Team\nAna.\n")
    other = write(tmp_path / "other", "MEMORY.md", "## Team\nBo.\n").parent
    engine = open_engine(work, other)
    assert {hit.entry.root for hit in engine.search("team root:~/notes").hits} == {"notes"}


def test_a_change_in_one_root_touches_only_its_entries(two_roots: tuple[Path, Path]) -> None:
    alpha, beta = two_roots
    engine = open_engine(alpha, beta)
    beta_ids = {entry.id for entry in engine.loaded_entries() if entry.root == "beta"}
    write(alpha, "MEMORY.md", "## Deploy checklist\nRun the canary first.\n\n## Rollback\nx\n")
    changes = engine.apply_changes([alpha / "MEMORY.md"])
    assert changes.paths == ("alpha/MEMORY.md",)
    assert not (changes.removed | changes.updated) & beta_ids
    assert {entry.id for entry in engine.loaded_entries() if entry.root == "beta"} == beta_ids
    assert [hit.entry.root for hit in engine.search("rollback").hits] == ["alpha"]


def test_a_removed_root_drops_only_its_entries_and_comes_back(
    two_roots: tuple[Path, Path], tmp_path: Path
) -> None:
    alpha, beta = two_roots
    engine = open_engine(alpha, beta)
    shutil.move(beta, tmp_path / "parked")
    changes = engine.apply_changes([beta])
    assert changes.paths == ("beta/MEMORY.md",) and len(changes.removed) == 2
    assert {entry.root for entry in engine.loaded_entries()} == {"alpha"}
    assert [hit.entry.root for hit in engine.search("deploy").hits] == ["alpha"]
    shutil.move(tmp_path / "parked", beta)
    engine.apply_changes([beta])
    assert {hit.entry.root for hit in engine.search("deploy").hits} == {"alpha", "beta"}


def test_a_gone_root_keeps_its_entries_as_last_read_and_catches_up(
    two_roots: tuple[Path, Path], tmp_path: Path
) -> None:
    """What the watcher says is gone is not re-read: its entries stay, ranked as before, until
    the folder is back; then it is re-read, with the window set while it was away."""
    alpha, beta = two_roots
    write(beta, "memory/2020-01-01.md", "## 09:00\nDeploy ancient history.\n")
    engine = open_engine(alpha, beta)
    before = [(hit.entry.id, hit.score) for hit in engine.search("deploy").hits]
    assert {entry.root for entry in engine.loaded_entries()} == {"alpha", "beta"}
    shutil.move(beta, tmp_path / "parked")
    assert engine.set_missing([beta]) and not engine.set_missing([beta])
    assert engine.gone_roots == {"beta": engine.roots[1]}
    assert engine.apply_changes([beta]).empty
    assert engine.set_window(30).empty  # only alpha's window moved: it has no old notes
    assert [(hit.entry.id, hit.score) for hit in engine.search("deploy").hits] == before
    write(tmp_path / "parked", "MEMORY.md", "## Deploy thaw\nDeploys are open again.\n")
    shutil.move(tmp_path / "parked", beta)
    assert engine.set_missing([]) and engine.gone_roots == {}
    changes = engine.apply_changes([beta])
    assert "beta/MEMORY.md" in changes.paths
    titles = {hit.entry.title for hit in engine.search("deploy").hits if hit.entry.root == "beta"}
    assert titles == {"Deploy thaw"}  # re-read, and the 2020 note now outside the window
    assert engine.hidden_by_window == 1


def test_one_gone_root_keeps_its_entries(tmp_path: Path) -> None:
    root = tmp_path / "only"
    write(root, "MEMORY.md", "## Deploy checklist\nCanary first.\n")
    engine = open_engine(root)
    shutil.move(root, tmp_path / "parked")
    assert engine.set_missing([root]) and engine.gone_roots == {"": engine.roots[0]}
    assert engine.apply_changes([root]).empty
    assert [hit.entry.title for hit in engine.search("deploy").hits] == ["Deploy checklist"]


def test_session_boost_is_per_root_file(two_roots: tuple[Path, Path]) -> None:
    engine = open_engine(*two_roots)
    engine.set_session_boost("beta/MEMORY.md", 4.0)
    hits = engine.search("team").hits
    assert hits[0].entry.root == "beta"
    assert hits[0].score > hits[1].score
    boosted = [m.reason for m in hits[0].explanation.multipliers]
    assert boosted == ["session boost on beta/MEMORY.md"] and not hits[1].explanation.multipliers


def test_window_and_skipped_cover_every_root(two_roots: tuple[Path, Path]) -> None:
    alpha, beta = two_roots
    write(beta, "memory/2020-01-01.md", "## 09:00\nancient\n")
    (beta / "bad.md").write_bytes(b"\x00binary")
    roots = make_roots([("alpha", alpha), ("beta", beta)])
    engine = Engine(roots, Config(), today=TODAY, days=30)
    engine.load()
    assert engine.hidden_by_window == 1
    assert [item.path for item in engine.skipped] == ["beta/bad.md"]
    engine.set_window(0)
    assert engine.hidden_by_window == 0
    assert [hit.entry.root for hit in engine.search("ancient").hits] == ["beta"]


def test_labels_are_unique_and_path_free() -> None:
    assert distinct_labels(["proj", "proj", "a/b c:d", "", "proj"]) == [
        "proj",
        "proj-2",
        "a-b-c-d",
        "root",
        "proj-3",
    ]
    assert folder_label(Path("/home/u/.openclaw/workspace")) == "openclaw"
    assert folder_label(Path("/home/u/app/memory-bank")) == "app"
    with pytest.raises(ValueError, match="distinct labels"):
        Engine([MemoryRoot("x", Path("/a")), MemoryRoot("x", Path("/b"))], Config(), today=TODAY)


def key(entry: Entry) -> tuple[str, int, str]:
    return (entry.path, entry.line_start, entry.title)


@settings(max_examples=25, deadline=None)
@given(
    files=st.lists(
        st.tuples(
            st.sampled_from(["a", "b"]),
            st.sampled_from(["MEMORY.md", "memory/2026-11-20.md", "notes/x.md"]),
            st.lists(st.sampled_from(["deploy", "team", "plan"]), min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_the_union_is_every_roots_own_entries(
    tmp_path_factory: pytest.TempPathFactory,
    files: list[tuple[str, str, list[str]]],
) -> None:
    """Opening roots together loses nothing and mixes nothing: per root, the same entries (by
    path, lines and title) as opening it alone, and every id distinct."""
    base = tmp_path_factory.mktemp("union")
    folders = {"a": base / "a", "b": base / "b"}
    for folder in folders.values():
        folder.mkdir()
    for label, relative, headings in files:
        write(folders[label], relative, "".join(f"## {h}\nbody {h}\n\n" for h in headings))
    together = open_engine(folders["a"], folders["b"]).loaded_entries()
    assert len({entry.id for entry in together}) == len(together)
    for label, folder in folders.items():
        alone = Engine(folder, Config(), today=TODAY, days=0)
        alone.load()
        assert sorted(map(key, alone.loaded_entries())) == sorted(
            key(entry) for entry in together if entry.root == label
        )


def test_list_and_rank_json_give_root_and_relative_path(
    two_roots: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's second 'done when': `list --json A B`, and a query matching both."""
    alpha, beta = two_roots
    assert main(["list", "--json", "--days", "0", str(alpha), str(beta)]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["roots"] == [
        {"label": "alpha", "path": str(alpha)},
        {"label": "beta", "path": str(beta)},
    ]
    assert {(e["root_label"], e["root"], e["path"]) for e in listed["entries"]} == {
        ("alpha", str(alpha), "MEMORY.md"),
        ("alpha", str(alpha), "memory/2026-11-20.md"),
        ("beta", str(beta), "MEMORY.md"),
    }
    assert main(["rank", "-q", "deploy", "--json", str(alpha), str(beta)]) == 0
    ranked = json.loads(capsys.readouterr().out)
    assert sorted((r["root_label"], r["path"]) for r in ranked["results"]) == [
        ("alpha", "MEMORY.md"),
        ("beta", "MEMORY.md"),
    ]
    assert main(["rank", "-q", "deploy", str(alpha), str(beta)]) == 0
    human = capsys.readouterr().out
    assert "alpha/MEMORY.md:1" in human and "beta/MEMORY.md:1" in human


def test_demo_all_opens_every_demo_root(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--json", "--demo", "--all", "--today", TODAY.isoformat()]) == 0
    listed = json.loads(capsys.readouterr().out)
    labels = ["demo", "web-bank", "web-claudemd"]
    assert [root["label"] for root in listed["roots"]] == labels
    assert {e["root_label"] for e in listed["entries"]} == set(labels)
    claude_files = {e["path"] for e in listed["entries"] if e["root_label"] == "web-claudemd"}
    assert claude_files == {"CLAUDE.md", "docs/conventions.md"}  # the import; never README.md
    assert main(["rank", "-q", "deploy root:web-bank", "--demo", "--all", "--json"]) == 0
    assert {r["root_label"] for r in json.loads(capsys.readouterr().out)["results"]} == {"web-bank"}


def test_roots_and_all_together_are_a_usage_error(
    two_roots: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["list", "--all", str(two_roots[0])]) == 2
    assert "not both" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["rank", "health"])
def test_human_citations_name_files_an_editor_opens(
    two_roots: tuple[Path, Path], capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """With several roots the human output cited `label/MEMORY.md:3`, and a label is not a
    folder: each citation now names the file itself, as `pick` does."""
    query = ["-q", "deploy"] if command == "rank" else []
    (two_roots[0] / "keys.md").write_text("## Keys\n\nStripe key sk-live-a1B2c3D4e5F6g7H8i9J0k1\n")
    main([command, *query, *map(str, two_roots), "--days", "0", "--today", "2026-11-21"])
    cited = re.findall(r"(\S+\.md):\d+", capsys.readouterr().out)
    assert cited and all(Path(os.path.expanduser(path)).is_file() for path in cited), cited
