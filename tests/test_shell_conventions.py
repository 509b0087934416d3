"""The headless commands keep the shell's conventions: citations a `file:line` tool reads,
linter exit codes for `health`, `rank QUERY`, a `--help` that lists every command, counts in
English, plain JSON excerpts with their matches as numbers, and `--explain` signs that agree
with the why pane."""

from __future__ import annotations

import datetime as dt
import io
import itertools
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from cache_helpers import cached_engine

from memtui.cli import SUBCOMMANDS, help_width, main
from memtui.commands.output import excerpt, explanation_lines
from memtui.commands.pick import write_hand_off
from memtui.core import cite
from memtui.core.cache.folder import CacheFolder
from memtui.core.live.engine import Engine
from memtui.core.plural import plural
from memtui.core.settings.config import Config
from memtui.ui import render
from memtui.ui.handoff import HandOff, resolve

TODAY = "2026-11-21"
CITATION = re.compile(r"(\S+\.md):(\S+)")
ONE_FACT = "# Memory\n\n## Deploy\n\nDeploy after the canary is green.\n"


def run(capsys: pytest.CaptureFixture[str], command: str, *argv: str) -> tuple[int, str, str]:
    code = main([command, "--today", TODAY, *argv])  # options first: argv may hold `--`
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def folder(tmp_path: Path, text: str = ONE_FACT, name: str = "MEMORY.md") -> Path:
    root = tmp_path / "memory"
    root.mkdir(exist_ok=True)
    (root / name).write_text(text, encoding="utf-8")
    return root


# --- citations -------------------------------------------------------------------------------


def test_rank_cites_path_colon_lines_with_a_hyphen(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rank", "deploy", "--demo", "-n", "5")
    lines = [found.group(2) for found in CITATION.finditer(out)]
    assert lines and all(re.fullmatch(r"\d+(-\d+)?", line) for line in lines), lines
    assert any("-" in line for line in lines)  # a range, not only single lines


# --- health exit codes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (ONE_FACT, 0),
        (ONE_FACT + "\n## Keys\n\nStripe key sk-live-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3\n", 1),
    ],
    ids=["healthy", "findings"],
)
def test_health_exits_like_a_linter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: int
) -> None:
    code, out, _ = run(capsys, "health", str(folder(tmp_path, text)))
    assert code == expected, out


def test_health_usage_errors_exit_2_and_help_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "health", str(tmp_path / "absent"))[0] == 2
    with pytest.raises(SystemExit) as shown:
        main(["health", "--help"])
    assert shown.value.code == 0
    epilog = " ".join(capsys.readouterr().out.split())
    assert "0 healthy (no findings), 1 findings listed, 2 usage" in epilog


# --- rank QUERY [ROOT…] ----------------------------------------------------------------------


