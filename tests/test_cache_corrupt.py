"""A damaged, truncated, foreign or malicious cache file is ignored (with a warning the
warnings view shows), the load equals a fresh one, and the next save repairs the file. No cache
content is ever executed: a pickled array is refused, not loaded."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from cache_helpers import assert_same_engine, cached_engine, fresh_engine

from memtui.cli import main
from memtui.core.cache.container import Container, Section, write_container
from memtui.core.cache.folder import CacheFolder

Damage = Callable[[Path], None]


def sections_of(path: Path) -> tuple[dict[str, object], dict[str, bytes]]:
    with Container(path) as container:
        header = {key: value for key, value in container.header.items() if key != "sections"}
        names = [name for name, *_ in container.header["sections"]]
        return header, {name: container.raw(name) for name in names}


def rewritten(
    header_change: dict[str, object] | None = None, section: str | None = None, data: bytes = b""
) -> Callable[[Path], None]:
    """A damage made by rewriting the file with valid checksums (what a CRC cannot catch)."""

    def damage(path: Path) -> None:
        header, sections = sections_of(path)
        if section is not None:
            sections[section] = data
        write_container(
            path,
            {**header, **(header_change or {})},
            [Section(name, [raw]) for name, raw in sections.items()],
        )

    return damage


def npy(array: np.ndarray, *, allow_pickle: bool = False) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


class Exploit:
    """Unpickling this would create a file: proof that nothing was unpickled."""

    marker = Path()

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path.touch, (str(self.marker),))


def dropped(section: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        header, sections = sections_of(path)
        del sections[section]
        write_container(path, header, [Section(name, [raw]) for name, raw in sections.items()])

    return damage


def entry_column(name: str, value: object) -> Callable[[Path], None]:
    """The right number of entries, the first one's `name` column holding `value`: entries
    are made only when looked at, so decoding must refuse what could not be made."""

    def damage(path: Path) -> None:
        _, sections = sections_of(path)
        columns = json.loads(sections["entries"])
        columns[name][0] = value
        rewritten(section="entries", data=json.dumps(columns).encode())(path)

    return damage


def file_secrets(value: object) -> Callable[[Path], None]:
    """The first file's secrets scan (kept since `health` ran) replaced by `value`."""

    def damage(path: Path) -> None:
        _, sections = sections_of(path)
        rows = json.loads(sections["files"])
        rows[0][8] = value
        rewritten(section="files", data=json.dumps(rows).encode())(path)

    return damage


def kept_pair_scores(scorer: bytes, left: int, right: int, scores: list[float]) -> Damage:
    """Near-duplicate scores added (as a `health` run keeps them) that do not hold together."""

    def damage(path: Path) -> None:
        header, sections = sections_of(path)
        sections["pair_scorer"] = scorer
        sections["pair_left"] = npy(np.arange(left, dtype=np.uint64))
        sections["pair_right"] = npy(np.arange(right, dtype=np.uint64))
        sections["pair_score"] = npy(np.array(scores, dtype=np.float64))
        write_container(path, header, [Section(name, [raw]) for name, raw in sections.items()])

    return damage


def heading_array(name: str, change: Callable[[np.ndarray], None]) -> Callable[[Path], None]:
    """One of the heading id arrays changed in place (and written with valid checksums)."""

    def damage(path: Path) -> None:
        _, sections = sections_of(path)
        values = np.load(io.BytesIO(sections[name]))
        change(values)
        rewritten(section=name, data=npy(values))(path)

    return damage


def untitled_and_headless(path: Path) -> None:
    """The first entry's title stands for its last heading, and it has none."""
    _, sections = sections_of(path)
    columns = json.loads(sections["entries"])
    columns["title"][0] = None
    rewritten(section="entries", data=json.dumps(columns).encode())(path)
    heading_array("heading_ends", lambda ends: ends.__setitem__(0, 0))(path)


def truncated(keep: float) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * keep)])

    return damage


