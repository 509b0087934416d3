"""Each command imports only what its work needs: the quick ones never load numpy or the index,
and no headless command loads Textual (measured by what a fresh interpreter has imported); numpy
loads without the BLAS thread pool memtui never uses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cache_helpers import cached_engine

RUN = """
import json, sys
from memtui.cli import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit:
    pass
sys.stdout.flush()
"""
"""Runs the command given as JSON; a probe then prints what it found as JSON on a last line."""

PROBE = RUN + 'print("\\n" + json.dumps(sorted(sys.modules)))'

HEAVY = ("numpy", "memtui.core.search.index", "memtui.core.live.engine", "textual")


def probed(probe: str, argv: list[str]) -> Any:
    """What `probe` printed last after running memtui with `argv` in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", probe, json.dumps(argv)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.splitlines()[-1])


def imported_by(argv: list[str]) -> set[str]:
    return set(probed(PROBE, argv))


@pytest.mark.parametrize(
    "argv",
    [["--version"], ["--help"], ["rank", "--help"], ["roots"], ["cache"], ["cache", "--json"]],
    ids=" ".join,
)
def test_quick_commands_load_neither_numpy_nor_the_index(argv: list[str]) -> None:
    assert imported_by(argv) & set(HEAVY) == set()


def test_rank_loads_the_ranker_but_not_textual(memory_root: Path) -> None:
    modules = imported_by(["rank", "-q", "deploy", str(memory_root)])
    assert {"numpy", "memtui.core.search.rank"} <= modules
    assert not any(name == "textual" or name.startswith("textual.") for name in modules)


def test_a_rank_given_its_root_loads_no_discovery_and_no_toml_parser(memory_root: Path) -> None:
    """Discovery (the places table, Claude Code's folders, the picker's choices) and the demo
    are for runs without a ROOT: a run given one loads neither; and without a config file
    (the tests have none) the TOML parser is not loaded."""
    modules = imported_by(["rank", "-q", "deploy", str(memory_root)])
    unused = {"memtui.discovery", "memtui.core.places.table", "memtui.demo", "tomllib"}
    assert modules & unused == set()


def test_a_warm_rank_loads_no_parser_and_no_typo_matcher(memory_root: Path) -> None:
    """From the cache no file is parsed, so neither the parser nor YAML (frontmatter) is
    loaded; rapidfuzz only for a query with a word that matches nothing. numpy.ma (~10 ms),
    which numpy loads on the first `np.unique`, the health checks' word lists (`terms`) and
    shutil with its compression modules are not needed either."""
    cached_engine(memory_root).save_cache()
    warm = imported_by(["rank", "-q", "deploy", "--days", "0", str(memory_root)])
    assert "yaml" not in warm and "rapidfuzz" not in warm
    assert "numpy.ma" not in warm
    unused = {
        "memtui.core.reading.parse",
        "memtui.core.reading.frontmatter",
        "memtui.core.search.terms",
        "tempfile",  # a warm start writes no cache
        "shutil",  # nor does argparse need it (`cli.help_width`)
    }
    assert warm & unused == set()
    typo = imported_by(["rank", "-q", "deplyo", "--days", "0", str(memory_root)])
    assert "rapidfuzz" in typo


THREADS_PROBE = """
import gc, json, os, sys
from memtui.cli import main
passes = lambda: sum(generation["collections"] for generation in gc.get_stats())
before = passes()
main(json.loads(sys.argv[1]))
sys.stdout.flush()
threads = len(os.listdir("/proc/self/task"))
print("\\n" + json.dumps([threads, "OPENBLAS_NUM_THREADS" in os.environ, passes() - before]))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
def test_a_rank_starts_no_blas_threads_and_runs_no_collector(memory_root: Path) -> None:
    """numpy's OpenBLAS would start a thread per core that spins at start; memtui does no
    linear algebra, so a command loads numpy with one (`cli.one_blas_thread`), and the
    setting is gone before anything runs, so no program memtui starts inherits it. The cyclic
    collector is off from the command's first line on: not one pass runs."""
    cached_engine(memory_root).save_cache()  # warm: a fork would shut OpenBLAS's pool down
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    argv = ["rank", "-q", "deploy", "--days", "0", str(memory_root)]
    done = subprocess.run(
        [sys.executable, "-c", THREADS_PROBE, json.dumps(argv)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    threads, left_set, collector_passes = json.loads(done.stdout.splitlines()[-1])
    assert threads == 1
    assert not left_set
    assert collector_passes == 0, "the cyclic collector ran (see cli.ENGINE_COMMANDS)"


def test_a_warm_rank_loads_neither_dataclasses_nor_openssl(memory_root: Path) -> None:
    """Python compiles every method a dataclass generates apart (~1.4 ms a class): as
    dataclasses, the 46 record classes a `rank` imports took ~40 ms of its start. They are
    msgspec Structs, made in C, and `Hit` a slotted class, so `dataclasses` is not even loaded.
    blake2b comes from CPython's built-in `_blake2` (`core.digest`): `hashlib` would load
    OpenSSL (~3 ms) for algorithms memtui never uses."""
    cached_engine(memory_root).save_cache()
    warm = imported_by(["rank", "-q", "deploy", "--days", "0", str(memory_root)])
    assert "dataclasses" not in warm
    assert {"hashlib", "_hashlib"} & warm == set()
