"""Edit the filter tokens of a query string (`source:daily tag:x …`) without touching its words.

The filter screen works on the query text itself, so what the user sees in the query box is
always the whole truth and the ranker's own query parser stays the only interpreter. The query
is cut into pieces and filters are recognised with `memtui.core.search.query`'s own patterns, so a
piece is a filter here exactly when the ranker reads it as one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memtui.core.model import Source
from memtui.core.sanitize import one_line
from memtui.core.search.facets import Facets
from memtui.core.search.query import (
    FILTER_NAMES,
    QueryError,
    filter_parts,
    parse_query,
    query_pieces,
)


@dataclass
class QueryFilters:
    sources: list[str] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)
    after: str = ""
    before: str = ""

    def tokens(self) -> list[str]:
        out = [f"source:{value}" for value in self.sources]
        out += [f"role:{value}" for value in self.roles]
        out += [f"tag:{value}" for value in self.tags]
        out += [f"root:{value}" for value in self.roots]
        if self.after:
            out.append(f"after:{self.after}")
        if self.before:
            out.append(f"before:{self.before}")
        return out


def split_query(query: str) -> tuple[str, QueryFilters]:
    """The query's words (in order) and its filters; `file:` counts as a role filter.

    A filter name with no value yet (`tag:` while typing) stays with the words, and so does a
    filter this form does not edit, so rewriting the filters never loses or changes it.
    """
    words: list[str] = []
    filters = QueryFilters()
    for piece in query_pieces(query):
        name, value = filter_parts(piece) or ("", "")
        if name not in FILTER_NAMES or not value:
            words.append(piece)
        elif name == "source":
            filters.sources.append(value)
        elif name in ("role", "file"):
            filters.roles.append(value)
        elif name == "tag":
            filters.tags.append(value)
        elif name == "root":
            filters.roots.append(value)
        elif name == "after":
            filters.after = value
        elif name == "before":
            filters.before = value
        else:
            words.append(piece)
    return " ".join(words), filters


def with_filters(query: str, filters: QueryFilters) -> str:
    """`query` with its filter tokens replaced by `filters` (words first, then filters)."""
    words, _ = split_query(query)
    return " ".join(part for part in [words, *filters.tokens()] if part)


def date_problem(name: str, value: str) -> str | None:
    """Why `value` is not a date the query reads for `name:` (`after`, `before`), or None.

    The query parser itself judges, so the form flags exactly what a search would refuse.
    """
    value = value.strip()
    if not value:
        return None
    if any(char.isspace() for char in value):
        return f"{name}: one date, without spaces (2026-03-18, 2026-03 or 2026)"
    try:
        parse_query(f"{name}:{value}")
    except QueryError as exc:
        return str(exc)
    return None


SEARCH_HINT = "search memory…"
HINT_WORD_CHARS = 20
"""A tag or role longer than this is not offered as an example in the placeholder."""
SOURCE_HINT_ORDER = (Source.DAILY, Source.LONG_TERM, Source.NOTE)


def filter_hint(facets: Facets) -> str:
    """The query box's placeholder: filters this memory actually has, with real values.

    `source:` only when there is more than one source to choose from, the most used tag and
    role, and `after:` the first of the newest entry's month; a memory with none of them gets
    the query syntax instead (never `source:daily` without daily notes).
    """
    sources, tags, roles, newest = facets.sources, facets.tags, facets.roles, facets.newest
    parts = [SEARCH_HINT]
    if len(sources) > 1:
        chosen = next(source for source in SOURCE_HINT_ORDER if source in sources)
        parts.append(f"source:{chosen.value}")
    for name, counts in (("tag", tags), ("role", roles)):
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))  # ties: a-z
        word = next((value for value, _ in ranked if _typeable(value)), None)
        if word is not None:
            parts.append(f"{name}:{one_line(word, HINT_WORD_CHARS)}")
    if newest is not None:
        parts.append(f"after:{newest.replace(day=1).isoformat()}")
    if len(parts) == 1:
        parts += ['"exact phrase"', "-word"]
    return "  ".join(parts)


def _typeable(value: str) -> bool:
    """A value the user could type after `tag:` as it is: one short printable word."""
    return (
        0 < len(value) <= HINT_WORD_CHARS
        and value.isprintable()
        and not any(char.isspace() for char in value)
    )
