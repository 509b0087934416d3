"""Writing settings back to the config file in use, keeping the user's comments and layout.

The file in use is the one the config was loaded from (`--config FILE`), else the XDG file.
Edits go through tomlkit, which round-trips TOML: comments, key order and formatting survive,
and only the keys memtui sets change. Writes are atomic (a temp file renamed over the old one),
and a path inside a memory root is refused: memtui never writes under a root.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

import tomlkit
from tomlkit.exceptions import TOMLKitError

from memtui.core.settings.config import Config, default_config_path

SettingValue = str | int | float | bool | Mapping[str, str | int | float | bool]
"""A top-level value; a mapping becomes (or updates) a table such as `[weights]`."""


class ConfigWriteError(OSError):
    """The settings could not be saved; the message says where and why."""


def config_file_in_use(config: Config) -> Path:
    """Where settings are saved: the file the config came from, else the XDG config file."""
    return config.source_path if config.source_path is not None else default_config_path()


def save_settings(
    path: Path, values: Mapping[str, SettingValue], *, roots: Iterable[Path] = ()
) -> None:
    """Set `values` in the TOML file at `path` (created if missing), leaving the rest as is.

    A mapping value replaces the keys it names inside its table and keeps the table's others.
    Raises ConfigWriteError for a file under one of `roots`, unreadable or invalid TOML, or a
    failed write.
    """
    target = path.expanduser()
    resolved = target.resolve()
    for root in roots:
        if resolved.is_relative_to(root.resolve()):
            raise ConfigWriteError(f"{target}: inside the memory folder {root}; not written")
    try:
        existing = target.read_text(encoding="utf-8") if target.exists() else ""
        document = tomlkit.parse(existing)
    except (OSError, UnicodeDecodeError, TOMLKitError) as exc:
        raise ConfigWriteError(f"{target}: cannot read the config to update it: {exc}") from exc
    for key, value in values.items():
        if isinstance(value, Mapping):
            table = document.get(key)
            if not isinstance(table, Mapping):
                table = tomlkit.table()
                document[key] = table
            for name, item in value.items():
                table[name] = item  # type: ignore[index]
        else:
            document[key] = value
    _write_atomically(target, tomlkit.dumps(document))


def _write_atomically(target: Path, text: str) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise ConfigWriteError(f"{target}: could not save settings: {exc.strerror or exc}") from exc
