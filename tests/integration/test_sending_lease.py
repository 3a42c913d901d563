"""The outbox's sending lease on PostgreSQL: one holder; a dead holder's lease and claims pass on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text

from app.domain.clock import FrozenClock
from app.persistence.database import Database
from app.persistence.leases import AdvisoryLease, AlwaysHeld, sending_lease
from app.persistence.repositories.outbox import OutboxRepository

pytestmark = pytest.mark.postgres


async def test_one_holder_then_takeover_frees_the_dead_holders_claims(
    pg_database: Database, pg_url: str, clock: FrozenClock
) -> None:
    other_db = Database(pg_url)
    first, second = AdvisoryLease(pg_database), AdvisoryLease(other_db)
    try:
        assert await first.hold() and first.taken_over() and not first.taken_over()
        assert not await second.hold(), "one sender per database"
        assert await first.hold(), "the holder keeps it"

        now = clock.now()
        async with pg_database.transaction() as session:
            repo = OutboxRepository(session)
            await repo.enqueue_many(
                [{"kind": "result", "chat_id": "-1", "dedupe_key": f"k{i}"} for i in range(3)], now
            )
            claimed = await repo.claim_due(now, timedelta(minutes=2), 2)
        assert len(claimed) == 2

        # The holder's process dies: the server ends its connection, the lock goes with it.
        assert first._conn is not None
        pid = await first._conn.scalar(text("SELECT pg_backend_pid()"))
        await first._conn.commit()
        # With a timeout the call waits until the backend has exited (PostgreSQL 14+):
        # the lock goes with the process, not with the signal.
        async with other_db.transaction() as session:
            ended = await session.scalar(text("SELECT pg_terminate_backend(:p, 10000)"), {"p": pid})
        assert ended, "the old holder's backend exited"
        assert await second.hold() and second.taken_over()
        assert not await first.hold(), "the old holder notices it lost the lease"
        async with other_db.transaction() as session:
            repo = OutboxRepository(session)
            assert await repo.release_leases(now) == 2
            again = await repo.claim_due(now, timedelta(minutes=2), 10)
        assert sorted(m.id for m in again) == [1, 2, 3]
    finally:
        await second.release()
        await first.release()
        await other_db.dispose()


async def test_release_lets_the_next_replica_send(pg_database: Database, pg_url: str) -> None:
    other_db = Database(pg_url)
    first, second = AdvisoryLease(pg_database), AdvisoryLease(other_db)
    try:
        assert await first.hold()
        await first.release()
        assert await second.hold()
        assert not await first.hold()
    finally:
        await second.release()
        await other_db.dispose()


async def test_sqlite_always_sends(sqlite_database: Database) -> None:
    assert isinstance(sending_lease(sqlite_database), AlwaysHeld)
    assert await AlwaysHeld().hold()
