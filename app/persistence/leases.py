"""Who sends the outbox: one process at a time, per database.

Telegram's rate limits are per bot, not per process, so replicas must not each
send at the allowed rate. On PostgreSQL the sender holds a session advisory lock
on a connection of its own; when that process dies its connection closes, the
server drops the lock, and the next replica to ask takes the sending over. A
SQLite database has one process, which always sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Protocol

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from app.persistence.database import Database

logger = logging.getLogger(__name__)

OUTBOX_SENDER_KEY = 0x636F6F72646F  # "coordo"


class SendingLease(Protocol):
    async def hold(self) -> bool:
        """True while this process is the sender (taking the lease if it is free)."""
        ...

    def taken_over(self) -> bool:
        """True once after the lease was newly taken (the former holder's claims are void)."""
        ...

    async def release(self) -> None: ...


class AlwaysHeld:
    async def hold(self) -> bool:
        return True

    def taken_over(self) -> bool:
        return False

    async def release(self) -> None:
        return None


class AdvisoryLease:
    def __init__(self, db: Database, key: int = OUTBOX_SENDER_KEY) -> None:
        self.db = db
        self.key = key
        self._conn: AsyncConnection | None = None
        self._new = False
        self._lock = asyncio.Lock()

    async def hold(self) -> bool:
        async with self._lock:
            if self._conn is not None:
                try:
                    await self._conn.execute(text("SELECT 1"))
                    await self._conn.commit()
                    return True
                except Exception:
                    logger.warning("lost the outbox sending lease (its connection failed)")
                    await self._drop(invalidate=True)
            conn = await self.db.engine.connect()
            try:
                got = await conn.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": self.key})
                await conn.commit()
            except BaseException:
                await conn.close()
                raise
            if not got:
                await conn.close()
                return False
            self._conn, self._new = conn, True
            logger.info("this process now sends the outbox")
            return True

    def taken_over(self) -> bool:
        new, self._new = self._new, False
        return new

    async def release(self) -> None:
        async with self._lock:
            await self._drop(invalidate=False)

    async def _drop(self, *, invalidate: bool) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            if invalidate:
                await conn.invalidate()
            else:
                await conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": self.key})
                await conn.commit()
        with contextlib.suppress(Exception):
            await conn.close()


def sending_lease(db: Database) -> SendingLease:
    return AdvisoryLease(db) if db.dialect == "postgresql" else AlwaysHeld()


CHAT_LOCK_CLASS = 0x63686174  # "chat": the first key of a per-chat lock


def _chat_key(chat_id: int) -> int:
    """A chat id folded into PostgreSQL's 32-bit lock key (a collision only serialises two
    chats more than needed)."""
    return (chat_id % 2**32) - 2**31


class ChatLocks:
    """One update at a time per chat across processes (PostgreSQL session advisory locks).

    Held on a pooled connection for as long as the update is handled; a process that
    dies drops its connection, and its locks with it. At most ``holders`` at once, so
    the handlers behind them always find connections left in the pool. SQLite (one
    process) needs none.
    """

    def __init__(self, db: Database, holders: int = 8) -> None:
        self.db = db
        self.enabled = db.dialect == "postgresql"
        self._slots = asyncio.Semaphore(holders)

    @contextlib.asynccontextmanager
    async def holding(self, chat_id: int) -> AsyncIterator[None]:
        if not self.enabled:
            yield
            return
        params = {"c": CHAT_LOCK_CLASS, "k": _chat_key(chat_id)}
        async with self._slots, self.db.engine.connect() as conn:
            try:
                await conn.execute(text("SELECT pg_advisory_lock(:c, :k)"), params)
                await conn.commit()
            except BaseException:  # cut short while waiting: the lock may be half-taken
                await conn.invalidate()
                raise
            try:
                yield
            finally:
                try:
                    await conn.execute(text("SELECT pg_advisory_unlock(:c, :k)"), params)
                    await conn.commit()
                except BaseException:
                    # Not unlocked (cancelled, connection trouble): never hand a connection
                    # that still holds the lock back to the pool.
                    await conn.invalidate()
                    raise
