"""The checks that read dates: superseded entries and entries that may be stale.

A word's *distinctive* when few entries hold it (at most `distinctive_limit`: 5% of them, at
least 3), it has a letter and three characters and is not an English function word: the words
that say what an entry is about, unlike "the", "deploy" in a deploy log, dates and numbers (in a
small folder "the" is rare enough to look distinctive, hence the short stop list).

* **Superseded**: dated entries whose titles say the same thing once dates, times and numbers
  are dropped ("Deploy target (2026-10-02)" and "Deploy target") form a topic; each older one
  is superseded by the newest when it repeats at least `superseded_min_overlap` of the smaller
  one's distinctive body words (so three unrelated "## Decision" sections are not a topic). A
  title used by more than `superseded_max_group` entries is a template ("Tasks"), not a topic,
  and so is one that more than a third of the notes in its folders share (every Basic Memory
  note's "## Relations", every session log's "## Conversation Summary").
* **Stale** (a hint): a dated entry older than `stale_days` none of whose distinctive words
  (at least `stale_min_words` of them) appears in a newer entry. Undated entries (long-term
  memory, topic notes) count as current: a word they hold is "mentioned newer". Age counts
  to today, or to the newest dated entry when the memory stopped earlier: in a memory nobody
  wrote to for a year, the last notes are not stale, they are simply the last.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

import numpy as np

from memtui.core.health.model import Check, Finding, citation, newest_first
from memtui.core.health.settings import HealthSettings
from memtui.core.model import Entry
from memtui.core.plural import plural
from memtui.core.reading.dates import days_before
from memtui.core.search.arrays import SmallArray, run_starts
from memtui.core.search.entry_keys import NO_TOPIC, topic_hashes, topic_keys
from memtui.core.search.terms import EntryTerms, by_word, counted, gathered, pair_chunks
from memtui.core.search.tokenize import tokens

DISTINCTIVE_SHARE = 0.05
DISTINCTIVE_MIN = 3
TEMPLATE_SHARE = 1 / 3
"""A title found in more than this share of the files of its folders is part of a template."""
SHOWN_WORDS = 4
"""Distinctive words a stale hint quotes."""
_LETTER = re.compile(r"[^\W\d_]")
_STOP_WORDS = frozenset(
    (
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "all",
        "any",
        "can",
        "had",
        "her",
        "was",
        "one",
        "our",
        "out",
        "has",
        "him",
        "his",
        "how",
        "its",
        "may",
        "new",
        "now",
        "own",
        "see",
        "two",
        "way",
        "who",
        "did",
        "get",
        "let",
        "put",
        "say",
        "she",
        "too",
        "use",
        "with",
        "that",
        "this",
        "from",
        "they",
        "will",
        "have",
        "been",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "would",
        "could",
        "should",
        "there",
        "their",
        "them",
        "then",
        "than",
        "into",
        "onto",
        "also",
        "just",
        "only",
        "over",
        "very",
        "some",
        "such",
        "each",
        "more",
        "most",
        "other",
        "about",
        "after",
        "before",
        "because",
        "being",
        "both",
        "does",
        "done",
        "here",
        "like",
        "make",
        "made",
        "many",
        "much",
        "must",
        "never",
        "once",
        "same",
        "still",
        "those",
        "under",
        "until",
        "upon",
        "yet",
    )
)
_UNDATED = np.iinfo(np.int32).max
"""The 'date' of an undated entry when asking which words are mentioned newer: always current."""


def distinctive_limit(entries: int) -> int:
    return max(DISTINCTIVE_MIN, int(entries * DISTINCTIVE_SHARE))


def is_wordish(word: str) -> bool:
    return len(word) >= 3 and word not in _STOP_WORDS and _LETTER.search(word) is not None


def find_superseded(terms: EntryTerms, settings: HealthSettings) -> list[Finding]:
    """Older statements of a topic under its newest one (the lead), newest topics first."""
    entries = terms.entries
    dated = np.flatnonzero(entries.date_ordinal >= 0)
    hashes = entries.keys(
        "topic_hash", lambda rows: topic_hashes([entries.titles[row] for row in rows]), dated
    )
    # Most titles are their own topic: only the entries whose topic hash 2 to
    # superseded_max_group entries share are made, then grouped by their keys (47,500 titles
    # keyed at 50,000 entries took ~0.15 s). A collision of two topics' 64-bit hashes is split
    # again here; one that took a topic past the group limit is not expected in any
    # memory's lifetime.
    _, which, counts = np.unique(hashes, return_inverse=True, return_counts=True)
    size = counts[which]
    chosen = (size >= 2) & (size <= settings.superseded_max_group) & (hashes != NO_TOPIC)
    made = [entries[index] for index in dated[chosen].tolist()]
    grouped: defaultdict[str, list[Entry]] = defaultdict(list)
    for entry, key in zip(made, topic_keys([entry.title for entry in made]), strict=True):
        grouped[key].append(entry)
    topics = {key: members for key, members in grouped.items() if key and len(members) >= 2}
    files_in = _files_per_folder(entries.qualified_paths)
    frequency = dict(zip(terms.words, terms.document_frequency.tolist(), strict=True))
    limit = distinctive_limit(len(terms.entries))

    kept: dict[str, bool] = {}  # word -> distinctive, decided once per distinct word

    def distinctive(entry: Entry, key: str) -> set[str]:
        words = set(tokens(entry.body)).difference(key.split())
        for word in words.difference(kept):
            kept[word] = is_wordish(word) and frequency.get(word, 0) <= limit
        return {word for word in words if kept[word]}

    groups: list[tuple[Entry, list[Finding]]] = []
    for key, members in topics.items():
        if _template(members, files_in):
            continue
        newest, *older = newest_first(members)
        newest_words = distinctive(newest, key)
        found: list[Finding] = []
        for entry in older:
            assert entry.when is not None and newest.when is not None
            if entry.when >= newest.when:
                continue
            words = distinctive(entry, key)
            smaller = min(len(words), len(newest_words))
            overlap = len(words & newest_words) / smaller if smaller else 0.0
            if overlap < settings.superseded_min_overlap:
                continue
            gap = (newest.when - entry.when).days
            found.append(
                Finding(
                    Check.SUPERSEDED,
                    entry,
                    f"restated {_gap(gap)} in {citation(newest)} "
                    f"({overlap:.0%} of distinctive words repeated)",
                    related=newest,
                    details=(
                        ("topic", key),
                        ("gap_days", gap),
                        ("overlap", round(overlap, 3)),
                        ("min_overlap", settings.superseded_min_overlap),
                    ),
                )
            )
        if found:
            lead = Finding(
                Check.SUPERSEDED,
                newest,
                f"newest of {len(found) + 1} entries titled like this",
                lead=True,
                details=(("topic", key),),
            )
            groups.append((newest, [lead, *found]))
    groups.sort(key=lambda group: group[0].when or dt.datetime.min, reverse=True)
    return [
        _regroup(finding, number)
        for number, (_, findings) in enumerate(groups)
        for finding in findings
    ]


def _folder(qualified: str) -> str:
    return qualified.rpartition("/")[0]


def _files_per_folder(qualified_paths: list[str]) -> dict[str, int]:
    """Folder -> how many files of the entries' `qualified_paths` it holds."""
    counts: defaultdict[str, int] = defaultdict(int)
    for qualified in set(qualified_paths):
        counts[_folder(qualified)] += 1
    return dict(counts)