def flipped(section: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with Container(path) as container:
            offset, count, _ = container._sections[section]
        data = bytearray(path.read_bytes())
        data[offset + count // 2] ^= 0x20
        path.write_bytes(bytes(data))

    return damage


def replaced(content: bytes) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_bytes(content)

    return write


def a_folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


DAMAGES: dict[str, Damage] = {
    "empty file": replaced(b""),
    "garbage": replaced(b"\x89PNG\r\n" + bytes(range(256)) * 40),
    "truncated to the magic": truncated(0.0001),
    "truncated in the middle": truncated(0.5),
    "trailer cut off": truncated(0.999),
    "a flipped byte in the postings": flipped("docs"),
    "a flipped byte in the entries": flipped("entries"),
    "a flipped byte in the file records": flipped("files"),
    "another format version": rewritten({"format": 999}),
    "another build of the code": rewritten(
        {"code": "0123456789abcdef01234567", "code_files": "0123456789abcdef01234567"}
    ),
    "another folder's cache": rewritten({"root": "/somewhere/else"}),
    "another window's cache": rewritten({"days": 7}),
    "a window that is not a number": rewritten({"days": False}),
    "a window start that is not a day": rewritten({"unread_before": "2026-13-01"}),
    "a window start that is a number": rewritten({"unread_before": 20261121}),
    "entries that are not JSON": rewritten(section="entries", data=b"[[1,2"),
    "entries of the wrong shape": rewritten(section="entries", data=b"[[1,2,3]]"),
    "an id that is a number": entry_column("id", 5),
    "no title and no heading to stand for it": untitled_and_headless,
    "a heading id past the headings": heading_array(
        "heading_ids", lambda ids: ids.__setitem__(0, 10**6)
    ),
    "a negative heading id": heading_array("heading_ids", lambda ids: ids.__setitem__(0, -1)),
    "heading ends that go back": heading_array(
        "heading_ends", lambda ends: ends.__setitem__(0, ends[-1] + 1)
    ),
    "heading ends past the ids": heading_array(
        "heading_ends", lambda ends: ends.__setitem__(-1, ends[-1] + 1)
    ),
    "a key column shorter than the entries": rewritten(
        section="text_hash", data=npy(np.zeros(1, dtype=np.int64))
    ),
    "a key column of floats": rewritten(section="topic_hash", data=npy(np.zeros(3))),
    "a heading that is a number": rewritten(section="headings", data=b"[5]"),
    "headings that are not a list": rewritten(section="headings", data=b'{"a": 1}'),
    "heading ids that are floats": rewritten(section="heading_ids", data=npy(np.zeros(3))),
    "tags that are text": entry_column("tags", "deploy"),
    "a tag that is a number": entry_column("tags", ["deploy", 7]),
    "a metadata pair of three": entry_column("metadata", [["a", "b", "c"]]),
    "a metadata value that is a list": entry_column("metadata", [["a", ["b"]]]),
    "warnings that are a number": entry_column("warnings", 3),
    "a role that is a number": entry_column("role", 3),
    "file records that do not match the entries": rewritten(
        section="files",
        data=json.dumps([["MEMORY.md", 1, 2, 3, 4, None, 1, None, None]]).encode(),
    ),
    "a file record with a negative count": rewritten(
        section="files",
        data=json.dumps([["MEMORY.md", 1, 2, 3, 4, None, -1, None, None]]).encode(),
    ),
    "a file record claiming a billion entries": rewritten(
        section="files",
        data=json.dumps([["MEMORY.md", 1, 2, 3, 4, None, 10**9, None, None]]).encode(),
    ),
    "a file record whose time is text": rewritten(
        section="files",
        data=json.dumps([["MEMORY.md", "1", 2, 3, 4, None, 1, None, None]]).encode(),
    ),
    "a file record cut short": rewritten(section="files", data=b'[["MEMORY.md", 1, 2]]'),
    "a secrets scan that is a number": file_secrets(5),
    "a secrets scan line that is text": file_secrets([["3", [["JWT", 1]]]]),
    "a secrets scan count that is text": file_secrets([[3, [["JWT", "1"]]]]),
    "a secrets scan of three": file_secrets([[3, [["JWT", 1]], 4]]),
    "kept scores of unequal lengths": kept_pair_scores(b'"s"', 2, 1, [95.0, 91.0]),
    "a kept score over 100": kept_pair_scores(b'"s"', 1, 1, [101.0]),
    "a kept score that is not a number": kept_pair_scores(b'"s"', 1, 1, [float("nan")]),
    "a scorer that is a number": kept_pair_scores(b"7", 1, 1, [95.0]),
    "postings past the slots": rewritten(
        section="docs", data=npy(np.full(4, 10**6, dtype=np.int32))
    ),
    "an unsorted vocabulary": rewritten(section="words", data=b'["b","a"]'),
    "a float array for the pointers": rewritten(section="ptr", data=npy(np.zeros(3))),
    "an empty array section": rewritten(section="lengths", data=b""),
    "a missing section": dropped("body_ends"),
    "a cache file that is a folder": a_folder,
}


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_cache_is_ignored_reported_and_rebuilt(
    memory_root: Path, damage: Callable[[Path], None]
) -> None:
    cached_engine(memory_root).save_cache()
    path = CacheFolder().file_for(memory_root)
    damage(path)
    warm = cached_engine(memory_root)
    assert len(warm.warnings) == 1 and "ignored" in warm.warnings[0]
    assert_same_engine(warm, fresh_engine(memory_root))
    if path.is_dir():
        path.rmdir()
    assert warm.cache_stale
    warm.save_cache()
    repaired = cached_engine(memory_root)
    assert repaired.warnings == [] and not repaired.cache_stale
    assert_same_engine(repaired, fresh_engine(memory_root))


@pytest.mark.parametrize(
    "header_change",
    [
        pytest.param({"code_files": "0123456789abcdef01234567"}, id="the same code elsewhere"),
        pytest.param({"code": "0123456789abcdef01234567"}, id="the same files"),
    ],
)
def test_a_cache_of_this_code_is_used(memory_root: Path, header_change: dict[str, object]) -> None:
    """A start checks the core's files by stat (`code_signature`) and reads them only when
    that differs: the same code installed elsewhere, or a source touched, matches by content
    (`code_fingerprint`); files whose stat matches are taken as the code that wrote it."""
    cached_engine(memory_root).save_cache()
    rewritten(header_change)(CacheFolder().file_for(memory_root))
    warm = cached_engine(memory_root)
    assert warm.warnings == [] and not warm.cache_stale
    assert_same_engine(warm, fresh_engine(memory_root))


def test_a_body_damaged_after_the_load_is_never_shown_and_the_cache_is_rebuilt(
    memory_root: Path,
) -> None:
    """Bodies are read when an entry is made, each piece checked against its own checksum:
    a damaged piece shows no text but a warning, its cache file is removed and never written
    from those rows, and the next start reads the folder again."""
    cached_engine(memory_root).save_cache()
    path = CacheFolder().file_for(memory_root)
    flipped("bodies")(path)
    warm = cached_engine(memory_root)
    assert warm.warnings == []
    fresh = {entry.id: entry for entry in fresh_engine(memory_root).loaded_entries()}
    damaged = [entry for entry in warm.loaded_entries() if entry != fresh[entry.id]]
    assert damaged and all(entry.body == "" for entry in damaged)
    assert all("damaged" in entry.warnings[-1] for entry in damaged)
    assert not path.exists()
    warm.set_window(30)  # a change, so the cache is written again: refused for those rows
    warm.save_cache()
    assert not path.exists() and any("damaged cache" in warning for warning in warm.warnings)
    assert_same_engine(cached_engine(memory_root), fresh_engine(memory_root))


@pytest.mark.parametrize("removable", [True, False], ids=["removed", "cannot-be-removed"])
def test_rank_never_prints_hits_whose_text_did_not_read_back(
    memory_root: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    removable: bool,
) -> None:
    """`rank` printed blank excerpts from a damaged bodies section. It says so on stderr and
    answers from the folder itself."""
    main(["rank", "-q", "deploy", str(memory_root), "--days", "0", "--today", "2026-11-21"])
    expected = capsys.readouterr().out
    cached_engine(memory_root).save_cache()
    flipped("bodies")(CacheFolder().file_for(memory_root))
    if not removable:
        monkeypatch.setattr(Path, "unlink", _refused)
    main(["rank", "-q", "deploy", str(memory_root), "--days", "0", "--today", "2026-11-21"])
    captured = capsys.readouterr()
    assert "the cache was damaged (an entry's text did not read back)" in captured.err
    assert _without_timing(captured.out) == _without_timing(expected)


def _without_timing(output: str) -> str:
    return re.sub(r" in [0-9.]+ ms", "", output)


def _refused(self: Path, missing_ok: bool = False) -> None:
    raise PermissionError(13, "Permission denied", str(self))


def test_a_damaged_body_in_a_cache_that_cannot_be_removed_is_still_only_a_warning(
    memory_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only cache folder (fault-injected: root ignores permissions): the damaged piece
    still shows as a warning, never an exception, and the cache is not written from it."""
    cached_engine(memory_root).save_cache()
    path = CacheFolder().file_for(memory_root)
    flipped("bodies")(path)
    monkeypatch.setattr(Path, "unlink", _refused)
    warm = cached_engine(memory_root)
    damaged = [entry for entry in warm.loaded_entries() if entry.body == "" and entry.warnings]
    assert damaged and all("damaged" in entry.warnings[-1] for entry in damaged)
    assert path.exists()


def test_a_pickled_array_is_refused_never_unpickled(memory_root: Path, tmp_path: Path) -> None:
    Exploit.marker = tmp_path / "pwned"
    cached_engine(memory_root).save_cache()
    path = CacheFolder().file_for(memory_root)
    payload = np.array([Exploit()], dtype=object)
    rewritten(section="lengths", data=npy(payload, allow_pickle=True))(path)
    warm = cached_engine(memory_root)
    assert not Exploit.marker.exists()
    assert "unexpected array" in warm.warnings[0]
    assert_same_engine(warm, fresh_engine(memory_root))
