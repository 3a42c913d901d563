"""The front doors stand on core services only: the MCP server never imports another
front door (the Telegram handlers, the CLI), so they cannot drift into each other; and
the CLI's command modules share app.cli.common, never importing back from app.cli.main."""

from __future__ import annotations

import ast
from pathlib import Path

import app.cli
import app.mcp

FRONT_DOORS = ("app.telegram_handlers", "app.cli", "app.web")


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


def test_cli_command_modules_do_not_import_main() -> None:
    package = Path(app.cli.__file__).parent
    commands = [m for m in package.glob("*.py") if m.stem not in ("__init__", "__main__", "main")]
    assert len(commands) >= 6
    for module in commands:
        assert "app.cli.main" not in _imports(module), f"{module.name} imports app.cli.main"
        assert "app.cli" not in _imports(module), f"{module.name} imports the package"
