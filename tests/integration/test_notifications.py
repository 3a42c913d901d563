"""Database notifications (PostgreSQL): a deadline set or moved by any process arms this
process's timer; a message queued in the outbox wakes the sender."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import text

from app.persistence.notifications import DEADLINES, OUTBOX, Listener
from app.persistence.repositories.outbox import OutboxRepository
from app.telegram_handlers.scheduling import DeadlineFollower, timer_name
from tests.conftest import NOW, BotHarness
from tests.telegram.helpers import create_via_bot

pytestmark = pytest.mark.postgres


async def _until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_deadline_moved_elsewhere_rearms_the_timer_and_the_outbox_wakes_the_sender(
    pg_bot: BotHarness, pg_url: str
) -> None:
    pid = await create_via_bot(pg_bot, "Picnic; In the park; Yes, No")
    services = pg_bot.services
    scheduler = services.scheduler
    follower = DeadlineFollower(services, scheduler)  # type: ignore[arg-type]
    woken: list[str] = []
    listener = Listener(pg_url, {DEADLINES: follower.notified, OUTBOX: woken.append})
    listener.start()
    try:
        assert await listener.listening(10)
        moved = NOW + timedelta(days=9)
        # Another process (a replica, the CLI) moves the deadline: only the row changes.
        async with services.db.transaction() as session:
            await session.execute(
                text("UPDATE proposals SET deadline_at = :d WHERE id = :id"),
                {"d": moved, "id": pid},
            )
        wanted = timer_name("close", moved + timedelta(milliseconds=20))

        def armed() -> bool:
            return wanted in [j.name for j in scheduler.timers_of(pid)]  # type: ignore[attr-defined]

        await _until(armed, "the moved deadline's timer")
        closes = [j for j in scheduler.timers_of(pid) if j.name.startswith("close@")]  # type: ignore[attr-defined]
        assert len(closes) == 1, "the old timer is gone"

        async with services.db.transaction() as session:
            await OutboxRepository(session).enqueue_many(
                [{"kind": "reminder", "proposal_id": pid, "chat_id": "-1", "dedupe_key": "n1"}],
                pg_bot.clock.now(),
            )
        await _until(lambda: woken, "the outbox notification")
    finally:
        await listener.stop()
        await follower.stop()


async def test_the_listener_reconnects_and_catches_up(
    pg_bot: BotHarness, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    caught_up = asyncio.Event()

    async def on_reconnect() -> None:
        caught_up.set()

    listener = Listener(pg_url, {OUTBOX: lambda _p: None}, on_reconnect=on_reconnect)
    monkeypatch.setattr("app.persistence.notifications.RETRY_SECONDS", 0.1)
    listener.start()
    try:
        assert await listener.listening(10)
        async with pg_bot.services.db.transaction() as session:
            await session.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE query LIKE 'LISTEN%' AND datname = current_database()"
                )
            )
        await asyncio.wait_for(caught_up.wait(), 20)
        assert await listener.listening(10)
    finally:
        await listener.stop()
