"""Helpers shared by the repositories."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


def dialect_insert(session: AsyncSession, table: Any) -> Any:
    """An INSERT that supports ON CONFLICT on the session's database."""
    name = session.get_bind().dialect.name
    if name == "postgresql":
        return postgresql.insert(table)
    if name == "sqlite":
        return sqlite.insert(table)
    raise RuntimeError(f"unsupported database dialect: {name}")


def locks_rows(session: AsyncSession) -> bool:
    """SQLite serialises writers itself; PostgreSQL needs explicit row locks."""
    return session.get_bind().dialect.name == "postgresql"


_STATEMENTS: dict[tuple[str, str], Any] = {}


def prebuilt(session: AsyncSession, name: str, build: Callable[[Any], Any]) -> Any:
    """A statement built once per dialect with ``build(insert_fn)``, then reused.

    Building INSERT .. ON CONFLICT (and its ``excluded`` alias) and generating its cache key
    cost more CPU than running it; a reused statement with bound parameters pays neither.
    """
    dialect = session.get_bind().dialect.name
    key = (dialect, name)
    stmt = _STATEMENTS.get(key)
    if stmt is None:
        insert = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}.get(dialect)
        if insert is None:
            raise RuntimeError(f"unsupported database dialect: {dialect}")
        stmt = _STATEMENTS[key] = build(insert)
    return stmt
