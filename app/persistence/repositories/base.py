"""Helpers shared by the repositories."""

from __future__ import annotations

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
