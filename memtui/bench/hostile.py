"""Build a memory folder written by an attacker, for tests and `scripts/measure_stall.py`.

`build_hostile_corpus(root)` plants terminal escape payloads (in headings, bodies, frontmatter
values and file names), markup payloads, odd encodings, size and YAML bombs and file-system
traps. It returns what it planted so tests can look for the exact payload bytes in whatever
memtui writes. `build_hostile_surroundings(home)` does the same for what surrounds the memory:
history, config, cache and Claude Code's folder under a fake home. `build_heavy_files(root)`
adds the two slow-to-process giants (a 20 MB single-line file and a 50,000-section file) for
responsiveness checks only.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memtui.core.cache.folder import CacheFolder
from memtui.core.settings.config import Config

CLIPBOARD_TEXT = "HOSTILE-CLIPBOARD-PAYLOAD"
CLIPBOARD_B64 = base64.b64encode(CLIPBOARD_TEXT.encode()).decode()
TITLE_TEXT = "HOSTILE-TITLE-PAYLOAD"
LINK_URL = "https://evil.example/HOSTILE-LINK"
OUTSIDE_MARKER = "OUTSIDE-ROOT-MARKER-never-load-me"
UNREADABLE_MARKER = "UNREADABLE-MARKER-never-load-me"

ESCAPE_PAYLOADS: dict[str, str] = {
    "osc52_clipboard": f"\x1b]52;c;{CLIPBOARD_B64}\x07",
    "osc0_title": f"\x1b]0;{TITLE_TEXT}\x07",
    "osc2_title": f"\x1b]2;{TITLE_TEXT}-2\x1b\\",
    "osc8_link": f"\x1b]8;;{LINK_URL}\x1b\\click me\x1b]8;;\x1b\\",
    "csi_clear": "\x1b[2J\x1b[H\x1b[3J",
    "csi_cursor": "\x1b[10;10H\x1b[5A\x1b[?25l",
    "dcs": "\x1bPHOSTILE-DCS\x1b\\",
    "apc": "\x1b_HOSTILE-APC\x1b\\",
    "ris": "\x1bc",
    "c1_csi": "\x9b31mHOSTILE-C1-CSI",
    "c1_osc": f"\x9d0;{TITLE_TEXT}-C1\x9c",
    "del": "before\x7fafter",
    "bidi_override": "\u202eevil.exe\u202c",
}
"""Escape and control payloads, as text (written to files as UTF-8)."""

TERMINAL_SIGNATURES: dict[str, bytes] = {
    "osc52_clipboard": f"\x1b]52;c;{CLIPBOARD_B64}".encode(),
    "osc0_title": f"\x1b]0;{TITLE_TEXT}".encode(),
    "osc2_title": f"\x1b]2;{TITLE_TEXT}".encode(),
    "osc8_link": f"\x1b]8;;{LINK_URL}".encode(),
    "dcs": b"\x1bPHOSTILE-DCS",
    "apc": b"\x1b_HOSTILE-APC",
    "c1_csi": "\x9b31mHOSTILE".encode(),
    "c1_osc": f"\x9d0;{TITLE_TEXT}".encode(),
    "bidi_override": "\u202eevil".encode(),
}
"""Byte strings that only appear in terminal output if a planted payload got through raw.

