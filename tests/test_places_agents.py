"""Every agent's memory found from a real repository, and nothing else: the seeds' layouts
(muxcode, `memory_bank/`, orion-context), Serena, Claude Code's CLAUDE.md set with its imports,
Gemini CLI's GEMINI.md; never the repository's README, docs or source.

Runs under conftest's fake HOME, with a real `git init` and real files.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from memtui.cli import main
from memtui.core.live.roots import MemoryRoot, watches_subfolders
from memtui.core.live.store import Store
from memtui.core.places import claude
from memtui.core.places.instructions import claude_set, gemini_set, imports_of
from memtui.discovery import discover

WORDS = {
    ".muxcode/memory/build.md": "## Build cache\n_2026-11-20 10:00_\nThe muxaardvark cache.\n",
    "docs/memory_bank/progress.md": "# Progress\n\n## Done\nShipped the bankquokka parser.\n",
    "orion-context/decisions/db.md": "---\ntype: decision\n---\n\nWe chose orionyak storage.\n",
    ".serena/memories/style.md": "# Style\n\nTabs lose to serenalynx spaces.\n",
    "CLAUDE.md": "# Project\n\n## Tests\nRun claudeotter checks. See @notes/extra.md\n",
    "notes/extra.md": "## Imported\nThe importedwombat rule.\n",
    "CLAUDE.local.md": "## Local\nMy localnewt sandbox.\n",
}
HOME_WORDS = {
    ".claude/CLAUDE.md": "## Me\nI like userheron tools.\n",
    ".gemini/GEMINI.md": "# Gemini\n\n## Gemini Added Memories\n- geminimoth is my cat\n"
    "- the tea is oolong\n\n## Style\nShort answers.\n",
}
README = "# The project\n\nreadmeonlyzebra lives in the README, which is not memory.\n"


def write(base: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True, capture_output=True)
    write(folder, WORDS)
    (folder / "README.md").write_text(README, encoding="utf-8")
    (folder / "src").mkdir()
    (folder / "src" / "notes.md").write_text("srconlyllama\n", encoding="utf-8")
    write(Path.home(), HOME_WORDS)
    monkeypatch.chdir(folder)
    return folder


def rank(capsys: pytest.CaptureFixture[str], word: str) -> list[dict[str, str]]:
    capsys.readouterr()
    code = main(["rank", "--all", "-q", word, "--json", "--days", "0"])
    results: list[dict[str, str]] = json.loads(capsys.readouterr().out)["results"]
    assert (code == 0) == bool(results)
    return results


@pytest.mark.parametrize(
    ("word", "file"),
    [
        ("muxaardvark", ".muxcode/memory/build.md"),
        ("bankquokka", "docs/memory_bank/progress.md"),
        ("orionyak", "orion-context/decisions/db.md"),
        ("serenalynx", ".serena/memories/style.md"),
        ("claudeotter", "CLAUDE.md"),
        ("importedwombat", "notes/extra.md"),
        ("localnewt", "CLAUDE.local.md"),
        ("userheron", ".claude/CLAUDE.md"),
        ("geminimoth", ".gemini/GEMINI.md"),
    ],
)
def test_rank_all_finds_a_word_only_one_memory_file_holds(
    repository: Path, capsys: pytest.CaptureFixture[str], word: str, file: str
) -> None:
    results = rank(capsys, word)
    assert len(results) == 1
    found = Path(results[0]["root"]) / results[0]["path"]
    base = Path.home() if file.startswith((".claude/", ".gemini/")) else repository
    assert found == base / file


@pytest.mark.parametrize("word", ["readmeonlyzebra", "srconlyllama"])
def test_rank_all_never_reads_the_readme_or_the_source(
    repository: Path, capsys: pytest.CaptureFixture[str], word: str
) -> None:
    assert rank(capsys, word) == []


def test_gemini_added_memories_are_one_entry_per_bullet(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["list", "--all", "--json", "--days", "0"]) == 0
    entries = json.loads(capsys.readouterr().out)["entries"]
    gemini = [e["title"] for e in entries if e["root_label"] == "gemini-user"]
    assert gemini == ["geminimoth is my cat", "the tea is oolong", "Style"]


def test_each_root_has_a_kind_and_a_label(repository: Path) -> None:
    found = {(c.kind, c.label) for c in discover()}
    assert {kind for kind, _ in found} == {
        "muxcode",
        "memory_bank",
        "orion",
        "serena",
        "claude-md",
        "gemini-md",
    }
    assert ("claude-md", "claude-user") in found and ("gemini-md", "gemini-user") in found
    assert ("claude-md", "proj-claudemd") in found


def test_imports_follow_claude_codes_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(
        tmp_path,
        {
            "CLAUDE.md": "Read @a.md and @~/home.md, not `@code.md`, nor @missing.md.\n"
            "```\n@fenced.md\n```\nmail me@example.com\n",
            "a.md": "@b.md\n",
            "b.md": "@a.md\n",
            "code.md": "x",
            "fenced.md": "x",
        },
    )
    (Path.home() / "home.md").write_text("home\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = claude_set(tmp_path)
    names = [item.path.name for item in found.files]
    assert names == ["CLAUDE.md", "a.md", "b.md", "home.md"]
    assert any("missing.md" in warning for warning in found.warnings)
    assert any("cycle" in warning for warning in found.warnings)


def test_imports_stop_after_five_hops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {"CLAUDE.md": "@1.md\n", **{f"{n}.md": f"@{n + 1}.md\n" for n in range(1, 8)}})
    monkeypatch.chdir(tmp_path)
    found = claude_set(tmp_path)
    assert [item.path.name for item in found.files] == [
        "CLAUDE.md",
        *(f"{n}.md" for n in (1, 2, 3, 4, 5)),
    ]
    assert any("hops" in warning for warning in found.warnings)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see @docs/a.md.", ["docs/a.md"]),
        ("`@x.md` and @y.md", ["y.md"]),
        ("@mention only", []),
        ("user@host.com", []),
    ],
)
def test_what_counts_as_an_import(text: str, expected: list[str]) -> None:
    assert imports_of(text) == expected


def test_claude_config_dir_moves_the_user_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "cfg"
    write(config, {"CLAUDE.md": "## Mine\nx\n", "rules/style.md": "tabs\n"})
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    monkeypatch.chdir(tmp_path)
    assert claude.claude_home() == config
    assert [item.path for item in claude_set(tmp_path).files] == [
        config / "CLAUDE.md",
        config / "rules" / "style.md",
    ]


def test_parent_claude_md_files_load_outermost_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inner = tmp_path / "outer" / "inner"
    write(tmp_path, {"outer/CLAUDE.md": "o\n", "outer/inner/CLAUDE.md": "i\n"})
    monkeypatch.chdir(inner)
    paths = [item.path for item in claude_set(inner).files if tmp_path in item.path.parents]
    assert paths == [tmp_path / "outer" / "CLAUDE.md", inner / "CLAUDE.md"]
    assert os.getcwd() == str(inner)


def test_a_root_of_files_loads_and_follows_only_those_files(tmp_path: Path) -> None:
    write(tmp_path, {"CLAUDE.md": "## One\nalpha\n", "README.md": "## Readme\nbeta\n"})
    store = Store(tmp_path, days=0, only=("CLAUDE.md", ".claude/rules"))
    store.load()
    assert store.paths() == ["CLAUDE.md"]
    write(tmp_path, {"README.md": "## Readme\ngamma\n", "docs/x.md": "## X\ny\n"})
    assert not store.apply_changes([tmp_path / "README.md", tmp_path / "docs"]).paths
    write(tmp_path, {"CLAUDE.md": "## One\nalpha\n\n## Two\ndelta\n", ".claude/rules/a.md": "r\n"})
    changes = store.apply_changes([tmp_path])
    assert changes.paths == (".claude/rules/a.md", "CLAUDE.md")
    assert store.paths() == [".claude/rules/a.md", "CLAUDE.md"]


@pytest.mark.parametrize(
    ("only", "deep"),
    [
        ((), True),
        (("CLAUDE.md", "CLAUDE.local.md"), False),
        (("rules",), True),
        ((".a/b.md",), True),
    ],
)
def test_a_root_of_top_level_files_is_watched_without_its_subfolders(
    tmp_path: Path, only: tuple[str, ...], deep: bool
) -> None:
    (tmp_path / "rules").mkdir()
    assert watches_subfolders(MemoryRoot("x", tmp_path, only)) is deep


def other_project_memory(name: str, text: str) -> Path:
    project = Path.home() / "code" / name
    project.mkdir(parents=True)
    memory = claude.claude_home() / "projects" / claude.encodings(project)[0] / "memory"
    write(memory, {"MEMORY.md": text})
    transcript = memory.parent / "session.jsonl"
    transcript.write_text(json.dumps({"cwd": str(project)}) + "\n", encoding="utf-8")
    return memory


def test_roots_json_from_an_empty_folder_lists_other_projects_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    older = other_project_memory("shop", "## Deploys\nblue-green\n")
    newer = other_project_memory("blog", "## Posts\nweekly\n")
    os.utime(older / "MEMORY.md", (1_000_000_000, 1_000_000_000))
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    assert main(["roots", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    listed = [(c["path"], c["other_project"], c["project"]) for c in payload["candidates"]]
    assert listed == [
        (str(newer), True, str(Path.home() / "code" / "blog")),
        (str(older), True, str(Path.home() / "code" / "shop")),
    ]
    assert payload["picker"] and payload["opens"] == []
    assert main(["roots"]) == 0
    out = capsys.readouterr().out
    assert "another project: ~/code/blog" in out and "asks which memory to open" in out


def test_roots_says_what_memtui_opens_here(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["roots"]) == 0
    out = capsys.readouterr().out
    assert "Here, memtui opens the memory of this folder: the 5 marked ▸, together." in out
    marked = [line.split()[1] for line in out.splitlines() if line.startswith("▸")]
    assert marked == ["muxcode", "orion", "serena", "memory_bank", "claude-md"]


def test_from_the_file_system_root_nothing_breaks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir("/")
    assert all(item.path.parent != Path("/") or item.scope for item in claude_set(Path("/")).files)


def test_memory_bank_outside_a_repository_is_looked_for_here_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, {"deep/er/memory_bank/a.md": "## A\nx\n"})
    monkeypatch.chdir(tmp_path)
    assert not [c for c in discover() if c.kind == "memory_bank"]
    write(tmp_path, {"memory_bank/b.md": "## B\ny\n"})
    assert [c.path for c in discover() if c.kind == "memory_bank"] == [tmp_path / "memory_bank"]


def test_an_import_that_is_not_markdown_makes_no_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tmp_path,
        {"proj/CLAUDE.md": "Scripts: @../tools/package.json\n", "tools/package.json": "{}"},
    )
    subprocess.run(["git", "init", "-q", str(tmp_path / "proj")], check=True, capture_output=True)
    monkeypatch.chdir(tmp_path / "proj")
    assert [(c.path, c.only) for c in discover()] == [(tmp_path / "proj", ("CLAUDE.md",))]


def test_gemini_md_files_load_from_the_git_root_down_and_below(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    write(
        repo,
        {
            "GEMINI.md": "root\n",
            "app/GEMINI.md": "app\n",
            "app/ui/GEMINI.md": "below\n",
            "app/node_modules/x/GEMINI.md": "never\n",
        },
    )
    write(tmp_path, {"GEMINI.md": "above the repository: not loaded\n"})
    monkeypatch.chdir(repo / "app")
    found = gemini_set(repo / "app", repo)
    assert [item.path for item in found.files] == [
        repo / "GEMINI.md",
        repo / "app" / "GEMINI.md",
        repo / "app" / "ui" / "GEMINI.md",
    ]
