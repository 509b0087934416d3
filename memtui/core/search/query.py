"""Query string -> Query: plain terms, "exact phrases", -exclusions and filters.

Grammar (whitespace separated; case-insensitive filter names):

- `word` — a term, tokenized like entries (a CJK run becomes bigrams). Terms of 3+ characters
  also match longer words starting with them; so does the last term of any length while it is
  being typed (no trailing space), so `d` already finds `deploy`. Finished short terms (`ci`,
  `db`) match exactly.
- `"exact phrase"` — entries must contain these words in this order. An unclosed quote (the
  user is still typing) is read as plain terms.
- `-word` / `-"a phrase"` — entries containing it are dropped.
- `source:daily|long_term|note` (a prefix such as `source:d` is enough),
  `role:GLOB` / `file:GLOB` (against the entry's path, file name and role; no wildcard means
  "contains"), `tag:GLOB`, `after:DATE` (on or after), `before:DATE` (strictly before), where DATE
  is `YYYY-MM-DD`, `YYYY-MM` or `YYYY`; `root:GLOB` against the label or path of the memory
  folder an entry came from (no wildcard means "contains"). Filters of one kind are OR-ed,
  different kinds AND-ed.
- `anything:else` with an unknown name is searched as words and noted in the explanation.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from msgspec import Struct, field

from memtui.core.model import Source
from memtui.core.search.tokenize import phrase_key, tokens

MIN_PREFIX_CHARS = 3
MAX_QUERY_CHARS = 1000
"""Longer queries are a usage error: nobody types them and they would stall the ranker."""

FILTER_NAMES = ("source", "role", "file", "tag", "after", "before", "root")
_SOURCE_ALIASES = {
    "long_term": Source.LONG_TERM,
    "long-term": Source.LONG_TERM,
    "longterm": Source.LONG_TERM,
    "memory": Source.LONG_TERM,
    "daily": Source.DAILY,
    "note": Source.NOTE,
    "notes": Source.NOTE,
}
_PIECE = re.compile(r'(-?)"([^"]*)"|(-?)"([^"]*)$|(\S+)')
_FILTER = re.compile(r"^([A-Za-z_]+):(.*)$")


class QueryError(ValueError):
    """A query the user must fix (e.g. an invalid date); the CLI exits 2, the UI shows it."""


class Query(Struct, frozen=True):
    """One query string parsed: its words, phrases, exclusions and filters."""

    text: str
    terms: tuple[str, ...] = ()
    """Distinct query tokens in order of appearance."""
    prefix_term: str | None = None
    """The last term when the query does not end in whitespace (the word being typed)."""
    phrases: tuple[str, ...] = ()
    """Required phrases as `phrase_key` strings (space-joined normalised words)."""
    phrase_tokens: tuple[tuple[str, ...], ...] = ()
    excluded_terms: tuple[str, ...] = ()
    excluded_phrases: tuple[str, ...] = ()
    sources: frozenset[Source] = frozenset()
    path_globs: tuple[str, ...] = ()
    tag_globs: tuple[str, ...] = ()
    root_globs: tuple[str, ...] = ()
    """Casefolded globs on the label or path of an entry's root."""
    after: dt.date | None = None
    before: dt.date | None = None
    notes: tuple[str, ...] = ()

    def expands(self, term: str) -> bool:
        """Whether `term` also matches longer words by prefix (see the module docstring)."""
        return len(term) >= MIN_PREFIX_CHARS or term == self.prefix_term

    @property
    def has_terms(self) -> bool:
        return bool(self.terms or self.phrases)

    @property
    def has_filters(self) -> bool:
        return bool(
            self.sources
            or self.path_globs
            or self.tag_globs
            or self.root_globs
            or self.after
            or self.before
            or self.excluded_terms
            or self.excluded_phrases
        )


def query_pieces(text: str) -> Iterator[str]:
    """The query cut as the parser cuts it: quoted phrases (open ones too) and bare words."""
    return (match.group() for match in _PIECE.finditer(text))


def filter_parts(piece: str) -> tuple[str, str] | None:
    """`("tag", "x")` for a `name:value` piece (name casefolded), else None."""
    found = _FILTER.match(piece)
    return (found.group(1).casefold(), found.group(2)) if found else None


def parse_query(text: str) -> Query:
    """Parse a query string; raises QueryError for input the user must fix."""
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(f"query is {len(text):,} characters; the limit is {MAX_QUERY_CHARS:,}")
    parts = _QueryParts()
    for match in _PIECE.finditer(text):
        negated_phrase, phrase, negated_open, open_phrase, word = match.groups()
        if phrase is not None:
            parts.add_phrase(phrase, negated=bool(negated_phrase))
        elif open_phrase is not None:
            if not negated_open:
                parts.add_terms(open_phrase)
        elif word.startswith("-"):
            parts.exclude(word[1:])
        elif filter_match := _FILTER.match(word):
            parts.add_filter(filter_match.group(1).casefold(), filter_match.group(2), word)
        else:
            parts.add_terms(word)
    return parts.query(text)


