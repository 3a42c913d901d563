"""Outbox claims: a message the sender still has in hand is not claimed a second time,
even once its lease has run out (a rate limit held it back that long)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from app.core.closing.outbox_service import OutboxService
from app.domain.clock import FrozenClock
from app.domain.models import OutboxMessage, Proposal
from app.persistence.database import Database
from app.persistence.repositories.outbox import OutboxRepository

LEASE = timedelta(minutes=2)


async def test_messages_in_hand_are_not_claimed_again(
    database: Database, clock: FrozenClock
) -> None:
    now = clock.now()
    async with database.transaction() as session:
        repo = OutboxRepository(session)
        await repo.enqueue_many(
            [{"kind": "result", "chat_id": "-1", "dedupe_key": f"k{i}"} for i in range(3)], now
        )
        first = await repo.claim_due(now, LEASE, 10)
        assert len(first) == 3
        assert await repo.claim_due(now, LEASE, 10) == [], "leased"

        later = now + LEASE + timedelta(seconds=1)  # the leases ran out, none was sent
        in_hand = {first[0].id}
        again = await repo.claim_due(later, LEASE, 10, exclude=in_hand)
        assert sorted(m.id for m in again) == sorted(m.id for m in first[1:])


class _SlowFirstSender:
    """Telegram's side of the outbox: the first message is held back (as a rate limit
    would) past its lease while the sender claims its next round."""

    def __init__(self, clock: FrozenClock) -> None:
        self.clock = clock
        self.sent: list[int] = []
        self.release = asyncio.Event()

    async def deliver(self, message: OutboxMessage, proposal: Proposal | None) -> int | None:
        if not self.sent and not self.release.is_set():
            self.clock.advance(LEASE + timedelta(seconds=1))
            self.sent.append(message.id)
            await self.release.wait()
            return None
        self.sent.append(message.id)
        if len(self.sent) >= 3:
            self.release.set()
        return None


async def test_a_message_held_back_past_its_lease_is_sent_once(
    database: Database, clock: FrozenClock
) -> None:
    async with database.transaction() as session:
        await OutboxRepository(session).enqueue_many(
            [{"kind": "reminder", "chat_id": "-1", "dedupe_key": f"k{i}"} for i in range(3)],
            clock.now(),
        )
    sender = _SlowFirstSender(clock)
    outbox = OutboxService(database, clock, sender, batch=1, concurrency=2)
    assert await asyncio.wait_for(outbox.deliver_due(), 30) == 3
    assert sorted(sender.sent) == sorted(set(sender.sent)), "nothing sent twice"
    assert len(sender.sent) == 3
    assert await outbox.pending() == 0
