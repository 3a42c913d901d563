"""The MCP front door stands on core services only: it never imports another front door
(the Telegram handlers, the CLI), so the three cannot drift into each other."""

from __future__ import annotations

import ast
from pathlib import Path

import app.mcp

FRONT_DOORS = ("app.telegram_handlers", "app.cli", "app.web")  # app.cli* too


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_mcp_imports_no_other_front_door() -> None:
    package = Path(app.mcp.__file__).parent
    modules = sorted(package.glob("*.py"))
    assert len(modules) >= 5
    for module in modules:
        crossing = sorted(name for name in _imports(module) if name.startswith(FRONT_DOORS))
        assert crossing == [], f"{module.name} imports {crossing}"
