"""The main screen's words: title and status lines, the empty states, notices and banners.

Pure functions from plain values and core results to `Content` (or a plain string for a
notification); the screen only decides when to show them. Every string from disk goes in as
plain text through `one_line`, never as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.content import Content

from memtui.core.live.watch import WatchMode
from memtui.core.model import ChangeSet, RankResult
from memtui.core.places.loads import tokens_estimate
from memtui.core.sanitize import middle_cut, one_line
from memtui.ui import widths
from memtui.ui.gone import GLYPH as GONE_GLYPH

SEPARATOR = (" · ", "$muted")
LOADING = Content.styled("loading…", "$muted")
LOAD_FAILED = Content.styled("load failed", "$text-error")
QUERY_ERROR = Content.styled("query error", "bold $text-error")
WATCH_STYLE = {
    WatchMode.WATCHING: "$text-success",
    WatchMode.POLLING: "$text-warning",
    WatchMode.ROOT_MISSING: "bold $text-error",
}
FILE_KINDS_HINT = (
    "memtui reads MEMORY.md, memory/*.md, daily notes (YYYY-MM-DD.md), topic notes "
    "and HISTORY.md. Entries appear here as soon as your agent writes them."
)
QUERY_TIPS = (
    "Tips: fewer words; a prefix like depl finds deploy; -word excludes; "
    "source:daily, tag:x, after:2026-11-01 filter."
)


def title_line(root_label: str, more_found: int = 0, *, cells: int | None = None) -> Content:
    """`memtui · ~/workspace` on the top bar's left, and how much more memory discovery found
    (ctrl+s, or `m` in the results, opens the picker). The path is cut in the middle to fit
    `cells` (None: `widths.SHORT`): its end names the folder, and a path that wrapped onto a
    second line of the one-line bar vanished."""
    more = f"{more_found:,} more found (^s)" if more_found else ""
    room = widths.SHORT if cells is None else cells - len("memtui") - len(SEPARATOR[0])
    if more and room - len(more) - len(SEPARATOR[0]) < MIN_PATH_CELLS:
        more = ""  # the folder first: the picker is also in the palette
    if more:
        room -= len(more) + len(SEPARATOR[0])
    title = Content.assemble(
        ("memtui", "bold $text-accent"),
        SEPARATOR,
        (_cut_path(root_label, max(1, min(room, widths.SHORT))), "$foreground"),
    )
    if more:
        title += Content.assemble(SEPARATOR, (more, "$text-muted"))
    return title


def _cut_path(path: str, room: int) -> str:
    """`path` cut in the middle to `room`, keeping the folder's whole name when it fits: the
    name tells two memories apart, the parents less so (`/tmp/…/my-project-memory`)."""
    flat = middle_cut(path, len(path) + 1)  # one line, controls visible, not cut
    if len(flat) <= room:
        return flat
    name = flat.rstrip("/").rsplit("/", 1)[-1]
    head = min((room - 1) // 3, room - 2 - len(name))
    if head < 1:
        return middle_cut(flat, room)
    return flat[:head] + "…" + flat[len(flat) - (room - 1 - head) :]


MIN_PATH_CELLS = 16
"""Below this much room for the folder's path, the title drops "N more found"."""


@dataclass(frozen=True)
class Part:
    """One piece of a status line: the forms it may take, fullest first, and how early each
    form gives way when the line is too long (`gives_way[k]`: the higher, the earlier it is
    left for the next form or, after the last, dropped; 0 or missing: never)."""

    forms: tuple[str, ...]
    style: str = ""
    gives_way: tuple[int, ...] = ()
    glued: bool = False
    """Joined to the part before by a space, not a separator: `30 days (+11 older · t)`."""


