"""`memtui health` end to end (in process): the demo's findings, the JSON schema, hostile text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtui.cli import main

TODAY = "2026-11-21"
DEMO_FINDINGS_SHOWN = (
    "near-duplicates — 3 groups, 6 entries",
    "95% alike with memory/2026-11-14.md:3 (threshold 90%)",
    "superseded — 1 group, 2 entries",
    "restated 16 days later in memory/2026-11-16.md:11",
    "beyond the load line — 1 entry",
    "MEMORY.md:201  undated  Conference talks",
    "starts at line 201, past the load line: Claude Code stops after line 200",
    "secrets — 1 entry (1 × GitHub token)",
    "maybe stale — none",
)
"""What `memtui health --demo` and the health view both show (tests/test_ui_health.py)."""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["health", *args, "--today", TODAY])
    return code, capsys.readouterr().out


def test_the_demo_lists_one_of_each_with_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "--demo", "--days", "0")
    assert code == 1
    for expected in DEMO_FINDINGS_SHOWN:
        assert expected in out


def test_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "--demo", "--days", "0", "--json")
    payload: dict[str, Any] = json.loads(out)
    assert code == 1
    assert set(payload) == {
        "roots",
        "today",
        "days",
        "entries",
        "elapsed_ms",
        "counts",
        "groups",
        "secret_kinds",
        "load_lines",
        "findings",
        "skipped",
        "session",
    }
    assert payload["counts"] == {
        "duplicates": 6,
        "superseded": 2,
        "load_line": 1,
        "secrets": 1,
        "stale": 0,
    }
    assert payload["secret_kinds"] == {"GitHub token": 1}
    [cut] = payload["load_lines"]
    assert {k: cut[k] for k in ("path", "agent", "last_loaded_line", "whole_line")} == {
        "path": "MEMORY.md",
        "agent": "Claude Code",
        "last_loaded_line": 200,
        "whole_line": True,
    }
    superseded = [f for f in payload["findings"] if f["check"] == "superseded"]
    older = superseded[1]
    assert set(older) == {
        "check",
        "group",
        "lead",
        "root",
        "root_label",
        "path",
        "line_start",
        "line_end",
        "title",
        "date",
        "source",
        "reason",
        "details",
        "related",
    }
    assert older["details"]["gap_days"] == 16
    assert older["related"]["path"] == "memory/2026-11-16.md"
    assert older["related"]["line_start"] == 11
    secret = next(f for f in payload["findings"] if f["check"] == "secrets")
    assert secret["details"] == {"GitHub token": 1}


def test_a_clean_folder_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "MEMORY.md").write_text("# Memory\n\n## One\n\nOnly one fact here.\n")
    code, out = run(capsys, str(tmp_path))
    assert code == 0
    assert "No findings" in out


def test_file_text_is_sanitised_and_masked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = "ghp_" + "A1b2C3d4E5" * 4
    body = (
        f"Deploy key {token} rotated by the release bot on every tagged build of the "
        "billing service, logged to the audit channel with the commit hash."
    )
    for day in ("2026-11-01", "2026-11-09"):
        title = f"\x1b]52;c;SGVsbG8=\x07Keys {token}"
        (tmp_path / f"{day}.md").write_text(f"# {day}\n\n## {title}\n\n{body}\n")
    for args in ((), ("--json",)):
        code, out = run(capsys, str(tmp_path), "--days", "0", *args)
        assert code == 1
        assert "\x1b" not in out and "\x07" not in out and token not in out
        assert "ghp_A1" in out


def test_health_lists_what_every_session_loads_and_what_a_cap_cuts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = tmp_path / ".claude" / "projects" / "-p" / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("".join(f"- fact {n}\n" for n in range(250)))
    (memory / "topic.md").write_text("## Topic\nread on demand\n")
    _, out = run(capsys, str(memory), "--json")
    session = json.loads(out)["session"]
    index = "".join(f"- fact {n}\n" for n in range(250))
    loaded = len("".join(f"- fact {n}\n" for n in range(200)))
    assert session["chars"] == loaded and session["lost_past_cap"] == len(index) - loaded
    assert [(f["path"], f["load"]) for f in session["files"]] == [("MEMORY.md", "capped")]
    _, out = run(capsys, str(memory))
    assert f"Loaded at every session start: {loaded:,} chars ≈" in out
    assert "Past a cap, never loaded:" in out and "(200 lines / 25,000 bytes)" in out
