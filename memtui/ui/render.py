"""Turn core results into styled text, never through markup.

Every string that may come from disk (titles, paths, bodies, tags, notices) goes through
`visible()`/`one_line()` and is placed in `Content`/`Text` as plain text with a style beside it,
so `[@click=app.quit]` in a memory file shows literally and does nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.content import Content

from memtui.core.cite import date_label
from memtui.core.model import Entry, Explanation, Hit, Source, TermMatch
from memtui.core.sanitize import one_line
from memtui.core.secrets import mask_secrets
from memtui.core.settings.config import FACTOR_NAMES
from memtui.ui import widths

FACTOR_STYLE = {name: f"$factor-{name}" for name in FACTOR_NAMES}
SOURCE_LABEL = {Source.LONG_TERM: "long", Source.DAILY: "daily", Source.NOTE: "note"}
SOURCE_STYLE = {
    Source.LONG_TERM: "$badge-long-term",
    Source.DAILY: "$badge-daily",
    Source.NOTE: "$badge-note",
}
BAR_CELLS = 8
EIGHTHS = " ▏▎▍▌▋▊▉█"


_TIME_ONLY = re.compile(
    r"^\s*(\d{1,2}:\d{2})(?::\d{2}(?:\.\d+)?)?\s*([A-Za-z]{1,5}|[+-]\d{2}:?\d{2})?\s*$"
)
_LEADING_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+>]\s+|\d{1,9}[.)]\s+|\[[ xX]\]\s+)*")
SNIPPET_CHARS = 120


def display_title(entry: Entry) -> str:
    """The title shown in the results list (one line, display only).

    Daily templates often head each section with just a time (`## 16:30:00 UTC`), which says
    nothing in a list: such a title becomes `16:30 UTC · <the body's first words>`.
    """
    title = one_line(masked_title(entry) or entry.file_name, widths.RAW)
    timed = _TIME_ONLY.match(title)
    if timed is None:
        return title
    clock = timed.group(1) + (f" {timed.group(2)}" if timed.group(2) else "")
    for line in entry.body[:2000].splitlines():
        words = _LEADING_MARKUP.sub("", line).replace("**", "").replace("`", "").strip()
        if words:
            return f"{clock} · {one_line(mask_secrets(words)[0], SNIPPET_CHARS)}"
    return clock


def masked_title(entry: Entry) -> str:
    """The entry's title with its secrets masked, always: lists, modal titles and notices show
    titles outside the entry pane, whose reveal key is the one place a secret is shown."""
    return mask_secrets(entry.title)[0]


def masked_line_range(entry: Entry) -> str:
    """`line_range` with a secret in the path masked (a file named by its token), always: as
    `masked_title`, for the places outside the entry pane."""
    return mask_secrets(line_range(entry))[0]


def line_range(entry: Entry) -> str:
    """`path:start-end`, the path led by its root's label when several roots are open (a plain
    hyphen, as in the citations memtui hands on)."""
    if entry.line_end > entry.line_start:
        return f"{entry.qualified_path}:{entry.line_start}-{entry.line_end}"
    return f"{entry.qualified_path}:{entry.line_start}"


def bar(fraction: float, cells: int) -> str:
    """A left-aligned bar of `cells` width filled to `fraction`, with eighth-cell precision."""
    fraction = min(1.0, max(0.0, fraction))
    eighths = round(fraction * cells * 8)
    full, rest = divmod(eighths, 8)
    text = "█" * full + (EIGHTHS[rest] if rest else "")
    return text.ljust(cells)


def stacked_cells(contributions: Iterable[tuple[str, float]], cells: int) -> list[tuple[str, int]]:
    """Split `cells` among factors by contribution (largest remainder), scaled by their sum.

    Takes `Hit.contributions` pairs, not the explanation: this runs for every visible row and
    the ranker can give contributions without building the whole explanation. The bar's filled
    length is the base score; each factor gets its share in its colour.
    """
    positive = {name: max(0.0, value) for name, value in contributions}
    summed = sum(positive.values())
    total = min(1.0, summed)
    filled = round(total * cells)
    if filled == 0 or total <= 0:
        return []
    exact = {name: value / summed * filled for name, value in positive.items()}
    counts = {name: int(value) for name, value in exact.items()}
    leftover = filled - sum(counts.values())
    for name in sorted(exact, key=lambda n: exact[n] - counts[n], reverse=True)[:leftover]:
        counts[name] += 1
    ordered = [name for name in FACTOR_NAMES if name in counts] + [
        name for name in counts if name not in FACTOR_NAMES
    ]
    return [(name, counts[name]) for name in ordered if counts[name] > 0]


def match_pattern(terms: Iterable[TermMatch]) -> re.Pattern[str] | None:
    """A case-insensitive pattern for every document token the query matched.

    Tokens starting with an ASCII letter or digit only match at a word start, so `de` does not
    light up the middle of `code`; other scripts (CJK bigrams) match anywhere.
    """
    tokens = sorted(
        {m.token for term in terms for m in term.matches if len(m.token) >= 2},
        key=len,
        reverse=True,
    )
    if not tokens:
        return None
    parts = []
    for token in tokens[:200]:
        escaped = re.escape(token)
        if token[0].isascii() and token[0].isalnum():
            parts.append(f"(?<![A-Za-z0-9]){escaped}")
        else:
            parts.append(escaped)
    return re.compile("|".join(parts), re.IGNORECASE)


def highlight(text: Text, pattern: re.Pattern[str] | None, style: Style | str) -> int:
    """Style every match of `pattern` in `text`; returns how many matched."""
    if pattern is None:
        return 0
    found = 0
    for match in pattern.finditer(text.plain):
        if match.end() > match.start():
            text.stylize(style, match.start(), match.end())
            found += 1
    return found


# --- breakdown -------------------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


ARITHMETIC_CELLS = {True: len("0.00×0.00=0.000"), False: len("0.00 × 0.00 = 0.000")}
"""Cells of a factor's `value × weight = part` (compact, expanded)."""


