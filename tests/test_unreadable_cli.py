"""A memory file the system refuses to read: `rank` and `health` say so on stderr, as grep does,
and `rank --json` lists it. Fault-injected (tests run as root, which reads a mode-000 file): the
file's open raises PermissionError, as it does for an ordinary user."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from memtui.cli import main
from memtui.commands.output import UNREADABLE_SHOWN
from memtui.core.model import Skipped

TODAY = "2026-11-21"


def refuse_to_open(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """Opening a file whose name is one of `names` fails with EACCES; every other open works."""
    real_open = os.open

    def opened(path: str | os.PathLike[str], flags: int, *args: int, **kwargs: int) -> int:
        if os.path.basename(os.fspath(path)) in names:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", opened)


def memory_with_notes(root: Path, count: int) -> list[str]:
    """A MEMORY.md and `count` daily notes, each mentioning deploy; the notes' paths."""
    (root / "memory").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory\n\n## Deploy\n\nDeploy on Tuesdays.\n")
    notes = []
    for day in range(1, count + 1):
        note = f"memory/2026-11-{day:02d}.md"
        (root / note).write_text(f"# 2026-11-{day:02d}\n\n## Deploy {day}\n\ndeploy note\n")
        notes.append(note)
    return notes


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv, "--today", TODAY, "--days", "0"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_rank_names_an_unreadable_note_on_stderr_and_still_ranks_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = memory_with_notes(tmp_path, 2)
    refuse_to_open(monkeypatch, "2026-11-02.md")
    code, out, err = run(capsys, "rank", "-q", "deploy", str(tmp_path))
    assert code == 0
    assert f"memtui: {notes[1]}: not readable (permission denied)" in err.splitlines()
    assert notes[0] in out and notes[1] not in out
    code, out, _ = run(capsys, "rank", "-q", "deploy", str(tmp_path), "--json")
    payload = json.loads(out)
    assert {"path": notes[1], "reason": "not readable (permission denied)"} in payload["skipped"]


def test_health_says_so_too_and_list_keeps_naming_it_on_stdout_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = memory_with_notes(tmp_path, 1)
    refuse_to_open(monkeypatch, "2026-11-01.md")
    _, out, err = run(capsys, "health", str(tmp_path))
    assert f"memtui: {notes[0]}: not readable (permission denied)" in err.splitlines()
    # QA: the report said "No findings" as if the whole memory had been checked
    assert "Not checked: 1 file memtui could not read (named on stderr)." in out.splitlines()
    assert "No findings in the files read: " in out
    _, out, _ = run(capsys, "health", str(tmp_path), "--json")
    reason = "not readable (permission denied)"
    assert json.loads(out)["skipped"] == [{"path": notes[0], "reason": reason}]
    _, out, err = run(capsys, "list", str(tmp_path))
    assert f"  {notes[0]} — not readable (permission denied)" in out.splitlines()
    assert notes[0] not in err


def test_past_a_few_the_rest_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = memory_with_notes(tmp_path, UNREADABLE_SHOWN + 3)
    refuse_to_open(monkeypatch, *(Path(note).name for note in notes))
    code, out, err = run(capsys, "rank", "-q", "deploy", str(tmp_path))
    assert code == 0 and "MEMORY.md" in out
    named = [line for line in err.splitlines() if "not readable (permission denied)" in line]
    assert len(named) == UNREADABLE_SHOWN
    assert err.splitlines()[-1] == (
        "memtui: … and 3 more not readable (`memtui list` names every skipped path)"
    )


def test_a_folder_that_cannot_be_listed_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not "no entry contains deploy" about a memory never read: exit 2, as a missing folder."""
    memory_with_notes(tmp_path, 1)
    real_scandir = os.scandir

    def listed(path: str | os.PathLike[str] = ".") -> Any:
        if Path(path) == tmp_path:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", listed)
    code, out, err = run(capsys, "rank", "-q", "deploy", str(tmp_path))
    assert (code, out) == (2, "")
    assert err == f"memtui: {tmp_path}: folder not readable (permission denied)\n"


def test_by_rule_skips_stay_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tooling folder every repository has is passed over by rule: nothing on stderr."""
    memory_with_notes(tmp_path, 1)
    (tmp_path / ".git").mkdir()
    code, _, err = run(capsys, "rank", "-q", "deploy", str(tmp_path), "--no-cache")
    assert code == 0 and err == ""


@pytest.mark.parametrize(
    ("reason", "unreadable"),
    [
        ("not readable (permission denied)", True),
        ("not readable (Input/output error)", True),
        ("folder not readable (permission denied)", True),
        ("cannot stat (Permission denied)", True),
        ("ignored folder (.git)", False),
        ("symlink leaves the memory folder (not followed)", False),
        ("not a regular file (FIFO, socket or device): never opened", False),
        ("deeper than 64 folders (not scanned)", False),
    ],
)
def test_which_skips_are_the_systems_refusals(reason: str, unreadable: bool) -> None:
    assert Skipped("memory/x.md", reason).unreadable is unreadable
