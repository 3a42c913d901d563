"""Senders claiming the outbox at once on PostgreSQL never take one message twice.

A claim ranks the due messages in a subquery and locks the rows it picked (FOR UPDATE
SKIP LOCKED). A row another sender leased and committed while this claim's statement
ran is locked and rechecked against its newest version, and only the conditions on the
locked table itself are rechecked: the claim must state "due" there too, or it takes a
message the other sender has just leased (two replicas sending it twice). Many due
messages make the ranking take long enough, and staggered starts let one sender commit
inside another's statement: before the fix, the first round took messages twice.
"""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

from sqlalchemy import update

from app.domain.clock import FrozenClock
from app.domain.models import OutboxMessage
from app.persistence.database import Database
from app.persistence.models import OutboxRow
from app.persistence.repositories.outbox import OutboxRepository

LEASE = timedelta(minutes=2)
ROUNDS = 60
SENDERS = 6
MESSAGES = 3000


async def _claim(db: Database, clock: FrozenClock, delay: float) -> list[OutboxMessage]:
    await asyncio.sleep(delay)  # staggered: one commits while another's claim runs
    async with db.transaction() as session:
        return await OutboxRepository(session).claim_due(clock.now(), LEASE, 6)


async def test_concurrent_claims_never_take_one_message_twice(
    pg_database: Database, clock: FrozenClock
) -> None:
    rows = [
        {"kind": "result", "chat_id": f"-{i % 50}", "dedupe_key": f"k{i}"} for i in range(MESSAGES)
    ]
    async with pg_database.transaction() as session:
        await OutboxRepository(session).enqueue_many(rows, clock.now())
    for _ in range(ROUNDS):
        async with pg_database.transaction() as session:  # every message due again
            await session.execute(
                update(OutboxRow).values(next_attempt_at=clock.now(), leased_until=None)
            )
        claims = await asyncio.gather(
            *(_claim(pg_database, clock, random.uniform(0, 0.01)) for _ in range(SENDERS))
        )
        taken = [m.id for claim in claims for m in claim]
        assert len(taken) == len(set(taken)), "a message claimed by two senders"
        assert taken  # a sender that lost its picks to another takes fewer, never none
