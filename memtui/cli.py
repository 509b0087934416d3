"""Command line entry point: the TUI by default, or as a picker (`pick`); `rank`, `list`,
`bench`, `roots`, `health` and `cache` headless.

Exit codes: 0 results (`health`: healthy), 1 no results (`health`: findings), 2 usage or input
error (message on stderr).
The top layer: it parses arguments and hands them to `memtui.commands`. Each command is
imported only when it runs, so `memtui rank` never loads Textual.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import os
import signal
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, NoReturn

from memtui import __version__
from memtui.core.sanitize import one_line, visible
from memtui.errors import UsageError
from memtui.standard_streams import OutputError, check_stdout, plug_closed, silence_stdout

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

COMMANDS = {
    "rank": ("rank QUERY [ROOT…]", "rank entries for a query and print them"),
    "list": ("list [ROOT…]", "list loaded entries and skipped files"),
    "pick": ("pick [ROOT…]", "the app as a picker: prints what you choose"),
    "health": ("health [ROOT…]", "duplicates, stale, secrets, unloaded entries"),
    "roots": ("roots", "the memory folders found from here"),
    "cache": ("cache", "the start-up cache (--clear removes it)"),
    "bench": ("bench [ROOT]", "how fast memtui loads, reranks and updates"),
}
"""Every subcommand: its usage and what it does, for `memtui --help`."""
SUBCOMMANDS = tuple(COMMANDS)
ENGINE_COMMANDS = ("rank", "list", "health")
"""The headless commands that load memory. They run without the cyclic garbage collector from
their first line on: a warm start holds the cache's columns as ~100,000 lists, every pass of the
collector walks them all (and ~60 passes ran while the modules loaded, ~5 ms), and a command
that exits in half a second leaves no cycles worth collecting."""

RANK_EPILOG = """\
QUERY: without -q, the first positional is the query and the rest are ROOTs, as with rg and \
grep; with -q QUERY, every positional is a ROOT. So `memtui rank ./memory` searches for \
"./memory" (in the default folder): to search a folder, name the query first, \
`memtui rank deploy ./memory`, or use -q.
exit codes: 0 results, 1 no results, 2 usage or input error."""

HEALTH_EPILOG = """\
exit codes, like a linter's: 0 healthy (no findings), 1 findings listed, 2 usage or input \
error. So `memtui health && echo ok` prints ok only for healthy memory."""


def help_width() -> int:
    """The width argparse would take, `shutil.get_terminal_size()` columns less 2, without
    loading shutil: it loads the compression modules (~3 ms of every command's start)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    stdout = sys.__stdout__
    if columns <= 0 and stdout is not None:
        try:
            columns = os.get_terminal_size(stdout.fileno()).columns
        except (ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


class Formatter(argparse.HelpFormatter):
    """argparse's help, keeping the line breaks of descriptions and epilogs (lines still wrap)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=help_width())

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(
            textwrap.fill(line, width, initial_indent=indent, subsequent_indent=indent + "  ")
            for line in text.splitlines()
        )


class Parser(argparse.ArgumentParser):
    """argparse, but what it prints (usage errors quote the arguments) is made visible first."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(formatter_class=Formatter, **kwargs)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        super()._print_message(visible(message), file)


def parse_today(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected YYYY-MM-DD, got {value!r}") from None


def non_negative_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {number}")
    return number


def parse_command(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Options may stand between positionals (`memtui rank deploy --days 0 ./memory` takes
    ./memory as a ROOT too); after `--` everything is positional, which Python 3.11's intermixed
    parsing gets wrong, so it is parsed plainly then."""
    return parser.parse_args(argv) if "--" in argv else parser.parse_intermixed_args(argv)


def take_rank_query(args: argparse.Namespace) -> None:
    """`memtui rank QUERY [ROOT…]`: without `-q`, the first positional is the query (as in `rg`
    and `grep`); with `-q`, every positional is a ROOT. No guessing from what the word looks
    like: `memtui rank ./memory` searches for "./memory" in the default folder, and says so on
    stderr when a folder of that name exists."""
    if args.query is not None:
        return
    if not args.roots:
        raise UsageError("no query: memtui rank QUERY [ROOT…] (or -q QUERY)")
    args.query = args.roots.pop(0)
    if os.path.isdir(args.query):
        print(
            f"memtui: searching for {one_line(args.query, 200)!r}; to search that folder: "
            f"memtui rank QUERY {one_line(args.query, 200)}",
            file=sys.stderr,
        )


