"""Every loaded entry without its text, for `memtui list`: made from the cache's columns.

`list` shows each entry's place, title, date and badges, never its text. Made as entries, a
warm 50,000-entry folder read its 40 MB of bodies back from the cache file and made 50,000
entries (~0.9 s, half the command); a file whose entries are rows of a cached table gives its
heads straight from the columns (`EntryTable.heads`), and only files read from disk this run
(their entries in memory already) are turned into heads one by one.
"""

from __future__ import annotations

from collections.abc import Sequence

from memtui.core.cache.entry_table import TableView, table_runs
from memtui.core.live.store import Store
from memtui.core.model import Entry, EntryHead


def loaded_heads(stores: Sequence[Store]) -> list[EntryHead]:
    """The heads of every loaded entry of `stores`, from each store's current snapshot (which
    later changes replace, never alter): for a command that loaded once. Files whose rows
    follow each other in one table (a warm start's, nearly all) are made as one run."""
    heads: list[EntryHead] = []
    for store in stores:
        read: list[Entry] = []
        files = store.loaded_files()
        for entries in table_runs([files[path] for path in sorted(files)]):
            if isinstance(entries, TableView) and isinstance(entries.rows, range):
                heads.extend(entries.table.heads(entries.rows))
            else:
                read.extend(entries)
        heads.extend(map(EntryHead.of, read))
    return heads
