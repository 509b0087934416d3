"""How the UI shows the entries of a memory folder that is gone (moved, deleted, unmounted)
while memtui has it open: they stay in the results, ranked as before and dimmed, with a glyph
before the title, and the entry pane says above the text that it is what was last read.

A glyph as well as a dim colour, so it reads under NO_COLOR and in every theme.
"""

from __future__ import annotations

from textual.content import Content

from memtui.core.live.roots import MemoryRoot
from memtui.core.sanitize import one_line
from memtui.ui import widths

GLYPH = "⊘"
"""Before the title of a row whose folder is gone."""
GLYPH_CELLS = 2
"""The glyph and the space after it, taken from the title's room on such rows only."""


def gone_rule(root: MemoryRoot) -> Content:
    """The line above a gone folder's entry: where it was and that this is the last reading."""
    where = one_line(str(root.path), widths.LINE)
    return Content.styled(f"┄┄ {GLYPH} {where} is gone: shown as last read ┄┄", "$text-error")