def factor_rows(
    explanation: Explanation, *, raw_width: int = 40, compact: bool = False, arithmetic: bool = True
) -> list[Content]:
    """One row per factor: name, value × weight = contribution, a bar, the raw input.

    The bar is the contribution on the results list's scale (BAR_CELLS cells = a score of 1),
    so a 0.030 part draws a sliver beside a 0.682 one. Compact rows (the side panel) use
    tighter arithmetic; without `arithmetic` (a narrow panel) they show the contribution alone
    (the expanded view has the rest). `raw_width` 0 leaves the raw input out.
    """
    rows = []
    name_width = max((len(f.name) for f in explanation.factors), default=9)
    times, equals = ("×", "=") if compact else (" × ", " = ")
    for factor in explanation.factors:
        style = FACTOR_STYLE.get(factor.name, "$text-primary")
        raw = one_line(factor.raw, widths.RAW)
        if compact and len(raw) > raw_width:
            raw = raw.split(", ", 1)[0]
        pieces: list[str | tuple[str, str]] = [(factor.name.ljust(name_width), f"bold {style}")]
        if arithmetic:
            pieces += [
                " ",
                (f"{factor.value:.2f}", ""),
                (times, "$muted"),
                (f"{factor.weight:.2f}", ""),
                (equals, "$muted"),
            ]
        else:
            pieces.append(" ")
        pieces += [
            (f"{factor.contribution:.3f}", "bold"),
            " ",
            (bar(factor.contribution, BAR_CELLS), style),
        ]
        if raw_width > 0:
            pieces += ["  ", (one_line(raw, raw_width), "$muted")]
        rows.append(Content.assemble(*pieces))
    return rows


def factor_row_prefix(explanation: Explanation, *, compact: bool, arithmetic: bool = True) -> int:
    """Cells a factor row uses before its raw input (to give the raw text the rest)."""
    name_width = max((len(f.name) for f in explanation.factors), default=9)
    middle = ARITHMETIC_CELLS[compact] if arithmetic else len("0.000")
    return name_width + 1 + middle + 1 + BAR_CELLS + 2


def score_line(hit: Hit) -> Content:
    """`base 0.913 × multipliers 1.095 = score 1.000`, worded and rounded exactly as
    `rank --explain` prints it (`Explanation.arithmetic`), with the score picked out."""
    arithmetic = hit.explanation.arithmetic
    head, score = arithmetic.rsplit(" ", 1)
    return Content.assemble((head + " ", "$muted"), (score, "bold $text-accent"))


