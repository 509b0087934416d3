"""A word that only a masked secret holds is never printed whole: not as a matched token in an
explanation (`rank --explain`, `--json`, the why pane), not as a did-you-mean word."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from memtui.cli import main
from memtui.core.live.engine import Engine
from memtui.core.search.masked_words import mask_matches, masked_words
from memtui.core.secrets import MASK
from memtui.core.settings.config import Config

PASSWORD = "hunter2hunter2"
TOKEN_TAIL = "abcdefghijklmnopqrstuvwxyz0123456789"
GITHUB = "ghp_" + TOKEN_TAIL
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEpAIBAAKCAQEA1c7z9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH\n"
    "-----END RSA PRIVATE KEY-----"
)
MEMORY = (
    "# Memory\n\n"
    f"## Database\n\nThe staging password = {PASSWORD} and it rotates monthly.\n\n"
    f"## Deploy\n\nDeploy with the GitHub token {GITHUB} from CI.\n"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"password = {PASSWORD} rotates", {PASSWORD: "hu" + MASK}),
        (f"password = {PASSWORD}; {PASSWORD} is also the wifi", {}),
        ("password = swordfish", {"swordfish": MASK}),
        (f"token {GITHUB}", {TOKEN_TAIL: "ab" + MASK}),
        ("nothing secret here: just words", {}),
        (PEM, {"miiepaibaakcaqea1c7z9z5pad7oejecsq0bu3aozn3tihpmljnnudb9g3hecdnh": MASK}),
        # a colour code before the value: the index's word is the value's, not `31m…`, and
        # the mask keeps the codes around it
        (f"password = \u241b[31m{PASSWORD}\u241b[0m\nok", {PASSWORD: "hu" + MASK}),
    ],
    ids=[
        "value",
        "also-outside",
        "short-value",
        "token-prefix",
        "no-secret",
        "private-key",
        "behind-an-escape",
    ],
)
def test_masked_words_are_those_only_secrets_hold(text: str, expected: dict[str, str]) -> None:
    assert masked_words(text) == expected


def test_a_word_also_outside_the_secret_any_case_is_not_masked() -> None:
    assert masked_words(f"password = {PASSWORD}\nThe old one was HUNTER2HUNTER2.") == {}


def test_the_readable_prefix_of_a_token_stays_readable() -> None:
    hidden = masked_words(f"token {GITHUB}")
    assert "ghp" not in hidden  # `ghp_ab…••••` shows it


def engine(root: Path) -> Engine:
    loaded = Engine(root, Config(), today=dt.date(2026, 11, 21), days=0)
    loaded.load()
    return loaded


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "MEMORY.md").write_text(MEMORY)
    return root


def test_mask_matches_changes_tokens_and_nothing_else(memory: Path) -> None:
    hit = engine(memory).search("hunt").hits[0]
    masked = mask_matches(hit.explanation, masked_words(PASSWORD + " password = " + PASSWORD))
    assert masked is hit.explanation  # the word shows outside the secret: left alone
    masked = mask_matches(hit.explanation, {PASSWORD: "hu" + MASK})
    assert [m.token for t in masked.terms for m in t.matches] == ["hu" + MASK]
    assert masked.score == hit.explanation.score and masked.factors == hit.explanation.factors
    assert [t.score for t in masked.terms] == [t.score for t in hit.explanation.terms]


def test_did_you_mean_never_suggests_a_secret(memory: Path) -> None:
    loaded = engine(memory)
    assert loaded.search("hxnter2hxntex9").suggestions == ()
    assert loaded.search("rxtatxs").suggestions == ("rotates",)  # an ordinary word still is


def rank(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["rank", *args, "--today", "2026-11-21", "--no-cache"])
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("query", "secret", "shown"),
    [("hunt", PASSWORD, "hu" + MASK), (GITHUB[:-1] + "8", TOKEN_TAIL, "ab" + MASK)],
    ids=["prefix", "typo"],
)
def test_rank_explain_prints_matched_secrets_masked(
    memory: Path, capsys: pytest.CaptureFixture[str], query: str, secret: str, shown: str
) -> None:
    out = rank(capsys, "-q", query, str(memory), "--explain")
    assert secret not in out and f"← {shown} (" in out
    payload = json.loads(rank(capsys, "-q", query, str(memory), "--explain", "--json"))
    assert secret not in json.dumps(payload)
    terms = payload["results"][0]["explanation"]["terms"]
    assert shown in [match["token"] for term in terms for match in term["matches"]]
    assert secret in rank(capsys, "-q", query, str(memory), "--explain", "--reveal-secrets")


def test_rank_suggests_no_secret(memory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = rank(capsys, "-q", "monthly hxnter2hxntex9", str(memory))
    assert "No entry contains: hxnter2hxntex9" in out
    assert PASSWORD not in out and "did you mean" not in out
