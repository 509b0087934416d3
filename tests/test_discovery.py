"""Where memtui finds memory without a ROOT (`core.places.table.PLACES`) and `memtui roots`.

Every test runs under the fake HOME of conftest's autouse fixture, in real folders, with real
`git init` repositories: Claude Code's folder name is derived from the git root, so the git
root must be found the way a user's shell would have it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from pathlib import Path

import pytest

from memtui.cli import main
from memtui.core.places import claude
from memtui.core.places.survey import survey
from memtui.core.places.table import PLACES
from memtui.core.settings.choices import (
    chosen_in,
    default_choices_path,
    read_choices,
    remember_choice,
)
from memtui.discovery import discover, searched_places
from memtui.startup import load_startup

TODAY = dt.date(2026, 11, 21)


def git_init(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True, capture_output=True)
    return folder


def claude_memory(project: Path, *, home: Path | None = None) -> Path:
    """Claude Code's auto-memory for `project`, as Claude Code would have named it."""
    base = home if home is not None else Path.home() / ".claude"
    memory = base / "projects" / claude.encodings(project)[0] / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text(
        "# Memory index\n\n- [Deploy notes](deploy_notes.md): how we ship\n", encoding="utf-8"
    )
    (memory / "deploy_notes.md").write_text(
        "---\nname: deploy notes\ndescription: how we ship\ntype: project\n---\n\n"
        "Deploys go through the blue-green switch; never on Fridays.\n",
        encoding="utf-8",
    )
    return memory


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/home/u/my_app", "-home-u-my-app"),
        ("/home/u/my.app", "-home-u-my-app"),
        ("/home/u/my app", "-home-u-my-app"),
        ("/home/u/my--app", "-home-u-my--app"),
        ("/Users/Ana/Code/v2.1_final", "-Users-Ana-Code-v2-1-final"),
        ("/home/u/café", "-home-u-caf-"),
        ("/home/u/日本", "-home-u---"),
    ],
)
def test_claude_encoding_replaces_every_non_alphanumeric_character(
    path: str, expected: str
) -> None:
    assert claude.encodings(path)[0] == expected


def test_claude_encoding_tries_both_spellings_of_characters_beyond_the_bmp() -> None:
    """JavaScript sees an emoji as two UTF-16 units (two dashes); a code-point regex, one."""
    assert claude.encodings("/x/a😀b") == ["-x-a--b", "-x-a-b"]


