"""What each entry's text and title come to for the health checks, worked out once when the
cache is written and kept there as number columns (`core.cache.entry_columns`):

- its *text hash*, 64 bits of BLAKE2b over the title and body: the key of a kept near-duplicate
  score (`core.health.duplicates`). Finding the normalised texts of the ~13,000 candidate
  entries at 50,000 entries read ~40 MB of bodies back, ~0.12 s of every warm `health`;
- its *topic key*, the title without dates, times and numbers, and that key's hash (0: no
  topic): what superseded entries are grouped by (`core.health.dated`). Tokenizing 47,500
  titles was ~0.15 s of every warm `health`.

A hash keys exactly what it was made of: the similarity of two texts and the topic of a title
are functions of them alone, so an edited entry gets a new hash and is worked out again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import compress

import numpy as np

from memtui.core.digest import blake2b
from memtui.core.search.arrays import IntArray
from memtui.core.search.tokenize import TEXT_SEPARATOR, batch_tokens

NO_TOPIC = 0
"""The topic hash of a title with no topic (a key of '')."""
_DIGIT = re.compile(r"\d")
_CALENDAR = frozenset(
    (
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "utc",
        "am",
        "pm",
        "today",
        "yesterday",
    )
)


TITLE_BATCH = 5_000
"""Titles tokenized at once by `topic_keys` (their tokens are one list meanwhile)."""


def topic_keys(titles: Sequence[str]) -> list[str]:
    """Each title without dates, times, numbers and calendar words; '' when nothing is left or
    one word is left of a title that was mostly a timestamp ("Session: 2026-11-18 09:30 UTC"
    labels a log entry, it does not name a topic). Tokenized a batch at a time
    (`batch_tokens`), whether a word is a date's decided once per distinct word, and the keys
    of a batch cut out of one joined string with counts per title in numpy: a Python loop
    over 47,500 titles took ~100 ms."""
    code: dict[str, int] = {TEXT_SEPARATOR: _SEPARATOR}
    keys: list[str] = []
    for first in range(0, len(titles), TITLE_BATCH):
        words = batch_tokens(titles[first : first + TITLE_BATCH])
        for word in set(words).difference(code):
            code[word] = _word_code(word)
        codes = np.fromiter(map(code.__getitem__, words), dtype=np.int8, count=len(words))
        separator = codes == _SEPARATOR
        title = np.cumsum(separator) - separator
        count = int(separator.sum())
        word_title = title[~separator]
        kept = np.bincount(title[(codes == _KEPT) | (codes == _KEPT_LONG)], minlength=count)
        long = np.bincount(title[codes == _KEPT_LONG], minlength=count)
        dropped = np.bincount(word_title, minlength=count) - kept
        topic = (long > 0) & ~((kept == 1) & (dropped > kept))
        joined = " ".join(compress(words, (codes != _DROPPED).tolist()))
        pieces = joined.split(TEXT_SEPARATOR)[:count]
        keys.extend(
            piece.strip(" ") if is_topic else ""
            for piece, is_topic in zip(pieces, topic.tolist(), strict=True)
        )
    return keys


_DROPPED, _KEPT, _KEPT_LONG, _SEPARATOR = range(4)
"""What a title's word is to its topic (`_word_code`), and the separator between titles."""


def _word_code(word: str) -> int:
    """_DROPPED for a date's, time's, number's or calendar word, else _KEPT_LONG when it has
    three characters (a topic needs one), else _KEPT."""
    if word in _CALENDAR or _DIGIT.search(word) is not None:
        return _DROPPED
    return _KEPT_LONG if len(word) >= 3 else _KEPT


def text_hash(title: str, body: str) -> int:
    """An entry's text hash: 64 bits of BLAKE2b over its title and body, as a signed integer
    (a cache number column). A collision would give a changed pair its old score; at 64 bits
    it is not expected in any memory's lifetime."""
    return _signed_hash(f"{title}\n{body}")


def text_hashes(texts: Iterable[tuple[str, str]]) -> IntArray:
    """`text_hash` of each (title, body)."""
    return np.fromiter((text_hash(title, body) for title, body in texts), dtype=np.int64)


def topic_hashes(titles: Sequence[str]) -> IntArray:
    """The hash of each title's topic key (`topic_keys`), NO_TOPIC when it has none."""
    return np.fromiter(
        ((_signed_hash(key) or 1) if key else NO_TOPIC for key in topic_keys(titles)),
        dtype=np.int64,
        count=len(titles),
    )


def _signed_hash(text: str) -> int:
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)
