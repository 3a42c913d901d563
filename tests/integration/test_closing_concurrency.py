"""Concurrent closers and senders on PostgreSQL: one close, one announcement each."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import text

from app.core.closing.outbox_service import OutboxService
from app.domain.interfaces import NullScheduler
from app.domain.models import OutboxMessage, Proposal
from app.persistence.database import Database
from tests.conftest import NOW, BotHarness
from tests.telegram.helpers import create_via_bot


class CountingSender:
    def __init__(self) -> None:
        self.sent: list[tuple[str, int | None]] = []

    async def deliver(self, message: OutboxMessage, proposal: Proposal | None) -> int | None:
        await asyncio.sleep(0)  # let the other sender interleave
        self.sent.append((message.kind.value, message.proposal_id))
        return None


async def test_ten_concurrent_closers_one_announcement(
    pg_bot: BotHarness, pg_database: Database
) -> None:
    ids = [await create_via_bot(pg_bot, f"P{i}; d; Yes, No", "1 day") for i in range(5)]
    for pid in ids:
        await pg_bot.press(f"v:{pid}:0", user_id=3000 + pid)
    pg_bot.clock.set(NOW + timedelta(days=1, seconds=1))
    closing = pg_bot.services.closing
    closing.scheduler = NullScheduler()
    results = await asyncio.gather(*(closing.close_due() for _ in range(10)))
    assert sorted(pid for closed in results for pid in closed) == ids  # each closed once

    async with pg_database.transaction() as session:
        rows = (
            await session.execute(
                text("SELECT kind, count(*) FROM outbox GROUP BY kind ORDER BY kind")
            )
        ).all()
    assert [tuple(r) for r in rows] == [
        ("closed_post", 5), ("proposer_dm", 5), ("result", 5), ("result_chart", 5),
    ]  # fmt: skip

    # Two senders (as two processes would) share the outbox without sending anything twice.
    sender = CountingSender()
    senders = [OutboxService(pg_database, pg_bot.clock, sender, batch=2) for _ in range(2)]
    await asyncio.gather(*(s.deliver_due() for s in senders))
    assert len(sender.sent) == 20 and len(set(sender.sent)) == 20
    assert await senders[0].pending() == 0
