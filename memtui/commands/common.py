"""What the headless commands share: their startup from parsed arguments, masking and JSON."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from typing import Any, TextIO

from msgspec.structs import replace

from memtui.core.sanitize import undecodable_bytes_visible
from memtui.core.secrets import mask_secrets
from memtui.core.settings.config import Config
from memtui.startup import Startup, load_startup

_JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]"
)
"""Characters json.dumps(ensure_ascii=False) leaves raw but a terminal must never receive (lone
surrogates cannot even be written as UTF-8)."""


def startup_from_args(args: argparse.Namespace) -> Startup:
    """`load_startup` with the options every memtui command line has (see `cli.add_common`)."""
    given = args.roots if isinstance(args.roots, list) else [args.roots] if args.roots else []
    startup = load_startup(
        roots=given,
        every=getattr(args, "every", False),
        demo=args.demo,
        config_path=args.config,
        today=args.today,
        days=args.days,
    )
    if getattr(args, "no_cache", False):
        return replace(startup, config=replace(startup.config, cache=False))
    return startup


def secrets_masked(args: argparse.Namespace, config: Config) -> bool:
    """Whether printed file text is masked: unless --reveal-secrets or the config says no."""
    return config.mask_secrets and not getattr(args, "reveal_secrets", False)


def secret_masker(args: argparse.Namespace, config: Config) -> Callable[[str], str]:
    """What printed file text goes through (`secrets_masked`)."""
    if not secrets_masked(args, config):
        return lambda text: text
    return lambda text: mask_secrets(text)[0]


def dump_json(payload: Any, stream: TextIO) -> None:
    """Write JSON that keeps CJK readable but escapes DEL, C1 and bidi controls as `\\uXXXX`.

    Those characters can only occur inside JSON strings, so escaping them keeps the same value.
    An undecodable byte of a file name becomes the string `\\xNN`, as every other output shows
    it, in every field: a root's path and its label read the same.
    """
    text = json.dumps(payload, ensure_ascii=False, indent=2)
    stream.write(_JSON_UNSAFE.sub(_json_escape, text))
    stream.write("\n")


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    shown = undecodable_bytes_visible(char)
    if shown != char:
        return json.dumps(shown)[1:-1]  # `\\xe9`: a backslash, as JSON writes one
    return f"\\u{ord(char):04x}"
