"""Delivers the outbox: at least once, honouring RetryAfter, backing off on faults.

A message is marked sent right after Telegram accepts it. The marks are group
committed: a message accepted while the previous marks are being written waits
for the next write, which takes every mark that arrived meanwhile. An idle sender
writes each mark at once; a busy one writes one transaction per round of
messages instead of one per message. The only window for a duplicate is a crash
between Telegram's acceptance and that write.

Fairness: messages are taken chat by chat in turn, the oldest of each chat that
may send now, and each chat keeps its own pace (see pacing): a channel's backlog of
results and charts never holds back a member's DM by more than a round, and a
RetryAfter for one chat pauses that chat only. A chat waiting for its turn wakes
the sender when its turn comes.

Replicas: only the holder of the sending lease sends (one process per bot, so the
rate limit holds); a replica that takes the lease over from a dead holder makes
that holder's claimed rows due at once instead of waiting out their lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta
from functools import partial

from app.core.closing.pacing import ChatTurns, Pace
from app.domain.clock import Clock
from app.domain.interfaces import DeliveryError, MessageSender
from app.domain.models import OutboxMessage, Proposal
from app.persistence.database import Database
from app.persistence.leases import AlwaysHeld, SendingLease
from app.persistence.repositories.outbox import OutboxRepository
from app.persistence.repositories.proposals import ProposalRepository

logger = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)
MAX_ATTEMPTS = 12
MAX_BACKOFF = 600.0
NEWS_WAIT = 30.0  # seconds bookkeeping waits for the announcements at most
CLOSE_WAIT = 5.0  # seconds a closing sender lets a pass woken by a chat's turn finish


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
        lease: SendingLease | None = None,
        pace: Pace | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.sender = sender
        self.batch = batch
        self.concurrency = concurrency
        self.lease: SendingLease = lease or AlwaysHeld()
        self._lock = asyncio.Lock()
        self._again = False
        self._unmarked: dict[int, tuple[datetime, int | None]] = {}
        self._marking = asyncio.Lock()
        self._sender = False  # held the sending lease at the last delivery
        self.turns = self._turns(pace)
        self._wake: asyncio.TimerHandle | None = None
        self._woken: set[asyncio.Task[None]] = set()
        self._closed = False

    def set_pace(self, pace: Pace | None) -> None:
        """Keep Telegram's pace per chat (PTB's rate limiter on), or none (no limits)."""
        self.turns = self._turns(pace)

    def _turns(self, pace: Pace | None) -> ChatTurns:
        return ChatTurns(pace, lambda: self.clock.now().timestamp())

    async def deliver_due(self, *, wait: bool = False) -> int:
        """Send everything due now; returns how many messages this call delivered.

        A call made while another delivers is folded into one more pass of it;
        with ``wait`` it returns once that pass is over.
        """
        if self._lock.locked():
            self._again = True
            if wait:
                async with self._lock:
                    pass
            return 0
        async with self._lock:
            self._again = False
            self._sender = await self.lease.hold()
            if not self._sender:
                return 0  # another replica sends
            if self.lease.taken_over():
                async with self.db.transaction() as session:
                    freed = await OutboxRepository(session).release_leases(self.clock.now())
                if freed:
                    logger.info("took over %d outbox messages from a sender that stopped", freed)
            delivered = await self._pass()
            while self._again:  # asked again while the last messages went out
                self._again = False
                delivered += await self._pass()
            self._wake_when_a_chat_may_send()
            return delivered

    def _wake_when_a_chat_may_send(self) -> None:
        """A chat held back by its pace (or a RetryAfter) gets its turn without waiting for
        the next poll or sweep."""
        delay = self.turns.next_ready()
        if delay is None or self._closed:
            return
        if self._wake is not None:
            self._wake.cancel()
        self._wake = asyncio.get_running_loop().call_later(delay + 0.005, self._woken_up)

    def _woken_up(self) -> None:
        self._wake = None
        if self._closed:
            return
        task = asyncio.ensure_future(self._deliver_quietly())
        self._woken.add(task)
        task.add_done_callback(self._woken.discard)

    async def _deliver_quietly(self) -> None:
        try:
            await self.deliver_due()
        except Exception:
            logger.warning("outbox delivery failed; the next poll or sweep retries", exc_info=True)

    async def _pass(self) -> int:
        """Claim and send rounds until nothing is due. The next round is claimed while the
        tail of the last one is still going out, so the slots never drain between rounds."""
        gate = asyncio.Semaphore(self.concurrency)
        in_flight: set[asyncio.Task[int]] = set()
        in_hand: set[int] = set()  # claimed, not yet settled: never claimed again meanwhile
        delivered = 0
        try:
            while True:
                now = self.clock.now()
                async with self.db.transaction() as session:
                    messages = await OutboxRepository(session).claim_due(
                        now,
                        LEASE,
                        self.batch,
                        exclude=in_hand,
                        skip_chats=self.turns.waiting(),
                        per_chat=self.turns.per_chat,
                    )
                    ids = sorted({m.proposal_id for m in messages if m.proposal_id is not None})
                    proposals = await ProposalRepository(session).get_proposals_by_ids(ids)
                by_id = {p.id: p for p in proposals}
                for message in messages:
                    in_hand.add(message.id)
                    self.turns.claimed(message.chat_id)
                    task = asyncio.create_task(self._one(message, by_id, gate))
                    task.add_done_callback(partial(_release, in_hand, message.id))
                    in_flight.add(task)
                if len(messages) < self.batch:
                    if not self._again:
                        break
                    self._again = False
                while len(in_flight) > self.concurrency:
                    done, in_flight = await asyncio.wait(
                        in_flight, return_when=asyncio.FIRST_COMPLETED
                    )
                    delivered += sum(task.result() for task in done)
        except BaseException:
            # Cut short (shutdown, a failed write): what is in flight is cancelled, as one
            # gather of the round would have cancelled it.
            for task in in_flight:
                task.cancel()
            await asyncio.gather(*in_flight, return_exceptions=True)
            raise
        if in_flight:
            delivered += sum(await asyncio.gather(*in_flight))
        return delivered

    async def _one(
        self, message: OutboxMessage, proposals: dict[int, Proposal], gate: asyncio.Semaphore
    ) -> int:
        proposal = proposals.get(message.proposal_id) if message.proposal_id else None
        retry_after: float | None = None
        try:
            # The gate covers the call and its mark: messages Telegram accepted but the
            # database does not yet know as sent (the ones a crash would send twice) are
            # never more than ``concurrency``.
            async with gate:
                await self.turns.turn(message.chat_id)
                outcome = await self._send(message, proposal)
                if not isinstance(outcome, DeliveryError):
                    await self._mark_sent(message.id, outcome)
                    return 1
            retry_after = outcome.retry_after
            await self._failed(message.id, message.attempts + 1, outcome)
            return 0
        finally:
            self.turns.finished(message.chat_id, retry_after)

    async def _send(
        self, message: OutboxMessage, proposal: Proposal | None
    ) -> int | DeliveryError | None:
        """Telegram's message id (or None), or the error that kept the message from going out."""
        try:
            return await self.sender.deliver(message, proposal)
        except DeliveryError as exc:
            return exc
        except Exception:
            logger.exception("outbox message %s (%s) failed unexpectedly", message.id, message.kind)
            return DeliveryError("unexpected error")

    async def _mark_sent(self, message_id: int, result_id: int | None) -> None:
        """Returns once this message's mark is committed (by this call or an earlier one)."""
        self._unmarked[message_id] = (self.clock.now(), result_id)
        async with self._marking:
            if message_id not in self._unmarked:
                return  # the write that just finished took it along
            marks, self._unmarked = self._unmarked, {}
            try:
                async with self.db.transaction() as session:
                    await OutboxRepository(session).mark_sent(marks)
            except BaseException:
                # Not written: the next write retries them (or the lease runs out).
                self._unmarked = marks | self._unmarked
                raise

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

    async def stop_waking(self) -> None:
        """At shutdown, while the bot can still send: no pass starts by itself any more
        (a chat's turn coming); one under way finishes and writes its marks (bounded)."""
        self._closed = True
        if self._wake is not None:
            self._wake.cancel()
        if self._woken:
            _, late = await asyncio.wait(set(self._woken), timeout=CLOSE_WAIT)
            for task in late:
                task.cancel()
            with contextlib.suppress(Exception):
                await asyncio.gather(*late, return_exceptions=True)

    async def close(self) -> None:
        """Give up the sending lease (at shutdown, after the last marks are written)."""
        await self.stop_waking()
        await self.lease.release()

    async def news_pending(self) -> bool:
        async with self.db.transaction() as session:
            return await OutboxRepository(session).results_pending()

    async def news_out(self, limit: float = NEWS_WAIT, poll: float = 0.25) -> None:
        """Wait (at most ``limit`` seconds) until no result announcement waits to be sent,
        whichever replica sends them: bookkeeping after a close (search index, facts)
        should not compete with the news for the CPU. The sender itself has just been
        through the outbox (what is left waits for a retry): it does not wait."""
        if self._sender:
            return
        for _ in range(max(1, int(limit / poll))):  # another process sends: poll the table
            if not await self.news_pending():
                return
            await asyncio.sleep(poll)

    async def pending(self) -> int:
        async with self.db.transaction() as session:
            return await OutboxRepository(session).pending_count()


def _release(in_hand: set[int], message_id: int, _task: asyncio.Task[object]) -> None:
    """A message's send has ended: the next rounds may claim it again if it was not sent."""
    in_hand.discard(message_id)
