"""Engine, sessions and the column types both databases need.

SQLite keeps datetimes without a zone; ``UTCDateTime`` stores UTC and always
hands back aware datetimes, so code never compares naive with aware.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, MetaData, event
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

from app.logging_setup import quiet_sensitive_loggers

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on PostgreSQL and SQLite alike."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not stored; attach a timezone")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


# Connections kept open per process. A burst of webhook updates holds one per update in
# flight; an undersized pool opens and closes overflow connections all through the burst
# (a TCP and TLS-negotiation handshake each), which cost a tenth of the CPU of a vote.
POOL_SIZE = 24


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def create_engine(url: str, *, echo: bool = False, pool_size: int = POOL_SIZE) -> AsyncEngine:
    # hide_parameters: bound values (vote choices, submission text) never reach error text.
    kwargs: dict[str, Any] = {"echo": echo, "hide_parameters": True}
    if is_sqlite(url):
        kwargs["connect_args"] = {"timeout": 30}
    else:
        kwargs.update(pool_size=pool_size, max_overflow=pool_size // 2)
    engine = create_async_engine(url, **kwargs)
    if is_sqlite(url):
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    else:
        event.listen(engine.sync_engine.pool, "checkin", _note_idle)
        event.listen(engine.sync_engine.pool, "checkout", _ping_if_idle)
    return engine


IDLE_PING_SECONDS = 2.0
_IDLE_SINCE = "coordbot_idle_since"


def _note_idle(_dbapi_connection: Any, record: Any) -> None:
    if record is not None:
        record.info[_IDLE_SINCE] = time.monotonic()


def _ping_if_idle(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    """``pool_pre_ping``, but only for a connection that sat idle in the pool.

    A ping per checkout is a round trip per transaction; a connection handed back
    moments ago is alive (a failure mid-use is a disconnect error, which discards
    it anyway). One that idled may have been cut by a restart or a proxy: ping it,
    and a dead one is replaced (the pool retries on DisconnectionError).
    """
    idle_since = record.info.get(_IDLE_SINCE)
    if idle_since is None or time.monotonic() - idle_since < IDLE_PING_SECONDS:
        return
    try:
        dbapi_connection.ping()
    except Exception as exc:
        raise DisconnectionError("a pooled connection did not answer a ping") from exc


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


class Database:
    """Owns the engine and hands out transactional sessions."""

    def __init__(self, url: str, *, echo: bool = False, pool_size: int = POOL_SIZE) -> None:
        quiet_sensitive_loggers()
        self.url = url
        self.engine = create_engine(url, echo=echo, pool_size=pool_size)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session whose work commits on success and rolls back on any error."""
        async with self._sessions() as session, session.begin():
            yield session

    async def dispose(self) -> None:
        await self.engine.dispose()
