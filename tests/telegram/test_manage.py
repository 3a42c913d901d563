"""Proposer actions through the Application: edit before votes, cancel with confirmation."""

from __future__ import annotations

from app.domain.models import ProposalStatus
from tests.conftest import CHANNEL_ID, BotHarness
from tests.telegram.helpers import create_via_bot


async def test_edit_title_and_options_rerenders_the_post(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/edit_proposal {pid}")
    assert "What would you like to change?" in replies[-1]
    assert [b["callback_data"] for b in bot.buttons()] == [
        "ef:title", "ef:description", "ef:options", "ef:stop",
    ]  # fmt: skip
    await bot.press("ef:title")
    bot.request.clear()
    replies = await bot.send("Pizza and salad party")
    assert "Updated" in replies[-1]
    edit = bot.request.last("editMessageText").params
    assert edit["chat_id"] == CHANNEL_ID and edit["message_id"] == 1000
    assert "Pizza and salad party" in edit["text"]
    await bot.press("ef:options")
    replies = await bot.send("Yes")
    assert "at least 2 options" in replies[-1]
    await bot.send("Yes, No, Later")
    edit = bot.request.last("editMessageText").params
    assert [r[0]["text"] for r in edit["reply_markup"]["inline_keyboard"]] == ["Yes", "No", "Later"]
    replies = await bot.press("ef:stop")
    assert "Done editing" in replies[-1]
    proposal = await bot.services.proposals.get(pid)
    assert proposal.title == "Pizza and salad party" and proposal.options == ["Yes", "No", "Later"]


async def test_edit_rules(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/edit_proposal {pid}", user_id=2002)
    assert "Only the proposer" in replies[-1]
    await bot.press(f"v:{pid}:0", user_id=2002)
    replies = await bot.send(f"/edit_proposal {pid}")
    assert "can no longer be edited" in replies[-1]
    replies = await bot.send("/edit_proposal")
    assert "Please tell me which proposal" in replies[-1]


async def test_cancel_marks_post_and_removes_buttons(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/cancel_proposal {pid}")
    assert "can't be undone" in replies[-1]
    assert [b["callback_data"] for b in bot.buttons()] == [f"cx:{pid}:y", f"cx:{pid}:n"]
    bot.request.clear()
    replies = await bot.press(f"cx:{pid}:y")
    assert "is cancelled" in replies[-1]
    post = next(
        c.params
        for c in bot.request.calls_to("editMessageText")
        if c.params["chat_id"] == CHANNEL_ID
    )
    assert "Cancelled" in post["text"] and "reply_markup" not in post
    assert (await bot.services.proposals.get(pid)).status is ProposalStatus.CANCELLED
    replies = await bot.press(f"v:{pid}:0", user_id=2002)
    assert "was cancelled" in replies[-1]
    replies = await bot.send(f"/cancel_proposal {pid}")
    assert "already cancelled" in replies[-1]


async def test_cancel_by_someone_else_and_keep(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/cancel_proposal {pid}", user_id=2002)
    assert "Only the proposer" in replies[-1]
    replies = await bot.press(f"cx:{pid}:y", user_id=2002)
    assert "Only the proposer" in replies[-1]
    await bot.send(f"/cancel_proposal {pid}")
    replies = await bot.press(f"cx:{pid}:n")
    assert "Kept" in replies[-1]
    assert (await bot.services.proposals.get(pid)).status is ProposalStatus.OPEN