class _QueryParts(Struct):
    """What parse_query has read so far, piece by piece, before it is frozen into a Query."""

    terms: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    phrase_tokens: list[tuple[str, ...]] = field(default_factory=list)
    excluded_terms: list[str] = field(default_factory=list)
    excluded_phrases: list[str] = field(default_factory=list)
    sources: set[Source] = field(default_factory=set)
    path_globs: list[str] = field(default_factory=list)
    tag_globs: list[str] = field(default_factory=list)
    root_globs: list[str] = field(default_factory=list)
    after: dt.date | None = None
    before: dt.date | None = None
    notes: list[str] = field(default_factory=list)

    def add_terms(self, piece: str) -> None:
        for token in tokens(piece, query=True):
            if token not in self.terms:
                self.terms.append(token)

    def exclude(self, piece: str) -> None:
        piece_tokens = tokens(piece, query=True)
        if len(piece_tokens) == 1:
            self.excluded_terms.append(piece_tokens[0])
        elif piece_tokens:
            self.excluded_phrases.append(phrase_key(piece))

    def add_phrase(self, phrase: str, *, negated: bool) -> None:
        """A closed quote: excluded, required, or a plain term when it holds a single word."""
        if negated:
            self.exclude(phrase)
        elif key := phrase_key(phrase):
            if len(key.split(" ")) == 1 and len(tokens(phrase, query=True)) == 1:
                self.add_terms(phrase)
            elif key not in self.phrases:
                self.phrases.append(key)
                self.phrase_tokens.append(tuple(tokens(phrase, query=True)))

    def add_filter(self, name: str, value: str, word: str) -> None:
        """`name:value`; an unknown name is searched as words, an empty value is ignored."""
        if name not in FILTER_NAMES:
            self.notes.append(f"unknown filter {name}: searched as words")
            self.add_terms(word)
        elif not value:
            return
        elif name == "source":
            self.sources.add(_parse_source(value))
        elif name in ("role", "file"):
            self.path_globs.append(_as_glob(value))
        elif name == "tag":
            self.tag_globs.append(_as_glob(value.lstrip("#"), contains=False))
        elif name == "root":
            self.root_globs.append(_as_glob(value))
        elif name == "after":
            self.after = _parse_date(name, value)
        else:
            self.before = _parse_date(name, value)

    def prefix_term(self, text: str) -> str | None:
        """The last term, when the query ends in it with no space after (it is being typed)."""
        ends_open = bool(text) and not text[-1].isspace() and not text.rstrip().endswith('"')
        last_piece = text.split()[-1] if text.split() else ""
        if ends_open and self.terms and not last_piece.startswith("-") and ":" not in last_piece:
            last_tokens = tokens(last_piece, query=True)
            if last_tokens and last_tokens[-1] == self.terms[-1]:
                return self.terms[-1]
        return None

    def query(self, text: str) -> Query:
        return Query(
            text=text,
            terms=tuple(self.terms),
            prefix_term=self.prefix_term(text),
            phrases=tuple(self.phrases),
            phrase_tokens=tuple(self.phrase_tokens),
            excluded_terms=tuple(self.excluded_terms),
            excluded_phrases=tuple(self.excluded_phrases),
            sources=frozenset(self.sources),
            path_globs=tuple(self.path_globs),
            tag_globs=tuple(self.tag_globs),
            root_globs=tuple(self.root_globs),
            after=self.after,
            before=self.before,
            notes=tuple(self.notes),
        )


def _parse_source(value: str) -> Source:
    wanted = value.casefold()
    if wanted in _SOURCE_ALIASES:
        return _SOURCE_ALIASES[wanted]
    candidates = {source for alias, source in _SOURCE_ALIASES.items() if alias.startswith(wanted)}
    if len(candidates) == 1:
        return candidates.pop()
    raise QueryError(f"source:{value}: expected long_term, daily or note")


def _as_glob(value: str, *, contains: bool = True) -> str:
    """A value without wildcards matches anywhere in a path (`file:deploy` = `*deploy*`)."""
    folded = value.casefold()
    if any(char in folded for char in "*?["):
        return folded
    return f"*{folded}*" if contains else folded


def _parse_date(name: str, value: str) -> dt.date:
    try:
        if re.fullmatch(r"\d{4}", value):
            return dt.date(int(value), 1, 1)
        if re.fullmatch(r"\d{4}-\d{2}", value):
            return dt.date(int(value[:4]), int(value[5:]), 1)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return dt.date.fromisoformat(value)
    except ValueError:
        pass
    raise QueryError(f"{name}:{value}: expected a date like 2026-03-18 (or 2026-03, 2026)")
