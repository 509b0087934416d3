"""`memtui rank QUERY [ROOT…]` (or `-q QUERY [ROOT…]`, see `cli.take_rank_query`): the ranker,
headless, for people, scripts and agents.

Exit codes: 0 results, 1 no results (with what matched nothing, did-you-mean and what the date
window hides), 2 bad input (empty or over-long query, invalid filter date, missing folder). Excerpts
and titles go through `sanitize` and, unless `--reveal-secrets`, `mask_secrets`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from msgspec.structs import replace

from memtui.commands.common import dump_json, secret_masker, secrets_masked, startup_from_args
from memtui.commands.engine import cache_saved_after, open_engine
from memtui.commands.output import (
    excerpt,
    explanation_lines,
    load_notes,
    matched_tokens,
    result_item,
    roots_payload,
    shown_explanation,
    skipped_payload,
    unreadable_notes,
)
from memtui.core.cache.entry_table import CACHE_DAMAGED
from memtui.core.cite import citation, cited_path, date_label
from memtui.core.live.engine import Engine
from memtui.core.model import Hit, RankResult
from memtui.core.plural import plural
from memtui.core.sanitize import one_line, quoted
from memtui.core.search.query import QueryError, parse_query
from memtui.errors import UsageError
from memtui.startup import Startup

CACHE_TEXT_LOST = (
    "the cache was damaged (an entry's text did not read back): removed, and the folder read again"
)
FILTERS_ONLY = "no words to rank by: the entries the filters keep, newest first"


def run_rank(args: argparse.Namespace, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    query = str(args.query)
    if not query.strip():
        raise UsageError("empty query: give words to search for, e.g. memtui rank 'deploy staging'")
    try:
        parsed = parse_query(query)
    except QueryError as exc:
        raise UsageError(f"invalid query: {exc}") from None
    if not parsed.has_terms and not parsed.has_filters:
        raise UsageError(
            f"nothing to search for in {quoted(query)}: give words (letters or digits) or a filter "
            "with a value, e.g. memtui rank 'deploy staging' or memtui rank after:2026-11-01"
        )
    startup = startup_from_args(args)
    config, days = startup.config, startup.days
    limit = None if args.n == 0 else args.n
    engine, result = _ranked(startup, query, limit)
    if _texts_lost(result):
        # A body piece of the cache failed its checksum: the hits would print without their
        # text. Read the folder itself (the damaged file is removed, or, in a folder memtui
        # cannot write, would be read again); the next call writes the cache afresh.
        print(f"memtui: {CACHE_TEXT_LOST}", file=sys.stderr)
        uncached = replace(startup, config=replace(config, cache=False))
        engine, result = _ranked(uncached, query, limit)
    for warning in [*load_notes(startup, engine), *unreadable_notes(engine)]:
        print(f"memtui: {one_line(warning, 500)}", file=sys.stderr)
    if not parsed.has_terms:
        result = replace(result, notes=(*result.notes, FILTERS_ONLY))
    show = secret_masker(args, config)
    masked = secrets_masked(args, config)

    with cache_saved_after(engine):
        if args.json:
            dump_json(_payload(engine, result, args.explain, show, masked), stream)
        elif result.hits:
            _print_hits(
                stream,
                engine,
                result,
                show,
                explained=args.explain,
                masked=masked,
                ranked=parsed.has_terms,
            )
        else:
            _print_empty(stream, result, days)
        stream.flush()
    return 0 if result.hits else 1


def _ranked(startup: Startup, query: str, limit: int | None) -> tuple[Engine, RankResult]:
    engine = open_engine(startup)
    engine.load()
    return engine, engine.search(query, limit=limit)


def _texts_lost(result: RankResult) -> bool:
    """Whether a hit's text did not read back from the cache (its entry says so)."""
    return any(CACHE_DAMAGED in hit.entry.warnings for hit in result.hits)


def _hit_excerpt(hit: Hit, show: Any) -> str:
    return excerpt(show(hit.entry.body), matched_tokens(hit.explanation)).marked()


def _payload(
    engine: Engine, result: RankResult, explain: bool, show: Any, masked: bool
) -> dict[str, Any]:
    return {
        "query": result.query,
        "roots": roots_payload(engine),
        "total_matches": result.total_matches,
        "elapsed_ms": round(result.elapsed_ms, 3),
        "results": [
            result_item(
                engine,
                hit.entry,
                hit,
                show,
                explanation=shown_explanation(hit, masked=masked) if explain else None,
            )
            for hit in result.hits
        ],
        "unmatched_terms": list(result.unmatched_terms),
        "suggestions": list(result.suggestions),
        "hidden_by_window": result.hidden_by_window,
        "notes": list(result.notes),
        "skipped": skipped_payload(engine),
    }


def _print_hits(
    stream: TextIO,
    engine: Engine,
    result: RankResult,
    show: Any,
    *,
    explained: bool,
    masked: bool,
    ranked: bool,
) -> None:
    for hit in result.hits:
        entry = hit.entry
        when = date_label(entry)
        location = citation(one_line(cited_path(engine, entry), 200), entry)
        # Filters only: listed newest first, so a score column would seem to climb (0.210,
        # 0.211 …) and read as a wrong order.
        score = f"{hit.score:.3f}" if ranked else "    —"
        print(f"{hit.rank:>3}. {score}  {when}  {entry.source.value}  {location}", file=stream)
        print(f"     {one_line(show(entry.title), 100)}", file=stream)
        print(f"     {_hit_excerpt(hit, show)}", file=stream)
        if explained:
            for line in explanation_lines(shown_explanation(hit, masked=masked), hit.rank):
                print(f"       {line}", file=stream)
        print(file=stream)
    print(
        f"Found {result.total_matches} (showing {len(result.hits)}) in {result.elapsed_ms:.1f} ms",
        file=stream,
    )
    if result.unmatched_terms:
        terms = ", ".join(one_line(term, 60) for term in result.unmatched_terms)
        suggested = ", ".join(one_line(word, 60) for word in result.suggestions)
        hint = f" (did you mean: {suggested}?)" if suggested else ""
        print(f"No entry contains: {terms}{hint}", file=stream)
    for note in result.notes:
        print(f"note: {one_line(note, 200)}", file=stream)


def _print_empty(stream: TextIO, result: RankResult, days: int) -> None:
    print(f"No results for {quoted(result.query)}.", file=stream)
    if result.unmatched_terms:
        terms = ", ".join(one_line(term, 60) for term in result.unmatched_terms)
        print(f"No entry contains: {terms}", file=stream)
    if result.suggestions:
        print(
            f"Did you mean: {', '.join(one_line(s, 60) for s in result.suggestions)}?", file=stream
        )
    if result.hidden_by_window:
        print(
            f"Not loaded: {plural(result.hidden_by_window, 'daily entry', 'daily entries')} "
            f"older than {plural(days, 'day')} (try --days 0).",
            file=stream,
        )
    for note in result.notes:
        print(f"note: {one_line(note, 200)}", file=stream)
    print("Try fewer or broader terms, a shorter prefix, or drop filters.", file=stream)
