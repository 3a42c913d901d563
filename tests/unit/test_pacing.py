"""Each chat's turn in the outbox: its pace, its RetryAfter, the overall spacing."""

from __future__ import annotations

import pytest

from app.core.closing import pacing
from app.core.closing.pacing import ChatTurns, Pace, Spacing

CHANNEL, MEMBER = "-1001234567890", "2001"


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


async def test_a_paced_chat_waits_its_interval_after_each_message() -> None:
    clock = Clock()
    turns = ChatTurns(Pace(per_second=1000.0), clock)
    assert turns.per_chat == 1 and turns.waiting() == set() and turns.next_ready() is None
    for chat in (CHANNEL, MEMBER):
        turns.claimed(chat)
    assert turns.waiting() == {CHANNEL, MEMBER}, "one message at a time per chat"
    for chat in (CHANNEL, MEMBER):
        await turns.turn(chat)
        turns.finished(chat)
    assert turns.waiting() == {CHANNEL, MEMBER} and turns.next_ready() == 1.0
    clock.t += 1.0
    assert turns.waiting() == {CHANNEL}, "a private chat: one a second"
    clock.t += 2.0
    assert turns.waiting() == set(), "a channel: twenty a minute"


async def test_retry_after_pauses_its_chat_only() -> None:
    clock = Clock()
    turns = ChatTurns(None, clock)
    assert turns.per_chat is None
    turns.claimed(CHANNEL)
    turns.claimed(CHANNEL)
    assert turns.waiting() == set(), "no pace: several of a chat at once"
    turns.finished(CHANNEL, retry_after=30.0)
    turns.finished(CHANNEL)
    assert turns.waiting() == {CHANNEL} and turns.next_ready() == 30.0
    clock.t += 30.0
    assert turns.waiting() == set()


async def test_spacing_keeps_the_overall_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five starts asked at once: each waits one interval more than the one before."""
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(round(seconds, 6))

    monkeypatch.setattr(pacing.asyncio, "sleep", sleep)
    clock = Clock()
    spacing = Spacing(0.04, clock)
    for _ in range(5):
        await spacing.wait()
    assert waits == [0.04, 0.08, 0.12, 0.16], "the first starts at once"
    clock.t += 1.0
    await spacing.wait()
    assert len(waits) == 4, "after a quiet second: at once again"