def ranked(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code, out, err = run(capsys, "rank", "--json", "-n", "0", *argv)
    results = json.loads(out)["results"] if out else []
    return code, [f"{hit['path']}:{hit['line_start']}" for hit in results], err


@pytest.mark.parametrize(
    "argv",
    [
        ("deploy", "ROOT"),
        ("-q", "deploy", "ROOT"),
        ("ROOT", "-q", "deploy"),
        ("--query", "deploy", "ROOT"),
        ("deploy", "--days", "0", "ROOT"),
    ],
)
def test_rank_takes_the_query_as_its_first_positional_or_after_q(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    root = str(folder(tmp_path))
    code, hits, _ = ranked(capsys, *(root if part == "ROOT" else part for part in argv))
    assert (code, hits) == (0, ["MEMORY.md:3"])


@pytest.mark.parametrize("argv", [("--", "-canary", "ROOT"), ("--query=-canary", "ROOT")])
def test_a_query_that_starts_with_a_dash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    root = str(folder(tmp_path, "## Deploy\n\nship it\n\n## Canary\n\ncanary first\n"))
    code, hits, _ = ranked(capsys, *(root if part == "ROOT" else part for part in argv))
    assert (code, hits) == (0, ["MEMORY.md:1"])


def test_rank_with_the_demo_and_no_q(capsys: pytest.CaptureFixture[str]) -> None:
    code, hits, _ = ranked(capsys, "deploy", "--demo")
    assert code == 0 and hits == ranked(capsys, "-q", "deploy", "--demo")[1]


def test_rank_without_a_query_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rank", "--demo")
    assert (code, out) == (2, "") and "memtui rank QUERY" in err


def test_a_folder_given_as_the_only_positional_is_the_query_and_stderr_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = folder(tmp_path)
    (tmp_path / "notes").mkdir()
    monkeypatch.chdir(tmp_path)
    code, _, err = ranked(capsys, "notes", str(root))
    assert code == 1  # no entry says "notes"
    assert "searching for 'notes'" in err and "memtui rank QUERY notes" in err


# --- --help ----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_lists_every_command_and_each_has_its_own(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    for argv in (["--help"], [command, "--help"]):
        with pytest.raises(SystemExit) as shown:
            main(argv)
        assert shown.value.code == 0
        out = capsys.readouterr().out
        assert f"memtui {command}" in out


@pytest.mark.parametrize("columns", [None, "57", "0", "wide"])
def test_help_wraps_where_argparse_would(
    monkeypatch: pytest.MonkeyPatch, columns: str | None
) -> None:
    """`help_width` spares every command shutil's import, and agrees with what argparse takes."""
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert help_width() == shutil.get_terminal_size().columns - 2


# --- --explain agrees with the why pane ------------------------------------------------------


def signed_differences(text: str) -> list[tuple[str, str]]:
    return re.findall(r"(relevance|source|recency|position|multipliers) ([+-]\d\.\d{3})", text)


def test_explain_and_the_why_pane_give_the_same_signs(memory_root: Path) -> None:
    engine = Engine(memory_root, Config(), today=dt.date(2026, 11, 21), days=0)
    engine.load()
    hits = engine.search("deploy", limit=6).hits
    compared = 0
    for previous, hit in itertools.pairwise(hits):
        pane = render.gap_row(hit, previous)
        assert pane is not None
        pane_text = pane.plain.replace("−", "-")
        cli = next(line for line in explanation_lines(hit.explanation, hit.rank) if "vs #" in line)
        assert cli.startswith(f"vs #{previous.rank}: ")
        pane_pairs = signed_differences(pane_text)
        assert pane_pairs == signed_differences(cli)[: len(pane_pairs)]
        compared += len(pane_pairs)
    assert compared > 3


# --- counts ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "nouns", "shown"),
    [
        (0, ("entry", "entries"), "0 entries"),
        (1, ("entry", "entries"), "1 entry"),
        (2, ("entry", "entries"), "2 entries"),
        (1, ("file",), "1 file"),
        (1_024, ("file",), "1,024 files"),
        (1, ("day",), "1 day"),
    ],
)
def test_plural(number: int, nouns: tuple[str, ...], shown: str) -> None:
    assert plural(number, *nouns) == shown


@pytest.mark.parametrize(
    "argv",
    [("list", "--days", "1"), ("health", "--days", "1"), ("rank", "zzqxjv", "--days", "1")],
    ids=["list", "health", "rank"],
)
def test_one_of_anything_is_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    root = folder(tmp_path)
    (root / "2020-01-01.md").write_text("## Old\n\nold note\n", encoding="utf-8")
    _, out, _ = run(capsys, *argv, str(root))
    assert not re.search(r"\b1 (entries|files|days|roots|groups|paths)\b", out), out
    assert re.search(r"\b1 (entry|file|day|daily entry)\b", out), out


def test_the_cache_listing_is_singular_for_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = folder(tmp_path)
    cached_engine(root).save_cache()
    main(["cache"])
    out = capsys.readouterr().out
    assert "1 root" in out and "(1 entry, all dates)" in out and "1 entries" not in out


# --- JSON excerpts ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("Deploy after the canary; deploys stop on Friday.", {"deploy", "deploys"}),
        ("Tabs\tand \x1b[31mescapes\x1b[0m before the deploy word.", {"deploy"}),
        ("word " * 80 + "the deploy is far in " + "word " * 80, {"deploy"}),
    ],
    ids=["two", "control characters", "far in"],
)
def test_excerpt_matches_are_offsets_into_the_plain_text(body: str, words: set[str]) -> None:
    shown = excerpt(body, words)
    assert "«" not in shown.text and shown.matches
    assert all(shown.text[start:end].lower() in words for start, end in shown.matches)
    assert shown.marked().count("«") == len(shown.matches)


