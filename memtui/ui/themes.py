"""Load Textual themes from TOML files: the shipped ones and the user's.

Shipped themes live in the package (`memtui/themes/*.toml`; the top-level `themes/` folder is a
symlink to it, so there is one source of truth). User themes come from
`$XDG_CONFIG_HOME/memtui/themes/*.toml` and may override a shipped one by name. A broken file
never stops the app: it is skipped with a warning the UI shows.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from rich.terminal_theme import TerminalTheme
from textual.color import Color, ColorParseError
from textual.theme import Theme

from memtui.core.reading.small_file import read_small_file
from memtui.core.settings.xdg import config_home
from memtui.ui.contrast import readable

DEFAULT_THEME = "memtui-dark"
MAX_THEME_FILE_BYTES = 64 * 1024
COLOR_KEYS = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
MEMTUI_VARIABLES = {
    "factor-relevance": "#5fa8d3",
    "factor-source": "#b48ead",
    "factor-recency": "#74c58a",
    "factor-position": "#f2b35e",
    "match-foreground": "#000000",
    "match-background": "#f2b35e",
    "badge-long-term": "#b48ead",
    "badge-daily": "#74c58a",
    "badge-note": "#5fa8d3",
    "muted": "#8a8a8a",
}
"""memtui's own CSS variables; every registered theme gets them (its values or these)."""


TEXT_VARIABLES = (
    "foreground",
    "muted",
    "text-primary",
    "text-secondary",
    "text-accent",
    "text-warning",
    "text-error",
    "text-success",
    "factor-relevance",
    "factor-source",
    "factor-recency",
    "factor-position",
    "badge-long-term",
    "badge-daily",
    "badge-note",
)
"""Colours memtui draws text in on the surfaces below (`$accent` and friends are for borders
and fills: text uses Textual's `$text-accent` etc., which are kept readable here)."""
TEXT_SURFACES = ("surface", "panel", "background")
TEXT_PAIRS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("block-cursor-foreground", ("block-cursor-background",)),
    ("block-cursor-blurred-foreground", ("block-cursor-blurred-background",)),
    ("match-foreground", ("match-background",)),
    ("footer-foreground", ("footer-background",)),
    (
        "footer-key-foreground",
        ("footer-background", "footer-item-background", "footer-key-background"),
    ),
    (
        "footer-description-foreground",
        ("footer-background", "footer-item-background", "footer-description-background"),
    ),
)
"""Text colours with the backgrounds they are drawn on, bottom layer first, over the list's
surface (a footer key sits on its item, on the footer: any of them may be see-through)."""


class ThemeFileError(ValueError):
    """A theme file that cannot be used; the message names the file and the problem."""


@dataclass
class ThemeSet:
    themes: dict[str, Theme] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def user_themes_dir() -> Path:
    return config_home() / "memtui" / "themes"


def shipped_theme_files() -> list[Path]:
    folder = resources.files("memtui") / "themes"
    return sorted(Path(str(item)) for item in folder.iterdir() if item.name.endswith(".toml"))


