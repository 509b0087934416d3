"""`memtui list` end to end (in process), and how the CLI finds its root, window and today."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtui.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["list", *args, "--json", "--today", "2026-11-21"])
    return code, json.loads(capsys.readouterr().out)


def test_json_lists_every_layout(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = run_json(capsys, str(memory_root))
    assert code == 0
    entries = payload["entries"]
    by_key = {(e["path"], e["line_start"]): e for e in entries}
    deploy = by_key[("memory/2026-11-20.md", 3)]
    assert deploy == {
        "id": deploy["id"],
        "root": str(memory_root),
        "root_label": "root",
        "path": "memory/2026-11-20.md",
        "line_start": 3,
        "line_end": 5,
        "title": "09:14 — Deploy",
        "heading_path": ["2026-11-20", "09:14 — Deploy"],
        "date": "2026-11-20T09:14",
        "date_origin": "filename",
        "source": "daily",
        "role": None,
        "tags": [],
        "warnings": [],
    }
    assert by_key[("MEMORY.md", 19)]["date"] == "2026-03-18"
    assert by_key[("muxcode/build.md", 3)]["role"] == "build"
    assert by_key[(".claude/memory/socket_permissions.md", 8)]["tags"] == [
        "sockets",
        "permissions",
    ]
    assert by_key[("nanobot/memory/HISTORY.md", 1)]["source"] == "daily"
    assert payload["hidden_by_window"] == 2
    assert payload["skipped"] == []
    assert [e["path"] for e in entries] == sorted(e["path"] for e in entries)


def test_filters(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, long_term = run_json(capsys, str(memory_root), "--source", "long_term")
    assert {e["source"] for e in long_term["entries"]} == {"long_term"}
    _, roles = run_json(capsys, str(memory_root), "--role", "decision*")
    assert {e["path"] for e in roles["entries"]} == {"memory-bank/decisionLog.md"}
    _, by_path = run_json(capsys, str(memory_root), "--role", "memory/2026-11-2*")
    assert {e["path"] for e in by_path["entries"]} == {"memory/2026-11-20.md"}


def test_days_widens_the_window(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, payload = run_json(capsys, str(memory_root), "--days", "0")
    assert payload["hidden_by_window"] == 0
    assert any(e["path"] == "memory/2026-09-01.md" for e in payload["entries"])


def test_skipped_paths_are_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ok.md").write_text("## Ok\n")
    (tmp_path / "blob.md").write_bytes(b"\x00\x01binary")
    _, payload = run_json(capsys, str(tmp_path))
    assert payload["skipped"] == [
        {"path": "blob.md", "reason": "binary file (NUL byte at offset 0)"}
    ]


def test_no_entries_exits_1(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = run_json(capsys, str(memory_root), "--role", "no-such-role")
    assert code == 1
    assert payload["entries"] == []


def test_human_output_is_sanitised_and_masked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "MEMORY.md").write_text(
        "## Evil \x1b]0;TITLE\x07 heading\n\nx\n\n"
        "## token=ghp_FAKEdemoTokenNotRealAbCdEf0123456789xyz\n\ny\n"
    )
    assert main(["list", str(tmp_path), "--today", "2026-11-21"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "␛]0;TITLE" in out
    assert "ghp_FAKEdemoTokenNotRealAbCdEf0123456789xyz" not in out
    assert "MEMORY.md" in out and "2 entries in 1 file" in out
    assert main(["list", str(tmp_path), "--reveal-secrets"]) == 0
    assert "ghp_FAKEdemoTokenNotRealAbCdEf0123456789xyz" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [["/definitely/not/here"], ["--today", "2026-13-01"], ["--days", "-3"], ["--source", "web"]],
)
def test_usage_errors_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        code = main(["list", *args])
        raise SystemExit(code)
    assert raised.value.code == 2
    assert capsys.readouterr().err


def test_bad_config_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    config.write_text("days = -1\n")
    assert main(["list", str(tmp_path), "--config", str(config)]) == 2
    assert "days" in capsys.readouterr().err


def test_demo_lists(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    code, payload = run_json(capsys, "--demo")
    assert code == 0
    assert 60 <= len(payload["entries"]) <= 150


def test_json_escapes_terminal_controls_but_keeps_cjk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "evil\u202e\x9b\x7f.md").write_text("## 部署 \x1b[2J\n")
    code, payload = run_json(capsys, str(tmp_path))
    assert code == 0
    main(["list", str(tmp_path), "--json"])
    raw = capsys.readouterr().out
    assert not any(char in raw for char in "\u202e\x9b\x7f\x1b")
    assert "部署" in raw
    assert payload["entries"][0]["path"] == "evil\u202e\x9b\x7f.md"


def test_config_mask_secrets_false_shows_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = tmp_path / "memory-root"
    memory.mkdir()
    (memory / "MEMORY.md").write_text("## token=ghp_FAKEdemoTokenNotRealAbCdEf0123456789xyz\n\ny\n")
    config = tmp_path / "config.toml"
    config.write_text("mask_secrets = false\n")
    assert main(["list", str(memory), "--config", str(config)]) == 0
    assert "ghp_FAKEdemoTokenNotRealAbCdEf0123456789xyz" in capsys.readouterr().out