def test_rank_json_excerpts_carry_no_markers(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rank", "deploy", "--demo", "--json", "-n", "0")
    results: list[dict[str, Any]] = json.loads(out)["results"]
    assert results
    for result in results:
        assert "«" not in result["excerpt"] and "»" not in result["excerpt"]
        for start, end in result["matches"]:
            assert result["excerpt"][start:end].lower().startswith("deploy")


# --- pick --format json ----------------------------------------------------------------------


def test_pick_json_includes_the_entry_text_as_md_quotes_it(tmp_path: Path) -> None:
    secret = "sk-live-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3"
    root = folder(tmp_path, ONE_FACT + f"\n## Keys\n\nDeploy key {secret}\n")
    engine = Engine(root, Config(), today=dt.date(2026, 11, 21), days=0)
    engine.load()
    picked, _ = resolve(engine, None, engine.search("deploy").hits)
    handed = HandOff(engine, "deploy", tuple(picked), revealed=False)
    shown: dict[str, io.StringIO] = {form: io.StringIO() for form in ("json", "md")}
    for form, stream in shown.items():
        write_hand_off(handed, form, stream)
    texts = [item["text"] for item in json.loads(shown["json"].getvalue())["results"]]
    assert {text.split("\n")[0] for text in texts} == {"## Deploy", "## Keys"}
    assert all(text.strip() for text in texts) and not any(secret in text for text in texts)
    quoted = shown["md"].getvalue()
    for text in texts:
        assert cite.block_quote(text) in quoted


def test_pick_quotes_each_heading_at_the_level_it_was_written(tmp_path: Path) -> None:
    """QA: `### deep lvlword` was quoted as `# deep lvlword` (the level came from the
    heading's depth in the file's outline), through the cache as well as from the file."""
    root = tmp_path / "root"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "c.md").write_text("### deep lvlword\nbody\n\n# top lvlword\nmore\n")
    for start in ("cold", "warm"):
        engine = Engine(
            root,
            Config(),
            today=dt.date(2026, 11, 21),
            days=0,
            cache=CacheFolder(tmp_path / "cache"),
        )
        engine.load()
        assert engine.cache_stale is (start == "cold")  # warm: every entry from the cache
        picked, _ = resolve(engine, None, engine.search("lvlword").hits)
        shown = io.StringIO()
        write_hand_off(HandOff(engine, "lvlword", tuple(picked), revealed=False), "md", shown)
        assert "> ### deep lvlword\n" in shown.getvalue()
        assert "> # top lvlword\n" in shown.getvalue()
        engine.build_index()
        engine.save_cache()


def test_rank_says_when_discovery_found_more_memory_than_it_searched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """From a repository with its own memory, `rank` searches that one; an agent whose own
    memory lives elsewhere (`~/.openclaw/workspace`) is told, not left to guess."""
    home = Path(os.environ["HOME"])
    (home / ".openclaw" / "workspace").mkdir(parents=True)
    (home / ".openclaw" / "workspace" / "MEMORY.md").write_text(ONE_FACT)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "MEMORY.md").write_text(ONE_FACT)
    monkeypatch.chdir(project)
    code, _, err = run(capsys, "rank", "deploy")
    assert code == 0
    assert f"memtui: using {project} (MEMORY.md); 1 more memory folder found" in err
    code, _, err = run(capsys, "rank", "deploy", "--all")
    assert code == 0 and "more memory folder" not in err


def test_the_note_names_each_root_and_counts_only_what_all_would_add(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA: the note named one folder twice ("using …/p + … + …/p": the workspace and the
    CLAUDE.md set beside it), and counted other projects' Claude Code memory, which `--all`
    does not open ("9 found … --all searches them all", and --all opened 7)."""
    home = Path(os.environ["HOME"])
    (home / ".openclaw" / "workspace").mkdir(parents=True)
    (home / ".openclaw" / "workspace" / "MEMORY.md").write_text(ONE_FACT)
    other = home / ".claude" / "projects" / "-somewhere-else" / "memory"
    other.mkdir(parents=True)
    (other / "MEMORY.md").write_text(ONE_FACT)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "MEMORY.md").write_text(ONE_FACT)
    (project / "CLAUDE.md").write_text(ONE_FACT)
    monkeypatch.chdir(project)
    code, _, err = run(capsys, "rank", "deploy")
    assert code == 0
    assert (
        f"memtui: using {project} (MEMORY.md) + {project} (CLAUDE.md); "
        "1 more memory folder found (see `memtui roots`; --all searches them all)"
    ) in err
