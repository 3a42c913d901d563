"""The outbox takes chats in turn and keeps each chat's pace: a channel's backlog never
holds back a member's DM by more than a round, and a RetryAfter pauses its chat only.

With a frozen clock a chat's pace never runs out by itself, so what one delivery sends
is exact: the test moves the clock to let a chat's turn come."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

from app.core.closing.outbox_service import OutboxService
from app.core.closing.pacing import Pace, chat_kind
from app.domain.clock import FrozenClock, SystemClock
from app.domain.interfaces import DeliveryError
from app.domain.models import OutboxMessage, Proposal
from app.persistence.database import Database
from app.persistence.repositories.ops import OpsRepository
from app.persistence.repositories.outbox import OutboxRepository

CHANNEL = "-1001234567890"
GROUP = "-1002000000000"
LEASE = timedelta(minutes=2)


class Recorder:
    """Telegram's side: records what went out; RetryAfter for the chats told to."""

    def __init__(self) -> None:
        self.sent: list[str] = []  # dedupe keys, in the order they went out
        self.flood: dict[str, float] = {}  # chat -> RetryAfter seconds, once
        self.arrived = asyncio.Event()

    async def deliver(self, message: OutboxMessage, proposal: Proposal | None) -> int | None:
        if message.chat_id in self.flood:
            raise DeliveryError("flood control", retry_after=self.flood.pop(message.chat_id))
        self.sent.append(str(message.payload["key"]))
        self.arrived.set()
        return None

    def to(self, chat: str) -> list[str]:
        return [k for k in self.sent if k.startswith(f"{chat}/")]


async def _queue(database: Database, clock: FrozenClock | SystemClock, chat: str, n: int,
                 kind: str = "result", first: int = 0) -> None:  # fmt: skip
    rows = [
        {"kind": kind, "chat_id": chat, "dedupe_key": f"{chat}/{kind}/{i}",
         "payload": {"key": f"{chat}/{i}"}}
        for i in range(first, first + n)
    ]  # fmt: skip
    async with database.transaction() as session:
        await OutboxRepository(session).enqueue_many(rows, clock.now())


def test_chat_kinds() -> None:
    assert chat_kind(CHANNEL) == "channel" and chat_kind("@community") == "channel"
    assert chat_kind("2001") == "private" and chat_kind(2001) == "private"


async def test_each_chat_in_turn(database: Database, clock: FrozenClock) -> None:
    await _queue(database, clock, CHANNEL, 5)
    await _queue(database, clock, GROUP, 1)
    await _queue(database, clock, "2001", 2, kind="proposer_dm")
    await _queue(database, clock, "2002", 1, kind="proposer_dm")
    now = clock.now()
    async with database.transaction() as session:
        repo = OutboxRepository(session)
        # Paced: the oldest of every chat that may send now, the news first.
        heads = await repo.claim_due(now, LEASE, 10, per_chat=1, skip_chats={"2002"})
        assert [m.chat_id for m in heads] == [CHANNEL, GROUP, "2001"]
        # Unpaced: several of a chat at once; within a kind, the first of every chat
        # before the second of any.
        rest = await repo.claim_due(now, LEASE, 4, exclude={m.id for m in heads})
        assert [m.chat_id for m in rest] == [CHANNEL, CHANNEL, CHANNEL, CHANNEL]
        last = await repo.claim_due(now, LEASE, 10)
        assert [m.chat_id for m in last] == ["2001", "2002"]
        outbox, _ = await OpsRepository(session).snapshot()
    assert outbox["channel"][0] == 6 and outbox["private"][0] == 3
    assert outbox["channel"][1] == now


async def test_a_channel_backlog_waits_on_its_own_pace(
    database: Database, clock: FrozenClock
) -> None:
    await _queue(database, clock, CHANNEL, 40)
    sender = Recorder()
    outbox = OutboxService(database, clock, sender, pace=Pace())
    await _queue(database, clock, "2001", 1, kind="proposer_dm")
    await _queue(database, clock, "2002", 1, kind="proposer_dm")

    assert await outbox.deliver_due() == 3, "one of the channel's, and both DMs"
    assert sender.to(CHANNEL) == [f"{CHANNEL}/0"]
    assert await outbox.deliver_due() == 0, "the channel's next turn is in 3 s"
    for i in range(3, 8):  # members keep writing; each DM goes out at once
        await _queue(database, clock, str(2000 + i), 1, kind="proposer_dm")
        assert await outbox.deliver_due() == 1
    clock.advance(timedelta(seconds=3))
    assert await outbox.deliver_due() == 1 and sender.to(CHANNEL)[-1] == f"{CHANNEL}/1"

    # A member's second DM waits a second behind the first.
    await _queue(database, clock, "2001", 2, kind="proposer_dm", first=1)
    assert await outbox.deliver_due() == 1
    clock.advance(timedelta(seconds=1))
    assert await outbox.deliver_due() == 1
    assert sender.to("2001") == ["2001/0", "2001/1", "2001/2"]

    # Telegram's RetryAfter for the channel pauses the channel alone.
    clock.advance(timedelta(seconds=3))
    sender.flood[CHANNEL] = 30
    assert await outbox.deliver_due() == 0
    await _queue(database, clock, "2009", 1, kind="proposer_dm")
    assert await outbox.deliver_due() == 1 and sender.sent[-1] == "2009/0"
    clock.advance(timedelta(seconds=29))
    assert await outbox.deliver_due() == 0, "still paused"
    clock.advance(timedelta(seconds=2))
    assert await outbox.deliver_due() == 1 and sender.to(CHANNEL)[-1] == f"{CHANNEL}/2"
    assert len(sender.sent) == len(set(sender.sent)), "nothing twice"
    await outbox.close()


async def test_without_a_pace_chats_still_take_turns(
    database: Database, clock: FrozenClock
) -> None:
    """PTB's rate limiter off (no limits): several messages of a chat at once, but a
    group's result queued behind 200 of the channel's goes out in the first round."""
    await _queue(database, clock, CHANNEL, 200)
    await _queue(database, clock, GROUP, 1)
    sender = Recorder()
    outbox = OutboxService(database, clock, sender, batch=10, concurrency=1)
    assert await outbox.deliver_due() == 201
    assert f"{GROUP}/0" in sender.sent[:10]
    assert Counter(k.split("/")[0] for k in sender.sent) == {CHANNEL: 200, GROUP: 1}


async def test_a_chat_whose_turn_comes_wakes_the_sender(database: Database) -> None:
    """On the real clock, nobody asks again: the sender wakes when the channel may send."""
    clock = SystemClock()
    await _queue(database, clock, CHANNEL, 3)
    sender = Recorder()
    outbox = OutboxService(database, clock, sender, pace=Pace(channel_interval=0.2))
    assert await outbox.deliver_due() == 1
    for n in (2, 3):
        while len(sender.sent) < n:
            sender.arrived.clear()
            await asyncio.wait_for(sender.arrived.wait(), 30)
    assert sender.to(CHANNEL) == [f"{CHANNEL}/{i}" for i in range(3)]
    await outbox.close()  # lets the woken delivery write its marks
    assert await outbox.pending() == 0
