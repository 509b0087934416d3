"""YAML frontmatter, read defensively: size and depth are checked before YAML sees a byte.

libyaml can crash the process on ~30k nested `[` and alias bombs expand when stringified, so:
the block is capped at 64 KB, its nesting (brackets plus indentation) at 20 levels, anchors and
aliases are rejected, only the pure-Python safe loader runs, and YAML timestamps stay strings
(an impossible `date: 2026-02-30` must not cost the rest of the metadata). A block that is not a
mapping was never frontmatter (a daily note may simply open with a `---` rule) and stays content;
a block that looks like `key: value` lines but fails to parse is bad frontmatter: it is left out
of the entries and every entry of the file carries a warning.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from msgspec import Struct

MAX_FRONTMATTER_BYTES = 64 * 1024
MAX_FRONTMATTER_DEPTH = 20
MAX_VALUE_CHARS = 1000
_DELIMITER = re.compile(r"^---[ \t]*$")
_CLOSER = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
_LOOKS_LIKE_MAPPING = re.compile(r"^[\w\"'][^:\n]*:(?:[ \t]|$)")
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INDENT = re.compile(r"^[ \t\-?:]*", re.M)
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


@cache
def _loader() -> Any:
    """SafeLoader that refuses anchors and aliases and leaves timestamps as strings. Made at
    the first frontmatter: a start from the cache reads no file and never loads YAML."""
    import yaml

    class SafeNoAliasLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.peek_event()  # type: ignore[no-untyped-call]
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                raise yaml.YAMLError("anchors and aliases are not allowed")
            return super().compose_node(parent, index)

    SafeNoAliasLoader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP_TAG]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return SafeNoAliasLoader


class Frontmatter(Struct, frozen=True):
    """What a file's leading `---` block gave; `body_start` is the first body line (0-based)."""

    body_start: int = 0
    fields: tuple[tuple[str, str], ...] = ()
    tags: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def get(self, key: str) -> str | None:
        for name, value in self.fields:
            if name == key:
                return value
        return None


NO_FRONTMATTER = Frontmatter()


def nesting_depth(block: str) -> int:
    """A cheap upper bound of the YAML nesting: deepest bracket run plus deepest indentation."""
    depth = deepest = 0
    for char in _NOT_BRACKET.sub("", block):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif depth:
            depth -= 1
    indent = max((len(match) for match in _INDENT.findall(block)), default=0)
    return deepest + indent // 2


def read_frontmatter(lines: list[str]) -> Frontmatter:
    """Find and parse the frontmatter block at the top of `lines`, never raising."""
    if not lines or not _DELIMITER.match(lines[0]):
        return NO_FRONTMATTER
    size = 0
    close = -1
    for index in range(1, len(lines)):
        if _CLOSER.match(lines[index]):
            close = index
            break
        size += len(lines[index]) + 1
    if close < 0:
        return NO_FRONTMATTER
    block_lines = lines[1:close]
    if size > MAX_FRONTMATTER_BYTES:
        return Frontmatter(
            body_start=close + 1,
            warnings=(f"frontmatter ignored: larger than {MAX_FRONTMATTER_BYTES // 1024} KB",),
        )
    block = "\n".join(block_lines)
    first = next((line for line in block_lines if line.strip()), "")
    looks_like_mapping = bool(_LOOKS_LIKE_MAPPING.match(first))
    if nesting_depth(block) > MAX_FRONTMATTER_DEPTH:
        return Frontmatter(
            body_start=close + 1,
            warnings=(f"frontmatter ignored: nested deeper than {MAX_FRONTMATTER_DEPTH} levels",),
        )
    import yaml

    try:
        data = yaml.load(block, Loader=_loader())
    except (yaml.YAMLError, RecursionError, ValueError, TypeError) as exc:
        if not looks_like_mapping:
            return NO_FRONTMATTER
        reason = str(exc).split("\n", 1)[0][:120]
        return Frontmatter(body_start=close + 1, warnings=(f"frontmatter ignored: {reason}",))
    if data is None:
        return Frontmatter(body_start=close + 1)
    if not isinstance(data, dict):
        return NO_FRONTMATTER
    fields = tuple((_flatten(key), _flatten(value)) for key, value in data.items())
    tags = _tags(data.get("tags", data.get("tag")))
    return Frontmatter(body_start=close + 1, fields=fields, tags=tags)


def _flatten(value: Any) -> str:
    """A YAML value as one display string, capped (keys may be ints, dates, None …)."""
    if value is None:
        text = ""
    elif isinstance(value, list | tuple):
        text = ", ".join(_flatten(item) for item in value)
    elif isinstance(value, dict):
        text = "; ".join(f"{_flatten(k)}: {_flatten(v)}" for k, v in value.items())
    else:
        text = str(value)
    if len(text) > MAX_VALUE_CHARS:
        text = text[: MAX_VALUE_CHARS - 1] + "…"
    return text


def _tags(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    items = value if isinstance(value, list | tuple) else re.split(r"[,\s]+", str(value))
    tags: list[str] = []
    for item in items:
        tag = _flatten(item).strip().lstrip("#").strip()
        if tag and tag not in tags:
            tags.append(tag[:100])
    return tuple(tags[:50])