def _template(members: list[Entry], files_in: dict[str, int]) -> bool:
    """True when the title recurs across files like a template section does (see above)."""
    files = {entry.qualified_path for entry in members}
    if len(files) < 2:
        return False
    total = sum(files_in[folder] for folder in {_folder(path) for path in files})
    return len(files) > TEMPLATE_SHARE * total


def _gap(days: int) -> str:
    if days == 0:
        return "later the same day"
    return f"{days:,} day{'s' if days != 1 else ''} later"


def _regroup(finding: Finding, group: int) -> Finding:
    return Finding(
        finding.check,
        finding.entry,
        finding.reason,
        group,
        finding.lead,
        finding.related,
        finding.details,
    )


def _newest_mention(terms: EntryTerms, ordinals: SmallArray) -> SmallArray:
    """Per word id, the newest ordinal of an entry holding it (0: none). The pairs come in
    the index's order, by word: then each word's pairs are a run, and one `reduceat` over the
    runs replaces `maximum.at` over every pair (~2× faster at 4 million pairs)."""
    word_ids = terms.word_ids
    newest = np.zeros(len(terms.words), dtype=np.int32)
    if len(word_ids) and bool((word_ids[1:] >= word_ids[:-1]).all()):
        starts = run_starts(word_ids)
        newest[word_ids[starts]] = np.maximum.reduceat(gathered(ordinals, terms.owners), starts)
        return newest
    for part in pair_chunks(len(word_ids)):  # a chunk at a time: see PAIR_CHUNK
        np.maximum.at(newest, word_ids[part], gathered(ordinals, terms.owners[part]))
    return newest


