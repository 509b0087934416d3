"""A deterministic synthetic agent memory: `MEMORY.md` plus two years of daily notes.

The prose follows a Zipfian vocabulary of ~20k words (real English and technical words at
the head, pronounceable pseudo-words in the tail) and each entry leans on a few topic words,
so term frequencies and query terms look like a real memory folder's. Files are generated
and written one at a time so the generator's memory stays small while the app is measured.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DEFAULT_SEED = 20261121
VOCABULARY_SIZE = 20_000
SPAN_DAYS = 730
LONG_TERM_SHARE = 0.05
ZIPF_EXPONENT = 1.05
TOPIC_SHARE = 0.15
REAL_TOPIC_SHARE = 0.5
MIN_WORDS = 20
MAX_WORDS = 400

FUNCTION_TEXT = (
    "the of and to a in is that for it on was with as be at by this are from or have an "
    "not but we they which has were had all one can there their been if more when will would "
    "so no what up out about into than them its only some could then other these two may "
    "first also after any our should now over such where most because between each before "
    "through while under again since both those still very just here how many well"
)
FUNCTION_WORDS = tuple(FUNCTION_TEXT.split())

CONTENT_TEXT = (
    # everyday English that agents write in notes
    "user asked wants prefers decided agreed noted remember today yesterday tomorrow week "
    "meeting call plan idea question answer issue problem solution reason result change "
    "update review draft final version note task todo done pending blocked waiting follow "
    "project team client customer budget deadline schedule priority goal milestone report "
    "summary context decision lesson mistake success failure risk estimate invoice contract "
    "email message thread channel document spreadsheet slide photo travel flight hotel "
    "dinner birthday family doctor appointment workout garden kitchen grocery recipe coffee "
    "morning evening weekend holiday vacation office remote home address phone password "
    "account subscription payment refund order delivery shipping warranty library book "
    "article podcast video course lecture exam language translation writing editing "
    # technical vocabulary of agent workspaces
    "deploy deployment release rollback build pipeline ci cd test tests testing coverage "
    "lint linter formatter commit branch merge rebase pull request repo repository git "
    "server client api endpoint route handler middleware request response header token "
    "auth login logout session cookie cache redis postgres sqlite database db schema "
    "migration index query table column row transaction backup restore snapshot s3 bucket "
    "docker container image kubernetes cluster node pod helm terraform ansible nginx proxy "
    "dns domain certificate tls ssl https port firewall vpn ssh key secret vault env config "
    "configuration settings flag feature toggle rollout canary monitoring metrics logs "
    "logging alert pager incident outage latency throughput memory cpu disk quota limit "
    "timeout retry backoff queue worker job cron scheduler webhook event stream kafka "
    "python javascript typescript rust golang node npm pip package dependency version "
    "upgrade downgrade patch bug fix regression crash error exception traceback stack "
    "debug debugger profiler benchmark performance optimise refactor cleanup rename module "
    "function class method interface protocol type types mypy ruff pytest fixture mock "
    "frontend backend ui ux css html react component layout theme dark light modal button "
    "form input validation search ranking embedding vector model prompt agent tool memory "
    "context window llm claude openai anthropic gpt inference tokens latency streaming "
    "terminal shell bash zsh tmux vim emacs editor cursor keyboard shortcut clipboard "
    "markdown yaml toml json csv parser tokenizer regex unicode encoding utf8 emoji "
    "watcher filesystem folder directory path symlink permission owner group chmod "
    "linux macos windows ubuntu debian arch kernel driver firmware laptop monitor "
    "openclaw miniclaw nanobot picoclaw heartbeat cronjob workspace handoff checklist"
)
CONTENT_WORDS = tuple(CONTENT_TEXT.split())

SYLLABLE_ONSETS = "b c d f g h j k l m n p r s t v w z b d k l m n p r s t br ch cr pl sh st tr"
CONSONANTS = tuple(SYLLABLE_ONSETS.split())
VOWELS = ("a", "e", "i", "o", "u", "a", "e", "i", "o", "u", "ai", "ea", "oo", "ou")
CODAS = ("", "", "", "", "n", "r", "s", "l", "t", "m", "nd", "st")


@dataclass(frozen=True, slots=True)
class CorpusSummary:
    """What was written, so the bench can report it and touch a daily file later."""

    root: Path
    entries: int
    files: int
    daily_files: tuple[Path, ...]


def build_vocabulary(seed: int = DEFAULT_SEED, size: int = VOCABULARY_SIZE) -> list[str]:
    """Words in Zipf rank order: function words first, then real and pseudo-words mixed.

    Real content words are spread over ranks ~60–4000 so derived queries contain words a
    person would type, while the long tail is pronounceable nonsense that still tokenizes
    like prose.
    """
    rng = random.Random(seed)
    content = list(dict.fromkeys(CONTENT_WORDS))
    rng.shuffle(content)
    seen = set(FUNCTION_WORDS) | set(content)
    pseudo: list[str] = []
    wanted = size - len(seen)
    while len(pseudo) < wanted:
        syllables = rng.choice((1, 2, 2, 2, 2, 3, 3))
        word = "".join(
            rng.choice(CONSONANTS) + rng.choice(VOWELS) + rng.choice(CODAS)
            for _ in range(syllables)
        )
        if len(word) >= 3 and word not in seen:
            seen.add(word)
            pseudo.append(word)
    words = list(FUNCTION_WORDS)
    head_slots = 4000 - len(words)
    content_every = max(1, head_slots // len(content))
    pseudo_iter = iter(pseudo)
    content_iter = iter(content)
    slot = 0
    while len(words) < size:
        real = next(content_iter, None) if slot % content_every == 0 else None
        if real is None:
            candidate = next(pseudo_iter, None)
            if candidate is None:
                words.extend(content_iter)
                break
            words.append(candidate)
        else:
            words.append(real)
        slot += 1
    return words[:size]


class ProseWriter:
    """Draws Zipf-distributed words and shapes them into headings, sentences and lists."""

    def __init__(self, vocabulary: list[str], seed: int) -> None:
        self.vocabulary = vocabulary
        ranks = np.arange(1, len(vocabulary) + 1, dtype=np.float64)
        weights = 1.0 / ranks**ZIPF_EXPONENT
        self.cdf = np.cumsum(weights / weights.sum())
        self.rng = np.random.default_rng(seed)
        self.pick = random.Random(seed)
        self.topic_low = len(FUNCTION_WORDS)
        real = set(CONTENT_WORDS)
        self.real_words = [word for word in vocabulary if word in real]

    def words(self, count: int) -> list[str]:
        draws = np.searchsorted(self.cdf, self.rng.random(count), side="right")
        last = len(self.vocabulary) - 1
        return [self.vocabulary[min(int(i), last)] for i in draws]

    def topic(self) -> list[str]:
        """Three words this entry keeps coming back to (burstiness), half of them real words."""
        high = min(len(self.vocabulary), 6000)
        return [
            self.pick.choice(self.real_words)
            if self.pick.random() < REAL_TOPIC_SHARE
            else self.vocabulary[self.pick.randrange(self.topic_low, high)]
            for _ in range(3)
        ]

    def heading(self, topic: list[str]) -> str:
        extra = self.words(self.pick.randint(1, 3))
        words = [*topic[: self.pick.randint(1, 2)], *extra]
        self.pick.shuffle(words)
        return " ".join(words).capitalize()

    def body(self, topic: list[str]) -> str:
        count = self.entry_length()
        drawn = self.words(count)
        for i in range(count):
            if self.pick.random() < TOPIC_SHARE:
                drawn[i] = self.pick.choice(topic)
        paragraphs: list[str] = []
        position = 0
        while position < count:
            size = min(count - position, self.pick.randint(12, 60))
            chunk = drawn[position : position + size]
            position += size
            if self.pick.random() < 0.2 and size >= 12:
                items = [chunk[i : i + 4] for i in range(0, len(chunk), 4)]
                paragraphs.append("\n".join("- " + " ".join(item) for item in items))
            else:
                paragraphs.append(self.sentences(chunk))
        return "\n\n".join(paragraphs)

    def sentences(self, words: list[str]) -> str:
        out: list[str] = []
        start = 0
        while start < len(words):
            end = min(len(words), start + self.pick.randint(5, 16))
            sentence = list(words[start:end])
            if self.pick.random() < 0.08:
                sentence[-1] = f"`{sentence[-1]}_{self.pick.choice(self.vocabulary[:500])}`"
            out.append(" ".join(sentence).capitalize() + ".")
            start = end
        return " ".join(out)

    def entry_length(self) -> int:
        """20–400 words, skewed short like real notes (log-uniform)."""
        value: float = MIN_WORDS * (MAX_WORDS / MIN_WORDS) ** self.pick.random()
        return max(MIN_WORDS, min(MAX_WORDS, round(value)))

    def section(self, *, daily: bool) -> str:
        topic = self.topic()
        if daily and self.pick.random() < 0.3:
            clock = f"{self.pick.randrange(24):02d}:{self.pick.randrange(60):02d}"
            heading = f"{clock}:{self.pick.randrange(60):02d} UTC"
            return f"## {heading}\n\n**{self.heading(topic)}.**\n\n{self.body(topic)}\n"
        return f"## {self.heading(topic)}\n\n{self.body(topic)}\n"


def plan_daily_files(
    entries: int, today: dt.date, rng: random.Random
) -> Iterator[tuple[dt.date, int]]:
    """(day, section count) per daily file, spread over two years, 1–10 sections each."""
    remaining = entries
    while remaining > 0:
        count = min(remaining, rng.randint(1, 10))
        remaining -= count
        yield today - dt.timedelta(days=rng.randrange(SPAN_DAYS)), count


def write_corpus(
    root: Path, entries: int, *, today: dt.date, seed: int = DEFAULT_SEED
) -> CorpusSummary:
    """Write `entries` sections under `root`: ~5% in `MEMORY.md`, the rest in daily notes.

    Days that already have a note get session files `YYYY-MM-DD-<slug>.md`, as agents write.
    """
    vocabulary = build_vocabulary(seed)
    writer = ProseWriter(vocabulary, seed)
    layout = random.Random(seed + 1)
    long_term = min(entries, max(1, round(entries * LONG_TERM_SHARE))) if entries else 0
    memory_dir = root / "memory"
    memory_dir.mkdir(parents=True, exist_ok=True)
    sections = [writer.section(daily=False) for _ in range(long_term)]
    (root / "MEMORY.md").write_text("# Long-term memory\n\n" + "\n".join(sections), "utf-8")
    daily_files: list[Path] = []
    per_day: dict[dt.date, int] = {}
    for day, count in plan_daily_files(entries - long_term, today, layout):
        seen = per_day.get(day, 0)
        per_day[day] = seen + 1
        name = day.isoformat() if seen == 0 else f"{day.isoformat()}-session-{seen}"
        path = memory_dir / f"{name}.md"
        text = "\n".join(writer.section(daily=True) for _ in range(count))
        path.write_text(f"# {day.isoformat()}\n\n{text}", "utf-8")
        daily_files.append(path)
    return CorpusSummary(
        root=root, entries=entries, files=len(daily_files) + 1, daily_files=tuple(daily_files)
    )
