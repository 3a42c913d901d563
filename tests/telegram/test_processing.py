"""The update processor: different users run together, one user's updates stay in order."""

from __future__ import annotations

import asyncio

from telegram import Update

from app.telegram_handlers.processing import PerUserUpdateProcessor
from tests.conftest import BotHarness


async def test_same_user_is_serialised_and_others_overlap(bot: BotHarness) -> None:
    processor = PerUserUpdateProcessor(8)
    log: list[str] = []
    gate = asyncio.Event()

    async def work(tag: str, wait: bool) -> None:
        log.append(f"start {tag}")
        if wait:
            await gate.wait()
        log.append(f"end {tag}")

    def update(user_id: int) -> Update:
        return bot.updates.message("hi", user_id=user_id)

    first = asyncio.create_task(processor.process_update(update(1), work("a1", True)))
    second = asyncio.create_task(processor.process_update(update(1), work("a2", False)))
    other = asyncio.create_task(processor.process_update(update(2), work("b", False)))
    await other  # user 2 is not held up by user 1's slow update
    assert "end b" in log and "start a2" not in log
    gate.set()
    await asyncio.gather(first, second)
    assert log.index("end a1") < log.index("start a2")
    assert processor._locks == {}  # idle users are forgotten