def fitted(parts: Sequence[Part], cells: int | None) -> Content:
    """The parts joined by ` · `, shortened and dropped in their stated order until the line
    fits `cells` (None: no limit). Dropping a part drops its separator: the line never ends,
    or starts, with one."""
    chosen = [0] * len(parts)

    def line() -> Content:
        pieces: list[str | tuple[str, str]] = []
        for part, form in zip(parts, chosen, strict=True):
            if form < len(part.forms):
                if pieces:
                    pieces.append(" " if part.glued else SEPARATOR)
                pieces.append((part.forms[form], part.style))
        return Content.assemble(*pieces)

    shown = line()
    while cells is not None and shown.cell_length > cells:
        movable = [
            (part.gives_way[form], index)
            for index, (part, form) in enumerate(zip(parts, chosen, strict=True))
            if form < len(part.gives_way) and part.gives_way[form] > 0
        ]
        if not movable:
            break
        _, index = max(movable)
        chosen[index] += 1
        shown = line()
    return shown


def app_status(
    *,
    entries: int | None,
    skipped: int,
    days: int,
    window_all: bool,
    hidden: int,
    mode: WatchMode,
    marked: int = 0,
    custom_weights: bool = False,
    polled: int = 0,
    session_chars: int = 0,
    cells: int | None = None,
) -> Content:
    """The top bar's right: marks, entries, date window, skipped files and the watcher's state.

    `entries` is None until the engine has loaded (then only the watcher's state shows);
    `days` is the configured window (0: every date), `window_all` whether the user lifted it;
    `marked` how many entries are marked to hand on; `custom_weights` whether the weights in
    use differ from the config's; `polled` how many folders cannot be watched and are checked
    at an interval instead. A missing root's entries are still counted (shown dimmed).
    `session_chars`: what the agent loads of the open memory at every session start, shown as
    ≈ tokens.

    In `cells`, pieces give way in this order: the session's tokens, the window hint's long
    form (`+11 older · t` stays), custom weights, a normal watcher state, polled folders,
    skipped files, the entry count, and last the window hint. Marks, the date window and a
    watcher in trouble always stay.
    """
    parts: list[Part] = []
    if marked:
        parts.append(Part((f"{marked:,} marked",), "bold $text-accent"))
    if entries is not None:
        shown_days = 0 if window_all else days
        parts += [
            Part((counted(entries, "entry", "entries"),), gives_way=(2,)),
            Part(("all dates" if not shown_days else f"{shown_days} days",)),
        ]
        if hidden and not window_all:
            parts.append(
                Part(
                    (f"(+{hidden:,} older hidden · t shows all)", f"(+{hidden:,} older · t)"),
                    "$text-warning",
                    gives_way=(8, 1),
                    glued=True,
                )
            )
        if skipped:
            parts.append(Part((f"{skipped} skipped",), "$text-warning", gives_way=(3,)))
        if custom_weights:
            parts.append(Part(("weights: custom",), "$text-accent", gives_way=(7,)))
    quiet = mode in (WatchMode.WATCHING, WatchMode.OFF)
    parts.append(
        Part((mode.value,), WATCH_STYLE.get(mode, "$muted"), gives_way=(6 if quiet else 0,))
    )
    if polled and mode is not WatchMode.OFF:
        parts.append(
            Part(
                (f"{counted(polled, 'folder', 'folders')} polled",), "$text-warning", gives_way=(5,)
            )
        )
    if entries is not None and session_chars:
        parts.append(
            Part((f"loads {tokens_estimate(session_chars)}/session",), "$muted", gives_way=(9,))
        )
    return fitted(parts, cells)


def unwatched_reason(why: str, interval_ms: int) -> str:
    """The warnings view's line for a folder the watcher cannot watch."""
    return (
        f"cannot be watched ({why}); checked every {interval_ms / 1000:g} s, "
        "and read once it can be"
    )


def counted(number: int, one: str, many: str) -> str:
    """`1 entry`, `2 entries`: a count with its noun agreeing."""
    return f"{number:,} {one if number == 1 else many}"


