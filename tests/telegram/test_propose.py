"""/propose through the real Application: one line, guided, validation and re-asks."""

from __future__ import annotations

from datetime import timedelta

from app.domain.models import ProposalStatus, ProposalType
from tests.conftest import CHANNEL_ID, NOW, BotHarness


async def test_one_line_proposal_is_created_and_posted(bot: BotHarness) -> None:
    replies = await bot.send("/propose Pizza party; Friday pizza on floor 4; Yes, No, Maybe")
    assert "How long should voting run?" in replies[-1]
    replies = await bot.send("3 days")
    assert "Optionally" in replies[-1]
    replies = await bot.send("/skip")
    summary = replies[-1]
    assert "Pizza party" in summary and "Yes, No, Maybe" in summary
    assert "Sat 21 Nov 2026, 12:00 UTC" in summary
    assert [b["callback_data"] for b in bot.buttons()] == ["pc:yes", "pc:redo", "pc:no"]

    replies = await bot.press("pc:yes")
    assert "Proposal <b>#1</b>" in replies[-1] and "posted in the channel" in replies[-1]
    assert "/cancel_proposal 1" in replies[-1]

    post = next(c for c in bot.request.calls_to("sendMessage") if c.params["chat_id"] == CHANNEL_ID)
    assert "New proposal #1" in post.params["text"]
    assert "Friday pizza on floor 4" in post.params["text"]
    assert "Voting ends: Sat 21 Nov 2026, 12:00 UTC" in post.params["text"]
    rows = post.params["reply_markup"]["inline_keyboard"]
    assert [r[0]["text"] for r in rows] == ["Yes", "No", "Maybe"]
    assert [r[0]["callback_data"] for r in rows] == ["v:1:0", "v:1:1", "v:1:2"]

    proposal = await bot.services.proposals.get(1)
    assert proposal.status is ProposalStatus.OPEN
    assert proposal.deadline_at == NOW + timedelta(days=3)
    assert proposal.channel_message_id == 1000
    assert proposal.proposer_id == 1001


async def test_guided_free_form_with_context(bot: BotHarness) -> None:
    replies = await bot.send("/propose")
    assert "title" in replies[-1]
    assert "description" in (await bot.send("Office ideas"))[-1]
    await bot.send("How should we use the spare room?")
    assert [b["callback_data"] for b in bot.buttons()] == ["pt:mc", "pt:ff"]
    replies = await bot.press("pt:ff")
    assert "How long should voting run?" in replies[-1]
    await bot.send("next Friday 5pm")
    replies = await bot.send("The room is 20 square metres.")
    assert "Fri 20 Nov 2026, 17:00 UTC" in replies[-1]  # the coming Friday
    await bot.press("pc:yes")
    proposal = await bot.services.proposals.get(1)
    assert proposal.proposal_type is ProposalType.FREE_FORM
    assert proposal.context_text == "The room is 20 square metres."
    post = next(c for c in bot.request.calls_to("sendMessage") if c.params["chat_id"] == CHANNEL_ID)
    button = post.params["reply_markup"]["inline_keyboard"][0][0]
    assert button["url"] == "https://t.me/CoordBot?start=submit_1"


async def test_freeform_keyword_in_one_line(bot: BotHarness) -> None:
    await bot.send("/propose Names; Name the cat; FREEFORM")
    await bot.send("2026-12-01 18:00")
    await bot.send("/skip")
    await bot.press("pc:yes")
    proposal = await bot.services.proposals.get(1)
    assert proposal.proposal_type is ProposalType.FREE_FORM and proposal.options == []


async def test_bad_options_are_reasked_without_losing_the_rest(bot: BotHarness) -> None:
    replies = await bot.send("/propose Lunch; Where to eat; Pizza")
    assert "at least 2 options" in replies[0]
    assert "options" in replies[-1]
    replies = await bot.send("Pizza, pizza")
    assert "appears twice" in replies[-1]
    replies = await bot.send(", ".join(f"Place {i}" for i in range(11)))
    assert "limit is 10" in replies[-1]
    replies = await bot.send("Pizza, Sushi")
    assert "How long should voting run?" in replies[-1]


async def test_bad_durations_explain_and_reask(bot: BotHarness) -> None:
    await bot.send("/propose Lunch; Where to eat; Pizza, Sushi")
    replies = await bot.send("whenever you like")
    assert "3 days" in replies[-1]  # the error gives examples
    replies = await bot.send("2025-01-01 10:00")
    assert "in the past" in replies[-1]
    replies = await bot.send("2028-01-01 10:00")
    assert "more than a year" in replies[-1]
    replies = await bot.send("1 week")
    assert "Optionally" in replies[-1]


async def test_title_and_description_limits(bot: BotHarness) -> None:
    await bot.send("/propose")
    replies = await bot.send("x" * 201)
    assert "limit is 200" in replies[-1]
    await bot.send("Fine title")
    replies = await bot.send("d" * 3001)
    assert "limit is 3000" in replies[-1]
    replies = await bot.send("A fine description")
    assert [b["callback_data"] for b in bot.buttons()] == ["pt:mc", "pt:ff"]


async def test_change_deadline_and_discard(bot: BotHarness) -> None:
    await bot.send("/propose Lunch; Where to eat; Pizza, Sushi")
    await bot.send("3 days")
    await bot.send("/skip")
    replies = await bot.press("pc:redo")
    assert "How long should voting run?" in replies[-1]
    replies = await bot.send("5 days")
    assert "Mon 23 Nov 2026, 12:00 UTC" in replies[-1]
    replies = await bot.press("pc:no")
    assert "Nothing was saved" in replies[-1]
    page = await bot.services.proposals.list_proposals(None)
    assert page.total == 0


async def test_cancel_leaves_the_conversation(bot: BotHarness) -> None:
    await bot.send("/propose")
    await bot.send("A title")
    replies = await bot.send("/cancel")
    assert "Nothing was saved" in replies[-1]
    replies = await bot.send("some text")
    assert "I read commands" in replies[-1]


async def test_channel_failure_still_creates_the_proposal(bot: BotHarness) -> None:
    await bot.send("/propose Lunch; Where to eat; Pizza, Sushi")
    await bot.send("3 days")
    await bot.send("/skip")
    bot.request.fail_next("sendMessage", [("bad_request", "chat not found")])
    replies = await bot.press("pc:yes")
    assert "could not be posted" in replies[-1]
    assert (await bot.services.proposals.get(1)).channel_message_id is None
