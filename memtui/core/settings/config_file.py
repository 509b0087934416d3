"""Writing settings back to the config file in use, keeping the user's comments and layout.

The file in use is the one the config was loaded from (`--config FILE`), else the XDG file.
Edits go through tomlkit, which round-trips TOML: comments, key order and formatting survive,
and only the keys memtui sets change. Writes are atomic (a temp file renamed over the old one),
and a path inside a memory root is refused: memtui never writes under a root.

The user's file stays theirs: a config that is a symlink (a dotfiles checkout) is written
through to its target, the temp file made and renamed in the target's folder, so the link
stays a link; the file keeps its mode (a 0644 file does not become 0600). It is read the way
every file besides memory is (`small_file`): a FIFO or a device there is refused.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from memtui.core.reading.small_file import read_small_file
from memtui.core.settings.config import MAX_CONFIG_BYTES, Config, default_config_path

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
        existing = read_small_file(target, MAX_CONFIG_BYTES).decode("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        existing = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigWriteError(f"{target}: cannot read the config to update it: {exc}") from exc
    import tomlkit  # here: only saving a setting writes TOML (~0.7 MB the app never needs else)
    from tomlkit.exceptions import TOMLKitError

    try:
        document = tomlkit.parse(existing)
    except (TOMLKitError, RecursionError) as exc:
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
    _write_atomically(target, resolved, tomlkit.dumps(document))


def _write_atomically(target: Path, resolved: Path, text: str) -> None:
    """Replace `resolved` (the file a symlinked `target` points to) by `text`, keeping its
    mode; `target` names it in messages."""
    try:
        mode = os.stat(resolved).st_mode & 0o7777
    except OSError:
        mode = None  # a new file: mkstemp's 0600, settings are private
    try:
        resolved.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=resolved.parent, prefix=f".{resolved.name}.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            if mode is not None:
                os.chmod(temporary, mode)
            os.replace(temporary, resolved)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise ConfigWriteError(f"{target}: could not save settings: {exc.strerror or exc}") from exc