def term_rows(terms: Sequence[TermMatch], *, expanded: bool, width: int = 0) -> list[Content]:
    """Matched terms: the query term, then each document token it met and how.

    Expanded rows give every token with its weight and heading/body counts; compact rows give
    as many tokens as fit in `width` (0: three) and say how many more there are.
    """
    rows: list[Content] = []
    for term in terms:
        name = one_line(term.term, widths.WORD)
        if not term.matches:
            rows.append(Content.assemble((name, "bold"), ("  no match", "$text-error")))
            continue
        if expanded:
            rows.append(_expanded_term(term, name))
            continue
        pieces: list[str | tuple[str, str]] = [(name, "bold"), (" ← ", "$muted")]
        used = cell_len(name) + 3
        for index, match in enumerate(term.matches):
            token = one_line(match.token, widths.WORD)
            how = match.kind.value + (f" {match.similarity:.2f}" if match.similarity < 1 else "")
            piece = ("  " if index else "") + f"{token} {how}"
            rest = len(term.matches) - index - 1
            more = f"  +{rest} more" if rest else ""
            fits = used + cell_len(piece) + len(more) <= width if width else index < 3
            if index and not fits:
                pieces.append((f"  +{len(term.matches) - index} more", "$muted"))
                break
            if index:
                pieces.append(("  ", ""))
            pieces += [(token, "$match-foreground on $match-background"), (f" {how}", "$muted")]
            used += cell_len(piece)
        rows.append(Content.assemble(*pieces))
    return rows


def _expanded_term(term: TermMatch, name: str) -> Content:
    pieces: list[str | tuple[str, str]] = [(name, "bold"), (f"  w {term.weight:.2f}  ", "$muted")]
    for index, match in enumerate(term.matches):
        if index:
            pieces.append(("  ", ""))
        pieces.append(
            (one_line(match.token, widths.WORD), "$match-foreground on $match-background")
        )
        detail = f" {match.kind.value}"
        if match.similarity < 1.0:
            detail += f" {match.similarity:.2f}"
        detail += f" h{match.heading_count}/b{match.body_count}"
        pieces.append((detail, "$muted"))
    return Content.assemble(*pieces)


def multiplier_rows(explanation: Explanation) -> list[Content]:
    return [
        Content.assemble(
            ("× ", "$muted"),
            (
                f"{item.factor:.2f}",
                "bold $text-success" if item.factor >= 1 else "bold $text-error",
            ),
            "  ",
            (one_line(item.name, widths.WORD), "bold"),
            "  ",
            (one_line(item.reason, widths.SHORT), "$muted"),
        )
        for item in explanation.multipliers
    ]


def gap_row(hit: Hit, previous: Hit | None, width: int = 0) -> Content | None:
    """What separates this hit from the one ranked just above it (the largest differences
    that fit in `width`, 0: four)."""
    if previous is None:
        return None
    differences = hit.explanation.versus_previous()
    pieces: list[str | tuple[str, str]] = [
        (f"vs #{previous.rank} ", "$muted"),
        (f"−{max(0.0, previous.score - hit.score):.3f}", "bold"),
    ]
    used = len(f"vs #{previous.rank} −0.000")
    for index, (name, value) in enumerate(differences[:4]):
        difference = f" {'−' if value < 0 else '+'}{abs(value):.3f}"
        used += 2 + len(name) + len(difference)
        if width and index and used > width:
            break
        pieces += [("  ", ""), (name, FACTOR_STYLE.get(name, "")), (difference, "$muted")]
    return Content.assemble(*pieces)


BROWSE_WHY = "Newest first: nothing is ranked until you type."
"""The why pane while browsing: the list is not ordered by a score, so none is broken down."""


