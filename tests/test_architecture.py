"""The core stays plain Python: no Textual, no Rich, so it is reusable and unit-testable."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parent.parent / "memtui" / "core"
FORBIDDEN = ("textual", "rich")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


CORE_FILES = sorted(CORE.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(CORE.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_purity_check_sees_every_subpackage() -> None:
    packages = {p.parent.name for p in CORE_FILES if p.parent != CORE}
    assert {"cache", "health", "reading", "search", "live"} <= packages


def test_no_core_module_imports_ui_libraries() -> None:
    """Every core module at once; a failure lists each module and what it imports."""
    bad = {
        str(path.relative_to(CORE)): sorted(
            name for name in imported_modules(path) if name.split(".")[0] in FORBIDDEN
        )
        for path in CORE_FILES
    }
    assert not {module: names for module, names in bad.items() if names}


def test_importing_every_core_module_loads_no_ui_library() -> None:
    modules = [module_name(p) for p in CORE_FILES]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
