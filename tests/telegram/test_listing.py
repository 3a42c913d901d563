"""Browsing through the Application: lists, pages, details, own proposals and votes."""

from __future__ import annotations

from tests.conftest import BotHarness
from tests.telegram.helpers import create_via_bot


async def test_proposals_without_argument_offers_buttons(bot: BotHarness) -> None:
    replies = await bot.send("/proposals")
    assert "Which proposals" in replies[-1]
    assert [b["callback_data"] for b in bot.buttons()] == ["pl:o:0", "pl:c:0", "pl:x:0", "pl:a:0"]
    replies = await bot.press("pl:o:0")
    assert "There are no open proposals" in replies[-1]


async def test_pages_of_ten_with_next_and_previous(bot: BotHarness) -> None:
    for i in range(12):
        await create_via_bot(bot, f"Topic {i}; About topic {i}; Yes, No", f"{i + 1} days")
    replies = await bot.send("/proposals open")
    assert "(1–10 of 12)" in replies[-1]
    assert "Topic 0" in replies[-1] and "Topic 10" not in replies[-1]  # soonest deadline first
    datas = [b["callback_data"] for b in bot.buttons()]
    assert datas[:10] == [f"vp:{i}" for i in range(1, 11)] and datas[-1] == "pl:o:1"
    replies = await bot.press("pl:o:1")
    assert "(11–12 of 12)" in replies[-1] and "Topic 11" in replies[-1]
    edit = bot.request.last("editMessageText").params
    pager = edit["reply_markup"]["inline_keyboard"][-1]
    assert [b["callback_data"] for b in pager] == ["pl:o:0"]


async def test_unknown_status_word(bot: BotHarness) -> None:
    replies = await bot.send("/proposals pending")
    assert "I don't know the status 'pending'" in replies[-1]


async def test_view_proposal_by_id_and_button(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/view_proposal {pid}", user_id=2002)
    text = replies[-1]
    assert f"#{pid} Pizza party" in text and "open" in text and "Proposed by @alice" in text
    assert "in 3 days" in text and f"/my_vote {pid}" in text
    assert [b["callback_data"] for b in bot.buttons()] == [f"v:{pid}:0", f"v:{pid}:1"]
    replies = await bot.press(f"vp:{pid}", user_id=2002)
    assert f"#{pid} Pizza party" in replies[-1]


async def test_view_proposal_errors(bot: BotHarness) -> None:
    replies = await bot.send("/view_proposal")
    assert "Please tell me which proposal" in replies[-1] and "/ask" in replies[-1]
    replies = await bot.send("/view_proposal twelve")
    assert "'twelve' is not a proposal id" in replies[-1]
    replies = await bot.send("/view_proposal 77")
    assert "Proposal #77 does not exist" in replies[-1]
    replies = await bot.send("/view_proposal #77")
    assert "Proposal #77 does not exist" in replies[-1]


async def test_my_proposals_and_my_votes(bot: BotHarness) -> None:
    replies = await bot.send("/my_proposals", user_id=2002)
    assert "haven't created any" in replies[-1]
    replies = await bot.send("/my_votes", user_id=2002)
    assert "haven't voted" in replies[-1]
    a = await create_via_bot(bot, "Pizza party; Pizza; Yes, No")
    b = await create_via_bot(bot, "Ideas; Room; FREEFORM")
    replies = await bot.send("/my_proposals")
    assert "Pizza party" in replies[-1] and "Ideas" in replies[-1] and "(1–2 of 2)" in replies[-1]
    await bot.press(f"v:{a}:1", user_id=2002)
    await bot.send(f"/submit {b} Bean bags", user_id=2002)
    replies = await bot.send("/my_submissions", user_id=2002)
    assert "you: “No”" in replies[-1] and "you: “Bean bags”" in replies[-1]
    assert "Only you can see" in replies[-1]
    replies = await bot.send("/my_votes", user_id=3003)
    assert "haven't voted" in replies[-1]


async def test_my_vote_errors(bot: BotHarness) -> None:
    replies = await bot.send("/my_vote")
    assert "Please tell me which proposal: /my_vote &lt;proposal_id&gt;" in replies[-1]
    replies = await bot.send("/my_vote 5")
    assert "Proposal #5 does not exist" in replies[-1]