Specific to the payloads (not just ESC) because a TUI legitimately writes its own escapes.
"""

MARKUP_PAYLOADS: tuple[str, ...] = (
    "[bold]BOLD-MARKUP[/bold]",
    "[/",
    "[link=file:///etc/passwd]LINK-MARKUP[/link]",
    "[@click=app.quit]CLICK-QUIT[/]",
    "[$accent @click=app.quit]ACCENT-CLICK[/]",
    "[red on blue]COLOUR[/]",
    "[link='https://evil.example/markup']evil[/link]",
)

MARKDOWN_LINKS = (
    "[click here](https://evil.example/md-link)\n"
    "<https://evil.example/autolink>\n"
    "![image](file:///etc/passwd)\n"
    "[local](../../../etc/passwd)\n"
)


@dataclass
class HostileCorpus:
    root: Path
    outside: Path
    """A sibling folder outside the root that symlinks point into; never to be loaded."""
    escape_payloads: dict[str, str] = field(default_factory=lambda: dict(ESCAPE_PAYLOADS))
    terminal_signatures: dict[str, bytes] = field(default_factory=lambda: dict(TERMINAL_SIGNATURES))
    markup_payloads: tuple[str, ...] = MARKUP_PAYLOADS
    expected_skips: dict[str, str] = field(default_factory=dict)
    """Relative path -> a word its skip reason must contain."""
    permissions_enforced: bool = True
    """False when running as root, where chmod 000 does not stop reads."""
    hostile_file_names: tuple[str, ...] = ()


def _write(path: Path, text: str, encoding: str = "utf-8") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))


def _escape_files(root: Path) -> list[str]:
    """Every escape payload in a heading, a body and a frontmatter value; and in file names."""
    sections = []
    for name, payload in ESCAPE_PAYLOADS.items():
        sections.append(f"## Heading {name} {payload} end\n\nBody of {name}: {payload} end.\n")
    _write(root / "MEMORY.md", "# Hostile memory\n\n" + "\n".join(sections))
    daily = "\n".join(
        f"## 09:{minute:02d}\n{payload} in a daily note\n\n---\n"
        for minute, payload in enumerate(ESCAPE_PAYLOADS.values())
    )
    _write(root / "memory" / "2026-11-20.md", "# Daily Note - 2026-11-20\n\n" + daily)
    # YAML double-quoted strings turn \e, \a and \x9b escapes into the real control characters.
    frontmatter = (
        "---\n"
        f'name: "\\e]0;{TITLE_TEXT}\\a frontmatter name"\n'
        f'description: "\\e]52;c;{CLIPBOARD_B64}\\a and \\x9b31m and \\u202e"\n'
        "type: user\n"
        'tags: ["\\e[2J", "\\e]8;;https://evil.example/HOSTILE-LINK\\e\\\\tag"]\n'
        "---\n\n"
        f"## Frontmatter note\n{ESCAPE_PAYLOADS['osc52_clipboard']}\n"
    )
    _write(root / "notes" / "escape-frontmatter.md", frontmatter)
    names = [
        f"\x1b]0;{TITLE_TEXT}\x07.md",
        "\x1b[2J\x1b[H-clear.md",
        f"\x1b]52;c;{CLIPBOARD_B64}\x07.md",
        "\u202egnp.md",
        "\x9b31m-c1.md",
        "del\x7f.md",
    ]
    for name in names:
        _write(root / "names" / name, f"## File named with a payload\nsee the name {name!r}\n")
    return [f"names/{name}" for name in names]


def _markup_files(root: Path) -> list[str]:
    body = "\n".join(
        f"## {payload} heading\n{payload} body {payload}\n" for payload in MARKUP_PAYLOADS
    )
    _write(root / "markup.md", "# Markup\n\n" + body + "\n## Links\n" + MARKDOWN_LINKS)
    names = ["[@click=app.quit]x[]", "[bold]name[", "[link=file:::etc:passwd]x"]
    for name in names:
        _write(root / "names" / f"{name}.md", f"## Markup in the file name\n{name}\n")
    return [f"names/{name}.md" for name in names]


def _encoding_files(root: Path) -> dict[str, str]:
    text = "## Encoded heading\nsome body line\n## Second\nmore\n"
    _write(root / "enc" / "bom-utf8.md", "\ufeff" + text)
    _write(root / "enc" / "utf16-le.md", "\ufeff" + text, "utf-16-le")
    _write(root / "enc" / "utf16-be.md", "\ufeff" + text, "utf-16-be")
    invalid = b"## Bad bytes \xff\xfe\xc3\x28 here\nbody \x80\n"
    (root / "enc" / "invalid-utf8.md").write_bytes(invalid)
    (root / "enc" / "binary.md").write_bytes(b"## Looks like markdown\n\x00\x01\x02binary\x00")
    (root / "enc" / "cr-only.md").write_bytes(b"## One\rfirst\r## Two\rsecond\r")
    (root / "enc" / "crlf.md").write_bytes(b"## One\r\nfirst\r\n## Two\r\nsecond\r\n")
    separators = "## Line\u2028separator\nbody\u2028with U+2028\u0085and NEL\n"
    _write(root / "enc" / "separators.md", separators)
    return {"enc/binary.md": "binary"}


def _size_files(root: Path) -> None:
    block = b"## Oversized section\n" + b"filler line of an oversized memory file\n" * 200
    repeats = (4 * 1024 * 1024 + 512 * 1024) // len(block) + 1
    (root / "big").mkdir()
    (root / "big" / "oversized.md").write_bytes(block * repeats)
    _write(root / "big" / "huge-heading.md", "## " + "H" * 100_000 + "\nbody\n")
    _write(root / "big" / "many-sections.md", "".join(f"## S{i}\nb\n" for i in range(3_000)))


def _yaml_bombs(root: Path) -> None:
    yaml_dir = root / "yaml"
    brackets = "---\nx: " + "[" * 30_000 + "\n---\n## Body survives\ntext\n"
    _write(yaml_dir / "nested-brackets.md", brackets)
    aliases = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
    )
    _write(yaml_dir / "alias-bomb.md", "---\n" + aliases + "---\n## Alias body\ntext\n")
    deep = "".join("  " * depth + f"k{depth}:\n" for depth in range(2_000))
    _write(yaml_dir / "deep-indent.md", "---\n" + deep + "---\n## Deep body\ntext\n")
    _write(
        yaml_dir / "non-string-keys.md",
        "---\n1: one\ntrue: yes\n[a, b]: list\n? {x: 1}\n: mapping\nnull: nothing\n"
        "2026-11-20: date\n---\n## Keys body\ntext\n",
    )
    big = "".join(f"key{i}: {'v' * 90}\n" for i in range(1_100))
    _write(yaml_dir / "huge-frontmatter.md", "---\n" + big + "---\n## Huge fm body\ntext\n")


def _deep_tree(top: Path, levels: int) -> None:
    """A `levels`-deep chain of folders with a Markdown file at the bottom, built without
    recursion and without ever passing a path longer than one name to the kernel."""
    top.mkdir()
    folder = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(levels):
            os.mkdir("d", dir_fd=folder)
            child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=folder)
            os.close(folder)
            folder = child
        note = os.open("bottom.md", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=folder)
        os.write(note, b"## Bottom\nvery deep\n")
        os.close(note)
    finally:
        os.close(folder)


def _file_system_traps(root: Path, outside: Path) -> tuple[dict[str, str], bool]:
    skips: dict[str, str] = {}
    traps = root / "fs"
    traps.mkdir()
    (traps / "loop-a.md").symlink_to("loop-b.md")
    (traps / "loop-b.md").symlink_to("loop-a.md")
    (traps / "self-folder").symlink_to(".")
    skips |= {"fs/loop-a.md": "symlink", "fs/loop-b.md": "symlink", "fs/self-folder": "symlink"}

    outside.mkdir(exist_ok=True)
    _write(outside / "secret.md", f"## Outside\n{OUTSIDE_MARKER}\n")
    _write(outside / "folder" / "inner.md", f"## Outside folder\n{OUTSIDE_MARKER}\n")
    (traps / "escape-file.md").symlink_to(outside / "secret.md")
    (traps / "escape-folder").symlink_to(outside / "folder")
    (traps / "escape-relative.md").symlink_to(Path("..") / ".." / outside.name / "secret.md")
    skips |= {"fs/escape-file.md": "leaves", "fs/escape-folder": "leaves"}
    skips["fs/escape-relative.md"] = "leaves"

    os.mkfifo(traps / "pipe.md")
    skips["fs/pipe.md"] = "FIFO"
    (traps / "link-to-pipe.md").symlink_to("pipe.md")

    _deep_tree(traps / "deep", 1_200)

    (traps / "x.md").mkdir()
    _write(traps / "x.md" / "inside.md", "## Inside a folder named x.md\nok\n")

    locked_file = traps / "unreadable.md"
    _write(locked_file, f"## Locked\n{UNREADABLE_MARKER}\n")
    locked_file.chmod(0)
    locked_folder = traps / "unreadable-folder"
    _write(locked_folder / "inside.md", f"## Locked folder\n{UNREADABLE_MARKER}\n")
    locked_folder.chmod(0)
    enforced = os.geteuid() != 0
    if enforced:
        skips |= {"fs/unreadable.md": "permission", "fs/unreadable-folder": "permission"}
    return skips, enforced


def _many_files(root: Path, count: int) -> None:
    many = root / "many"
    many.mkdir()
    for index in range(count):
        (many / f"note-{index:05d}.md").write_bytes(b"## Small note\nshort body\n")


HostileFactory = Callable[[int], HostileCorpus]
"""conftest's `hostile_corpus` fixture: the shared corpus with this many small files."""


