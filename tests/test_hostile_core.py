"""The core over a memory folder written by an attacker: no crash, nothing unsafe, nothing outside.

Every text field an entry carries for display must already be safe (`has_unsafe` is False); the
entry's `path` is the real file name (it must open in `$EDITOR`), so it is checked separately:
the display layers pass it through `one_line()`, which `test_hostile_cli.py` proves.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from memtui.bench import hostile
from memtui.core.live.engine import Engine
from memtui.core.live.store import Store
from memtui.core.model import Entry
from memtui.core.sanitize import has_unsafe, one_line
from memtui.core.settings.config import Config

TODAY = dt.date(2026, 11, 21)


@pytest.fixture(scope="module")
def corpus(hostile_corpus: hostile.HostileFactory) -> hostile.HostileCorpus:
    return hostile_corpus(2000)


@pytest.fixture(scope="module")
def store(corpus: hostile.HostileCorpus) -> Store:
    loaded = Store(corpus.root, days=0, today=TODAY)
    loaded.load()
    return loaded


def display_fields(entry: Entry) -> list[str]:
    return [
        entry.title,
        entry.body,
        *entry.heading_path,
        *entry.tags,
        *entry.warnings,
        *(part for pair in entry.metadata for part in pair),
        entry.role or "",
    ]


def by_path(store: Store, path: str) -> list[Entry]:
    return [entry for entry in store.entries.values() if entry.path == path]


def test_every_display_field_is_safe(store: Store) -> None:
    unsafe = [
        (entry.path, field[:80])
        for entry in store.entries.values()
        for field in display_fields(entry)
        if has_unsafe(field)
    ]
    assert unsafe == []


def test_payloads_were_loaded_and_made_visible(store: Store) -> None:
    bodies = "\n".join(entry.body for entry in store.entries.values())
    titles = "\n".join(entry.title for entry in store.entries.values())
    assert f"␛]52;c;{hostile.CLIPBOARD_B64}" in bodies
    assert f"␛]0;{hostile.TITLE_TEXT}" in titles
    assert "<U+202E>" in bodies
    assert "<U+009B>31m" in bodies
    assert "␡" in bodies


def test_escape_payloads_in_frontmatter_are_visible(store: Store) -> None:
    (entry,) = by_path(store, "notes/escape-frontmatter.md")
    assert entry.meta("name") is not None
    values = [value for _, value in entry.metadata] + list(entry.tags)
    assert any("␛]0;" in value for value in values)
    assert not any(has_unsafe(value) for value in values)


def test_hostile_file_names_are_loaded_and_render_safely(
    store: Store, corpus: hostile.HostileCorpus
) -> None:
    loaded = {entry.path for entry in store.entries.values()}
    for name in corpus.hostile_file_names:
        assert name in loaded
        assert not has_unsafe(one_line(name))


def test_markup_is_kept_literally(store: Store) -> None:
    bodies = "\n".join(entry.body for entry in store.entries.values())
    titles = {entry.title for entry in store.entries.values()}
    for payload in hostile.MARKUP_PAYLOADS:
        assert payload in bodies
    assert "[@click=app.quit]CLICK-QUIT[/] heading" in titles


def test_every_skip_has_a_reason(store: Store, corpus: hostile.HostileCorpus) -> None:
    reasons = {skipped.path: skipped.reason for skipped in store.skipped}
    assert all(reason.strip() for reason in reasons.values())
    for path, word in corpus.expected_skips.items():
        assert path in reasons, f"{path} was not reported as skipped"
        assert word.lower() in reasons[path].lower(), (path, reasons[path])
    assert any("deeper" in reason for reason in reasons.values())


def test_permission_traps(store: Store, corpus: hostile.HostileCorpus) -> None:
    if not corpus.permissions_enforced:
        pytest.skip("running as root: chmod 000 does not block reads, nothing to skip")
    bodies = "\n".join(entry.body for entry in store.entries.values())
    assert hostile.UNREADABLE_MARKER not in bodies


def test_nothing_outside_the_root_is_loaded(store: Store) -> None:
    for entry in store.entries.values():
        assert hostile.OUTSIDE_MARKER not in entry.body
        assert not entry.path.startswith(("/", "../"))
        assert ".." not in entry.path.split("/")


@pytest.mark.parametrize(
    ("path", "titles"),
    [
        ("enc/bom-utf8.md", ["Encoded heading", "Second"]),
        ("enc/utf16-le.md", ["Encoded heading", "Second"]),
        ("enc/utf16-be.md", ["Encoded heading", "Second"]),
        ("enc/cr-only.md", ["One", "Two"]),
        ("enc/crlf.md", ["One", "Two"]),
        ("fs/x.md/inside.md", ["Inside a folder named x.md"]),
        ("yaml/nested-brackets.md", ["Body survives"]),
        ("yaml/alias-bomb.md", ["Alias body"]),
        ("yaml/deep-indent.md", ["Deep body"]),
        ("yaml/non-string-keys.md", ["Keys body"]),
        ("yaml/huge-frontmatter.md", ["Huge fm body"]),
    ],
)
def test_odd_files_parse_to_their_sections(store: Store, path: str, titles: list[str]) -> None:
    assert [entry.title for entry in sorted(by_path(store, path), key=lambda e: e.line_start)] == (
        titles
    )


@pytest.mark.parametrize(
    "path", ["yaml/nested-brackets.md", "yaml/alias-bomb.md", "yaml/huge-frontmatter.md"]
)
def test_yaml_bombs_leave_a_visible_warning(store: Store, path: str) -> None:
    assert any(entry.warnings for entry in by_path(store, path))


def test_invalid_utf8_is_flagged(store: Store) -> None:
    (entry,) = by_path(store, "enc/invalid-utf8.md")
    assert "\ufffd" in entry.title + entry.body
    assert entry.warnings


def test_line_separators_do_not_split_lines(store: Store) -> None:
    (entry,) = by_path(store, "enc/separators.md")
    assert (entry.line_start, entry.line_end) == (1, 2)


def test_oversized_file_is_capped_with_a_notice(store: Store) -> None:
    entries = by_path(store, "big/oversized.md")
    assert entries
    assert any("truncated" in warning for entry in entries for warning in entry.warnings)
    assert sum(len(entry.body) for entry in entries) <= 4 * 1024 * 1024


def test_huge_heading_is_capped(store: Store) -> None:
    (entry,) = by_path(store, "big/huge-heading.md")
    assert len(entry.title) < 100_000


def test_thousands_of_files_load(store: Store) -> None:
    assert sum(1 for entry in store.entries.values() if entry.path.startswith("many/")) == 2_000


@pytest.mark.parametrize(
    "query",
    ["hostile", "\x1b]52;c;", "[@click=app.quit]", "[/", "click", "h", "evil.exe", "section"],
)
def test_queries_over_the_corpus_never_raise(corpus: hostile.HostileCorpus, query: str) -> None:
    engine = _engine(corpus)
    result = engine.search(query, limit=20)
    for hit in result.hits:
        assert not any(has_unsafe(field) for field in display_fields(hit.entry))


_ENGINES: dict[Path, Engine] = {}


def _engine(corpus: hostile.HostileCorpus) -> Engine:
    if corpus.root not in _ENGINES:
        engine = Engine(corpus.root, Config(), today=TODAY, days=0)
        engine.load()
        _ENGINES[corpus.root] = engine
    return _ENGINES[corpus.root]


def test_reapplying_every_path_changes_nothing(store: Store, corpus: hostile.HostileCorpus) -> None:
    before = dict(store.entries)
    changes = store.apply_changes([corpus.root, corpus.root / "fs", corpus.root / "names"])
    assert changes.empty
    assert dict(store.entries) == before


def test_file_replaced_by_a_folder_while_loaded(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    target = root / "notes.md"
    target.write_text("## Was a file\nbody\n")
    store = Store(root, days=0, today=TODAY)
    store.load()
    assert [entry.title for entry in store.entries.values()] == ["Was a file"]
    target.unlink()
    target.mkdir()
    (target / "inner.md").write_text("## Now inside a folder\nbody\n")
    changes = store.apply_changes([target])
    assert changes.removed and changes.added
    assert [entry.path for entry in store.entries.values()] == ["notes.md/inner.md"]
