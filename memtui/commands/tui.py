"""`memtui [ROOT]`: the one factory that builds the app, for the CLI, the tests and screenshots."""

from __future__ import annotations

import argparse
import sys

from memtui.commands.common import startup_from_args
from memtui.core.sanitize import one_line
from memtui.ui.app import MemtuiApp, key_scopes, text_box_keys
from memtui.ui.keymap import check_keymap
from memtui.ui.options import AppOptions, HandOffMode
from memtui.ui.terminal import OnTheTerminal

MAX_QUERY_CHARS = 1000
"""A `-q` longer than this is cut; the box is one line, and ESC or BEL in it is made visible."""


def create_app(
    args: argparse.Namespace, *, deterministic: bool = False, hand_off: HandOffMode = ""
) -> MemtuiApp:
    """The app for parsed `memtui` arguments (`deterministic`: no blink, timings or watcher;
    `hand_off`: the picker of `memtui pick`)."""
    options = AppOptions.from_startup(
        startup_from_args(args),
        query=one_line(args.query, MAX_QUERY_CHARS),
        theme=args.theme,
        watch=not args.no_watch,
        deterministic=deterministic,
    )
    options.hand_off = hand_off
    return MemtuiApp(options)


def run_tui(args: argparse.Namespace) -> int:
    """Run the app on the terminal; its exit code (1 after a crash, so a shell can tell;
    128 + the signal that ended it).

    `[keymap]` problems are printed on stderr first (the app shows them in its warnings too).
    """
    app = create_app(args)
    for problem in check_keymap(app.options.keymap, key_scopes(), text_box_keys()).problems:
        print(f"memtui: {one_line(problem, MAX_QUERY_CHARS)}", file=sys.stderr)
    with OnTheTerminal(app):
        app.run()
    return app.return_code if app.return_code is not None else 0
