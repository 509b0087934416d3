"""The layers of memtui, enforced: lower never imports higher, and no import circle anywhere.

    core, demo  <-  errors, startup, discovery  <-  ui  <-  bench  <-  commands  <-  cli

Every import counts, including those inside functions; imports under `if TYPE_CHECKING:` are
type-only, so they must respect the layers but may point back up a layer's own graph (a screen
names its app's type). An import inside a function is allowed only where it is listed in
LAZY_IMPORTS with the reason it is lazy.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "memtui"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("memtui", "memtui.core", "memtui.demo"),
    ("memtui.errors", "memtui.startup", "memtui.discovery"),
    ("memtui.ui",),
    ("memtui.bench",),
    ("memtui.commands",),
    ("memtui.cli", "memtui.__main__"),
)
"""Bottom to top; a module belongs to the layer of its longest matching prefix."""

PARSER_UNUSED_WARM = (
    "a warm start parses no file, and the parser's modules (Markdown structure, titles, "
    "frontmatter) cost it ~5 ms to load"
)
LAZY_IMPORTS = {
    ("memtui.cli", "memtui.commands.rank"): "headless commands never load Textual",
    ("memtui.cli", "memtui.commands.listing"): "headless commands never load Textual",
    ("memtui.cli", "memtui.commands.bench"): "headless commands never load Textual",
    ("memtui.cli", "memtui.commands.roots"): "headless commands never load Textual",
    ("memtui.cli", "memtui.commands.cache"): "headless commands never load Textual",
    ("memtui.cli", "memtui.commands.health"): "headless commands never load Textual",
    ("memtui.cli", "memtui.commands.tui"): "headless commands never load Textual",
    ("memtui.cli", "memtui.commands.pick"): "headless commands never load Textual",
    ("memtui.commands.bench", "memtui.bench.tui"): "bench loads Textual only for --tui",
    ("memtui.startup", "memtui.discovery"): "a run given its ROOTs never looks for memory",
    ("memtui.startup", "memtui.demo"): "only --demo writes the demo memory",
    ("memtui.startup", "memtui.core.places.instructions"): "only --demo --all reads a CLAUDE.md",
    ("memtui.core.reading.walk", "memtui.core.reading.parse"): PARSER_UNUSED_WARM,
    ("memtui.core.live.store", "memtui.core.reading.parse"): PARSER_UNUSED_WARM,
    ("memtui.core.cache.codec", "memtui.core.reading.parse"): PARSER_UNUSED_WARM,
    ("memtui.core.live.engine", "memtui.core.search.terms"): (
        "only the health checks read which words each entry holds"
    ),
    ("memtui.core.health.check", "memtui.core.health.duplicates"): (
        "rapidfuzz (~3 MB) loads with the health report, not with the app"
    ),
    ("memtui.core.cache.folder", "memtui.core.cache.codec"): (
        "`memtui cache` lists and clears cache files without loading numpy or the index"
    ),
}


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int
    in_function: bool
    type_only: bool


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def resolve(module: str, name: str | None) -> str:
    """`from memtui.ui import render` imports the module memtui.ui.render."""
    if name is not None and f"{module}.{name}" in MODULES:
        return f"{module}.{name}"
    return module


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str) -> Iterator[Import]:
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))

    def visit(node: ast.AST, in_function: bool, type_only: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] == "memtui":
                        yield Import(name, alias.name, child.lineno, in_function, type_only)
            elif isinstance(child, ast.ImportFrom) and child.module:
                if child.level or child.module.split(".")[0] != "memtui":
                    continue
                for alias in child.names:
                    target = resolve(child.module, alias.name)
                    yield Import(name, target, child.lineno, in_function, type_only)
            else:
                function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                checking = isinstance(child, ast.If) and _is_type_checking(child)
                yield from visit(child, in_function or function, type_only or checking)

    yield from visit(tree, False, False)


IMPORTS = [item for name in MODULES for item in imports_of(name)]


def layer_of(name: str) -> int:
    best, best_length = -1, -1
    for level, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            matches = name == prefix or name.startswith(prefix + ".")
            if matches and len(prefix) > best_length:
                best, best_length = level, len(prefix)
    assert best >= 0, f"{name} belongs to no layer: add it to LAYERS"
    return best


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        layer_of(name)


def test_imports_point_down_the_layers() -> None:
    """Every import of every module at once; a failure lists each one that points up."""
    upward = [
        f"{item.source} (line {item.line}) imports {item.target}, a higher layer"
        for item in IMPORTS
        if layer_of(item.target) > layer_of(item.source)
    ]
    assert len(IMPORTS) > 500, "the import walk found too little: is PACKAGE right?"
    assert not upward, "\n".join(upward)


def test_imports_inside_functions_are_the_listed_lazy_ones() -> None:
    found = {(i.source, i.target) for i in IMPORTS if i.in_function and not i.type_only}
    unlisted = sorted(found - LAZY_IMPORTS.keys())
    assert not unlisted, f"imports inside functions (move them up or list why): {unlisted}"
    assert not LAZY_IMPORTS.keys() - found, "LAZY_IMPORTS names an import that is gone"


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle, if there is any (depth-first search with an explicit path)."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_circle() -> None:
    edges: dict[str, set[str]] = {}
    for item in IMPORTS:
        if not item.type_only and item.target != item.source and item.target in MODULES:
            edges.setdefault(item.source, set()).add(item.target)
    cycle = find_cycle(edges)
    assert cycle is None, " -> ".join(cycle or [])


def test_find_cycle_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}}) is None


def test_the_architecture_doc_lists_every_module() -> None:
    """docs/architecture.md has a row per module (packages that only group others and
    `__main__` aside), so a new module cannot go unmentioned."""
    table = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    core_groups = ("live", "places", "reading", "search", "settings")
    grouping = {
        "memtui",
        "memtui.__main__",
        "memtui.ui.screens",
        "memtui.ui.widgets",
        *(f"memtui.core.{group}" for group in core_groups),
    }
    missing = [
        name
        for name in MODULES
        if name not in grouping and f"| `{name.removeprefix('memtui.')}` |" not in table
    ]
    assert not missing, f"add a row to docs/architecture.md's module table for {missing}"
