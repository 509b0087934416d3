"""Hand-made entries, hits and a tiny stand-in engine for UI tests that must not depend on ranking.

The stand-in scores by counting query words; it exists so widget behaviour (selection kept by
id, rendering, hostile text) is tested independently of the real ranker's numbers.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from msgspec.structs import replace

from memtui.core.live.roots import MemoryRoot
from memtui.core.model import (
    ChangeSet,
    Entry,
    Explanation,
    Factor,
    Hit,
    MatchKind,
    Multiplier,
    RankResult,
    Skipped,
    Source,
    TermMatch,
    TokenMatch,
)
from memtui.core.search.facets import Facets, facets_of
from memtui.core.settings.config import Config


def make_entry(index: int, title: str, body: str, **changes: object) -> Entry:
    entry = Entry(
        id=f"e{index}",
        path=f"memory/{dt.date(2026, 11, 1) + dt.timedelta(days=index % 20)}.md",
        source=Source.DAILY,
        title=title,
        heading_path=(title,),
        body=body,
        line_start=1 + index * 5,
        line_end=4 + index * 5,
        date=dt.date(2026, 11, 1) + dt.timedelta(days=index % 20),
    )
    return replace(entry, **changes)


def make_hit(rank: int, entry: Entry, terms: Iterable[str] = (), score: float = 0.5) -> Hit:
    factors = (
        Factor("relevance", "2 of 2 terms", 0.8, 0.7, 0.56),
        Factor("source", "daily priority 50", 0.5, 0.1, 0.05),
        Factor("recency", "age 3 d, half-life 30 d", 0.93, 0.12, 0.1116),
        Factor("position", "1 of 3", 1.0, 0.08, 0.08),
    )
    term_matches = tuple(
        TermMatch(term, 1.2, 0.5, (TokenMatch(term, MatchKind.EXACT, 1.0, 1, 2),)) for term in terms
    )
    explanation = Explanation(
        factors=factors,
        terms=term_matches,
        multipliers=(Multiplier("session boost", "memory/x.md × 1.50", 1.5),),
        base=score,
        score=score,
        gap_to_previous=(("relevance", 0.1), ("recency", -0.02)),
    )
    return Hit(rank=rank, entry=entry, score=score, explanation=explanation)


@dataclass
class FakeStore:
    root: Path
    entries_by_id: dict[str, Entry] = field(default_factory=dict)
    skipped: tuple[Skipped, ...] = ()
    hidden_by_window: int = 0
    label: str = ""

    @property
    def entries(self) -> Mapping[str, Entry]:
        return self.entries_by_id

    def loaded_files(self) -> dict[str, list[Entry]]:
        files: dict[str, list[Entry]] = {}
        for entry in self.entries_by_id.values():
            files.setdefault(entry.path, []).append(entry)
        return files


class FakeEngine:
    """Just enough of `Engine` for the UI: word-count scoring over hand-made entries."""

    def __init__(self, root: Path, entries: list[Entry], config: Config | None = None) -> None:
        self.config = config or Config()
        self.store = FakeStore(root, {entry.id: entry for entry in entries})
        self.warnings: list[str] = []
        self.session_boosts: dict[str, float] = {}
        self.searches: list[str] = []

    def prepare_expansions(self) -> None:
        """Nothing to prepare: the fake has no index."""

    def load(self) -> None:
        return None

    def load_store(self, *, index_next: bool = False) -> None:
        return None

    def build_index(self) -> None:
        return None

    index_ready = True
    weights_custom = False
    """The fake never changes its weights."""
    cache_stale = False
    """The fake has no on-disk cache to rewrite."""

    def __len__(self) -> int:
        return len(self.store.entries_by_id)

    @property
    def skipped(self) -> tuple[Skipped, ...]:
        return self.store.skipped

    @property
    def hidden_by_window(self) -> int:
        return self.store.hidden_by_window

    @property
    def stores(self) -> tuple[FakeStore, ...]:
        return (self.store,)

    @property
    def roots(self) -> tuple[MemoryRoot, ...]:
        """The one root, as the load worker reads it to size what a session loads."""
        return (MemoryRoot("fake", self.store.root),)

    def loaded_entries(self) -> list[Entry]:
        return list(self.store.entries_by_id.values())

    def facets(self) -> Facets:
        return facets_of(self.loaded_entries())

    def file_of(self, entry: Entry) -> Path:
        return self.store.root / entry.path

    def entry(self, entry_id: str) -> Entry | None:
        return self.store.entries_by_id.get(entry_id)

    def search(self, query: str, *, limit: int | None = None) -> RankResult:
        self.searches.append(query)
        words = [word.casefold() for word in query.split()]
        scored = []
        for entry in self.store.entries_by_id.values():
            text = f"{entry.title} {entry.body}".casefold()
            count = sum(text.count(word) for word in words) if words else 1
            if count:
                boost = self.session_boosts.get(entry.path, 1.0)
                scored.append((min(1.0, count / 10 * boost + 0.1), entry))
        scored.sort(key=lambda item: (-item[0], item[1].id))
        hits = tuple(
            make_hit(rank, entry, words, score)
            for rank, (score, entry) in enumerate(scored[:limit] if limit else scored, 1)
        )
        unmatched = tuple(
            word
            for word in words
            if not any(
                word in f"{e.title} {e.body}".casefold() for e in self.store.entries_by_id.values()
            )
        )
        return RankResult(
            query,
            hits,
            len(hits),
            0.1,
            unmatched_terms=unmatched,
            suggestions=("deploy",) if unmatched else (),
        )

    def apply_changes(self, paths: Iterable[str | Path]) -> ChangeSet:
        return ChangeSet()

    def set_window(self, days: int) -> ChangeSet:
        return ChangeSet()

    def set_weights(
        self, weights: dict[str, float] | None = None, half_life_days: float | None = None
    ) -> None:
        return None

    def set_session_boost(self, path: str, factor: float | None) -> None:
        if factor is None:
            self.session_boosts.pop(path, None)
        else:
            self.session_boosts[path] = factor
