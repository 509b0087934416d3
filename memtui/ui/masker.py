"""Secrets masked before an entry is shown, with the masked texts kept for the next paint.

One `SecretMasker` per app (the config says whether to mask at all); the main screen hands it
to the entry pane and to the copy worker, so no widget asks the app to mask.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from memtui.core.model import Hit
from memtui.core.search.masked_words import mask_matches, masked_words, searchable_text
from memtui.core.secrets import mask_secrets

MASK_CACHE_CHARS = 2_000_000
"""Entry texts kept with their masked form, in characters: many screens of entries, while a
huge entry (a 4 MB log, rewritten as it grows) is masked afresh instead of piling up (the cache
used to keep 256 texts of any size). A text over a quarter of this is not kept."""

_Value = TypeVar("_Value")


class SecretMasker:
    """Masks secrets in entry texts (unless masking is off), remembering recent results."""

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled
        self._masked: dict[str, tuple[str, int]] = {}
        self._words: dict[str, dict[str, str]] = {}
        self._cache_chars = 0

    def mask(self, text: str, *, revealed: bool) -> tuple[str, int]:
        """The text to show (secrets masked unless revealed) and how many secrets it holds."""
        if not self.enabled:
            return text, 0
        masked_text, count = self._cached(self._masked, text, mask_secrets)
        return (text if revealed else masked_text), count

    def hit(self, hit: Hit, *, revealed: bool) -> Hit:
        """`hit` as the why pane shows it: a matched token that only a secret of the entry
        holds reads as the masked entry shows it (`hu…••••`), as in `rank --explain`."""
        if not self.enabled or revealed:
            return hit
        hidden = self._cached(self._words, searchable_text(hit.entry), masked_words)
        explanation = mask_matches(hit.explanation, hidden)
        if explanation is hit.explanation:
            return hit
        return Hit(hit.rank, hit.entry, hit.score, explanation)

    def _cached(
        self, cache: dict[str, _Value], text: str, compute: Callable[[str], _Value]
    ) -> _Value:
        found = cache.get(text)
        if found is None:
            found = compute(text)
            if self._cache_chars + len(text) > MASK_CACHE_CHARS:
                self.forget()
            if len(text) <= MASK_CACHE_CHARS // 4:
                cache[text] = found
                self._cache_chars += len(text)
        return found

    def forget(self) -> None:
        """Drop the masked texts (after files changed, or another folder was opened)."""
        self._masked.clear()
        self._words.clear()
        self._cache_chars = 0
