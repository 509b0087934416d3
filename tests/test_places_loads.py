"""What an agent loads at session start, per file: load types, caps and the ≈ token cost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.cli import main
from memtui.core.health.settings import LoadLine
from memtui.core.live.roots import MemoryRoot
from memtui.core.places.loads import (
    LoadType,
    biggest,
    load_type,
    loaded_chars,
    root_load,
    root_session_chars,
    session_load,
    session_report,
    tokens_text,
)

RULE_WITH_PATHS = '---\npaths:\n  - "src/**"\n---\n# API\nvalidate\n'


@pytest.mark.parametrize(
    ("kind", "path", "text", "expected"),
    [
        ("claude-md", "CLAUDE.md", "x", LoadType.ALWAYS),
        ("claude-md", "notes/imported.md", "x", LoadType.ALWAYS),
        ("claude-md", ".claude/rules/api.md", RULE_WITH_PATHS, LoadType.CONDITIONAL),
        ("claude-md", "rules/style.md", "# Style\ntabs\n", LoadType.ALWAYS),
        ("gemini-md", "GEMINI.md", "x", LoadType.ALWAYS),
        ("claude-code", "MEMORY.md", "x", LoadType.CAPPED),
        ("claude-code", "deploy_notes.md", "x", LoadType.ON_DEMAND),
        ("claude-other", "MEMORY.md", "x", LoadType.CAPPED),
        ("openclaw", "AGENTS.md", "x", LoadType.CAPPED),
        ("openclaw", "memory/2026-11-20.md", "x", LoadType.ON_DEMAND),
        ("serena", "style.md", "x", LoadType.ON_DEMAND),
        ("memory-bank", "activeContext.md", "x", LoadType.ALWAYS),
        # nanobot's ContextBuilder: bootstrap files and memory/MEMORY.md, each whole (QA: ≈0)
        ("nanobot", "SOUL.md", "x", LoadType.ALWAYS),
        ("nanobot", "memory/MEMORY.md", "x", LoadType.ALWAYS),
        ("nanobot", "memory/HISTORY.md", "x", LoadType.ON_DEMAND),
        ("nanobot", "MEMORY.md", "x", LoadType.ON_DEMAND),
    ],
)
def test_load_type_by_kind_and_file(kind: str, path: str, text: str, expected: LoadType) -> None:
    assert load_type(kind, path, text) is expected


@pytest.mark.parametrize(
    ("rule", "text", "expected"),
    [
        (LoadLine(("M",), "a", lines=2), "ab\ncd\nef\n", 6),
        (LoadLine(("M",), "a", lines=5), "ab\ncd\n", 6),
        (LoadLine(("M",), "a", chars=4), "abcdef", 4),
        (LoadLine(("M",), "a", bytes=3), "ééé", 1),
        (LoadLine(("M",), "a", lines=200, bytes=25_000), "x" * 30_000, 25_000),
    ],
)
def test_a_cap_loads_the_head_up_to_the_first_limit(
    rule: LoadLine, text: str, expected: int
) -> None:
    assert loaded_chars(rule, text) == expected


def test_auto_memory_index_past_its_cap_loses_the_rest(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("".join(f"- line {n}\n" for n in range(300)))
    (tmp_path / "topic.md").write_text("## Topic\n" + "x" * 1000 + "\n")
    load = session_load("claude-code", tmp_path)
    index, topic = load.files
    assert index.load is LoadType.CAPPED and index.cap == "200 lines / 25,000 bytes"
    assert index.loaded == len("".join(f"- line {n}\n" for n in range(200)))
    assert index.lost == index.chars - index.loaded > 0
    assert topic.load is LoadType.ON_DEMAND and topic.loaded == 0
    assert load.chars == index.loaded and load.tokens == round(index.loaded / 4)
    assert biggest([("x", index), ("x", topic)]) == [("x", index)]


@pytest.mark.parametrize(
    "kind",
    [
        "",
        "claude-code",
        "claude-md",
        "gemini-md",
        "memory-bank",
        "openclaw",
        "nanobot",
        "workspace",
        "serena",
    ],
)
@pytest.mark.parametrize("only", [(), ("MEMORY.md", "memory")])
def test_the_header_s_session_count_is_the_whole_report_s(
    tmp_path: Path, kind: str, only: tuple[str, ...]
) -> None:
    """Scanning only the root's own folder where nothing deeper may load at start gives the
    same characters as the full report, with files of loaded names in subfolders too."""
    for path in (
        "MEMORY.md",
        "AGENTS.md",
        "SOUL.md",
        "CLAUDE.md",
        "activeContext.md",
        "memory/MEMORY.md",
        "memory/AGENTS.md",
        "memory/2026-11-20.md",
        "rules/style.md",
        ".claude/rules/api.md",
        "deep/er/notes.md",
    ):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(f"# {path}\n" + "word " * 40 * len(path) + "\n")
    root = MemoryRoot("r", tmp_path, only, kind)
    assert root_session_chars(root) == root_load(root).chars
    whole, loading = session_report([root]), session_report([root], loading_only=True)
    assert (loading.chars, loading.lost, loading.lines()) == (
        whole.chars,
        whole.lost,
        whole.lines(),
    )
    assert [item for item in loading.files() if item[1].loaded or item[1].lost] == [
        item for item in whole.files() if item[1].loaded or item[1].lost
    ]


def test_tokens_are_labelled_as_an_estimate() -> None:
    assert tokens_text(12_400) == "12,400 chars ≈ 3.1k tokens"
    assert tokens_text(80) == "80 chars ≈ 20 tokens"


def test_roots_shows_what_each_session_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "CLAUDE.md").write_text("# Project\n\nAlways say why.\n")
    (tmp_path / ".claude" / "rules").mkdir(parents=True)
    (tmp_path / ".claude" / "rules" / "api.md").write_text(RULE_WITH_PATHS)
    monkeypatch.chdir(tmp_path)
    assert main(["roots", "--json"]) == 0
    session = json.loads(capsys.readouterr().out)["candidates"][0]["session"]
    assert session["chars"] == len("# Project\n\nAlways say why.\n")
    assert [(f["path"], f["load"]) for f in session["files"]] == [
        (".claude/rules/api.md", "conditional"),
        ("CLAUDE.md", "always"),
    ]
    assert main(["roots"]) == 0
    assert "The agent loads 27 chars ≈ 7 tokens of it at every session start" in (
        capsys.readouterr().out
    )


def test_roots_reports_a_missing_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "CLAUDE.md").write_text("See @docs/gone.md\n")
    monkeypatch.chdir(tmp_path)
    assert main(["roots", "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["candidates"][0]["warnings"]
    assert len(warnings) == 1 and "imports @docs/gone.md, which is not a file" in warnings[0]
    assert main(["roots"]) == 0
    assert "imports @docs/gone.md" in capsys.readouterr().err


def test_a_nanobot_workspace_given_by_hand_loads_as_nanobot_does(tmp_path: Path) -> None:
    workspace = tmp_path / ".nanobot" / "workspace"
    (workspace / "memory").mkdir(parents=True)
    memory, agents = "# Memory\n\n" + "fact " * 100 + "\n", "# Agent\n\nBe brief.\n"
    (workspace / "memory" / "MEMORY.md").write_text(memory)
    (workspace / "AGENTS.md").write_text(agents)
    (workspace / "memory" / "HISTORY.md").write_text("[2026-11-20 10:00] talked\n")
    load = root_load(MemoryRoot("w", workspace))
    loaded = {item.path: item.loaded for item in load.files}
    assert loaded == {
        "AGENTS.md": len(agents),
        "memory/HISTORY.md": 0,
        "memory/MEMORY.md": len(memory),
    }
