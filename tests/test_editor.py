"""`e` / ctrl+o with an editor that is missing, cannot start or fails: the app is never left
suspended (a blank terminal deaf to every key), and the user hears why."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import pytest
from textual.app import App

from memtui.ui.editor import open_editor


class SuspendingApp:
    """What `open_editor` uses of an app; `suspend` resumes only when its block ends normally,
    as Textual's does."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.notices: list[tuple[str, str]] = []

    @contextmanager
    def suspend(self) -> Iterator[None]:
        self.events.append("suspend")
        yield
        self.events.append("resume")

    def notify(self, message: str, *, severity: str = "information", **_: Any) -> None:
        self.notices.append((message, severity))


def run_editor(monkeypatch: pytest.MonkeyPatch, editor: str, file: Path) -> tuple[bool, Any]:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", editor)
    app = SuspendingApp()
    return open_editor(cast(App[Any], app), file, 3), app


def script(path: Path, body: str) -> Path:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def test_a_missing_editor_is_reported_without_suspending_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened, app = run_editor(monkeypatch, str(tmp_path / "no-such-editor"), tmp_path / "a.md")
    assert opened is False and app.events == []
    ((message, severity),) = app.notices
    assert severity == "error" and "no-such-editor: not found" in message


def test_an_editor_that_cannot_start_still_resumes_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "broken"
    broken.write_bytes(b"\x7fELF not really")  # executable, but exec fails (ENOEXEC)
    broken.chmod(0o755)
    opened, app = run_editor(monkeypatch, str(broken), tmp_path / "a.md")
    assert opened is False and app.events == ["suspend", "resume"]
    ((message, severity),) = app.notices
    assert severity == "error" and message.startswith("Could not run broken: ")


@pytest.mark.parametrize(
    ("body", "said"),
    [("exit 3", "exited with status 3"), ("kill -TERM $$", "was ended by SIGTERM")],
)
def test_an_editor_that_fails_is_reported_and_the_file_reloaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, said: str
) -> None:
    failing = script(tmp_path / "failing", body)
    opened, app = run_editor(monkeypatch, str(failing), tmp_path / "a.md")
    assert opened is True and app.events == ["suspend", "resume"]
    assert app.notices == [(f"failing {said}", "warning")]


def test_an_editor_gets_the_line_and_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = tmp_path / "seen"
    editor = script(tmp_path / "editor", f'echo "$@" > {seen}')
    opened, app = run_editor(monkeypatch, str(editor), tmp_path / "a.md")
    assert opened is True and app.notices == []
    assert seen.read_text() == f"+3 {tmp_path / 'a.md'}\n"
    assert os.access(editor, os.X_OK)


@pytest.mark.parametrize(
    ("editor", "why"),
    [
        ('vim "', '$EDITOR cannot be read as a command (no closing quotation): vim "'),
        ("vim \\", "$EDITOR cannot be read as a command (no escaped character): vim \\"),
        ("   ", "$EDITOR holds no command"),
    ],
)
def test_an_editor_setting_a_shell_could_not_read_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, editor: str, why: str
) -> None:
    """`EDITOR='vim "'` crashed the app (shlex's ValueError), and the crash printed the
    frames' locals: the entry's text with its secrets, and the environment."""
    opened, app = run_editor(monkeypatch, editor, tmp_path / "a.md")
    assert opened is False and app.events == []
    assert app.notices == [(f"Could not run the editor: {why}", "error")]
