"""Writing a cache from a decoded cache's columns gives the very bytes that writing the same
entries as `Entry` objects gives: the columns are passed through, not turned into entries, so
what a warm start saves cannot drift from what a cold start saves."""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from memtui.core.cache.codec import decode, encode
from memtui.core.cache.container import Container, write_container
from memtui.core.cache.entry_table import TableView
from memtui.core.cache.records import CachedFile, CachedIndex, RootSnapshot
from memtui.core.model import DateOrigin, Entry, Source
from memtui.core.search.segment import build_main_segment
from memtui.core.search.slots import SlotEntries

TEXTS = ("", "deploy canary", "数据 ledger", "emoji 😀 here", "lone \ud800 surrogate", "a\nb")
texts = st.sampled_from(TEXTS)
"""Empty, ASCII, CJK, astral and lone-surrogate text (written with surrogatepass)."""
bodies = st.lists(texts, max_size=4).map("\n".join)


@st.composite
def file_entries(draw: st.DrawFn, path: str, tag: str) -> tuple[Entry, ...]:
    """A file's entries, every field drawn (titles that are and are not the last heading)."""
    count = draw(st.integers(0, 12) | st.integers(60, 90))
    entries = []
    for position in range(count):
        headings = tuple(draw(st.lists(texts.filter(bool), max_size=3)))
        own_title = not headings or draw(st.booleans())
        date = draw(st.none() | st.dates(dt.date(2000, 1, 1), dt.date(2030, 1, 1)))
        entries.append(
            Entry(
                id=f"{path}#{tag}{position}",
                path=path,
                source=draw(st.sampled_from(tuple(Source))),
                title=draw(texts) if own_title else headings[-1],
                heading_path=headings,
                body=draw(bodies),
                line_start=position * 3 + 1,
                line_end=position * 3 + draw(st.integers(1, 3)),
                date=date,
                time=draw(st.none() | st.times()) if date else None,
                date_origin=draw(st.sampled_from(tuple(DateOrigin))),
                position=position,
                count=count,
                role=draw(st.none() | st.sampled_from(("user", "assistant"))),
                tags=tuple(draw(st.lists(st.sampled_from(("deploy", "数据")), max_size=2))),
                metadata=tuple(draw(st.lists(st.tuples(texts, texts), max_size=2))),
                warnings=tuple(draw(st.lists(texts, max_size=2))),
            )
        )
    return tuple(entries)


@st.composite
def snapshots(draw: st.DrawFn) -> tuple[list[Sequence[Entry]], int | None, tuple[Entry, ...]]:
    """(each file's entries, the file that changed since, if any, and its entries now)."""
    paths = [f"memory/2026-11-{day:02}.md" for day in range(1, draw(st.integers(1, 6)) + 1)]
    files: list[Sequence[Entry]] = [draw(file_entries(path, "")) for path in paths]
    changed = draw(st.none() | st.integers(0, len(paths) - 1))
    now = () if changed is None else draw(file_entries(paths[changed], "new"))
    return files, changed, now


def snapshot_of(files: Sequence[Sequence[Entry] | None], slots: Sequence[Entry]) -> RootSnapshot:
    segment, lengths = build_main_segment(tuple(slots), two_processes=False)
    records = tuple(
        CachedFile(f"memory/2026-11-{at + 1:02}.md", (at, at, at, at), None, entries)
        for at, entries in enumerate(files)
    )
    return RootSnapshot(records, CachedIndex(slots, segment, lengths))


def written(snapshot: RootSnapshot) -> list[tuple[str, bytes]]:
    return [(section.name, b"".join(section.pieces)) for section in encode(snapshot)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=snapshots())
def test_columns_write_the_bytes_their_entries_write(
    drawn: tuple[list[Sequence[Entry]], int | None, tuple[Entry, ...]],
) -> None:
    files, changed, now = drawn
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "root.cache"
        all_slots = tuple(entry for entries in files for entry in entries)
        write_container(path, {}, encode(snapshot_of(files, all_slots)))
        with Container(path) as container:
            decoded = decode(container, "")
        views: list[Sequence[Entry] | None] = [file.entries for file in decoded.files]
        assert all(isinstance(view, TableView) for view in views)
        assert decoded.index is not None and isinstance(decoded.index.slots, TableView)
        table = decoded.index.slots.table
        slots: Sequence[Entry] = decoded.index.slots
        if changed is not None:  # its entries now: plain, between the views
            views[changed] = now
            rows = [
                np.arange(view.rows.start, view.rows.stop)
                for at, view in enumerate(views)
                if at != changed and isinstance(view, TableView) and isinstance(view.rows, range)
            ]
            slots = SlotEntries(TableView(table, np.concatenate([np.zeros(0, np.int64), *rows])))
            slots.extra.extend(now)
        columns = written(snapshot_of(views, slots))
        entries = written(snapshot_of([tuple(view or ()) for view in views], tuple(slots)))
    assert [name for name, _ in columns] == [name for name, _ in entries]
    for (name, mine), (_, theirs) in zip(columns, entries, strict=True):
        assert mine == theirs, name


def test_a_slot_outside_its_file_is_refused() -> None:
    entry = Entry("a#0", "memory/2026-11-01.md", Source.DAILY, "t", ("t",), "b", 1, 2)
    moved = replace(entry, id="a#1")
    for slots in ((moved,), (replace(entry, position=1),)):
        with pytest.raises(ValueError, match="is not among its file's entries"):
            written(snapshot_of([(entry,)], slots))
