"""`memtui cache` lists what the start-up cache holds and `--clear` empties it; `cache = false`
is a config key like the others."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cache_helpers import cached_engine

from memtui.cli import main
from memtui.core.settings.config import ConfigError, parse_config


def test_cache_lists_roots_and_clear_removes_them(
    memory_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cache"]) == 0
    assert "0 roots" in capsys.readouterr().out
    cached_engine(memory_root).save_cache()
    assert main(["cache"]) == 0
    listed = capsys.readouterr().out
    assert "1 root" in listed and os.path.realpath(memory_root) in listed
    assert main(["cache", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["max_roots"] == 10 and payload["total_bytes"] > 0
    (row,) = payload["roots"]
    assert row["root"] == os.path.realpath(memory_root) and row["entries"] > 10
    assert main(["cache", "--clear"]) == 0
    assert "Removed 1 cache file" in capsys.readouterr().out
    assert main(["cache", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["roots"] == []


def test_a_damaged_cache_file_is_listed_as_such(
    memory_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cached_engine(memory_root).save_cache()
    (path,) = [
        item
        for item in (Path(os.environ["XDG_CACHE_HOME"]) / "memtui").iterdir()
        if item.suffix == ".cache"
    ]
    path.write_bytes(b"junk")
    assert main(["cache"]) == 0
    assert "unreadable: not a memtui cache file" in capsys.readouterr().out


def test_cache_is_a_config_switch() -> None:
    assert parse_config({})[0].cache is True
    assert parse_config({"cache": False})[0].cache is False
    with pytest.raises(ConfigError, match="cache: expected true or false"):
        parse_config({"cache": "no"})
