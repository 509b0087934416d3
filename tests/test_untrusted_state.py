"""What surrounds the memory is untrusted too: history and keymap text never reach the terminal
raw, and special files at their paths are refused rather than opened."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from pty_terminal import Terminal

from memtui.cli import main
from memtui.core.places import claude
from memtui.core.reading.small_file import Unreadable, read_small_file
from memtui.core.sanitize import has_unsafe
from memtui.core.settings.choices import read_choices
from memtui.core.settings.config import ConfigError, load_config
from memtui.core.settings.history import MAX_QUERIES, MAX_QUERY_CHARS, read_history
from memtui.ui.bindings import MAIN_BINDINGS, PANE_BINDINGS
from memtui.ui.keymap import check_keymap
from memtui.ui.textual_private import notices

ESCAPES = {
    "OSC 52": "\x1b]52;c;SElTVE9SWS1DTElQ\x07",
    "OSC 0": "\x1b]0;HISTORY-TITLE\x07",
    "CSI 2J": "\x1b[2J",
    "C1 CSI": "\u009b31m",
    "RIS": "\x1bc",
}


@pytest.mark.parametrize("payload", ESCAPES.values(), ids=ESCAPES.keys())
def test_history_lines_are_made_visible_when_read(tmp_path: Path, payload: str) -> None:
    path = tmp_path / "history"
    path.write_text(f"deploy\nfind {payload} here\n", encoding="utf-8")
    queries = read_history(path)
    assert queries[0] == "deploy" and "here" in queries[1]
    assert not any(has_unsafe(query) for query in queries)


def test_history_is_capped_in_length_and_count_when_read(tmp_path: Path) -> None:
    path = tmp_path / "history"
    lines = [f"query {number} " + "x" * 5000 for number in range(MAX_QUERIES * 3)]
    path.write_text("\n".join(lines), encoding="utf-8")
    queries = read_history(path)
    assert len(queries) <= MAX_QUERIES
    assert all(len(query) <= MAX_QUERY_CHARS for query in queries)


def test_special_files_at_the_history_path_are_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert read_history(fifo) == []  # would block a worker in open() for good
    urandom = tmp_path / "urandom"
    urandom.symlink_to("/dev/urandom")
    assert read_history(urandom) == []
    assert read_history(tmp_path / ("n" * 300)) == []  # over the name limit


@pytest.mark.parametrize(
    "target", ["/dev/zero", "fifo", "folder"], ids=["dev-zero", "fifo", "folder"]
)
def test_the_small_file_reader_refuses_what_is_not_a_regular_file(
    tmp_path: Path, target: str
) -> None:
    link = tmp_path / "config.toml"
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
    elif target == "folder":
        (tmp_path / "folder").mkdir()
    link.symlink_to(target if target.startswith("/") else tmp_path / target)
    with pytest.raises(Unreadable, match="not a regular file"):
        read_small_file(link, 1024)


def test_the_small_file_reader_caps_what_it_reads(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 5000)
    with pytest.raises(Unreadable, match="5,000 bytes"):
        read_small_file(path, 1000)
    assert read_small_file(path, 1000, truncate=True) == b"x" * 1000
    with pytest.raises(FileNotFoundError):
        read_small_file(tmp_path / "missing", 1000)
    with pytest.raises(Unreadable, match="too long"):
        read_small_file(tmp_path / ("n" * 300), 1000)


@pytest.mark.parametrize(
    ("binding_id", "keys"),
    [
        ("pane.help", "\x1b]0;T1\x07"),
        ("pane.quit", "\x1bc"),
        ("pane.edit", "E,\u009b2J"),
        ("pane.edit", "x" * 41),
    ],
)
def test_keymap_keys_with_control_characters_are_refused(binding_id: str, keys: str) -> None:
    check = check_keymap({binding_id: keys}, {"main": MAIN_BINDINGS, "pane": PANE_BINDINGS})
    assert binding_id not in check.accepted
    assert len(check.problems) == 1 and "not a key name" in check.problems[0]
    assert not has_unsafe(check.problems[0])


def test_an_unknown_keymap_id_is_quoted_visibly() -> None:
    check = check_keymap({"\x1b]0;id\x07": "E"}, {"pane": PANE_BINDINGS})
    assert not check.accepted and not has_unsafe(check.problems[0])


def test_recalled_history_and_keymap_write_no_escape_to_the_terminal(tmp_path: Path) -> None:
    """The app in a pseudo-terminal: ↑ recalls a hostile query, help lists the keys."""
    state, config = tmp_path / "state" / "memtui", tmp_path / "config" / "memtui"
    state.mkdir(parents=True)
    config.mkdir(parents=True)
    (state / "history").write_text(
        "".join(f"recall {payload} me\n" for payload in ESCAPES.values()), encoding="utf-8"
    )
    (config / "config.toml").write_text(
        '[keymap]\n"pane.help" = "\\u001b]0;KEYMAP-TITLE\\u0007"\n"pane.quit" = "\\u001bc"\n',
        encoding="utf-8",
    )
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
    }
    argv = [sys.executable, "-m", "memtui", "--demo", "--no-watch"]
    terminal = Terminal(argv, env, (120, 36))
    try:
        terminal.read_until(lambda: b"entries" in terminal.output)
        terminal.settle()
        for _ in range(40):  # ↑: the next older query (the history loads in a worker)
            terminal.press(b"\x1b[A")
            if b"SElTVE9SWS1DTElQ" in terminal.output:  # the oldest, OSC 52, is recalled
                break
        terminal.press(b"\x15\t?")  # clear the box, to the results, help
        terminal.press(b"\x11")
        terminal.wait_exit()
    finally:
        terminal.close()
    written = bytes(terminal.output)
    assert b"SElTVE9SWS1DTElQ" in written and "recall ␛".encode() in written  # shown, visible
    assert "␛]0;KEYMAP-TITLE␇".encode() in written  # the warning quotes it visibly
    for signature in (b"\x1b]52;c;SElTVE9SWS1DTElQ", b"\x1b]0;HISTORY", b"\x1b]0;KEYMAP"):
        assert signature not in written
    assert b"\x1bc" not in written and b"\x1b[2J" not in written
    assert "\u009b".encode() not in written


# --- every file read besides memory: config, Claude transcripts, paths over the name limit -----


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "deep"])
def test_a_config_that_is_not_a_small_regular_toml_file_is_a_config_error(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "config.toml"
    if kind == "fifo":
        os.mkfifo(path)  # opening it for reading would block `memtui list` for good
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")  # read without limit, it ended in MemoryError
    else:
        path.write_text("a = " + "[" * 30_000 + "]" * 30_000 + "\n")
    with pytest.raises(ConfigError, match=r"not a regular file|nested too deeply"):
        load_config(path)


def test_a_symlinked_regular_config_is_still_read(tmp_path: Path) -> None:
    (tmp_path / "dotfiles").mkdir()
    (tmp_path / "dotfiles" / "memtui.toml").write_text("days = 7\n")
    (tmp_path / "config.toml").symlink_to(tmp_path / "dotfiles" / "memtui.toml")
    assert load_config(tmp_path / "config.toml")[0].days == 7


def deep_folder(base: Path, length: int = 275) -> Path:
    folder = base
    while len(str(folder)) < length:
        folder = folder / "abcdefghijklmnopqrstuvwxyz0123456789"
    folder.mkdir(parents=True)
    return folder


def test_roots_inside_a_275_character_path_prints_no_traceback(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    home = tmp_path / "claude"
    (home / "projects").mkdir(parents=True)  # the encoded name is then stat-ed: over 255 bytes
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home))
    project = deep_folder(tmp_path)
    (project / "MEMORY.md").write_text("# Memory\n\n## One\nfirst\n")
    monkeypatch.chdir(project)
    assert claude.auto_memory(project) is None
    assert main(["roots"]) == 0
    assert main(["list"]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_all_claude_survives_odd_transcripts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    projects = tmp_path / "claude" / "projects"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    for name in ("-home-deep", "-home-fifo", "-home-locked", "-home-ok"):
        (projects / name / "memory").mkdir(parents=True)
        (projects / name / "memory" / "MEMORY.md").write_text("# M\n\n## A\nx\n")
    (projects / "-home-deep" / "s.jsonl").write_text(
        "[" * 30_000 + "]" * 30_000 + '\n{"cwd": "/home/deep"}\n'
    )
    os.mkfifo(projects / "-home-fifo" / "s.jsonl")  # opening it hung the command
    (projects / "-home-locked").chmod(0)
    try:
        found = {project.name: project.project for project in claude.every_project()}
        assert main(["roots", "--all-claude"]) == 0
    finally:
        (projects / "-home-locked").chmod(0o755)
    assert found["-home-deep"] == Path("/home/deep")
    assert found["-home-fifo"] is None and "-home-ok" in found
    if os.geteuid() != 0:
        assert "-home-locked" not in found
    assert "Traceback" not in capsys.readouterr().err


def test_a_choices_fifo_is_not_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "choices.json")
    assert read_choices(tmp_path / "choices.json") == {}


async def test_a_history_fifo_is_a_warning_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui_helpers import SIZE, build_app, wait_loaded, wait_until, workers_done

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "state" / "memtui").mkdir(parents=True)
    os.mkfifo(tmp_path / "state" / "memtui" / "history")  # open() would block a worker for good
    app = build_app("--demo", "--no-watch", deterministic=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_loaded(pilot, app)
        await wait_until(
            pilot,
            lambda: any("history" in note for note in notices(app)),
        )
        notice = next(note for note in notices(app) if "history" in note)
        assert "not a regular file" in notice
        await workers_done(pilot, app)  # none stays blocked on the FIFO


def test_a_theme_fifo_or_device_is_skipped_with_a_warning(tmp_path: Path) -> None:
    from memtui.ui.themes import load_themes

    os.mkfifo(tmp_path / "pipe.toml")  # reading it blocked the start
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    (tmp_path / "good.toml").write_text("name = 'mine'\nprimary = '#123456'\n", encoding="utf-8")
    themes = load_themes(tmp_path)
    assert "mine" in themes.themes
    assert len(themes.warnings) == 2
    assert all("not a regular file" in warning for warning in themes.warnings)
