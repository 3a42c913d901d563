"""Webhook update claims: handled at least once, applied once.

A redelivered update is acknowledged once done, answered "retry later" while a live
replica handles it, and taken over once its holder is gone (on PostgreSQL: the
holder's liveness lock is gone with its connection)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import text

from app.domain.clock import FrozenClock
from app.persistence.database import Database
from app.persistence.liveness import REPLICA_CLASS, Liveness
from app.persistence.repositories.updates import Claim, UpdateClaims

STALE = timedelta(minutes=2)
NEW, TAKEN_OVER, LIVE, DONE = Claim.NEW, Claim.TAKEN_OVER, Claim.LIVE, Claim.DONE


async def test_claims(database: Database, clock: FrozenClock) -> None:
    now = clock.now()
    me = 11
    async with database.transaction() as session:
        claims = UpdateClaims(session)
        assert await claims.claim(7, now, me, STALE) is NEW
        # Asked again by its own holder, which asks only for what it is not handling:
        # a handler of its own ended without a mark, so the update is handled again.
        assert await claims.claim(7, now, me, STALE) is TAKEN_OVER
        await claims.done(7, now)
        assert await claims.claim(7, now + timedelta(hours=1), me, STALE) is DONE, "done is done"

        assert await claims.claim(8, now, me, STALE) is NEW
        await claims.release(8)  # handling was cut short: a retry handles it
        assert await claims.claim(8, now, me, STALE) is NEW

        assert await claims.prune(now + timedelta(days=2)) == 2
        assert await claims.claim(7, now + timedelta(days=2), me, STALE) is NEW


async def test_claims_in_one_statement(database: Database, clock: FrozenClock) -> None:
    """The webhook's group commit: many claims at once, one result per update, in order."""
    now = clock.now()
    me = 11
    async with database.transaction() as session:
        claims = UpdateClaims(session)
        assert await claims.claim_many([1, 2, 2, 3], now, me, STALE) == [NEW, NEW, LIVE, NEW]
        assert await claims.claim_many([], now, me, STALE) == []
        await claims.done_many([1, 2], now)
        # 1 and 2 are done; 3 was left mid-way by a handler that ended; 4 is new.
        later = now + timedelta(seconds=5)
        got = await claims.claim_many([1, 3, 2, 4, 3], later, me, STALE)
        assert got == [DONE, TAKEN_OVER, DONE, NEW, LIVE]


async def test_claims_written_before_holders(database: Database, clock: FrozenClock) -> None:
    """A claim from before migration 0011 has no holder: retaken once stale, as before."""
    now = clock.now()
    async with database.transaction() as session:
        await session.execute(
            text("INSERT INTO processed_updates (update_id, claimed_at) VALUES (5, :now)"),
            {"now": now},
        )
        claims = UpdateClaims(session)
        assert await claims.claim(5, now + timedelta(minutes=1), 11, STALE) is LIVE
        assert await claims.claim(5, now + timedelta(minutes=3), 11, STALE) is TAKEN_OVER


async def test_sqlite_any_other_holder_is_a_former_run(
    sqlite_database: Database, clock: FrozenClock
) -> None:
    now = clock.now()
    async with sqlite_database.transaction() as session:
        claims = UpdateClaims(session)
        assert await claims.claim(9, now, 11, STALE) is NEW
        assert await claims.claim(9, now, 12, STALE) is TAKEN_OVER


async def test_a_live_holder_keeps_its_claim_a_dead_one_loses_it(
    pg_database: Database, clock: FrozenClock
) -> None:
    """Two replicas, each with its liveness lock. While A's lock is held, B is told to
    retry later; once A's connection is gone (as when its process is killed), B takes
    the update over; once done, both are told it is done."""
    now = clock.now()
    a, b = Liveness(pg_database), Liveness(pg_database)
    key_a, key_b = await a.ensure(), await b.ensure()
    assert key_a != key_b
    try:
        async with pg_database.transaction() as session:
            claims = UpdateClaims(session)
            assert await claims.claim(21, now, key_a, STALE) is NEW
            assert await claims.claim(21, now, key_b, STALE) is LIVE
            assert await claims.claim(21, now + timedelta(hours=1), key_b, STALE) is LIVE, (
                "a live holder keeps its claim however long its handler runs"
            )
        # A dies: the server ends its session, and the lock goes with it.
        async with pg_database.transaction() as session:
            ended = await session.scalar(
                text(
                    "SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_locks "
                    "WHERE locktype = 'advisory' AND classid = :c AND objid = :k"
                ),
                {"c": REPLICA_CLASS, "k": key_a},
            )
        assert ended == 1
        async with pg_database.transaction() as session:
            claims = UpdateClaims(session)
            assert await claims.claim(21, now, key_b, STALE) is TAKEN_OVER
            assert await claims.claim(21, now, key_a, STALE) is LIVE, "now B holds it"
            await claims.done(21, now)
            assert await claims.claim(21, now, key_a, STALE) is DONE
            assert await claims.claim(21, now, key_b, STALE) is DONE
        # A's process lives on: it notices and takes a lock again.
        a._checked = 0.0
        key_a = await a.ensure()
        async with pg_database.transaction() as session:
            claims = UpdateClaims(session)
            assert await claims.claim(22, now, key_a, STALE) is NEW
            assert await claims.claim(22, now, key_b, STALE) is LIVE
    finally:
        await a.release()
        await b.release()
