"""Words an entry holds only inside masked secrets, and how they read masked.

The index keeps every word of an entry, secrets included: masking is a way of showing text,
and `--reveal-secrets` or the app's reveal key show it whole. So a matched token in an
explanation, or a did-you-mean word, could spell out the password that the excerpt beside it
masks (`hunt` matched `hunter2hunter2`). Whatever prints a matched word while secrets are
masked prints it as the masked text shows it (`hu…••••`), and a word nobody can see is never
suggested.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from msgspec.structs import replace

from memtui.core.model import Entry, Explanation, TokenMatch
from memtui.core.search.fields import context_text, heading_text
from memtui.core.search.tokenize import WORD_RUN, normalize, tokens, without_escapes
from memtui.core.secrets import MASK, secret_spans


def searchable_text(entry: Entry) -> str:
    """Every text the index takes an entry's words from, one after another: where a matched
    word can show (`core.search.fields` says which texts these are)."""
    return "\n".join((heading_text(entry), context_text(entry), entry.body, entry.file_name))


def masked_words(text: str) -> dict[str, str]:
    """Each word (as the index has it) that `text` holds only inside secrets `mask_secrets`
    masks, with what the masked text shows of it: `hunter2hunter2` -> `hu…••••`.

    A word the mask leaves readable (the `ghp` of `ghp_ab…••••`, a private key's header) or that
    also occurs outside every secret is not masked: the text shows it anyway.
    """
    spans = secret_spans(text)
    if not spans:
        return {}
    text = without_escapes(text)  # words cut as the index cuts them (offsets kept)
    shown: set[str] = set()
    hidden: dict[str, str] = {}
    for start, end, masked in spans:
        shown.update(tokens(masked))
        readable_until = start + _readable_prefix(masked)
        for run in WORD_RUN.finditer(text, start, end):
            if run.end() <= readable_until:
                shown.update(tokens(run.group()))
                continue
            kept = normalize(text[run.start() : max(run.start(), readable_until)])
            for word in tokens(run.group()):
                hidden.setdefault(word, kept + MASK)
    candidates = {word: form for word, form in hidden.items() if word not in shown}
    if not candidates:
        return {}
    outside = _outside(text, spans)
    return {word: form for word, form in candidates.items() if not _occurs(word, outside)}


def _readable_prefix(masked: str) -> int:
    """How many characters of a secret its mask still shows: a token's or value's prefix
    (`ghp_ab…••••`), a private key's header line."""
    if masked.endswith(MASK):
        return len(masked) - len(MASK)
    newline = masked.find("\n")
    return len(masked) if newline < 0 else newline


def _outside(text: str, spans: list[tuple[int, int, str]]) -> str:
    pieces: list[str] = []
    position = 0
    for start, end, _ in spans:
        pieces.append(text[position:start])
        position = end
    pieces.append(text[position:])
    return "\n".join(pieces)


def _occurs(word: str, text: str) -> bool:
    """Whether `word` is one of the tokens of `text` (a regex search for the common ASCII word:
    tokenizing a 4 MB body to look for one word would take a second)."""
    if word.isascii():
        pattern = rf"(?<![^\W_]){re.escape(word)}(?![^\W_])"
        return re.search(pattern, text, re.IGNORECASE) is not None
    return word in tokens(text)


def mask_matches(explanation: Explanation, hidden: Mapping[str, str]) -> Explanation:
    """`explanation` with each matched token in `hidden` (`masked_words`) as it reads masked;
    the scores are untouched, so the breakdown still adds up to the same number."""
    if not hidden or not any(
        word in hidden for term in explanation.terms for m in term.matches for word in _words(m)
    ):
        return explanation
    terms = tuple(
        replace(term, matches=tuple(_masked_match(match, hidden) for match in term.matches))
        for term in explanation.terms
    )
    return replace(explanation, terms=terms)


def _words(match: TokenMatch) -> list[str]:
    return match.token.split(" ")  # a phrase's token is its words joined by spaces


def _masked_match(match: TokenMatch, hidden: Mapping[str, str]) -> TokenMatch:
    token = " ".join(hidden.get(word, word) for word in _words(match))
    if token == match.token:
        return match
    return replace(match, token=token)