def breakdown(hit: Hit, previous: Hit | None, *, expanded: bool, width: int = 0) -> Content:
    """The whole 'why' panel for one hit, compact or expanded; `width` (cells, 0 = unknown)
    lets the raw inputs use the panel's whole width."""
    explanation = hit.explanation
    if explanation.browse:
        return Content.styled(BROWSE_WHY, "$muted")
    compact = not expanded
    # room for `value × weight =`? (the prefix counts the two cells before the raw input)
    arithmetic = not width or width >= factor_row_prefix(explanation, compact=compact) - 2
    prefix = factor_row_prefix(explanation, compact=compact, arithmetic=arithmetic)
    if not width:
        raw_width = 60 if expanded else 28
    else:
        raw_width = width - prefix if width >= prefix + 8 else 0
    lines: list[Content] = [_fitted(score_line(hit), width)]
    if expanded:
        name_width = max((len(f.name) for f in explanation.factors), default=9)
        middle = "val    wt     part " if arithmetic else "part "  # as the rows have it
        header = f"{'factor':<{name_width}} {middle} {'bar':<{BAR_CELLS}}  input"
        scale = "   (bar: the part of the score, full = 1.0, as in the list)"
        fits = not width or len(header) + len(scale) <= width
        lines.append(Content.styled(header + (scale if fits else ""), "$muted"))
    lines += factor_rows(explanation, raw_width=raw_width, compact=compact, arithmetic=arithmetic)
    if explanation.terms:
        lines.append(
            Content.styled("matched terms", "bold $text-secondary") if expanded else Content("")
        )
        lines += term_rows(explanation.terms, expanded=expanded, width=width)
    if explanation.multipliers:
        if expanded:
            lines.append(Content.styled("multipliers", "bold $text-secondary"))
        lines += multiplier_rows(explanation)
    gap = gap_row(hit, previous, width)
    if gap is not None:
        if expanded:
            lines.append(
                Content.styled(
                    f"compared with #{previous.rank if previous else ''} (+ this entry leads, "
                    "− it trails)",
                    "bold $text-secondary",
                )
            )
        lines.append(gap)
    if expanded and explanation.notes:
        lines.append(Content.styled("notes", "bold $text-secondary"))
        lines += [Content(one_line(note, widths.LINE)) for note in explanation.notes]
    return Content("\n").join(line for line in lines if line is not None)


def _fitted(score: Content, width: int) -> Content:
    """The score line without its words (`0.913 × 1.095 = score 1.000`) when it would not fit
    in `width`: the same numbers, rounded the same, in a narrow panel."""
    if not width or cell_len(score.plain) <= width:
        return score
    head, _, number = score.plain.replace("base ", "").replace("multipliers ", "").rpartition(" ")
    return Content.assemble((head + " ", "$muted"), (number, "bold $text-accent"))


EMPTY = Content("")


def detail_header(
    entry: Entry,
    *,
    masked: int,
    revealed: bool,
    match: Content = EMPTY,
    mask: Callable[[str], str] = str,
) -> Content:
    """`path:lines  ·  match 2/5  ·  date  ·  source …`: the match position (`match_position`)
    right after the path, so a narrow pane that cuts the line's end keeps it."""
    parts: list[str | tuple[str, str] | Content] = [
        (one_line(mask(line_range(entry)), widths.LONG), "bold"),  # a file named by a token
        match,
        ("  ·  ", "$muted"),
        (date_label(entry), ""),
        ("  ·  ", "$muted"),
        (SOURCE_LABEL.get(entry.source, str(entry.source)), SOURCE_STYLE.get(entry.source, "")),
    ]
    if entry.role:
        parts += [("  ·  ", "$muted"), (one_line(mask(entry.role), widths.WORD), "")]
    if entry.tags:
        tags = mask(" ".join(f"#{tag}" for tag in entry.tags))  # frontmatter holds keys too
        parts += [("  ·  ", "$muted"), (one_line(tags, widths.SHORT), "$text-secondary")]
    if masked:
        note = f"{masked} secret{'s' if masked != 1 else ''} {'shown' if revealed else 'masked'}"
        parts += [("  ·  ", "$muted"), (note, "bold $text-warning")]
    for warning in entry.warnings[:3]:
        parts += [("  ⚠ ", "$text-warning"), (one_line(warning, widths.SHORT), "$text-warning")]
    return Content.assemble(*parts)


def match_position(current: int, total: int, beyond: int) -> Content:
    """` · match 3/7` for the entry header (`n`/`N` move), set close to the path; empty
    without matches."""
    if not total:
        return Content("")
    parts: list[str | tuple[str, str]] = [(" · ", "$muted"), (f"match {current}/{total}", "bold")]
    if beyond:
        parts.append((f" (+{beyond:,} past the shown part: e opens the file)", "$muted"))
    return Content.assemble(*parts)


MAX_SHOWN_CHARS = 200_000


def entry_text(entry: Entry, *, limit: int | None = MAX_SHOWN_CHARS) -> str:
    """The entry as shown and copied: a heading line, then the body (not yet secret-masked).

    Display is capped at `limit` characters so a multi-megabyte entry cannot stall the event
    loop while it is masked and wrapped; copying passes None for the whole entry.
    """
    level = entry.heading_level or max(1, min(6, len(entry.heading_path)))  # as written
    text = f"{'#' * level} {entry.title}\n\n{entry.body}" if entry.title else entry.body
    if limit is not None and len(text) > limit:
        hidden = len(text) - limit
        text = (
            f"{text[:limit]}\n\n… {hidden:,} more characters not shown (press e to open the file)"
        )
    return text
