"""The one tokenizer shared by entries and queries, so a query word always meets its document twin.

Text is NFKC-normalised and casefolded, then split into Unicode words (letters and digits;
underscores and punctuation separate words). There is no stopword list: short technical terms
such as `ci`, `db`, `ui` and `s3` stay searchable. CJK scripts (Han, kana, Hangul) have no
spaces between words, so a run of CJK characters is indexed as its single characters and its
overlapping character bigrams; a query run of two or more characters becomes bigrams (all of
which must appear), a one-character query run stays a single character.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from functools import cache

WORD_RUN = re.compile(r"[^\W_]+")
"""A word as the tokenizer cuts one (letters and digits; underscores and punctuation separate)."""
_RAW_WORD_RUN = re.compile(
    r"[^\W_](?:[^\W_]|[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f])*"
)
"""A word in text not normalised yet: its combining marks belong to it. In decomposed text
(NFD, as macOS may write it) `café` is `cafe` + U+0301, which NFKC composes before the tokenizer
cuts words; cut first, the word was `cafe` and its match was never marked."""
_CJK_CHARS = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3040-\u309f"  # Hiragana
    "\u30a0-\u30ff"  # Katakana
    "\u3130-\u318f"  # Hangul compatibility Jamo
    "\u31f0-\u31ff"  # Katakana phonetic extensions
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\U00020000-\U0003134f"  # CJK extensions B–G
)


@cache
def _cjk_run() -> re.Pattern[str]:
    """A run of CJK characters, compiled when first needed: its ranges cost ~2.5 ms to compile,
    and ASCII text (most queries, most memory) never asks for it."""
    return re.compile(f"[{_CJK_CHARS}]+")


TEXT_SEPARATOR = "Z"
"""Ends each text's tokens in `batch_tokens`: tokens are casefolded, so no text yields it."""
_RAW_SEPARATOR = "\x01"
_ASCII_TOKEN_TABLE = bytes(
    ord(TEXT_SEPARATOR)
    if chr(code) == _RAW_SEPARATOR
    else code
    if chr(code).isascii() and chr(code).isalnum() and not chr(code).isupper()
    else code + 32
    if chr(code).isascii() and chr(code).isupper()
    else ord(" ")
    for code in range(256)
)
"""ASCII text -> lowercase letters and digits, everything else a space (the raw separator
becomes TEXT_SEPARATOR): for ASCII, splitting the result equals the word regex on casefolded
text, at a fraction of the cost."""


_ESCAPE_SEQUENCE = re.compile("[\x1b\u241b]\\[[0-?]*[!-/]*[@-~]")
"""A CSI escape sequence (a colour, a cursor move), raw or as `sanitize.visible` shows a file's:
pasted terminal output such as `␛[31mERROR␛[0m: build failed`. (ECMA-48 allows a space among
its intermediate bytes; no sequence a terminal prints has one, and `␛[ word` is not one.)"""


def without_escapes(text: str) -> str:
    """`text` with each CSI escape sequence blanked by as many spaces: it separates words, as
    on the screen it came from (cut as part of one, `ERROR` was the word `31merror`), and
    every other character keeps its offset."""
    if "\u241b" not in text and "\x1b" not in text:
        return text
    return _ESCAPE_SEQUENCE.sub(lambda sequence: " " * len(sequence.group()), text)


def normalize(text: str) -> str:
    """Escape sequences blanked, then NFKC and casefold: fullwidth letters, ligatures and case
    variants meet."""
    return unicodedata.normalize("NFKC", without_escapes(text)).casefold()


def is_cjk(token: str) -> bool:
    """True when the token is made of CJK characters (matched exactly, never by prefix/fuzzy)."""
    return not token.isascii() and _cjk_run().match(token) is not None


def _split_word(word: str, *, query: bool) -> Iterator[str]:
    """Yield a word, or for CJK runs unigrams+bigrams (documents) or bigrams (queries)."""
    if word.isascii() or not _cjk_run().search(word):
        yield word
        return
    last = 0
    for run in _cjk_run().finditer(word):
        if run.start() > last:
            yield word[last : run.start()]
        yield from _cjk_grams(run.group(), query=query)
        last = run.end()
    if last < len(word):
        yield word[last:]


def _cjk_grams(run: str, *, query: bool) -> Iterator[str]:
    if len(run) == 1:
        yield run
        return
    if not query:
        yield from run
    for i in range(len(run) - 1):
        yield run[i : i + 2]


def tokens(text: str, *, query: bool = False) -> list[str]:
    """Tokens of `text` in order. `query=True` yields the query form of CJK runs (bigrams only)."""
    words = WORD_RUN.findall(normalize(text))
    if text.isascii():
        return words
    out: list[str] = []
    for word in words:
        out.extend(_split_word(word, query=query))
    return out