def add_common(parser: argparse.ArgumentParser, *, several: bool = True) -> None:
    """ROOT(s) and the options every command that opens memory has; `several`: ROOT… and --all."""
    if several:
        parser.add_argument(
            "roots",
            nargs="*",
            metavar="ROOT",
            help="memory folder(s), searched together (default: the closest one found)",
        )
        parser.add_argument(
            "--all",
            dest="every",
            action="store_true",
            help="open every memory folder found (see `memtui roots`), or both demo roots",
        )
    else:
        parser.add_argument(
            "roots",
            nargs="?",
            metavar="ROOT",
            help="memory folder (default: the closest one found)",
        )
    parser.add_argument(
        "--days",
        type=non_negative_int,
        default=None,
        help="load daily notes from the last N days (default 30 or config; 0 = all)",
    )
    parser.add_argument(
        "--today", type=parse_today, default=None, help="pretend today is YYYY-MM-DD"
    )
    parser.add_argument("--config", default=None, help="config TOML file")
    parser.add_argument("--demo", action="store_true", help="use the bundled demo memory")


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="read every file again and write no cache (see `memtui cache`)",
    )


def add_app_options(parser: argparse.ArgumentParser) -> None:
    """What the app takes besides the memory folders (`memtui` and `memtui pick`)."""
    parser.add_argument("--query", "-q", default="", help="start with this query")
    parser.add_argument("--theme", default=None, help="theme name")
    parser.add_argument("--no-watch", action="store_true", help="do not watch the folder")
    add_cache_option(parser)


def build_tui_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="memtui",
        description="Search, rank and explain what your AI agent remembers.",
        epilog="commands (memtui COMMAND --help for each):\n"
        + "\n".join(f"  memtui {usage:<20} {what}" for usage, what in COMMANDS.values()),
    )
    add_common(parser)
    add_app_options(parser)
    parser.add_argument("--version", action="version", version=f"memtui {__version__}")
    return parser


def build_parser(command: str) -> argparse.ArgumentParser:
    parser = Parser(prog=f"memtui {command}")
    if command == "rank":
        parser.usage = (
            "memtui rank [options] QUERY [ROOT ...]   (or: memtui rank -q QUERY [ROOT ...])"
        )
        parser.description = "Rank entries for a query and print them."
        parser.epilog = RANK_EPILOG
        parser.add_argument(
            "-q", "--query", default=None, help="the query (then every positional is a ROOT)"
        )
        add_common(parser)
        parser.add_argument(
            "-n", type=non_negative_int, default=5, help="how many results (0 = all)"
        )
        parser.add_argument("--json", action="store_true", help="machine-readable output")
        parser.add_argument("--explain", action="store_true", help="show the score breakdown")
        parser.add_argument("--reveal-secrets", action="store_true", help="do not mask secrets")
        add_cache_option(parser)
    elif command == "list":
        parser.description = "List loaded entries and skipped files."
        add_common(parser)
        parser.add_argument("--source", choices=("long_term", "daily", "note"), default=None)
        parser.add_argument("--role", default=None, help="only entries of this role/file glob")
        parser.add_argument("--json", action="store_true", help="machine-readable output")
        parser.add_argument("--reveal-secrets", action="store_true", help="do not mask secrets")
        add_cache_option(parser)
    elif command == "bench":
        parser.description = "Measure load, rerank and update speed against reference baselines."
        add_common(parser, several=False)
        parser.add_argument(
            "--entries",
            type=non_negative_int,
            default=None,
            help="generate a synthetic corpus of N entries instead of reading ROOT",
        )
        parser.add_argument("--queries", default=None, help="file with one query per line")
        parser.add_argument("--json", action="store_true", help="machine-readable output")
        parser.add_argument("--tui", action="store_true", help="also measure through the app")
    elif command == "health":
        parser.description = (
            "Memory health: near-duplicates, superseded and stale entries, secrets, and entries "
            "past what the agent loads at session start. Read-only."
        )
        parser.epilog = HEALTH_EPILOG
        add_common(parser)
        parser.add_argument("--json", action="store_true", help="machine-readable output")
        parser.add_argument("--reveal-secrets", action="store_true", help="do not mask secrets")
        add_cache_option(parser)
    elif command == "pick":
        parser.description = (
            "The TUI as a picker: space marks entries, enter prints the marked ones (or the "
            "selected one) to stdout and exits 0; esc or ctrl+c prints nothing and exits 1. "
            "Like fzf, the app draws on the terminal (/dev/tty) whatever stdin and stdout are, "
            'so `memtui pick > out.md` and "$(memtui pick)" work.'
        )
        add_common(parser)
        add_app_options(parser)
        parser.add_argument(
            "--format",
            choices=("cite", "md", "json"),
            default="md",
            help="cite: path:start-end per line; md: each entry quoted under its citation "
            "(default); json: rank --json's result fields",
        )
        parser.add_argument(
            "--multi",
            action="store_true",
            help="with nothing marked, enter prints every result of the query, not the "
            "selected one",
        )
    elif command == "cache":
        parser.description = (
            "What the start-up cache in $XDG_CACHE_HOME/memtui/ holds: the memory folders, "
            "their size. Removing it is safe; the next start rebuilds it."
        )
        parser.add_argument("--clear", action="store_true", help="remove every cache file")
        parser.add_argument("--json", action="store_true", help="machine-readable output")
    elif command == "roots":
        parser.description = (
            "List the memory folders memtui finds from here, closest first (what it would open)."
        )
        parser.add_argument("--json", action="store_true", help="machine-readable output")
        parser.add_argument(
            "--all-claude",
            action="store_true",
            help="also list every Claude Code project memory (~/.claude/projects/*/memory/)",
        )
    return parser


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """While a command's modules load numpy, its OpenBLAS starts no thread pool: memtui does no
    linear algebra, and the pool's threads spin for ~0.1 s of CPU at start, which on a busy
    machine a short command waits for (~25 ms of a small `rank`). Set only while numpy loads,
    so no program memtui starts inherits it; a value the user set is kept."""
    if "OPENBLAS_NUM_THREADS" in os.environ:
        yield
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        yield
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