def _colour(where: str, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ThemeFileError(f"{where}: {key}: expected a colour string, got {value!r}")
    try:
        Color.parse(value)
    except ColorParseError:
        raise ThemeFileError(f"{where}: {key}: not a colour: {value!r}") from None
    return value


def theme_from_table(table: dict[str, Any], where: str) -> Theme:
    """Build a Theme from a parsed TOML table, validating every colour."""
    name = table.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 64:
        raise ThemeFileError(f"{where}: name: expected a theme name (1–64 characters)")
    if "primary" not in table:
        raise ThemeFileError(f"{where}: primary: missing (every theme needs a primary colour)")
    colours = {key: _colour(where, key, table[key]) for key in COLOR_KEYS if key in table}
    dark = table.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeFileError(f"{where}: dark: expected true or false")
    spread = table.get("luminosity_spread", 0.15)
    if isinstance(spread, bool) or not isinstance(spread, int | float) or not 0 <= spread <= 1:
        raise ThemeFileError(f"{where}: luminosity_spread: expected a number between 0 and 1")
    raw_variables = table.get("variables", {})
    if not isinstance(raw_variables, dict):
        raise ThemeFileError(f"{where}: variables: expected a table")
    variables = dict(MEMTUI_VARIABLES)
    for key, value in raw_variables.items():
        if not isinstance(value, str):
            raise ThemeFileError(f"{where}: variables.{key}: expected a string")
        variables[str(key)] = value
    return Theme(
        name=name.strip(),
        primary=colours["primary"],
        secondary=colours.get("secondary"),
        accent=colours.get("accent"),
        warning=colours.get("warning"),
        error=colours.get("error"),
        success=colours.get("success"),
        foreground=colours.get("foreground"),
        background=colours.get("background"),
        surface=colours.get("surface"),
        panel=colours.get("panel"),
        boost=colours.get("boost"),
        dark=dark,
        luminosity_spread=float(spread),
        variables=variables,
    )


def load_theme_file(path: Path) -> Theme:
    try:  # as every file besides memory is read: a FIFO named *.toml would block the start
        table = tomllib.loads(read_small_file(path, MAX_THEME_FILE_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ThemeFileError(f"{path}: cannot read: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ThemeFileError(f"{path}: invalid TOML: {exc}") from exc
    except RecursionError:
        raise ThemeFileError(f"{path}: invalid TOML: nested too deeply") from None
    return theme_from_table(table, str(path))


def load_themes(user_dir: Path | None = None) -> ThemeSet:
    """Shipped themes, then user themes (which may replace a shipped one of the same name)."""
    result = ThemeSet()
    folder = user_dir if user_dir is not None else user_themes_dir()
    user_files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    for path in [*shipped_theme_files(), *user_files]:
        try:
            theme = load_theme_file(path)
        except ThemeFileError as exc:
            result.warnings.append(f"theme skipped: {exc}")
            continue
        result.themes[theme.name] = theme
    return result


def _solid(
    value: str, under: Color, terminal: TerminalTheme, *, fill: bool = False
) -> Color | None:
    """A CSS variable's colour as drawn over `under` (None: not a colour).

    Understands what Textual's themes use: hex and names, `X NN%` (alpha), `auto NN%` (black or
    white, whichever contrasts with `under`) and ANSI colours, which resolve through `terminal`
    as Textual does when it converts them to true colour (`ansi_default` is the terminal's
    background for a `fill`, its foreground for text).
    """
    name, _, percent = value.strip().partition(" ")
    try:
        alpha = float(percent.rstrip("%")) / 100 if percent else 1.0
        color = under.get_contrast_text(1.0) if name == "auto" else Color.parse(name)
    except (ColorParseError, ValueError):
        return None
    if color.ansi is not None:
        if color.ansi < 0:
            rgb = terminal.background_color if fill else terminal.foreground_color
        else:
            rgb = terminal.ansi_colors[color.ansi]
        color = Color(*rgb, a=color.a)
    return under.blend(color.with_alpha(1.0), color.a * alpha)


def readable_variables(variables: dict[str, str], terminal: TerminalTheme) -> dict[str, str]:
    """`variables` with every text colour memtui uses moved to WCAG AA (4.5:1) on its background.

    Applied to whatever theme is active — shipped, the user's or Textual's — so a new theme is
    readable without being tuned by hand. Colours that already pass are left as they are.
    """
    out = dict(variables)
    screen = Color(*terminal.background_color)
    background = _solid(variables.get("background", ""), screen, terminal, fill=True) or screen
    surfaces = [
        solid
        for name in TEXT_SURFACES
        if (solid := _solid(variables.get(name, ""), background, terminal, fill=True)) is not None
    ]
    surface = surfaces[0] if surfaces else background
    for name in TEXT_VARIABLES:
        color = _solid(variables.get(name, ""), surface, terminal)
        if color is None:
            continue
        adjusted = color
        for _ in range(2):
            for under in surfaces:
                adjusted = readable(adjusted, under)
        if adjusted != color:
            out[name] = adjusted.hex
    for foreground_name, background_names in TEXT_PAIRS:
        fill: Color | None = None
        for name in background_names:
            fill = _solid(variables.get(name, ""), fill or surface, terminal, fill=True) or fill
        if fill is None:
            continue
        color = _solid(variables.get(foreground_name, ""), fill, terminal)
        if color is None:
            continue
        adjusted = readable(color, fill)
        if adjusted != color:
            out[foreground_name] = adjusted.hex
    return out
