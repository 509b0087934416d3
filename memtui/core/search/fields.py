"""Which text of an entry counts as heading, as body and as context: ranking policy.

Heading text (weighted HEADING_WEIGHT in the score) is the entry's own title, tags and the
frontmatter fields that name or describe it. Body text is the entry's body plus its parent
headings and the words of its file name, each counted once at body weight. The segment
builder tokenizes exactly these texts; phrase matching verifies against the same keys.
"""

from __future__ import annotations

import re

from memtui.core.model import Entry
from memtui.core.search.tokenize import phrase_key, tokens

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_METADATA_KEYS = ("name", "title", "description", "summary")


def _echoes_body(text: str, entry: Entry) -> bool:
    """True for a title made from the entry's own first line (headless blocks, HISTORY.md
    paragraphs): counting it as a heading would triple-count the body's opening words."""
    core = text.rstrip("…").strip()
    return bool(core) and core in entry.body[: len(core) + 200]


def heading_text(entry: Entry) -> str:
    """Heading-weight text: the entry's own title (unless it echoes the body), its tags and
    frontmatter name/title/description/summary."""
    if not entry.tags and not entry.metadata:
        return "" if _echoes_body(entry.title, entry) else entry.title
    parts = [] if _echoes_body(entry.title, entry) else [entry.title]
    parts.extend(entry.tags)
    parts.extend(value for key in _METADATA_KEYS if (value := entry.meta(key)))
    return "\n".join(dict.fromkeys(part for part in parts if part))


def context_text(entry: Entry) -> str:
    """Parent headings (a file's H1, enclosing sections), counted once at body weight: context
    for the entry, but a document title shared by every section is not the entry's topic."""
    parents = [
        part for part in entry.heading_path if part != entry.title and not _echoes_body(part, entry)
    ]
    return "\n".join(dict.fromkeys(parents))


def heading_and_body_keys(entry: Entry) -> tuple[str, str]:
    """Heading and body as phrase keys, for verifying "exact phrase" matches."""
    return phrase_key(heading_text(entry)), phrase_key(entry.body)


def file_words(entry: Entry) -> list[str]:
    """Words of the file name, camelCase split too (`activeContext.md` -> active, context,
    activecontext): a search for `progress` should find the sections of `progress.md`."""
    stem = entry.file_name.rsplit(".", 1)[0]
    whole = tokens(stem)
    split = tokens(_CAMEL_BOUNDARY.sub(" ", stem))
    return list(dict.fromkeys(split + whole))


def entry_tokens(entry: Entry) -> tuple[list[str], list[str]]:
    """Tokens of an entry's heading text, and of its body plus context and file-name words."""
    body = tokens(entry.body) + tokens(context_text(entry)) + file_words(entry)
    return tokens(heading_text(entry)), body
