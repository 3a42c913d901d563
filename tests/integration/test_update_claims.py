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