def batch_tokens(texts: Sequence[str]) -> list[str]:
    """`tokens(text) + [TEXT_SEPARATOR]` for every text, concatenated, in one pass.

    Indexing tokenizes every entry: one translate-and-split over the joined ASCII texts (or one
    regex scan over joined normalised texts) avoids a Python call per text and is ~3× faster.
    """
    if not texts:
        return []
    translated = _ascii_translated(texts)
    return translated.split() if translated is not None else _regex_tokens(texts)


def _ascii_translated(texts: Sequence[str]) -> str | None:
    """The texts joined and translated to their tokens, spaces between and TEXT_SEPARATOR after
    each; None unless they are all ASCII (and none holds the raw separator)."""
    raw = f" {_RAW_SEPARATOR} ".join(texts) + f" {_RAW_SEPARATOR}"
    if not _translatable(raw) or raw.count(_RAW_SEPARATOR) != len(texts):
        return None
    return raw.encode("ascii").translate(_ASCII_TOKEN_TABLE).decode("ascii")


def _translatable(text: str) -> bool:
    """Whether `_ASCII_TOKEN_TABLE` tokenizes `text` as `tokens` does: ASCII with no escape
    sequence (the table would glue its parameters to the next word)."""
    return text.isascii() and "\x1b" not in text


def _regex_tokens(texts: Sequence[str]) -> list[str]:
    """`batch_tokens` for texts that are not all ASCII: one regex scan of the normalised texts."""
    joined = "".join(f"{normalize(text)} {TEXT_SEPARATOR} " for text in texts)
    found = WORD_RUN.findall(joined)
    if not _cjk_run().search(joined):
        return found
    out: list[str] = []
    for word in found:
        out.extend(_split_word(word, query=False))
    return out


def batch_spaced_tokens(texts: Sequence[str]) -> list[str]:
    """Each text's tokens in one string, whitespace between them (its `split()` is
    `tokens(text)`): what rapidfuzz's token scorers split. The ASCII texts are translated in
    one pass (as `batch_tokens` does) and cut apart at the separators, their words not joined
    one space apart again (that took ~80 of ~100 ms for the near-duplicate check's texts at
    50,000 entries); the others are joined one space apart. A text gives the same string in
    any batch: a near-duplicate score kept between runs (keyed by the hashes of the two raw
    texts) must be the one a fresh run gives."""
    plain = [
        at for at, text in enumerate(texts) if _translatable(text) and _RAW_SEPARATOR not in text
    ]
    spaced = [""] * len(texts)
    translated = _ascii_translated([texts[at] for at in plain]) if plain else None
    for at, part in zip(plain, (translated or "").split(TEXT_SEPARATOR), strict=False):
        spaced[at] = part.strip(" ")
    kept = set(plain)
    others = [at for at in range(len(texts)) if at not in kept]
    found = _regex_tokens([texts[at] for at in others]) if others else []
    start = 0
    for at in others:
        end = found.index(TEXT_SEPARATOR, start)
        spaced[at] = " ".join(found[start:end])
        start = end + 1
    return spaced


def words(text: str) -> list[str]:
    """Normalised words without CJK splitting, for phrase matching by joined text."""
    return WORD_RUN.findall(normalize(text))


def phrase_key(text: str) -> str:
    """A phrase as a space-joined word string; contained-in tests run on `phrase_key(document)`."""
    return " ".join(words(text))


def count_phrase(phrase: str, document_key: str) -> int:
    """How often the phrase key occurs in the document key, on word boundaries (CJK: anywhere)."""
    if not phrase:
        return 0
    if _cjk_run().search(phrase):
        return document_key.count(phrase)
    return f" {document_key} ".count(f" {phrase} ")


def match_spans(text: str, wanted: Iterable[str]) -> list[tuple[int, int]]:
    """Character spans in the original `text` whose normalised token is in `wanted`.

    Used to highlight matches and to centre excerpts; CJK grams map back to their characters.
    """
    targets = set(wanted)
    if not targets:
        return []
    spans: list[tuple[int, int]] = []
    for match in _RAW_WORD_RUN.finditer(without_escapes(text)):
        raw = match.group()
        word = normalize(raw)
        if word in targets:
            spans.append((match.start(), match.end()))
            continue
        if len(word) != len(raw) or raw.isascii() or not _cjk_run().search(raw):
            continue
        spans.extend(_cjk_spans(word, match.start(), targets))
    return _merge(spans)


def _cjk_spans(word: str, offset: int, targets: set[str]) -> Iterator[tuple[int, int]]:
    """Spans of matching CJK grams and of the latin pieces glued to them (e.g. `v2版本`)."""
    last = 0
    for run in _cjk_run().finditer(word):
        if run.start() > last and word[last : run.start()] in targets:
            yield offset + last, offset + run.start()
        for i in range(run.start(), run.end()):
            for width in (2, 1):
                if i + width <= run.end() and word[i : i + width] in targets:
                    yield offset + i, offset + i + width
                    break
        last = run.end()
    if last < len(word) and word[last:] in targets:
        yield offset + last, offset + len(word)


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(set(spans)):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
