"""Earlier queries, for ↑/↓ in an empty query box: one query per line in a small state file.

Kept in `$XDG_STATE_HOME/memtui/history` (else `~/.local/state/memtui/history`), never under a
memory root, capped at `MAX_QUERIES` (the newest kept). A query is stored once: asking it again
moves it to the end. Queries are one line each, flattened and cut at `MAX_QUERY_CHARS`; a file
that cannot be read is treated as empty, and a write that fails loses only the history.

The file is as untrusted as memory: it is read as `small_file` reads (a FIFO or a link to
`/dev/urandom` is refused, at most MAX_FILE_BYTES), and every line read goes through
`sanitize.visible` and is capped, so no escape sequence in it reaches the terminal when recalled.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from memtui.core.reading.small_file import read_small_file
from memtui.core.sanitize import visible
from memtui.core.settings.xdg import state_home

MAX_QUERIES = 500
MAX_QUERY_CHARS = 500
MAX_FILE_BYTES = 1024 * 1024


def default_history_path() -> Path:
    return state_home() / "memtui" / "history"


def read_history(path: Path) -> list[str]:
    """The stored queries, oldest first (empty when the file is missing or unreadable)."""
    return load_history(path)[0]


def load_history(path: Path) -> tuple[list[str], str | None]:
    """The stored queries, oldest first, and why the file was not read (None: it was, or it
    is missing) for a warning."""
    try:
        data = read_small_file(path, MAX_FILE_BYTES, truncate=True)
    except (FileNotFoundError, NotADirectoryError):
        return [], None
    except OSError as exc:
        return [], f"query history {path} not read: {exc}"
    lines = data.decode("utf-8", errors="replace").split("\n")[-MAX_QUERIES * 4 :]
    cleaned = [_clean(line) for line in lines]
    return [line for line in cleaned if line][-MAX_QUERIES:], None


def _clean(query: str) -> str:
    """One query as stored and shown: control characters visible, flattened, capped."""
    return " ".join(visible(query).split())[:MAX_QUERY_CHARS]


def remembered(history: Iterable[str], query: str) -> list[str]:
    """`history` with `query` added as the newest (moved there if it was already stored)."""
    flat = _clean(query)
    if not flat:
        return list(history)
    kept = [item for item in history if item != flat]
    return [*kept, flat][-MAX_QUERIES:]


def write_history(path: Path, history: Iterable[str], *, roots: Iterable[Path] = ()) -> bool:
    """Replace the file atomically; False (nothing written) under a root or on an OS error."""
    resolved = path.resolve()
    if any(resolved.is_relative_to(root.resolve()) for root in roots):
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write("".join(f"{item}\n" for item in history))
        os.replace(temporary, path)
    except OSError:
        return False
    return True


class HistoryCursor:
    """Walking the history from the newest back (↑) and forward again (↓)."""

    def __init__(self, history: list[str]) -> None:
        self.history = history
        self.position: int | None = None
        """Index of the query shown, None when not walking."""

    def older(self) -> str | None:
        if not self.history:
            return None
        if self.position is None:
            self.position = len(self.history) - 1
        else:
            self.position = max(0, self.position - 1)
        return self.history[self.position]

    def newer(self) -> str | None:
        """The next newer query, or "" past the newest (the empty box again)."""
        if self.position is None:
            return None
        if self.position + 1 >= len(self.history):
            self.position = None
            return ""
        self.position += 1
        return self.history[self.position]
