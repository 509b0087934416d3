"""Secrets are masked recognisably, counted, and never change line numbers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.core import secrets
from memtui.core.secrets import MASK, mask_secrets

GITHUB = "ghp_" + "A1b2C3d4E5" * 4
FINE_GRAINED = "github_pat_" + "11ABCDEFG0" * 5
OPENAI = "sk-proj-" + "Zx9Yw8Vu7T" * 4
ANTHROPIC = "sk-ant-api03-" + "q1W2e3R4t5" * 5
AWS_ID = "AKIAIOSFODNN7EXAMPLE"
AWS_TEMPORARY_ID = "ASIAY34FZKBOKMUTVV7A"
"""An STS session's key id: `ASIA`, where a long-lived key has `AKIA`."""
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
SLACK = "xoxb-1234567890-0987654321-AbCdEfGhIj"
GOOGLE = "AIza" + "SyD-1234567890abcdefghijklmnopqrstu"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH\n"
    "lWu2/a1gB9JW5TBQ+AVpum9Okx7KfqkfBKL9mcHgSL0yWMdjMfNOqNtrQqKlN4kE\n"
    "-----END RSA PRIVATE KEY-----"
)


@pytest.mark.parametrize(
    ("text", "secret", "shown"),
    [
        (f"token for CI: {GITHUB}", GITHUB, "ghp_A1" + MASK),
        (f"fine-grained {FINE_GRAINED} here", FINE_GRAINED, "github" + MASK),
        (f"OPENAI key is {OPENAI}.", OPENAI, "sk-pro" + MASK),
        (f"claude {ANTHROPIC}", ANTHROPIC, "sk-ant" + MASK),
        (f"aws id {AWS_ID}", AWS_ID, "AKIAIO" + MASK),
        (f"sts session {AWS_TEMPORARY_ID}", AWS_TEMPORARY_ID, "ASIAY3" + MASK),
        (f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET, "aws_secret_access_key = wJ" + MASK),
        (f"slack {SLACK}", SLACK, "xoxb-1" + MASK),
        (f"maps {GOOGLE}", GOOGLE, "AIzaSy" + MASK),
        (f"stripe {STRIPE}", STRIPE, "sk_liv" + MASK),
        (f"session {JWT}", JWT, "eyJhbG" + MASK),
        ("Authorization: Bearer abcdef0123456789XYZ", "abcdef0123456789XYZ", "Bearer ab" + MASK),
        ("db password = hunter22", "hunter22", "password = " + MASK),
        ("pw=hunter2secretpw", "hunter2secretpw", "pw=hu" + MASK),
        ("DB_PW: s3cr3t!", "s3cr3t!", "DB_PW: " + MASK),
        ('{"api_key": "0123456789abcdef"}', "0123456789abcdef", '"api_key": "01' + MASK),
        ("API-KEY: s3cr3tvalue", "s3cr3tvalue", "API-KEY: " + MASK),
        ("refresh_token=abc123def456ghi", "abc123def456ghi", "refresh_token=ab" + MASK),
        ("clone https://bob:pa55w0rd@git.example.com/x", "pa55w0rd", "https://bob:" + MASK + "@"),
    ],
)
def test_secret_shapes_are_masked_recognisably(text: str, secret: str, shown: str) -> None:
    masked, count = mask_secrets(text)
    assert secret not in masked
    assert shown in masked
    assert count == 1


@pytest.mark.parametrize("code", ["\x1b[31m", "\u241b[1;33m"])  # raw, and as `visible` shows it
@pytest.mark.parametrize(
    ("secret", "shown"),
    [
        (GITHUB, "ghp_A1" + MASK),
        (OPENAI, "sk-pro" + MASK),
        (AWS_ID, "AKIAIO" + MASK),
        (JWT, "eyJhbG" + MASK),
        ("hunter2hunter2", "hu" + MASK),  # after `password = `
    ],
)
def test_a_secret_behind_a_colour_code_is_masked_and_the_codes_kept(
    code: str, secret: str, shown: str
) -> None:
    """Pasted terminal output: the token was glued to the code's last letter and left whole."""
    reset = code[0] + "[0m"
    text = f"password = {code}{secret}{reset} (pasted)"
    masked, count = mask_secrets(text)
    assert secret not in masked and count == 1
    assert masked == f"password = {code}{shown}{reset} (pasted)"