def build_hostile_corpus(root: Path, *, many_files: int = 2_000) -> HostileCorpus:
    """Create the hostile memory folder at `root` (and an `outside` sibling it must not read)."""
    root.mkdir(parents=True, exist_ok=True)
    outside = root.parent / f"{root.name}-outside"
    names = _escape_files(root)
    names += _markup_files(root)
    skips = _encoding_files(root)
    _size_files(root)
    _yaml_bombs(root)
    fs_skips, enforced = _file_system_traps(root, outside)
    _many_files(root, many_files)
    return HostileCorpus(
        root=root,
        outside=outside,
        expected_skips=skips | fs_skips,
        permissions_enforced=enforced,
        hostile_file_names=tuple(names),
    )


def build_heavy_files(root: Path) -> None:
    """The two giants of the responsiveness check: 20 MB on one line, 50,000 sections."""
    root.mkdir(parents=True, exist_ok=True)
    with (root / "heavy-single-line.md").open("wb") as handle:
        handle.write(b"## One enormous line\n")
        chunk = b"word " * 200_000
        for _ in range(20):
            handle.write(chunk)
        handle.write(b"\n")
    (root / "heavy-50k-sections.md").write_bytes(
        b"".join(b"## Section %d\nbody of section %d\n" % (i, i) for i in range(50_000))
    )


