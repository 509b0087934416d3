"""Shared formatting for headless output: excerpts and their matches, explanations as text/JSON.

Everything from a file passes through `sanitize.visible` here. People see matches wrapped in «»,
added afterwards so file text can never forge or break them; JSON gives the plain excerpt with
the matches as offsets beside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from msgspec import Struct

from memtui.core.cite import iso_date
from memtui.core.live.engine import Engine
from memtui.core.live.roots import shown_root
from memtui.core.model import Entry, EntryHead, Explanation, Hit
from memtui.core.plural import plural
from memtui.core.sanitize import one_line, visible
from memtui.core.search.masked_words import mask_matches, masked_words, searchable_text
from memtui.core.search.tokenize import match_spans
from memtui.startup import Startup

EXCERPT_CHARS = 150
MARK_OPEN = "«"
MARK_CLOSE = "»"
_WHITESPACE = re.compile(r"\s+")


def matched_tokens(explanation: Explanation) -> set[str]:
    """Document tokens the hit matched (phrases contribute their words)."""
    found: set[str] = set()
    for term in explanation.terms:
        for match in term.matches:
            found.update(match.token.split(" "))
    return found


class Excerpt(Struct, frozen=True):
    """~EXCERPT_CHARS of an entry around its first match, made visible, and where the matches
    are in it: `[start, end)` offsets in characters (code points) of `text`."""

    text: str
    matches: tuple[tuple[int, int], ...] = ()

    def marked(self) -> str:
        """The text with each match wrapped in «», for people."""
        pieces: list[str] = []
        cursor = 0
        for start, end in self.matches:
            pieces += [self.text[cursor:start], MARK_OPEN, self.text[start:end], MARK_CLOSE]
            cursor = end
        return "".join(pieces) + self.text[cursor:]


def excerpt(text: str, tokens: set[str], width: int = EXCERPT_CHARS) -> Excerpt:
    """~`width` characters of `text` around its first match, and the matches' offsets in it."""
    flat = _WHITESPACE.sub(" ", text).strip()
    spans = match_spans(flat, tokens)
    if not spans:
        end = min(len(flat), width)
        return Excerpt(visible(flat[:end]) + ("…" if end < len(flat) else ""))
    first = spans[0][0]
    start = max(0, first - width // 3)
    if start:
        space = flat.rfind(" ", 0, start + 1)
        start = space + 1 if space >= start - 20 and space >= 0 else start
    end = min(len(flat), start + width)
    if end < len(flat):
        space = flat.rfind(" ", start, end)
        end = space if space > start + width // 2 else end
    shown = "…" if start > 0 else ""
    matches: list[tuple[int, int]] = []
    cursor = start
    for span_start, span_end in spans:
        if span_end <= start or span_start >= end:
            continue
        span_start, span_end = max(span_start, start), min(span_end, end)
        shown += visible(flat[cursor:span_start])
        matched = visible(flat[span_start:span_end])
        matches.append((len(shown), len(shown) + len(matched)))
        shown += matched
        cursor = span_end
    shown += visible(flat[cursor:end]) + ("…" if end < len(flat) else "")
    return Excerpt(shown, tuple(matches))


def shown_explanation(hit: Hit, *, masked: bool) -> Explanation:
    """The hit's explanation as printed: while secrets are masked, a matched token that only a
    secret holds reads as the masked excerpt shows it (`hu…••••`)."""
    if not masked:
        return hit.explanation
    return mask_matches(hit.explanation, masked_words(searchable_text(hit.entry)))


def explanation_lines(explanation: Explanation, rank: int) -> list[str]:
    """`relevance 0.95 × 0.70 = 0.665`-style lines: one per factor, term and multiplier."""
    lines = []
    for factor in explanation.factors:
        lines.append(
            f"{factor.name:<9} {factor.value:.3f} × {factor.weight:.2f} = "
            f"{factor.contribution:.3f}   ({one_line(factor.raw, 120)})"
        )
    for term in explanation.terms:
        matches = ", ".join(
            f"{one_line(m.token, 60)} ({m.kind.value} {m.similarity:.2f}; "
            f"heading {m.heading_count}, body {m.body_count})"
            for m in term.matches[:6]
        )
        more = f" +{len(term.matches) - 6} more" if len(term.matches) > 6 else ""
        lines.append(
            f"term {one_line(term.term, 60)!r}: weight {term.weight:.2f}, score "
            f"{term.score:.3f} ← {matches or 'no match'}{more}"
        )
    for multiplier in explanation.multipliers:
        lines.append(f"× {multiplier.factor:g}  {one_line(multiplier.reason, 120)}")
    lines.append(explanation.arithmetic)
    if explanation.gap_to_previous:
        differences = ", ".join(
            f"{name} {difference:+.3f}" for name, difference in explanation.versus_previous()
        )
        lines.append(f"vs #{rank - 1}: {differences or 'the same (tie broken by order)'}")
    lines.extend(f"note: {one_line(note, 160)}" for note in explanation.notes)
    return lines


def explanation_dict(explanation: Explanation) -> dict[str, Any]:
    return {
        "score": explanation.score,
        "base": explanation.base,
        "multiplier": explanation.multiplier,
        "factors": [
            {
                "name": f.name,
                "raw": f.raw,
                "value": f.value,
                "weight": f.weight,
                "contribution": f.contribution,
            }
            for f in explanation.factors
        ],
        "terms": [
            {
                "term": t.term,
                "weight": t.weight,
                "score": t.score,
                "matches": [
                    {
                        "token": m.token,
                        "kind": m.kind.value,
                        "similarity": m.similarity,
                        "heading_count": m.heading_count,
                        "body_count": m.body_count,
                    }
                    for m in t.matches
                ],
            }
            for t in explanation.terms
        ],
        "multipliers": [
            {"name": m.name, "reason": m.reason, "factor": m.factor}
            for m in explanation.multipliers
        ],
        "gap_to_previous": dict(explanation.gap_to_previous),
        "notes": list(explanation.notes),
    }


def result_item(
    engine: Engine,
    entry: Entry,
    hit: Hit | None,
    show: Callable[[str], str],
    *,
    explanation: Explanation | None = None,
) -> dict[str, Any]:
    """One `results[]` object of `rank --json`, also what `pick --format json` prints per entry.

    `hit` is None for an entry the current query does not rank (a pick can hold entries marked
    under an earlier query): its rank and score are null and its excerpt is the body's start.
    `matches` holds `[start, end)` character offsets of the matches in `excerpt`.
    `show` is the secret masker.
    """
    found = excerpt(show(entry.body), matched_tokens(hit.explanation) if hit else set())
    item: dict[str, Any] = {
        "rank": hit.rank if hit else None,
        "score": round(hit.score, 6) if hit else None,
        **root_fields(engine, entry),
        "path": entry.path,
        "line_start": entry.line_start,
        "line_end": entry.line_end,
        "title": one_line(show(entry.title), 300),
        "date": iso_date(entry),
        "source": entry.source.value,
        "excerpt": found.text,
        "matches": [list(span) for span in found.matches],
    }
    if explanation is not None:
        item["explanation"] = explanation_dict(explanation)
    return item


def root_fields(engine: Engine, entry: Entry | EntryHead) -> dict[str, str]:
    """An entry's `root` (the folder its `path` is relative to) and `root_label` in JSON."""
    root = engine.root_of(entry)
    return {"root": str(root.path), "root_label": root.label}


def roots_payload(engine: Engine) -> list[dict[str, str]]:
    """Every open root as JSON: label and path."""
    return [{"label": root.label, "path": str(root.path)} for root in engine.roots]


UNREADABLE_SHOWN = 5
"""Unreadable paths named on stderr; the rest are counted (`memtui list` names them all)."""


def load_notes(startup: Startup, engine: Engine) -> list[str]:
    """What a command says on stderr once its folders are loaded: the startup's warnings, which
    folder was used, and the engine's (a cache ignored, rebuilt)."""
    return [*startup.warnings, *used_note(startup), *engine.warnings]


def unreadable_notes(engine: Engine) -> list[str]:
    """The paths the system refused to read, as grep reports them: an agent whose memory lost
    a file to a permission must hear of it, not get results that quietly leave it out."""
    refused = [item for item in engine.skipped if item.unreadable]
    notes = [f"{item.path}: {item.reason}" for item in refused[:UNREADABLE_SHOWN]]
    if len(refused) > UNREADABLE_SHOWN:
        rest = len(refused) - UNREADABLE_SHOWN
        notes.append(f"… and {rest} more not readable (`memtui list` names every skipped path)")
    return notes


def skipped_payload(engine: Engine) -> list[dict[str, str]]:
    """Every path no root loaded and why, as `list --json` and `rank --json` give them."""
    return [{"path": item.path, "reason": item.reason} for item in engine.skipped]


def used_note(startup: Startup) -> list[str]:
    """A note for stderr when discovery found more memory than it used: an agent calling
    `rank` from a repository searches the repository's memory, not its own, unless told."""
    if not startup.roots or not startup.more_found:
        return []
    used = " + ".join(shown_root(root.path, root.only) for root in startup.roots)
    more = plural(startup.more_found, "more memory folder")
    return [f"using {used}; {more} found (see `memtui roots`; --all searches them all)"]
