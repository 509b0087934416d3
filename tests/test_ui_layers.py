"""The rooms of memtui/ui, enforced: imports point one way and none hides inside a function.

    leaves (render, status, filters, bindings, messages, themes, widths, heap)
        <-  widgets/*  <-  screens/*  <-  app

A module may import its own layer or any lower one at run time. Nothing below the app names it,
not even for typing: screens and widgets use only what Textual's `App` has (`notify`,
`push_screen`, `console`...) and are handed what memtui's app adds (the main screen its options
and an `AppLink`, the entry pane a masker and the keymap in force). Screens other than the main
one never import it: they report through `dismiss`, messages or the callables they were given.
`tests/test_layers.py` keeps the package-wide layers; this file looks inside the UI.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.app import App

UI = Path(__file__).resolve().parent.parent / "memtui" / "ui"
UI_LAYERS = ("leaf", "widgets", "screens", "app")


def ui_module(path: Path) -> str:
    parts = path.relative_to(UI.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {ui_module(path): path for path in sorted(UI.rglob("*.py"))}


def layer(module: str) -> int:
    if module == "memtui.ui.app":
        return UI_LAYERS.index("app")
    for name in ("widgets", "screens"):
        if module.startswith(f"memtui.ui.{name}"):
            return UI_LAYERS.index(name)
    return UI_LAYERS.index("leaf")


def is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def imports(path: Path) -> Iterator[tuple[str, int, bool, bool]]:
    """(imported module, line, inside a function, type-only) for every import in `path`."""

    def visit(
        node: ast.AST, in_function: bool, type_only: bool
    ) -> Iterator[tuple[str, int, bool, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, child.lineno, in_function, type_only
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    yield (full if full in MODULES else base), child.lineno, in_function, type_only
            else:
                function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                yield from visit(
                    child, in_function or function, type_only or is_type_checking(child)
                )

    yield from visit(ast.parse(path.read_text(encoding="utf-8")), False, False)


def test_no_import_inside_a_function() -> None:
    inside = [
        f"{module} (line {line}) imports {name} inside a function"
        for module in sorted(MODULES)
        for name, line, in_function, _ in imports(MODULES[module])
        if in_function
    ]
    assert not inside, "\n".join(inside)


def test_ui_imports_point_down() -> None:
    upward = [
        f"{module} (line {line}) imports {name}, a higher layer of the UI"
        for module in sorted(MODULES)
        for name, line, _, type_only in imports(MODULES[module])
        if name in MODULES and not type_only and layer(name) > layer(module)
    ]
    assert not upward, "\n".join(upward)


@pytest.mark.parametrize(
    "module",
    sorted(
        m for m in MODULES if m.startswith("memtui.ui.screens.") and m != "memtui.ui.screens.main"
    ),
)
def test_other_screens_do_not_know_the_main_screen(module: str) -> None:
    named = {name for name, *_ in imports(MODULES[module])}
    assert "memtui.ui.screens.main" not in named
    assert "memtui.ui.app" not in named


def test_the_layers_are_not_empty() -> None:
    layers = {layer(module) for module in MODULES}
    assert layers == set(range(len(UI_LAYERS)))


APP_ADAPTERS = {
    "memtui.ui.textual_private": "the one module that owns Textual's private names",
}
"""Modules that may use any attribute of the app (with the reason)."""


def app_attributes() -> frozenset[str]:
    """What Textual's own `App` has: a widget may use these through `self.app`."""
    return frozenset(dir(App()))


def memtui_app_uses(source: str, allowed: frozenset[str]) -> list[str]:
    """`self.app.X`, `widget.app.X` or `app.X` where X is not Textual's, and any mention of
    `MemtuiApp` (a `cast` to it is the same reach, hidden from the type checker)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr not in allowed:
            owner = node.value
            via_app = (isinstance(owner, ast.Attribute) and owner.attr == "app") or (
                isinstance(owner, ast.Name) and owner.id == "app"
            )
            if via_app:
                found.append((node.lineno, f"app.{node.attr}"))
        if isinstance(node, ast.Name) and node.id == "MemtuiApp":
            found.append((node.lineno, "MemtuiApp"))
        if isinstance(node, ast.Constant) and node.value == "MemtuiApp":
            found.append((node.lineno, "MemtuiApp"))
    return [f"line {line}: {what}" for line, what in sorted(found)]


def test_nothing_below_the_app_reaches_into_it() -> None:
    """Screens and widgets get narrow callables, messages or the objects they need; none calls
    up into memtui's app at run time (that hid a bug: the entry pane read the raw keymap)."""
    allowed = app_attributes()
    reaching = {
        module: uses
        for module, path in MODULES.items()
        if module != "memtui.ui.app" and module not in APP_ADAPTERS
        if (uses := memtui_app_uses(path.read_text(encoding="utf-8"), allowed))
    }
    assert not reaching, f"reach into the app (pass what they need instead): {reaching}"
    importing = [
        module
        for module, path in MODULES.items()
        if module != "memtui.ui.app" and "memtui.ui.app" in {name for name, *_ in imports(path)}
    ]
    assert not importing, f"name the app (even for typing): {importing}"
    assert set(APP_ADAPTERS) <= set(MODULES), "APP_ADAPTERS lists a module that is gone"


def test_the_app_reach_check_catches_what_it_must() -> None:
    allowed = app_attributes()
    source = """
from typing import cast
def show(self):
    app = cast("MemtuiApp", self.app)
    key = app.options.keymap.get("x")
    self.app.notify("ok")
    self.screen.app.mask("text", revealed=False)
    self.app.bell()
"""
    assert memtui_app_uses(source, allowed) == [
        "line 4: MemtuiApp",
        "line 5: app.options",
        "line 7: app.mask",
    ]
