"""`memtui cache` lists what the start-up cache holds and `--clear` empties it; `cache = false`
is a config key like the others."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cache_helpers import cached_engine

from memtui.cli import main
from memtui.commands.cache import human_size
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
    assert "entries, all dates)" in listed  # the date window it was written for
    assert "0.0 MB" not in listed and " KB" in listed  # a small cache in human units
    assert main(["cache", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["max_roots"] == 16 and payload["total_bytes"] > 0
    (row,) = payload["roots"]
    assert row["root"] == os.path.realpath(memory_root) and row["entries"] > 10
    assert row["days"] == 0
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


@pytest.mark.parametrize(
    ("size", "shown"),
    [
        (0, "0 bytes"),
        (1, "1 byte"),
        (812, "812 bytes"),
        (4_200, "4.2 KB"),
        (37_000, "37 KB"),
        (999_499, "999 KB"),
        (999_500, "1.0 MB"),
        (12_300_000, "12 MB"),
        (3_000_000_000, "3.0 GB"),
    ],
)
def test_sizes_are_shown_in_human_units(size: int, shown: str) -> None:
    assert human_size(size) == shown


def test_cache_is_a_config_switch() -> None:
    assert parse_config({})[0].cache is True
    assert parse_config({"cache": False})[0].cache is False
    with pytest.raises(ConfigError, match="cache: expected true or false"):
        parse_config({"cache": "no"})