def query_status(
    result: RankResult,
    *,
    deterministic: bool,
    indexing: bool,
    window_all: bool = False,
    cells: int | None = None,
) -> Content:
    """`12 matches · 3.1 ms` right of the query box; while browsing (no query terms)
    `103 entries · newest first · 0.3 ms · +11 older hidden (t)`.

    In `cells`, pieces give way in this order: the time, the window hint's long form,
    `indexing…`, the window hint, `newest first`; the count always stays.
    """
    count = result.total_matches
    noun = "match" if count == 1 else "matches"
    browsing = not result.query.strip()
    if browsing:
        noun = "entry" if count == 1 else "entries"
    elapsed = "— ms" if deterministic else f"{result.elapsed_ms:.1f} ms"
    parts = [Part((f"{count:,} {noun}",), "bold")]
    if result.browse:
        parts.append(Part(("newest first",), gives_way=(2,)))
    if indexing:  # browse results are up; a query waits for the index
        parts.append(Part(("indexing…",), "$muted", gives_way=(4,)))
    else:
        parts.append(Part((elapsed,), "$muted", gives_way=(9,)))
    if browsing and result.hidden_by_window and not window_all:
        hidden = f"+{result.hidden_by_window:,} older"
        parts.append(
            Part((f"{hidden} hidden (t)", f"{hidden} (t)"), "$text-warning", gives_way=(8, 3))
        )
    return fitted(parts, cells)


def banner(message: str) -> Content:
    """A banner line: any message, flattened and capped."""
    return Content(one_line(message, widths.NOTICE))


def root_missing(root: str) -> str:
    return (
        f"The memory folder {one_line(root, widths.LINE)} is gone (moved or deleted). "
        f"Its entries are dimmed ({GONE_GLYPH}) as last read until it comes back…"
    )


def empty_state(
    result: RankResult, *, entries: int | None, root: str, skipped: int, window_all: bool
) -> Content:
    """What the results pane says when there is nothing to list (`entries`: None if unknown)."""
    if entries == 0:
        return empty_folder(root, hidden=result.hidden_by_window, skipped=skipped)
    return no_matches(result, window_all=window_all)


def empty_folder(root: str, *, hidden: int, skipped: int) -> Content:
    lines = [
        Content.styled("No memory entries here yet", "bold"),
        Content(""),
        Content.assemble(("folder  ", "$muted"), (one_line(root, widths.LINE), "")),
    ]
    if hidden:
        lines.append(
            Content(
                f"{hidden:,} daily entries are older than the date window "
                "— press t to load every date."
            )
        )
    if skipped:
        lines.append(Content(f"{skipped} files were skipped — press ! to see why."))
    lines += [Content(""), Content.styled(FILE_KINDS_HINT, "$muted")]
    return Content("\n").join(lines)


def no_matches(result: RankResult, *, window_all: bool) -> Content:
    query = one_line(result.query, widths.SHORT)
    lines = [
        Content.assemble(("No matches for ", "bold"), (query, "bold $text-accent")),
        Content(""),
    ]
    if result.unmatched_terms:
        terms = ", ".join(one_line(term, widths.WORD) for term in result.unmatched_terms)
        lines.append(Content.assemble(("nothing contains  ", "$muted"), (terms, "")))
    if result.suggestions:
        suggestions = ", ".join(one_line(s, widths.WORD) for s in result.suggestions[:5])
        lines.append(
            Content.assemble(("did you mean  ", "$muted"), (suggestions, "bold $text-success"))
        )
    if result.hidden_by_window and not window_all:
        lines.append(
            Content.assemble(
                (f"{result.hidden_by_window:,}", "bold"),
                (
                    " daily entries are outside the date window — press t (ctrl+t) to search "
                    "every date",
                    "",
                ),
            )
        )
    lines += [Content.styled(one_line(note, widths.LINE), "$muted") for note in result.notes[:3]]
    lines += [Content(""), Content.styled(QUERY_TIPS, "$muted")]
    return Content("\n").join(lines)


def change_notice(changes: ChangeSet) -> str | None:
    """'MEMORY.md: 2 entries added' for each changed file (at most three named)."""
    parts = []
    for path, added, removed, updated in changes.per_path:
        counts = [
            f"{counted(number, 'entry', 'entries')} {verb}"
            for number, verb in ((added, "added"), (removed, "removed"), (updated, "updated"))
            if number
        ]
        if counts:
            parts.append(f"{one_line(path, widths.LABEL)}: {', '.join(counts)}")
    if not parts:
        return None
    if len(parts) > 3:
        parts = [*parts[:3], f"and {len(parts) - 3} more files"]
    return "\n".join(parts)