@pytest.mark.parametrize("name", ["my.app", "my_app", "my app", "café-ünï", "日本語 notes"])
def test_claude_code_memory_of_the_git_root_is_found_from_a_subfolder(
    work: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    repo = git_init(work / name)
    inner = repo / "src" / "pkg"
    inner.mkdir(parents=True)
    memory = claude_memory(repo)
    monkeypatch.chdir(inner)
    assert [(c.kind, c.path) for c in discover()] == [("claude-code", memory)]


def test_claude_code_memory_of_the_current_folder_outside_a_repo(work: Path) -> None:
    memory = claude_memory(work)
    assert [(c.kind, c.path, c.label) for c in discover()] == [
        ("claude-code", memory, "work-claude")
    ]


def test_claude_config_dir_moves_the_claude_folder(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moved = tmp_path / "elsewhere"
    claude_memory(work)  # under ~/.claude: no longer where Claude Code keeps it
    memory = claude_memory(work, home=moved)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(moved))
    assert [c.path for c in discover()] == [memory]


def test_another_projects_claude_memory_is_not_taken(work: Path) -> None:
    claude_memory(work.parent / "other")
    assert discover() == []


def test_memory_bank_in_the_current_folder(work: Path) -> None:
    (work / "memory-bank").mkdir()
    (work / "memory-bank" / "activeContext.md").write_text("# Active\n\n## Focus\nShip it.\n")
    assert [(c.kind, c.path, c.label) for c in discover()] == [
        ("memory-bank", work / "memory-bank", "work-bank")
    ]


def test_committed_claude_memory_in_the_git_root(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = git_init(work / "repo")
    (repo / ".claude" / "memory").mkdir(parents=True)
    (repo / ".claude" / "memory" / "MEMORY.md").write_text("## Conventions\nUse ruff.\n")
    (repo / "docs").mkdir()
    monkeypatch.chdir(repo / "docs")
    assert [(c.kind, c.path) for c in discover()] == [("claude-project", repo / ".claude/memory")]


def test_places_are_listed_closest_first(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = git_init(work / "repo")
    sub = repo / "service"
    (sub / "memory-bank").mkdir(parents=True)
    (repo / "HISTORY.md").write_text("[2026-11-20 10:00] started\n")
    claude = claude_memory(repo)
    env = work / "env"
    env.mkdir()
    monkeypatch.setenv("MEMTUI_DIR", str(env))
    for relative in (".picoclaw/workspace", ".openclaw/workspace", "basic-memory"):
        (Path.home() / relative).mkdir(parents=True)
    monkeypatch.chdir(sub)
    found = [(c.kind, c.path) for c in discover()]
    assert found == [
        ("memory-bank", sub / "memory-bank"),
        ("history", repo),
        ("claude-code", claude),
        ("memtui-dir", env),
        ("openclaw", Path.home() / ".openclaw/workspace"),
        ("picoclaw", Path.home() / ".picoclaw/workspace"),
        ("basic-memory", Path.home() / "basic-memory"),
    ]


def test_a_place_inside_one_already_found_is_not_listed_again(work: Path) -> None:
    (work / "orion-context" / "memory_bank").mkdir(parents=True)
    assert [(c.kind, c.path) for c in discover()] == [("orion", work / "orion-context")]


def test_a_workspace_in_a_repository_opens_its_memory_files_not_the_folder(work: Path) -> None:
    (work / "MEMORY.md").write_text("## Facts\nx\n")
    (work / "memory-bank").mkdir()
    (work / ".claude" / "memory").mkdir(parents=True)
    found = [(c.kind, c.path, c.only) for c in discover()]
    assert found == [
        ("workspace", work, ("MEMORY.md",)),
        ("memory-bank", work / "memory-bank", ()),
        ("claude-project", work / ".claude" / "memory", ()),
    ]


def test_the_same_folder_from_two_places_is_listed_once(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    openclaw = Path.home() / ".openclaw" / "workspace"
    openclaw.mkdir(parents=True)
    monkeypatch.setenv("MEMTUI_DIR", str(openclaw))
    assert [(c.kind, c.path) for c in discover()] == [("memtui-dir", openclaw)]


def test_every_place_is_described_where_memtui_looked(work: Path) -> None:
    places = "\n".join(searched_places())
    for place in PLACES:
        if place.kind not in ("claude-code", "memtui-dir"):
            assert place.where.replace("`", "").split(" (")[0] in places
    assert "/.claude/projects/" in places and "$MEMTUI_DIR (not set)" in places


def test_this_folders_memory_opens_directly_and_says_more_were_found(work: Path) -> None:
    (work / "memory-bank").mkdir()
    (work / "memory-bank" / "progress.md").write_text("## Done\nx\n")
    (Path.home() / ".nanobot" / "workspace").mkdir(parents=True)
    closest = load_startup(today=TODAY)
    assert [root.path for root in closest.roots] == [work / "memory-bank"]
    assert closest.chosen and closest.more_found == 1
    assert closest.why == "opens the memory of this folder"
    every = load_startup(today=TODAY, every=True)
    assert [root.label for root in every.roots] == ["work-bank", "nanobot"]
    assert every.chosen


def test_several_far_candidates_ask_unless_all(work: Path) -> None:
    for name in (".nanobot", ".openclaw"):
        (Path.home() / name / "workspace").mkdir(parents=True)
    asked = load_startup(today=TODAY)
    assert not asked.chosen and [root.label for root in asked.roots] == ["openclaw"]
    assert len(asked.candidates) == 2 and asked.why.startswith("asks")
    assert load_startup(today=TODAY, every=True).chosen


def test_a_remembered_choice_opens_without_asking(work: Path) -> None:
    for name in (".nanobot", ".openclaw"):
        (Path.home() / name / "workspace").mkdir(parents=True)
    nanobot = next(c for c in discover() if c.kind == "nanobot")
    assert remember_choice(default_choices_path(), work, [nanobot.root])
    again = load_startup(today=TODAY)
    assert again.chosen and [root.label for root in again.roots] == ["nanobot"]
    assert again.why == "opens your choice here"
    assert default_choices_path().is_relative_to(Path(os.environ["XDG_STATE_HOME"]))


@pytest.mark.parametrize(
    "content",
    [b"", b"[]", b'{"folders": []}', b'{"folders": {"/x": [{"path": 3}]}}', b"\xff" * 10],
)
def test_a_choices_file_of_any_shape_is_no_choice(work: Path, content: bytes) -> None:
    path = default_choices_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    assert read_choices(path) in ({}, {"/x": []}) and not chosen_in(path, work)


def test_nested_roots_given_together_open_once(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    (outer / "inner").mkdir(parents=True)
    startup = load_startup(roots=[str(outer / "inner"), str(outer)], today=TODAY)
    assert [root.path for root in startup.roots] == [outer]
    assert any("is inside" in warning for warning in startup.warnings)


@pytest.mark.parametrize("times", [2, 3])
def test_a_root_given_twice_opens_once_and_says_so(tmp_path: Path, times: int) -> None:
    """QA: `rank deploy w1 ./w1/` said "w1 is inside w1"; given three times, it said so twice."""
    (tmp_path / "w1").mkdir()
    given = [str(tmp_path / "w1"), *[f"{tmp_path}/./w1/"] * (times - 1)]
    startup = load_startup(roots=given, today=TODAY)
    assert [root.path for root in startup.roots] == [tmp_path / "w1"]
    assert startup.warnings == (f"{tmp_path / 'w1'} given twice: opened once",)


def test_survey_counts_entries_without_loading(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("## One\na\n\n## Two\nb\n")
    (root / "memory" / "2020-01-02.md").write_text("## 09:00\nold\n\n## 10:00\nolder\n")
    stamp = dt.datetime(2026, 3, 4, 12, 0).timestamp()
    for path in (root / "MEMORY.md", root / "memory" / "2020-01-02.md"):
        os.utime(path, (stamp, stamp))
    found = survey(root)
    assert (found.files, found.entries, found.newest, found.complete) == (
        2,
        4,
        dt.date(2026, 3, 4),
        True,
    )
    assert survey(tmp_path / "absent").files == 0


def test_plain_list_and_roots_find_claude_code_memory(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's first 'done when': no ROOT, a git repo, its Claude Code memory in HOME."""
    repo = git_init(work / "my_app.v2")
    memory = claude_memory(repo)
    monkeypatch.chdir(repo)
    assert main(["list", "--json", "--today", TODAY.isoformat()]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {entry["path"] for entry in listed["entries"]} == {"MEMORY.md", "deploy_notes.md"}
    assert {entry["root"] for entry in listed["entries"]} == {str(memory)}
    assert main(["roots", "--json"]) == 0
    roots = json.loads(capsys.readouterr().out)
    assert roots["git_root"] == str(repo)
    assert [(c["kind"], c["path"], c["entries"], c["files"]) for c in roots["candidates"]] == [
        ("claude-code", str(memory), 2, 2)
    ]


def test_roots_human_output_and_nothing_found(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["roots"]) == 1
    assert "No memory folder found" in capsys.readouterr().out
    (work / "MEMORY.md").write_text("## A\nb\n")
    (Path.home() / ".openclaw" / "workspace").mkdir(parents=True)
    assert main(["roots"]) == 0
    out = capsys.readouterr().out
    assert "▸ workspace" in out and "~/.openclaw/workspace" in out and "--all" in out


def test_all_claude_lists_every_project_with_its_verified_path(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = work / "shop_front"
    real.mkdir()
    memory = claude_memory(real)
    transcript = memory.parent / "0a1b.jsonl"
    transcript.write_text(
        json.dumps({"type": "user", "cwd": str(real / "src")}) + "\nnot json\n", encoding="utf-8"
    )
    liar = claude_memory(work / "other")
    (liar.parent / "x.jsonl").write_text(json.dumps({"cwd": "/somewhere/else"}) + "\n")
    assert main(["roots", "--all-claude", "--json"]) == 0
    projects = json.loads(capsys.readouterr().out)["claude_projects"]
    assert [(p["project"], p["path"], p["entries"]) for p in projects] == sorted(
        [(str(real), str(memory), 2), (None, str(liar), 2)], key=lambda row: row[1]
    )
    assert main(["roots", "--all-claude"]) == 0  # nothing to open here, but two projects
    out = capsys.readouterr().out
    assert "Claude Code project memories" in out and str(real) in out and liar.parent.name in out


def test_the_places_table_names_every_place() -> None:
    """One table in the code, the same table in docs/places.md (the README copies its rows)."""
    doc = Path(__file__).resolve().parent.parent / "docs" / "places.md"
    section = doc.read_text(encoding="utf-8").split("# Where memtui looks", 1)[1]
    table_kinds = {
        kind.strip("` ")
        for line in section.splitlines()
        if line.startswith("| `")
        for kind in line.split("|")[1].split(",")
    }
    assert table_kinds == {place.kind for place in PLACES}


@pytest.mark.parametrize("command", [["rank", "deploy"], ["roots"], ["list"]])
def test_a_deleted_current_folder_is_an_input_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
) -> None:
    """A shell can stand in a folder deleted under it: memtui says so (exit 2), without a
    traceback or the exit 1 that `rank` gives for "no results"."""
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert main(command) == 2
    assert "the current folder no longer exists" in capsys.readouterr().err
