"""The `coordbot` command line: ``main`` parses, one module per command group runs."""

from app.cli.main import main

__all__ = ["main"]
