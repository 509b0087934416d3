"""The core stays plain Python: no Textual, no Rich, so it is reusable and unit-testable."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_core_module_does_not_import_ui_libraries(path: Path) -> None:
    bad = {name for name in imported_modules(path) if name.split(".")[0] in FORBIDDEN}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_importing_every_core_module_loads_no_ui_library() -> None:
    modules = [f"memtui.core.{p.stem}" for p in sorted(CORE.glob("*.py")) if p.stem != "__init__"]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