def find_stale(terms: EntryTerms, settings: HealthSettings, today: dt.date) -> list[Finding]:
    """Hints, oldest first: old dated entries whose distinctive words nothing newer mentions."""
    count = len(terms.entries)
    if count == 0:
        return []
    dates = terms.entries.date_ordinal
    ordinals = np.where(dates >= 0, dates, _UNDATED).astype(np.int32)
    wordish = np.fromiter(
        (is_wordish(word) for word in terms.words), dtype=bool, count=len(terms.words)
    )
    distinctive_word = wordish & (terms.document_frequency <= distinctive_limit(count))
    owners = terms.owners
    newest_mention = _newest_mention(terms, ordinals)
    chosen = by_word(distinctive_word, terms.word_ids)
    owner, word = owners[chosen], terms.word_ids[chosen]
    del chosen
    held = counted(owner, count)
    latest = np.zeros(count, dtype=np.int32)
    for part in pair_chunks(len(owner)):
        np.maximum.at(latest, owner[part], gathered(newest_mention, word[part]))
    dated = ordinals[ordinals != _UNDATED]
    if len(dated) == 0:
        return []
    reference = min(today, dt.date.fromordinal(int(dated.max())))
    cutoff = days_before(reference, settings.stale_days).toordinal()
    stale = (ordinals < cutoff) & (held >= settings.stale_min_words) & (latest <= ordinals)
    words_of: defaultdict[int, list[int]] = defaultdict(list)
    keep = stale[owner]
    for holder, word_id in zip(owner[keep].tolist(), word[keep].tolist(), strict=True):
        words_of[holder].append(word_id)
    findings: list[Finding] = []
    for index in sorted(np.flatnonzero(stale).tolist(), key=lambda i: (ordinals[i], i)):
        entry = terms.entries[index]
        assert entry.date is not None
        own = words_of[index]
        shown = sorted(own, key=lambda w: (-terms.document_frequency[w], terms.words[w]))
        quoted = tuple(terms.words[w] for w in shown if len(terms.words[w]) <= 20)[:SHOWN_WORDS]
        age = (reference - entry.date).days
        older = (
            f"{plural(age, 'day')} old"
            if reference == today
            else f"{plural(age, 'day')} older than the newest entry ({reference.isoformat()})"
        )
        findings.append(
            Finding(
                Check.STALE,
                entry,
                f"hint: {older}, and none of its {len(own)} distinctive words "
                f"({', '.join(quoted)}{', …' if len(own) > len(quoted) else ''}) "
                "appears in a newer entry",
                group=len(findings),
                details=(
                    ("age_days", age),
                    ("age_from", reference.isoformat()),
                    ("stale_days", settings.stale_days),
                    ("distinctive_words", len(own)),
                    ("words", quoted),
                ),
            )
        )
    return findings
