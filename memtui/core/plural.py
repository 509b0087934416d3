"""Numbers with their nouns for people: `1 entry`, `2 entries`, `1,024 files`."""

from __future__ import annotations


def plural(number: int, one: str, many: str | None = None) -> str:
    """`number` with `one` or `many` (default: `one` + "s") as English has it, thousands
    separated: `plural(1, "entry", "entries")` is `1 entry`."""
    noun = one if number == 1 else (many if many is not None else f"{one}s")
    return f"{number:,} {noun}"
