"""Mask secrets in memory text before it is shown: API keys, tokens, private keys, passwords.

Agents paste whatever they saw into memory, so real memory files hold live credentials. The UI
and CLI show text through `mask_secrets()` by default (the user can reveal on request). A masked
secret keeps a short prefix so the user can still recognise it (`ghp_ab…••••`), has a fixed
length so it leaks nothing about the original, and never adds or removes a line (a private-key
block keeps its newlines), so line numbers stay right. It runs on every keystroke, so each
pattern starts with a cheap literal or is checked only where a `:`/`=` already matched
(about 0.07 ms per 2 KB excerpt and 30 ms per MB on this machine).
"""

from __future__ import annotations

import re

from memtui.core.search.tokenize import without_escapes

MASK = "…••••"

_PEM = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"
    r"(?:[\s\S]{0,16384}?\n-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|(?:\r?\n[A-Za-z0-9+/=:, -]+)*)"
)
"""A private-key block; a truncated one (no END line) runs to its last base64-looking line."""

_TOKENS: tuple[tuple[str, str, str, re.Pattern[str]], ...] = tuple(
    (kind, rare, needed, re.compile(pattern))
    for kind, rare, needed, pattern in (
        ("GitHub token", "_", "_", r"gh[pousr]_[A-Za-z0-9]{30,}"),
        ("GitHub token", "_", "github_pat_", r"github_pat_[A-Za-z0-9_]{40,}"),
        ("OpenAI/Anthropic key", "-", "sk-", r"sk-[A-Za-z0-9_-]{20,}"),
        ("Stripe key", "_", "sk_", r"sk_(?:live|test)_[A-Za-z0-9]{16,}"),
        ("Stripe key", "_", "rk_", r"rk_(?:live|test)_[A-Za-z0-9]{16,}"),
        ("AWS access key", "K", "AKIA", r"AKIA[A-Z0-9]{16}(?![A-Z0-9])"),
        ("AWS access key", "I", "ASIA", r"ASIA[A-Z0-9]{16}(?![A-Z0-9])"),
        ("Slack token", "x", "xox", r"xox[baprs]-[A-Za-z0-9-]{10,}"),
        ("Google API key", "I", "AIza", r"AIza[0-9A-Za-z_-]{35}"),
        ("JWT", "J", "eyJ", r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    )
)
"""Tokens with a recognisable shape, each with the kind of secret it is, a literal every
match holds (for `gh..._`, its underscore: "gh" is in half the English words around) and a
character of that literal prose seldom holds.

One pattern per family, each starting with its literal: the regex engine then skips ahead with
a fast substring search instead of trying every alternative at every position (7× faster). A
text without the literal is not searched at all: `in` finds it faster than a regex search is set
up, and `memtui health` scans every body. A text without the rare character is not even
searched for the literal: one character is found ~6× faster than three (`memchr`), and a
literal search was the whole cost of most texts (13 of them, 0.4 s of `memtui health` at
50,000 entries)."""

PRIVATE_KEY = "private key"
BEARER_TOKEN = "bearer token"
URL_PASSWORD = "password in a URL"
ASSIGNED_SECRET = "password/secret/token value"
_TOKEN_KINDS = frozenset(kind for kind, _, _, _ in _TOKENS)

_BEARER = re.compile(r"earer(?<=[Bb]earer)[ \t]+([A-Za-z0-9._~+/=-]{16,})")
"""`Bearer <token>`; matched from the literal `earer` (fast search), the `B`/`b` checked after."""
_BEARER_NEEDS = "earer"
_URL_PASSWORD = re.compile(r"://[^\s/:@]+:([^\s/@]+)@")
_URL_NEEDS = "://"
_URL_RARE = "/"
_ASSIGNMENT = re.compile(r"[:=][ \t]*[\"']?([^\s\"'`,;]{3,})")
"""The separator and value of `key = value`, `key: value`, `"key": "value"`."""
_REVERSED_KEY = re.compile(
    # How a secret-ish key ends, spelled backwards and matched against the reversed text before
    # a separator: one anchored attempt per `:`/`=` instead of a search. Forwards: passwd,
    # password, pwd, pw (a word of its own: db_pw, not npw), secret[_access][_key] (so
    # client_secret), api_key, apikey, private_key, token (so access_token, auth_token …).
    r"dwssap|drowssap|dwp|wp(?![a-z])|(?:yek[_-]?)?(?:ssecca[_-]?)?terces|yek[_-]?ipa|yekipa"
    r"|yek[_-]?etavirp|nekot",
    re.IGNORECASE,
)
_KEY_LOOKBACK = 24
_KEY_LAST_LETTERS = frozenset("dtynwDTYNW")
"""How every key above ends: a cheap test that rejects most `:`/`=` before any regex runs."""


def _may_hold_secret(text: str) -> bool:
    """Whether `text` holds something every pattern above needs (a separator, an underscore or
    dash in the token's prefix, or the literal it starts with): a title with none of these is
    left alone after a few substring checks instead of fourteen searches (`memtui list` masks
    50,000 titles)."""
    return (
        ":" in text
        or "=" in text
        or "_" in text
        or "-" in text
        or "AKIA" in text
        or "ASIA" in text
        or "AIza" in text
        or "eyJ" in text
        or "earer" in text
    )


_WORDISH = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-•")
"""Characters that glue a token to its left neighbour (the mask's own `•` included, so a
masked neighbour does not turn an unmasked token into a maskable one)."""

_TOKEN_PREFIX = 6
_VALUE_PREFIX = 2
_VALUE_PREFIX_MIN_LENGTH = 12
"""Shorter values (typical passwords) show no prefix at all."""


def _mask_pem(block: str) -> str:
    """Replace the key material line by line, keeping the header, every newline and END."""
    lines = block.split("\n")
    masked = [lines[0]]
    for line in lines[1:]:
        if line.startswith("-----END") or not line.strip():
            masked.append(line)
        else:
            masked.append("••••\r" if line.endswith("\r") else "••••")
    return "\n".join(masked)


def _value_mask(value: str) -> str:
    keep = _VALUE_PREFIX if len(value) >= _VALUE_PREFIX_MIN_LENGTH else 0
    return value[:keep] + MASK


def _glued_left(text: str, start: int) -> bool:
    return start > 0 and text[start - 1] in _WORDISH


def _follows_key(text: str, separator: int) -> bool:
    """True when a secret-ish key (`password`, `api_key`, `"token"` …) ends just before `:`/`=`."""
    end = separator
    while end > 0 and separator - end < 4 and text[end - 1] in " \t\"'":
        end -= 1
    if end == 0 or text[end - 1] not in _KEY_LAST_LETTERS:
        return False
    return _REVERSED_KEY.match(text[max(0, end - _KEY_LOOKBACK) : end][::-1]) is not None


def _credential_like(match: re.Match[str]) -> bool:
    """Prose such as `server token: rotate every 90 days` is not a secret.

    After `=` or a quote anything counts; after a bare `:` the value must look like a credential
    (a digit or symbol, mixed case, or 16+ characters), not a lowercase word.
    """
    value = match.group(1)
    if match.group(0)[0] == "=" or match.group(0)[-len(value) - 1] in "\"'":
        return True
    if len(value) >= 16 or not value.isalpha():
        return True
    return not (value.islower() or value.istitle())


def _find_secrets(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """Private-key blocks as (start, end), other candidates as (start, end, kind).

    Escape sequences are blanked first (`without_escapes`, offsets kept), as the index does:
    a token right behind a colour code (`␛[31msk-live-…`, pasted terminal output) was glued to
    the code's last letter and left whole, and a value's mask swallowed the codes around it."""
    if not _may_hold_secret(text):
        return [], []
    if "\x1b" in text or "\u241b" in text:
        text = without_escapes(text)
    blocks = [m.span() for m in _PEM.finditer(text)] if "-----BEGIN" in text else []
    others: list[tuple[int, int, str]] = []
    for kind, rare, needed, token in _TOKENS:
        if rare in text and needed in text:
            for match in token.finditer(text):
                if not _glued_left(text, match.start()):
                    others.append((match.start(), match.end(), kind))
    if _BEARER_NEEDS in text:
        for match in _BEARER.finditer(text):
            if not _glued_left(text, match.start() - 1):  # the match starts after the B
                others.append((match.start(1), match.end(1), BEARER_TOKEN))
    if _URL_RARE in text and _URL_NEEDS in text:
        for match in _URL_PASSWORD.finditer(text):
            others.append((match.start(1), match.end(1), URL_PASSWORD))
    if ":" in text or "=" in text:
        for match in _ASSIGNMENT.finditer(text):
            if _follows_key(text, match.start()) and _credential_like(match):
                others.append((match.start(1), match.end(1), ASSIGNED_SECRET))
    return blocks, others


def _clip_to_blocks(
    span: tuple[int, int, str], blocks: list[tuple[int, int]]
) -> tuple[int, int, str] | None:
    """A candidate overlapping a private-key block ends where the block starts (blocks win)."""
    start, end, kind = span
    for block_start, block_end in blocks:
        if start < block_end and block_start < end:
            if start >= block_start:
                return None
            end = block_start
    return (start, end, kind)


def _masked_spans(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, masked text, kind) of every secret to mask, in text order.

    Spans that are already masked (or would not change) are left out, so masking twice is a
    no-op and what `secret_kinds` counts is exactly what `mask_secrets` masks.
    """
    blocks, others = _find_secrets(text)
    if not blocks and not others:
        return []
    chosen: list[tuple[int, int, str, str]] = [
        (start, end, _mask_pem(text[start:end]), PRIVATE_KEY) for start, end in blocks
    ]
    position = 0
    for span in sorted(others, key=lambda span: (span[0], -span[1])):
        clipped = _clip_to_blocks(span, blocks)
        if clipped is None or clipped[0] < position:
            continue
        start, end, kind = clipped
        original = text[start:end]
        masked = original[:_TOKEN_PREFIX] + MASK if kind in _TOKEN_KINDS else _value_mask(original)
        chosen.append((start, end, masked, kind))
        position = end
    return [
        (start, end, masked, kind)
        for start, end, masked, kind in sorted(chosen)
        if MASK not in text[start:end] and masked != text[start:end]
    ]


def mask_secrets(text: str) -> tuple[str, int]:
    """Return `text` with secrets masked, and how many were masked.

    Idempotent (already masked text is left alone), and never changes the number of lines.
    """
    spans = _masked_spans(text)
    if not spans:
        return text, 0
    pieces: list[str] = []
    position = 0
    for start, end, masked, _ in spans:
        pieces.append(text[position:start])
        pieces.append(masked)
        position = end
    pieces.append(text[position:])
    return "".join(pieces), len(spans)


def secret_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, masked text) of every secret `mask_secrets` masks in `text`, in order."""
    return [(start, end, masked) for start, end, masked, _ in _masked_spans(text)]


def secret_kinds(text: str) -> dict[str, int]:
    """How many secrets of each kind `mask_secrets` masks in `text` (the health view's count)."""
    counts: dict[str, int] = {}
    for _, _, _, kind in _masked_spans(text):
        counts[kind] = counts.get(kind, 0) + 1
    return counts