def load_command(command: str) -> Callable[[argparse.Namespace], int]:
    """The subcommand's entry point, imported now: only the command that runs is loaded."""
    if command == "rank":
        from memtui.commands.rank import run_rank

        return run_rank
    if command == "list":
        from memtui.commands.listing import run_list

        return run_list
    if command == "health":
        from memtui.commands.health import run_health

        return run_health
    if command == "pick":
        from memtui.commands.pick import run_pick

        return run_pick
    if command == "cache":
        from memtui.commands.cache import run_cache

        return run_cache
    if command == "roots":
        from memtui.commands.roots import run_roots

        return run_roots
    if command == "bench":
        from memtui.commands.bench import run_bench

        return run_bench
    from memtui.commands.tui import run_tui

    return run_tui


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in ENGINE_COMMANDS:
        gc.disable()
    try:
        if args_list and args_list[0] in SUBCOMMANDS:
            command = args_list[0]
            args = parse_command(build_parser(command), args_list[1:])
            if command == "rank":
                take_rank_query(args)
        else:
            command = "tui"
            args = build_tui_parser().parse_args(args_list)
        with one_blas_thread():
            run = load_command(command)
        return run(args)
    except UsageError as exc:
        print(f"memtui: {one_line(str(exc), 2000)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `memtui health | head`: the reader left before the end. Quietly, with the status the
        # shell gives grep or cat killed by SIGPIPE (128 + 13): a cut-off `health` or `rank`
        # must not read as healthy, or as a whole answer, to `set -o pipefail`.
        silence_stdout()
        return 128 + signal.SIGPIPE
    except OutputError as exc:
        return _output_failed(exc)


def _output_failed(exc: OutputError) -> int:
    """`memtui rank … > /dev/full`: one line on stderr and exit 2, never 1 ("no results")."""
    silence_stdout()
    print(f"memtui: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
    return 2


def entry() -> NoReturn:
    """The `memtui` command (and `python -m memtui`): `main`, then, after `rank`, `list` or
    `health`, out with `os._exit` once the output is flushed. Tearing the interpreter down
    (every module, numpy, the engine's objects) took ~20-25 ms of a ~0.2 s `rank`; mypy leaves
    the same way. Those commands leave nothing for an exit hook: a cache write runs in a
    detached process of its own, or before `main` returns.

    First the standard streams (`standard_streams`): a closed one is opened on the null
    device, and a command with its stdout closed stops there, with exit 2."""
    argv = sys.argv[1:]
    command = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    if plug_closed() and command is not None:
        print("memtui: cannot write the output: standard output is closed", file=sys.stderr)
        raise SystemExit(2)
    if command is None:
        raise SystemExit(main(argv))
    check_stdout()
    code = main(argv)
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left (`memtui list | head`) with the last bytes
        silence_stdout()
        code = 128 + signal.SIGPIPE if code in (0, 1) else code
    except OutputError as exc:
        code = _output_failed(exc)
    if command not in ENGINE_COMMANDS:
        raise SystemExit(code)
    with suppress(BrokenPipeError):
        sys.stderr.flush()
    os._exit(code)
