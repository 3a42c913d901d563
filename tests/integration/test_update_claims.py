"""Webhook update claims: an update delivered twice is handled once; a dead claim is retaken."""

from __future__ import annotations

from datetime import timedelta

from app.domain.clock import FrozenClock
from app.persistence.database import Database
from app.persistence.repositories.updates import UpdateClaims

STALE = timedelta(minutes=2)


async def test_claims(database: Database, clock: FrozenClock) -> None:
    now = clock.now()
    async with database.transaction() as session:
        claims = UpdateClaims(session)
        assert await claims.claim(7, now, STALE)
        assert not await claims.claim(7, now, STALE), "a second delivery is skipped"
        assert not await claims.claim(7, now + timedelta(minutes=1), STALE), "still in progress"
        assert await claims.claim(7, now + timedelta(minutes=3), STALE), "its replica died"
        await claims.done(7, now + timedelta(minutes=3))
        assert not await claims.claim(7, now + timedelta(hours=1), STALE), "done is done"

        assert await claims.claim(8, now, STALE)
        await claims.release(8)  # handling was cut short: a retry handles it
        assert await claims.claim(8, now, STALE)

        assert await claims.prune(now + timedelta(days=2)) == 2
        assert await claims.claim(7, now + timedelta(days=2), STALE)


async def test_claims_in_one_statement(database: Database, clock: FrozenClock) -> None:
    """The webhook's group commit: many claims at once, one result per update, in order."""
    now = clock.now()
    async with database.transaction() as session:
        claims = UpdateClaims(session)
        assert await claims.claim_many([1, 2, 2, 3], now, STALE) == [True, True, False, True]
        assert await claims.claim_many([], now, STALE) == []
        await claims.done_many([1, 2], now)
        later = now + timedelta(minutes=3)
        # 1 and 2 are done; 3 was left mid-way by a replica that died; 4 is new.
        assert await claims.claim_many([1, 3, 2, 4, 3], later, STALE) == [
            False,
            True,
            False,
            True,
            False,
        ]
        assert await claims.claim_many([3, 4], later, STALE) == [False, False]
