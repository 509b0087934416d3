"""`memtui list` and `memtui rank` over the hostile corpus: right exit codes, every skip
explained, and not one raw escape, C1, DEL or bidi character in what they print."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memtui.bench import hostile

TODAY = "2026-11-21"
RAW_UNSAFE = [b"\x1b", b"\x7f", "\u202e".encode(), *(chr(c).encode() for c in range(0x80, 0xA0))]
"""Bytes that must never reach a terminal from file content (C1 as their UTF-8 encoding)."""


@pytest.fixture(scope="module")
def corpus(hostile_corpus: hostile.HostileFactory) -> hostile.HostileCorpus:
    return hostile_corpus(200)


def run_memtui(*args: str, home: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args],
        capture_output=True,
        timeout=120,
        env=env,
        check=False,
    )


def assert_no_raw_payload(output: bytes) -> None:
    found = [unsafe for unsafe in RAW_UNSAFE if unsafe in output]
    assert found == [], f"raw unsafe bytes in output: {found}"
    for name, signature in hostile.TERMINAL_SIGNATURES.items():
        assert signature not in output, name


def test_list_json(corpus: hostile.HostileCorpus, tmp_path: Path) -> None:
    result = run_memtui(
        "list", str(corpus.root), "--json", "--days", "0", "--today", TODAY, home=tmp_path
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    assert b"\x1b" not in result.stdout  # JSON escapes C0 controls itself
    assert_no_raw_payload(result.stderr)
    listing = json.loads(result.stdout)
    assert len(listing["entries"]) > 200
    reasons = {item["path"]: item["reason"] for item in listing["skipped"]}
    assert all(reason.strip() for reason in reasons.values())
    for path, word in corpus.expected_skips.items():
        assert path in reasons, path
        assert word.lower() in reasons[path].lower()
    dumped = json.dumps(listing, ensure_ascii=False)
    assert hostile.OUTSIDE_MARKER not in dumped


@pytest.mark.parametrize("command", ["list", "rank"])
def test_json_output_has_no_raw_unsafe_bytes(
    corpus: hostile.HostileCorpus, tmp_path: Path, command: str
) -> None:
    query = ["-q", "name", "-n", "0"] if command == "rank" else []
    result = run_memtui(
        command,
        *query,
        str(corpus.root),
        "--json",
        "--days",
        "0",
        "--today",
        TODAY,
        home=tmp_path,
    )
    assert result.returncode == 0
    assert_no_raw_payload(result.stdout)


def test_list_human(corpus: hostile.HostileCorpus, tmp_path: Path) -> None:
    result = run_memtui("list", str(corpus.root), "--days", "0", "--today", TODAY, home=tmp_path)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    assert_no_raw_payload(result.stdout)
    assert_no_raw_payload(result.stderr)
    assert "␛]52;c;".encode() in result.stdout


@pytest.mark.parametrize("query", ["hostile", "click", "name"])
@pytest.mark.parametrize("as_json", [False, True], ids=["human", "json"])
def test_rank(corpus: hostile.HostileCorpus, tmp_path: Path, query: str, as_json: bool) -> None:
    args = ["rank", "-q", query, str(corpus.root), "--days", "0", "--today", TODAY, "-n", "50"]
    args += ["--json", "--explain"] if as_json else ["--explain"]
    result = run_memtui(*args, home=tmp_path)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    assert_no_raw_payload(result.stderr)
    if not as_json:
        assert_no_raw_payload(result.stdout)
    else:
        assert b"\x1b" not in result.stdout
        ranked = json.loads(result.stdout)
        assert ranked["results"]
        for hit in ranked["results"]:
            assert not Path(hit["path"]).is_absolute()


def test_rank_with_payload_query(corpus: hostile.HostileCorpus, tmp_path: Path) -> None:
    query = hostile.ESCAPE_PAYLOADS["osc0_title"]
    result = run_memtui(
        "rank", "-q", query, str(corpus.root), "--days", "0", "--today", TODAY, home=tmp_path
    )
    assert result.returncode in (0, 1), result.stderr.decode(errors="replace")
    assert_no_raw_payload(result.stdout)
    assert_no_raw_payload(result.stderr)


def test_rank_without_results_exits_1(corpus: hostile.HostileCorpus, tmp_path: Path) -> None:
    result = run_memtui(
        "rank", "-q", "zzqxjv", str(corpus.root), "--days", "0", "--today", TODAY, home=tmp_path
    )
    assert result.returncode == 1
    assert_no_raw_payload(result.stdout + result.stderr)