def test_private_key_block_keeps_its_lines() -> None:
    text = f"before\n{PEM}\nafter\n"
    masked, count = mask_secrets(text)
    assert count == 1
    assert masked.count("\n") == text.count("\n")
    assert "MIIEpAIBAAKCAQEA" not in masked
    assert "-----BEGIN RSA PRIVATE KEY-----" in masked
    assert "-----END RSA PRIVATE KEY-----" in masked
    assert masked.splitlines()[0] == "before" and masked.splitlines()[-1] == "after"


def test_truncated_private_key_is_masked() -> None:
    text = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nabc def"
    masked, count = mask_secrets(text)
    assert count == 1
    assert "MIIEvQIBADAN" not in masked
    assert masked.count("\n") == 2


def test_several_secrets_are_counted() -> None:
    masked, count = mask_secrets(f"{GITHUB}\n{SLACK}\npassword: letmein1\n")
    assert count == 3
    assert masked.count("\n") == 3


@pytest.mark.parametrize(
    "text",
    [
        "max_tokens = 4096",
        "the token budget: tight",
        "- Postmark (email) server token: rotate every 180 days.",
        "Password: Reset it through the admin page",
        "author: Jane Doe",
        "skip-this-step",
        "npw=12",
        "cpw = on",
        "The bearer of bad news",
        "see https://example.com/a:b/c",
        "ghp_short",
        "sk-short",
        "## Deploy checklist\n- run `make deploy`\n",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert mask_secrets(text) == (text, 0)


SECRETISH = st.sampled_from(
    [
        GITHUB,
        FINE_GRAINED,
        OPENAI,
        ANTHROPIC,
        AWS_ID,
        AWS_TEMPORARY_ID,
        SLACK,
        GOOGLE,
        STRIPE,
        "rk_test_" + STRIPE.removeprefix("sk_live_"),
        JWT,
        PEM,
        "password: hunter2",
        "Bearer abcdefghijklmnop1234",
        "https://u:p4ss@h",
        "token=",
        "-----BEGIN PRIVATE KEY-----",
        "\r\n",
        "\n",
        "\r",
        " ",
        ":",
        "=",
        '"',
        "@",
        "\x1b[31m",
        "\u241b[0m",
    ]
)
TEXTISH = st.lists(st.one_of(SECRETISH, st.text(max_size=30)), max_size=12).map("".join)


@settings(max_examples=200, deadline=None)
@given(TEXTISH)
def test_masking_never_changes_the_line_count_and_is_idempotent(text: str) -> None:
    masked, _ = mask_secrets(text)
    assert masked.count("\n") == text.count("\n")
    assert masked.count("\r") <= text.count("\r")
    assert mask_secrets(masked) == (masked, 0)


@settings(max_examples=300, deadline=None)
@given(TEXTISH)
def test_the_quick_first_looks_never_hide_a_secret(text: str) -> None:
    """Text with none of what a secret needs is left alone after one search, and a pattern
    runs only on text holding its rare character and its literal: masking with those checks
    and without them (every pattern on every text) gives the same result."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secrets, "_may_hold_secret", lambda text: True)
        every = [(kind, "", "", token) for kind, _, _, token in secrets._TOKENS]
        patch.setattr(secrets, "_TOKENS", every)
        patch.setattr(secrets, "_BEARER_NEEDS", "")
        patch.setattr(secrets, "_URL_NEEDS", "")
        patch.setattr(secrets, "_URL_RARE", "")
        without = mask_secrets(text)
    assert mask_secrets(text) == without


PLAIN_WORDS = st.lists(
    st.sampled_from(
        [
            "memory",
            "deploy",
            "the",
            "agent",
            "notes",
            "token",
            "key",
            "secret",
            "password",
            "Bearer",
            "2026-11-20",
            "##",
            "-",
            "\n",
            ".",
            ",",
            "(x)",
            "API",
            "sk",
            "AKIA",
        ]
    ),
    max_size=30,
).map(" ".join)


@settings(max_examples=100, deadline=None)
@given(PLAIN_WORDS)
def test_text_without_secrets_is_unchanged(text: str) -> None:
    assert mask_secrets(text) == (text, 0)


@pytest.mark.parametrize(
    ("rare", "needed"),
    [(rare, needed) for _, rare, needed, _ in secrets._TOKENS]
    + [(secrets._URL_RARE, secrets._URL_NEEDS)],
)
def test_a_rare_character_looked_for_first_is_one_of_its_literal(rare: str, needed: str) -> None:
    """What makes looking for it first safe: a text without it cannot hold the literal."""
    assert len(rare) == 1 and rare in needed
