"""How the UI shows an agent's load line: a badge on the results list's rows and a drawn line
above the entry text, in the main screen and the health view alike.

Both say it with glyphs, not colour alone, so it reads under NO_COLOR and in every theme.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.content import Content

from memtui.core.health.model import LoadCut
from memtui.core.model import Entry
from memtui.core.sanitize import one_line
from memtui.ui import widths

BADGE = "⤓"
"""Before the title of a row whose entry starts or runs past its agent's load line."""
BADGE_CELLS = 2
"""The badge and the space after it, taken from the title's room on such rows only."""
LINE_STYLE = "$text-warning"


def load_line_rule(entry: Entry, cuts: Iterable[LoadCut]) -> Content:
    """One drawn line per agent that stops reading inside or above `entry` (`cuts`: those it
    starts or runs past, as `core.health.load_line.cuts_past` gives them); empty when none."""
    lines = []
    for cut in cuts:
        where = "after" if cut.whole_line else "inside"
        if entry.line_start > cut.last_line or (
            entry.line_start == cut.last_line and not cut.whole_line
        ):
            missed = f"not loaded by {cut.agent}"
        else:
            first = cut.last_line + 1 if cut.whole_line else cut.last_line
            missed = f"lines {first}–{entry.line_end} not loaded by {cut.agent}"
        # The verdict first: on a short screen the rule is one line, cut at its end.
        said = f"{missed}: it stops {where} line {cut.last_line} ({cut.limits})"
        lines.append(Content.styled(f"┄┄ {BADGE} {one_line(said, widths.LINE)} ┄┄", LINE_STYLE))
    return Content("\n").join(lines)