def cleanup(corpus: HostileCorpus) -> None:
    """Undo what pytest's tmp_path cleanup cannot: chmod 000 traps and the 1,200-deep tree
    (`shutil.rmtree` recurses once per level and would raise RecursionError)."""
    for path in (corpus.root / "fs" / "unreadable.md", corpus.root / "fs" / "unreadable-folder"):
        if path.exists():
            path.chmod(0o755)
    chain = [corpus.root / "fs" / "deep"]
    while (chain[-1] / "d").is_dir():
        chain.append(chain[-1] / "d")
    for folder in reversed(chain):
        for item in folder.iterdir():
            if not item.is_dir():
                item.unlink()
        folder.rmdir()


@dataclass
class HostileSurroundings:
    """What surrounds the memory, written by an attacker (or an unlucky day): under `home`."""

    home: Path
    environment: dict[str, str]
    """HOME, XDG_* and CLAUDE_CONFIG_DIR pointing into `home`."""
    bad_configs: dict[str, Path]
    """Config files each of which must be refused with exit 2, by what is wrong with them."""
    deep_project: Path
    """A project folder inside a path longer than 275 characters (its Claude name is > 255)."""
    locked: list[Path] = field(default_factory=list)
    """chmod 000 folders, for `cleanup_surroundings`."""


def _json_nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def build_hostile_surroundings(home: Path) -> HostileSurroundings:
    """History with escapes, over-long lines and too many of them; a config whose keymap and
    theme hold escapes, and configs that are NaN, a FIFO or a link to /dev/zero; a cache folder
    with a header nested 200k deep and the leftover of a killed write; Claude projects with a
    transcript line nested 30k deep, a FIFO named `*.jsonl` and a mode-000 project."""
    state, config, cache = home / "state" / "memtui", home / "config" / "memtui", home / "cache"
    for folder in (state, config, cache / "memtui"):
        folder.mkdir(parents=True, exist_ok=True)
    lines = [f"recall {payload} me" for payload in ESCAPE_PAYLOADS.values()]
    lines += ["x" * 100_000] + [f"query {number}" for number in range(2_000)]
    _write(state / "history", "\n".join(reversed(lines)) + "\n")
    escape = ESCAPE_PAYLOADS["osc0_title"].replace("\x1b", "\\u001b").replace("\x07", "\\u0007")
    _write(
        config / "config.toml",
        f'theme = "{escape}"\n[keymap]\n"pane.help" = "{escape}"\n"pane.quit" = "\\u001bc"\n',
    )
    bad = home / "bad-configs"
    bad.mkdir(exist_ok=True)
    _write(bad / "nan.toml", "min_score = nan\n[weights]\nrelevance = inf\n")
    os.mkfifo(bad / "fifo.toml")
    (bad / "zero.toml").symlink_to("/dev/zero")
    _write(bad / "deep.toml", f"a = {_json_nested(30_000)}\n")
    deep = home / "deep"
    while len(str(deep)) <= 275:
        deep = deep / "abcdefghijklmnopqrstuvwxyz0123456789"
    _write(deep / "MEMORY.md", "# Memory\n\n## Deep\nin a long path\n")
    nested = _json_nested(200_000).encode()
    CacheFolder(cache / "memtui").file_for(deep, days=Config().days).write_bytes(
        b"memtui-cache\n" + nested + len(nested).to_bytes(8, "little") + b"memtui-cache\n"
    )
    (cache / "memtui" / ".tmp-999999999-k1ll3d.part").write_bytes(b"\0" * 4096)
    projects = home / "claude" / "projects"
    for name in ("-deep-json", "-fifo", "-locked", "-fine"):
        _write(projects / name / "memory" / "MEMORY.md", "# Memory\n\n## Fine\nok\n")
    _write(projects / "-deep-json" / "s.jsonl", _json_nested(30_000) + '\n{"cwd": "/x"}\n')
    os.mkfifo(projects / "-fifo" / "s.jsonl")
    (projects / "-locked").chmod(0)
    environment = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(cache),
        "CLAUDE_CONFIG_DIR": str(home / "claude"),
    }
    bad_configs = {path.stem: path for path in sorted(bad.iterdir())}
    return HostileSurroundings(home, environment, bad_configs, deep, [projects / "-locked"])


def cleanup_surroundings(surroundings: HostileSurroundings) -> None:
    for folder in surroundings.locked:
        folder.chmod(0o755)
