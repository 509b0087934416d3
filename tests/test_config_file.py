"""Saving settings to the config file in use: comments, order and other keys survive."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtui.core.cache.folder import default_cache_folder
from memtui.core.settings.choices import default_choices_path
from memtui.core.settings.config import Config, default_config_path, load_config
from memtui.core.settings.config_file import ConfigWriteError, config_file_in_use, save_settings
from memtui.core.settings.history import default_history_path
from memtui.ui.themes import user_themes_dir

COMMENTED = """\
# my memtui settings
theme = "memtui-light"  # easier on the eyes
days = 14

[weights]  # tuned by hand
relevance = 0.6
recency = 0.2
source = 0.1
position = 0.1

[keymap]
"pane.edit" = "o"
"""


def test_a_theme_change_keeps_comments_and_every_other_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(COMMENTED)
    save_settings(path, {"theme": "memtui-dark"})
    assert path.read_text() == COMMENTED.replace('"memtui-light"', '"memtui-dark"')


def test_weights_update_their_table_in_place(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(COMMENTED)
    save_settings(path, {"weights": {"relevance": 0.5, "recency": 0.3}, "half_life_days": 7.0})
    config, warnings = load_config(path)
    assert config.weights == {"relevance": 0.5, "recency": 0.3, "source": 0.1, "position": 0.1}
    assert config.half_life_days == 7.0 and config.days == 14 and not warnings
    text = path.read_text()
    assert "# tuned by hand" in text and "# easier on the eyes" in text
    assert text.index("[weights]") < text.index("[keymap]")


def test_a_missing_file_is_created(tmp_path: Path) -> None:
    path = tmp_path / "new" / "config.toml"
    save_settings(path, {"theme": "nord"})
    assert load_config(path)[0].theme == "nord"


def test_the_file_in_use_is_the_one_loaded(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "x.toml"
    path.parent.mkdir()
    path.write_text("days = 3\n")
    assert config_file_in_use(load_config(path)[0]) == path
    assert config_file_in_use(Config()).name == "config.toml"


def test_nothing_is_written_under_a_memory_root(tmp_path: Path) -> None:
    root = tmp_path / "memory-root"
    root.mkdir()
    with pytest.raises(ConfigWriteError, match="inside the memory folder"):
        save_settings(root / "config.toml", {"theme": "nord"}, roots=[root])
    assert not (root / "config.toml").exists()


@pytest.mark.parametrize("content", [b"theme = \n", b"\xff\xfe not utf-8"])
def test_an_unreadable_config_is_an_error_not_a_crash(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(content)
    with pytest.raises(ConfigWriteError, match="cannot read"):
        save_settings(path, {"theme": "nord"})
    assert path.read_bytes() == content


def test_a_failed_write_is_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ConfigWriteError, match="could not save"):
        save_settings(blocker / "config.toml", {"theme": "nord"})


def test_a_symlinked_config_is_written_through_to_its_target(tmp_path: Path) -> None:
    """A dotfiles link stays a link; the file it points to is updated (and keeps 0644)."""
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "memtui.toml"
    target.write_text(COMMENTED)
    target.chmod(0o644)
    link = tmp_path / "config" / "config.toml"
    link.parent.mkdir()
    link.symlink_to(target)
    save_settings(link, {"theme": "memtui-dark"})
    assert link.is_symlink() and link.resolve() == target
    assert 'theme = "memtui-dark"  # easier on the eyes' in target.read_text()
    assert target.stat().st_mode & 0o7777 == 0o644
    assert sorted(item.name for item in dotfiles.iterdir()) == ["memtui.toml"]  # no temp left
    assert sorted(item.name for item in link.parent.iterdir()) == ["config.toml"]


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600])
def test_saving_keeps_the_file_mode(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "config.toml"
    path.write_text(COMMENTED)
    path.chmod(mode)
    save_settings(path, {"days": 7})
    assert path.stat().st_mode & 0o7777 == mode
    assert load_config(path)[0].days == 7


def test_a_config_that_is_a_fifo_is_not_opened_to_save(tmp_path: Path) -> None:
    import os

    path = tmp_path / "config.toml"
    os.mkfifo(path)
    with pytest.raises(ConfigWriteError, match="not a regular file"):
        save_settings(path, {"days": 7})


@pytest.mark.parametrize("variable", ["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"])
def test_a_relative_xdg_home_is_ignored_as_the_spec_says(
    variable: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`XDG_CACHE_HOME=cache memtui` put the cache under the folder it started in."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.delenv(name)
    monkeypatch.setenv(variable, "relative/dir")
    found = [
        default_config_path(),
        default_cache_folder(),
        default_history_path(),
        default_choices_path(),
        user_themes_dir(),
    ]
    assert all(path.is_absolute() and path.is_relative_to(tmp_path) for path in found), found
    monkeypatch.setenv(variable, str(tmp_path / "absolute"))
    assert any(
        path.is_relative_to(tmp_path / "absolute")
        for path in [default_config_path(), default_cache_folder(), default_history_path()]
    )
