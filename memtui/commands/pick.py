"""`memtui pick`: the TUI as a picker; what you choose is printed to stdout when it ends.

`enter` prints the marked entries in the order they were marked (or, with nothing marked, the
selected one) and exits 0; esc, ctrl+c or quitting prints nothing and exits 1 (`--multi`: with
nothing marked, enter prints every result of the query instead). Like fzf, the app draws on the
controlling terminal (`/dev/tty`, see `ui.terminal`) whatever stdin and stdout are, and this
prints only after it has ended, so `memtui pick > out.md`, `memtui pick | cat` and
`prompt="$(memtui pick -q deploy)"` work; with no terminal at all it is a usage error (exit 2).

Formats: `cite` (one `path:start-end` per line), `md` (each entry quoted under its citation
line; see `core.cite`) and `json` (`rank --json`'s `results[]` fields, plus `text`: the entry as
`md` quotes it). Every format is free of control characters and escape sequences but newline and
tab; secrets stay masked unless they were revealed in the app.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from memtui.commands.common import dump_json
from memtui.commands.output import result_item, roots_payload
from memtui.commands.tui import create_app
from memtui.core import cite
from memtui.core.sanitize import visible
from memtui.core.secrets import mask_secrets
from memtui.ui.handoff import HandOff, cited
from memtui.ui.terminal import OnTheTerminal

FORMATS = ("cite", "md", "json")


def run_pick(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the picker; print the choice in `args.format` (0), or nothing when cancelled (1)."""
    app = create_app(args, hand_off="all" if args.multi else "selected")
    with OnTheTerminal(app):
        app.run()
    if app.handed_off is None:
        return app.return_code or 1
    write_hand_off(app.handed_off, args.format, out or sys.stdout)
    return 0


def write_hand_off(handed: HandOff, form: str, stream: TextIO) -> None:
    """The picked entries in `form` (one of FORMATS), ending with a newline."""
    mask = _masker(handed)
    items, _ = cited(handed.picked, mask)
    if form == "json":
        payload = {
            "query": handed.query,
            "roots": roots_payload(handed.engine),
            "results": [
                {
                    **result_item(handed.engine, item.entry, item.hit, lambda text: mask(text)[0]),
                    "text": visible(one.text),
                }
                for item, one in zip(handed.picked, items, strict=True)
            ],
        }
        dump_json(payload, stream)
        return
    stream.write((cite.markdown(items) if form == "md" else cite.citations(items)) + "\n")


def _masker(handed: HandOff) -> Callable[[str], tuple[str, int]]:
    """Secrets masked unless the user revealed them in the app (or the config says never)."""
    if handed.revealed or not handed.engine.config.mask_secrets:
        return lambda text: (text, 0)
    return mask_secrets
