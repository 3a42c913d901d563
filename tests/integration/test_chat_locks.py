"""Per-chat locks across processes (PostgreSQL): one update of a chat at a time."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from app.persistence.database import Database
from app.persistence.leases import CHAT_LOCK_CLASS, ChatLocks

pytestmark = pytest.mark.postgres


async def _waiting_on_a_lock(db: Database) -> bool:
    async with db.transaction() as session:
        waiting = await session.scalar(
            text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            )
        )
    return bool(waiting)


async def test_a_chat_waits_for_its_own_lock_only(pg_database: Database, pg_url: str) -> None:
    other_db = Database(pg_url)  # another replica's pool
    mine, theirs = ChatLocks(pg_database), ChatLocks(other_db)
    order: list[str] = []
    try:
        async with mine.holding(5):
            async with theirs.holding(6):  # another chat: not held up
                order.append("chat 6")

            async def second() -> None:
                async with theirs.holding(5):
                    order.append("chat 5, second")

            task = asyncio.create_task(second())
            for _ in range(400):
                if await _waiting_on_a_lock(pg_database):
                    break
                await asyncio.sleep(0.025)
            else:
                raise AssertionError("the second update never asked for the lock")
            order.append("chat 5, first")
        await asyncio.wait_for(task, 20)
        assert order == ["chat 6", "chat 5, first", "chat 5, second"]
        assert pg_database.engine.pool.checkedout() == 0, "connections are back in the pool"
    finally:
        await other_db.dispose()


async def test_a_cancelled_holder_leaves_no_lock_behind(pg_database: Database) -> None:
    locks = ChatLocks(pg_database)
    entered = asyncio.Event()

    async def holder() -> None:
        async with locks.holding(7):
            entered.set()
            await asyncio.Event().wait()  # until cancelled (a shutdown cutting it short)

    task = asyncio.create_task(holder())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with locks.holding(7):  # free again
        pass
    async with pg_database.transaction() as session:
        held = await session.scalar(
            text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = :c "
                "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            ),
            {"c": CHAT_LOCK_CLASS},
        )
    assert held == 0
