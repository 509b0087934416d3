"""Secrets masked before an entry is shown, with the masked texts kept for the next paint.

One `SecretMasker` per app (the config says whether to mask at all); the main screen hands it
to the entry pane and to the copy worker, so no widget asks the app to mask.
"""

from __future__ import annotations

from memtui.core.secrets import mask_secrets

MASK_CACHE_CHARS = 2_000_000
"""Entry texts kept with their masked form, in characters: many screens of entries, while a
huge entry (a 4 MB log, rewritten as it grows) is masked afresh instead of piling up (the cache
used to keep 256 texts of any size). A text over a quarter of this is not kept."""


class SecretMasker:
    """Masks secrets in entry texts (unless masking is off), remembering recent results."""

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled
        self._cache: dict[str, tuple[str, int]] = {}
        self._cache_chars = 0

    def mask(self, text: str, *, revealed: bool) -> tuple[str, int]:
        """The text to show (secrets masked unless revealed) and how many secrets it holds."""
        if not self.enabled:
            return text, 0
        cached = self._cache.get(text)
        if cached is None:
            cached = mask_secrets(text)
            if self._cache_chars + len(text) > MASK_CACHE_CHARS:
                self.forget()
            if len(text) <= MASK_CACHE_CHARS // 4:
                self._cache[text] = cached
                self._cache_chars += len(text)
        masked_text, count = cached
        return (text if revealed else masked_text), count

    def forget(self) -> None:
        """Drop the masked texts (after files changed, or another folder was opened)."""
        self._cache = {}
        self._cache_chars = 0
