"""Outside one adapter, memtui and its tests use only Textual's public API.

Private Textual names change without notice between releases. The uses memtui cannot do
without live in `memtui/ui/textual_private.py`, checked by `tests/test_textual_private.py`;
everything else is held to the public API here, over the source of memtui and its tests:

- no import of a private Textual module (`textual._path`, `textual.widgets._footer`);
- no attribute or `getattr` string that names a private Textual attribute, unless memtui
  defines that name itself (its own `self._lock` is not Textual's);
- no class deriving from a Textual class defines or reads a private name of its Textual bases
  (an override of `Input._watch_value`, `self._filters` in an `App`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
import textual

PROJECT = Path(__file__).resolve().parent.parent
ADAPTER = PROJECT / "memtui" / "ui" / "textual_private.py"
ADAPTER_TEST = PROJECT / "tests" / "test_textual_private.py"
CHECKED = sorted(
    path
    for folder in ("memtui", "tests")
    for path in (PROJECT / folder).rglob("*.py")
    if path not in (ADAPTER, ADAPTER_TEST)
)
GETATTR_FAMILY = {"getattr", "setattr", "hasattr", "delattr"}


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def defined_names(tree: ast.AST) -> set[str]:
    """Private names a module defines: functions, classes, attributes it sets, class fields."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Call) and _called(node) == "setattr" and len(node.args) > 1:
            names.update(_string(node.args[1]))
    return {name for name in names if is_private(name)}


def _called(node: ast.Call) -> str:
    return node.func.id if isinstance(node.func, ast.Name) else ""


def _string(node: ast.AST) -> set[str]:
    return {node.value} if isinstance(node, ast.Constant) and isinstance(node.value, str) else set()


@cache
def textual_private_names() -> frozenset[str]:
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        names |= defined_names(ast.parse(path.read_text(encoding="utf-8")))
    return frozenset(names)


@cache
def memtui_own_names() -> frozenset[str]:
    names: set[str] = set()
    for path in CHECKED:
        names |= defined_names(ast.parse(path.read_text(encoding="utf-8")))
    return frozenset(names)


def private_textual_uses(source: str) -> Iterator[str]:
    tree = ast.parse(source)
    textual_names = textual_private_names()
    own = memtui_own_names()
    other_modules = {  # `os._exit` is not Textual's
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name.split(".")[0] != "textual"
    }
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
            if node.module.startswith("textual"):
                modules += [f"{node.module}.{alias.name}" for alias in node.names]
        for module in modules:
            parts = module.split(".")
            if parts[0] == "textual" and any(is_private(part) for part in parts):
                yield f"imports {module}"
        if (
            isinstance(node, ast.Attribute)
            and node.attr in textual_names - own
            and not (isinstance(node.value, ast.Name) and node.value.id in other_modules)
        ):
            yield f"line {node.lineno}: {ast.unparse(node)}"
        if isinstance(node, ast.Call) and _called(node) in GETATTR_FAMILY and len(node.args) > 1:
            for name in _string(node.args[1]):
                if is_private(name) and name not in own:
                    yield f"line {node.lineno}: {_called(node)}(…, {name!r})"


@pytest.mark.parametrize("path", CHECKED, ids=lambda path: str(path.relative_to(PROJECT)))
def test_only_public_textual_names(path: Path) -> None:
    uses = list(private_textual_uses(path.read_text(encoding="utf-8")))
    assert uses == [], "use memtui.ui.textual_private"


def bases_private_names(cls: type) -> set[str]:
    """The private names the Textual classes among `cls`'s bases define."""
    return {
        name
        for base in cls.__mro__
        if base.__module__.split(".")[0] == "textual"
        for name in textual_class_private_names(base)
    }


@cache
def textual_class_private_names(base: type) -> frozenset[str]:
    source = ast.parse(textwrap.dedent(inspect.getsource(base)))
    return frozenset({name for name in vars(base) if is_private(name)} | defined_names(source))


def memtui_textual_classes() -> Iterator[type]:
    for path in sorted((PROJECT / "memtui").rglob("*.py")):
        if path == ADAPTER or path.name == "__main__.py":
            continue
        parts = path.relative_to(PROJECT).with_suffix("").parts
        module = importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and value.__module__ == module.__name__
                and any(base.__module__.split(".")[0] == "textual" for base in value.__mro__)
            ):
                yield value


def test_textual_subclasses_leave_their_bases_private_names_alone() -> None:
    found = {
        cls.__qualname__: sorted(
            {
                node.attr if isinstance(node, ast.Attribute) else node.name
                for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(cls))))
                if isinstance(node, ast.Attribute | ast.FunctionDef | ast.AsyncFunctionDef)
            }
            & bases_private_names(cls)
        )
        for cls in memtui_textual_classes()
    }
    assert {name: names for name, names in found.items() if names} == {}
    assert len(found) > 30  # the app, its screens and widgets were all looked at


@pytest.mark.parametrize(
    "sample",
    [
        "from textual._path import CSSPathType",
        "from textual.widgets._footer import FooterKey",
        "import textual._styles_cache",
        "strips = screen._compositor.render_strips()",
        "self._filters[:] = []",
        "watchers = getattr(footer, '__watchers', {})",
    ],
)
def test_the_check_sees_a_private_use(sample: str) -> None:
    assert list(private_textual_uses(sample))


@pytest.mark.parametrize(
    "sample",
    ["from textual.widgets import Footer", "self._lock = None", "screen.query_one(Footer)"],
)
def test_the_check_lets_public_use_and_memtuis_own_names_pass(sample: str) -> None:
    assert list(private_textual_uses(sample)) == []
