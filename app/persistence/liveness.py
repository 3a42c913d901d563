"""This process's liveness, as the other replicas can see it.

A webhook update is claimed before it is handled, and the claim names its holder: a
key this process holds, on PostgreSQL, as a session advisory lock on a connection of
its own for as long as it runs. Another replica that receives the same update again
looks the key up in ``pg_locks``: held, the holder is alive and handling the update
(answer so that Telegram retries later); gone, the holder died mid-update (its
connection closed and the server dropped the lock with it), and the update is taken
over. No lease to renew, nothing written while a handler runs.

SQLite has one process (see sqlite_guard): a holder other than this process is a
former run of it, which is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import OID
from sqlalchemy.ext.asyncio import AsyncConnection

from app.persistence.database import Database

logger = logging.getLogger(__name__)

REPLICA_CLASS = 0x72706C63  # "rplc": the first key of every replica's liveness lock
CHECK_EVERY = 5.0  # seconds between checks that the lock's connection still works

_PG_LOCKS = sa.table(
    "pg_locks",
    sa.column("locktype"),
    sa.column("database", OID),
    sa.column("classid", OID),
    sa.column("objid", OID),
    sa.column("objsubid"),
    sa.column("granted"),
)
_PG_DATABASE = sa.table("pg_database", sa.column("oid", OID), sa.column("datname"))


def _new_key() -> int:
    return secrets.randbelow(2**31 - 1) + 1  # a positive int4: it reads back as an oid


def holder_alive(holder: Any) -> sa.ColumnElement[bool]:
    """SQL, PostgreSQL only: true while the replica whose key is ``holder`` holds its lock
    in this database (the two-key form of an advisory lock shows objsubid 2)."""
    this_database = (
        sa.select(_PG_DATABASE.c.oid)
        .where(_PG_DATABASE.c.datname == sa.func.current_database())
        .scalar_subquery()
    )
    return sa.exists().where(
        _PG_LOCKS.c.locktype == "advisory",
        _PG_LOCKS.c.database == this_database,
        _PG_LOCKS.c.classid == sa.cast(sa.literal(REPLICA_CLASS, sa.BigInteger), OID),
        _PG_LOCKS.c.objid == sa.cast(holder, OID),
        _PG_LOCKS.c.objsubid == 2,
        _PG_LOCKS.c.granted.is_(True),
    )


class Liveness:
    """This process's key, its lock held (taken again if its connection was lost)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.shared = db.dialect == "postgresql"  # other processes may be looking
        self.key = _new_key()
        self._conn: AsyncConnection | None = None
        self._checked = 0.0
        self._lock = asyncio.Lock()

    async def ensure(self) -> int:
        """The key to write into a claim; on PostgreSQL, its lock is held when this returns."""
        if not self.shared or self._fresh():
            return self.key
        async with self._lock:
            if self._fresh():
                return self.key
            if self._conn is not None:
                try:
                    await self._conn.execute(sa.text("SELECT 1"))
                    await self._conn.commit()
                    self._checked = time.monotonic()
                    return self.key
                except Exception:
                    # Other replicas may take over what this one is handling meanwhile:
                    # handled twice, applied once (votes, ideas and steps are idempotent).
                    logger.warning("lost the liveness lock's connection; taking it again")
                    await self._drop(invalidate=True)
            await self._take()
            return self.key

    def _fresh(self) -> bool:
        return self._conn is not None and time.monotonic() - self._checked < CHECK_EVERY

    async def _take(self) -> None:
        while True:
            conn = await self.db.engine.connect()
            try:
                got = await conn.scalar(
                    sa.text("SELECT pg_try_advisory_lock(:c, :k)"),
                    {"c": REPLICA_CLASS, "k": self.key},
                )
                await conn.commit()
            except BaseException:
                await conn.invalidate()
                raise
            if got:
                self._conn, self._checked = conn, time.monotonic()
                return
            await conn.close()  # another replica drew the same key: draw again
            self.key = _new_key()

    async def release(self) -> None:
        """At shutdown, after the last update is handled."""
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
                await conn.execute(
                    sa.text("SELECT pg_advisory_unlock(:c, :k)"),
                    {"c": REPLICA_CLASS, "k": self.key},
                )
                await conn.commit()
        with contextlib.suppress(Exception):
            await conn.close()
