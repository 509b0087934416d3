"""`memtui rank` end to end (in process): human output, --json, --explain, empty and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtui.cli import main

TODAY = "2026-11-21"


def rank(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["rank", *args, "--today", TODAY])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def rank_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = rank(capsys, *args, "--json")
    return code, json.loads(out)


def test_human_output(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = rank(capsys, "-q", "deploy", str(memory_root), "--days", "0", "-n", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("  1. ")
    assert "memory/" in out or "MEMORY.md:" in out
    assert "«" in out and "»" in out
    assert out.rstrip().splitlines()[-1].startswith("Found ")
    assert "(showing 2)" in out


def test_explain_lines(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = rank(capsys, "-q", "deploy", str(memory_root), "-n", "2", "--explain")
    assert code == 0
    assert "relevance 1.000 × 0.70 = 0.700" in out
    for name in ("source", "recency", "position"):
        assert f"\n       {name}" in out
    assert "term 'deploy': weight" in out
    assert "base " in out and "score " in out
    assert "vs #1: " in out


def test_json_output(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = rank_json(capsys, "-q", "deploy", str(memory_root), "--days", "0")
    assert code == 0
    assert payload["query"] == "deploy"
    assert payload["total_matches"] >= len(payload["results"])
    assert isinstance(payload["elapsed_ms"], float)
    first = payload["results"][0]
    assert set(first) == {
        "rank",
        "score",
        "root",
        "root_label",
        "path",
        "line_start",
        "line_end",
        "title",
        "date",
        "source",
        "excerpt",
        "matches",
    }
    assert first["root"] == str(memory_root) and first["root_label"] == "root"
    assert first["rank"] == 1
    assert not Path(first["path"]).is_absolute()
    assert first["date"] is None or first["date"][:4].isdigit()
    scores = [result["score"] for result in payload["results"]]
    assert scores == sorted(scores, reverse=True)


def test_json_explain(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = rank_json(capsys, "-q", "deploy", str(memory_root), "--explain", "-n", "1")
    assert code == 0
    explanation = payload["results"][0]["explanation"]
    assert [f["name"] for f in explanation["factors"]] == [
        "relevance",
        "source",
        "recency",
        "position",
    ]
    assert explanation["score"] == pytest.approx(payload["results"][0]["score"], abs=1e-6)
    assert explanation["terms"][0]["matches"][0]["kind"] in {"exact", "prefix"}


def test_all_results_with_n_zero(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = rank_json(capsys, "-q", "deploy", str(memory_root), "-n", "0")
    assert code == 0
    assert len(payload["results"]) == payload["total_matches"]


def test_no_results_explains(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = rank(capsys, "-q", "zzqqxx", str(memory_root), "--days", "3")
    assert code == 1
    assert "No results" in out
    assert "zzqqxx" in out
    assert "older than 3 days (try --days 0)" in out
    assert "Try fewer or broader terms" in out


@pytest.mark.parametrize(
    ("query", "echoed"),
    [
        ("zq\\zzqqxx", "'zq\\zzqqxx'"),
        ("zq's zzqqxx", "'zq's zzqqxx'"),
        ("\x1b[2J zzqqxx", "'\u241b[2J zzqqxx'"),
    ],
)
def test_the_query_is_echoed_as_typed(
    memory_root: Path, capsys: pytest.CaptureFixture[str], query: str, echoed: str
) -> None:
    """One backslash stays one (repr doubled it), and a control character is made visible."""
    code, out, _ = rank(capsys, "-q", query, str(memory_root))
    assert code == 1
    assert f"No results for {echoed}." in out


def test_did_you_mean(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = rank(capsys, "-q", "chxcxlxst", str(memory_root))
    assert code == 1
    assert "Did you mean: checklist?" in out


def test_partly_unmatched_query_says_so(
    memory_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = rank(capsys, "-q", "deploy chxcxlxst", str(memory_root))
    assert code == 0
    assert "No entry contains: chxcxlxst (did you mean: checklist?)" in out


def test_a_query_of_filters_only_says_it_lists_newest_first(
    memory_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = rank(capsys, "-q", "source:daily", str(memory_root), "--days", "0")
    assert code == 0 and "note: no words to rank by" in out
    assert out.startswith("  1.     —  ")  # no score column that seems to climb
    code, payload = rank_json(capsys, "-q", "source:daily", str(memory_root), "--days", "0")
    assert code == 0 and any("newest first" in note for note in payload["notes"])
    dates = [hit["date"] for hit in payload["results"]]
    assert dates == sorted(dates, reverse=True)


def test_no_results_json(memory_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = rank_json(capsys, "-q", "zzqqxx", str(memory_root))
    assert code == 1
    assert payload["results"] == [] and payload["unmatched_terms"] == ["zzqqxx"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("", "empty query"),
        ("   ", "empty query"),
        ("x" * 10_000, "limit is"),
        ("deploy after:2026-13-40", "expected a date"),
        ("before:soon", "expected a date"),
        ("?", "nothing to search for in '?'"),
        ("🙂 …", "nothing to search for"),
        ('"', "nothing to search for"),
        ("after: tag:", "nothing to search for"),
    ],
)
def test_bad_input_exits_2(
    memory_root: Path, capsys: pytest.CaptureFixture[str], query: str, message: str
) -> None:
    code, out, err = rank(capsys, "-q", query, str(memory_root))
    assert code == 2
    assert out == ""
    assert message in err


def test_missing_root_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = rank(capsys, "-q", "deploy", str(tmp_path / "absent"))
    assert code == 2 and "no such folder" in err


def test_hostile_text_is_made_visible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "MEMORY.md").write_text(
        "# M\n\n## Deploy \x1b]52;c;aGk=\x07 title\n\ndeploy \x1b[31mred\u202e token\n"
        "api_key = sk-abcdefghijklmnopqrstuvwxyz123456\n"
    )
    code, out, _ = rank(capsys, "-q", "deploy", str(root), "--explain")
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "sk-abcdefghijklmnopqrstuvwxyz123456" not in out
    code, out, _ = rank(capsys, "-q", "deploy", str(root), "--reveal-secrets")
    assert "sk-abcdefghijklmnopqrstuvwxyz123456" in out
