"""Reference rankers memtui's rerank is measured against, on the same entries and keystrokes.

- `NaiveScan` is the seeds' ranking: for every entry count each query term's occurrences in
  the lowercased body plus twice those in the lowercased heading, then sort. Like the seeds it
  lowercases the text on every scan (no preprocessing at all); lowercasing once up front
  measured no faster on this machine, since the per-entry Python loop dominates.
- `Fts5Index` is SQLite FTS5 (stdlib `sqlite3`, in memory) with `bm25()` and a prefix query
  `"term"*` per term, returning the top `limit` rows, the strongest form of that baseline.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

HEADING_WEIGHT = 2


@dataclass(frozen=True, slots=True)
class Document:
    """What a baseline sees of an entry: its heading and its body."""

    heading: str
    body: str


def query_terms(query: str) -> list[str]:
    """Whitespace-separated lowercased terms, as the seed scan splits a query."""
    return query.lower().split()


class NaiveScan:
    """Count term occurrences in every entry, every time (the seeds' ranking)."""

    name = "naive"

    def __init__(self, documents: Iterable[Document]) -> None:
        self.documents = list(documents)

    def search(self, query: str, limit: int) -> list[int]:
        """Indices of the best `limit` documents, best first; ties by index."""
        terms = query_terms(query)
        if not terms:
            return []
        scored: list[tuple[int, int]] = []
        for index, document in enumerate(self.documents):
            heading, body = document.heading.lower(), document.body.lower()
            score = 0
            for term in terms:
                score += body.count(term) + HEADING_WEIGHT * heading.count(term)
            if score:
                scored.append((-score, index))
        scored.sort()
        return [index for _, index in scored[:limit]]


def fts5_match_expression(query: str) -> str:
    """`"term"*` per term, each quoted (inner quotes doubled) so no input is FTS5 syntax."""
    return " ".join('"' + term.replace('"', '""') + '"*' for term in query_terms(query))


class Fts5Index:
    """SQLite FTS5 over heading and body, ranked by `bm25()` with the heading weighted 2×."""

    name = "fts5"

    def __init__(self, documents: Iterable[Document]) -> None:
        self.connection = sqlite3.connect(":memory:")
        self.connection.execute(
            "CREATE VIRTUAL TABLE docs USING fts5(heading, body, tokenize='unicode61')"
        )
        self.connection.executemany(
            "INSERT INTO docs(rowid, heading, body) VALUES (?, ?, ?)",
            ((index, doc.heading, doc.body) for index, doc in enumerate(documents)),
        )
        self.connection.commit()

    def search(self, query: str, limit: int) -> list[int]:
        """Row indices of the best `limit` documents, best (lowest bm25) first."""
        expression = fts5_match_expression(query)
        if not expression:
            return []
        try:
            rows = self.connection.execute(
                "SELECT rowid FROM docs WHERE docs MATCH ? "
                f"ORDER BY bm25(docs, {HEADING_WEIGHT}.0, 1.0) LIMIT ?",
                (expression, limit),
            ).fetchall()
        except sqlite3.OperationalError:
            return []  # a term FTS5 tokenizes to nothing (e.g. only punctuation)
        return [int(rowid) for (rowid,) in rows]

    def close(self) -> None:
        self.connection.close()
