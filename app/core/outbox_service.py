"""Delivers the outbox: at least once, honouring RetryAfter, backing off on faults.

A message is marked sent right after Telegram accepts it. The only window for a
duplicate is a crash between Telegram's acceptance and that mark.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from app.domain.clock import Clock
from app.domain.interfaces import DeliveryError, MessageSender
from app.domain.models import OutboxMessage, Proposal
from app.persistence.database import Database
from app.persistence.repositories.outbox import OutboxRepository
from app.persistence.repositories.proposals import ProposalRepository

logger = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)
MAX_ATTEMPTS = 12
MAX_BACKOFF = 600.0


def backoff_seconds(attempts: int) -> float:
    """2, 4, 8, ... seconds after the 1st, 2nd, 3rd failure; at most ten minutes."""
    return min(MAX_BACKOFF, 2.0 ** max(attempts, 1))


class OutboxService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        sender: MessageSender,
        batch: int = 100,
        concurrency: int = 8,
    ) -> None:
        self.db = db
        self.clock = clock
        self.sender = sender
        self.batch = batch
        self.concurrency = concurrency
        self._lock = asyncio.Lock()
        self._again = False

    async def deliver_due(self) -> int:
        """Send everything due now; returns how many messages this call delivered.

        A call made while another delivers is folded into one more pass of it.
        """
        if self._lock.locked():
            self._again = True
            return 0
        delivered = 0
        async with self._lock:
            self._again = False
            while True:
                now = self.clock.now()
                async with self.db.transaction() as session:
                    messages = await OutboxRepository(session).claim_due(now, LEASE, self.batch)
                    ids = sorted({m.proposal_id for m in messages if m.proposal_id is not None})
                    proposals = await ProposalRepository(session).get_proposals_by_ids(ids)
                delivered += await self._deliver_batch(messages, {p.id: p for p in proposals})
                if len(messages) < self.batch:
                    if not self._again:
                        return delivered
                    self._again = False

    async def _deliver_batch(
        self, messages: list[OutboxMessage], proposals: dict[int, Proposal]
    ) -> int:
        gate = asyncio.Semaphore(self.concurrency)

        async def one(message: OutboxMessage) -> int:
            proposal = proposals.get(message.proposal_id) if message.proposal_id else None
            async with gate:
                return await self._deliver_one(message, proposal)

        return sum(await asyncio.gather(*(one(m) for m in messages)))

    async def _deliver_one(self, message: OutboxMessage, proposal: Proposal | None) -> int:
        try:
            result_id = await self.sender.deliver(message, proposal)
        except DeliveryError as exc:
            await self._failed(message.id, message.attempts + 1, exc)
            return 0
        except Exception:
            logger.exception("outbox message %s (%s) failed unexpectedly", message.id, message.kind)
            await self._failed(message.id, message.attempts + 1, DeliveryError("unexpected error"))
            return 0
        async with self.db.transaction() as session:
            await OutboxRepository(session).mark_sent(message.id, self.clock.now(), result_id)
        return 1

    async def _failed(self, message_id: int, attempts: int, exc: DeliveryError) -> None:
        now = self.clock.now()
        async with self.db.transaction() as session:
            repo = OutboxRepository(session)
            if exc.permanent or attempts >= MAX_ATTEMPTS:
                logger.warning("outbox message %s given up: %s", message_id, exc.reason)
                await repo.mark_failed(message_id, now, exc.reason)
                return
            wait = exc.retry_after if exc.retry_after is not None else backoff_seconds(attempts)
            logger.info("outbox message %s retries in %.0fs: %s", message_id, wait, exc.reason)
            await repo.mark_retry(message_id, now + timedelta(seconds=wait), exc.reason)

    async def pending(self) -> int:
        async with self.db.transaction() as session:
            return await OutboxRepository(session).pending_count()
