"""The rooms of memtui/ui, enforced: imports point one way and none hides inside a function.

    leaves (render, status, filters, bindings, messages, themes, widths, heap)
        <-  widgets/*  <-  screens/*  <-  app

A module may import its own layer or any lower one at run time; type-only imports (under
`if TYPE_CHECKING:`) may name the app, which is how screens and widgets type `self.app`.
Screens other than the main one never import it: they report through `dismiss` or messages.
`tests/test_layers.py` keeps the package-wide layers; this file looks inside the UI.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

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
