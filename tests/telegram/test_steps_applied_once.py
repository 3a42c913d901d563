"""Conversation steps are applied once, through the Application with webhook mode's shared
conversation state on PostgreSQL: an update handled again (its replica died after
writing the step and before marking the update done, and another replica took it
over) changes nothing, and the draft's confirmation creates its proposal once."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from telegram import Update

from app.telegram_handlers.shared_state import SharedConversationState
from tests.conftest import CHANNEL_ID, BotHarness


async def _handle(bot: BotHarness, update: Update) -> list[str]:
    before = len(bot.request.calls)
    await bot.app.process_update(update)  # type: ignore[attr-defined]
    return bot._texts_since(before)


async def _state(bot: BotHarness, user_id: int) -> Any:
    async with bot.services.db.transaction() as session:
        return await session.scalar(
            text("SELECT state FROM conversation_states WHERE user_id = :u"), {"u": user_id}
        )


def _channel_posts(bot: BotHarness) -> list[str]:
    return [
        str(c.params["text"])
        for c in bot.request.calls_to("sendMessage")
        if c.params["chat_id"] == CHANNEL_ID
    ]


async def test_a_step_handled_twice_is_applied_once(pg_bot: BotHarness) -> None:
    SharedConversationState(pg_bot.app).install()
    assert "title" in (await pg_bot.send("/propose", user_id=1002))[-1]

    title = pg_bot.updates.message("Street party", user_id=1002)
    assert "description" in (await _handle(pg_bot, title))[-1]
    after_title = await _state(pg_bot, 1002)
    # Delivered again after the replica that handled it died before marking it done:
    # nothing is answered, nothing moves ("Street party" is not taken as the description).
    assert await _handle(pg_bot, title) == []
    assert await _state(pg_bot, 1002) == after_title

    await pg_bot.send("Music and food in June", user_id=1002)
    await pg_bot.press("pt:mc", user_id=1002)
    await pg_bot.send("Yes, No, Later", user_id=1002)
    await pg_bot.send("3 days", user_id=1002)
    summary = (await pg_bot.send("/skip", user_id=1002))[-1]
    assert "Street party" in summary and "Music and food in June" in summary

    # The confirmation, handled by a replica that died after creating and posting the
    # proposal but before its step was written: the draft is still there, and the
    # same update is handled again by another replica.
    before_confirm = await _state(pg_bot, 1002)
    confirm = pg_bot.updates.callback("pc:yes", user_id=1002)
    replies = await _handle(pg_bot, confirm)
    assert "Proposal <b>#1</b>" in replies[-1]
    assert await _state(pg_bot, 1002) is None, "the conversation is over"
    async with pg_bot.services.db.transaction() as session:
        await session.execute(
            text(
                "INSERT INTO conversation_states (user_id, state, updated_at) "
                "VALUES (:u, :s, now())"
            ),
            {"u": 1002, "s": before_confirm},
        )
    replies = await _handle(pg_bot, confirm)
    assert "Proposal <b>#1</b>" in replies[-1], "the same proposal, not a second one"
    page = await pg_bot.services.proposals.my_proposals(1002)
    assert [(p.id, p.title) for p in page.items] == [(1, "Street party")]
    assert len([t for t in _channel_posts(pg_bot) if "New proposal" in t]) == 1

    # Once the step is written, the same confirmation again is a button no longer valid.
    assert await _handle(pg_bot, confirm) == ["This button is no longer valid"]
    assert len((await pg_bot.services.proposals.my_proposals(1002)).items) == 1
