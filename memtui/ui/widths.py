"""How many characters a string from disk may take when `one_line` flattens it, by kind.

One table, so the same kind of text is cut at the same length on every screen. These are caps
on pathological input (a 5,000-character title, a path made of newlines), not layout: columns
are fitted to the terminal after this, in cells.
"""

from __future__ import annotations

WORD = 40
"""A query term, a matched token, a role, a multiplier's name, a suggestion."""
LABEL = 60
"""A path or a program named inside a sentence (change notices, editor errors)."""
SHORT = 80
"""Titles, queries, paths and reasons in headers, notices and lists."""
LONG = 120
"""A citation or the entry header's path and line range."""
PLACE = 150
"""One place where the memory folder was looked for."""
LINE = 200
"""A note, warning or problem on a line of its own."""
NOTICE = 300
"""A banner or a startup warning (notifications wrap it)."""
RAW = 400
"""Text that is cut again later to fit a column (titles, factor inputs, paths)."""
