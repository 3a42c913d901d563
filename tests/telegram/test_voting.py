"""Voting and submissions through the Application: private, changeable, only while open."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from tests.conftest import CHANNEL_ID, BotHarness
from tests.telegram.helpers import create_via_bot


async def test_vote_is_private_and_changeable(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    bot.request.clear()
    replies = await bot.press(
        f"v:{pid}:0", user_id=2002, chat_id=int(CHANNEL_ID), chat_type="channel"
    )
    answer = bot.request.last("answerCallbackQuery").params
    assert answer["show_alert"] is True and "Vote recorded" in answer["text"]
    # Nothing but the private alert: no message in the channel, no edited post.
    assert [c.method for c in bot.request.calls] == ["answerCallbackQuery"]
    assert replies == [answer["text"]]

    replies = await bot.press(
        f"v:{pid}:1", user_id=2002, chat_id=int(CHANNEL_ID), chat_type="channel"
    )
    assert "changed to “No”" in replies[-1]
    replies = await bot.press(
        f"v:{pid}:1", user_id=2002, chat_id=int(CHANNEL_ID), chat_type="channel"
    )
    assert "already “No”" in replies[-1]

    replies = await bot.send(f"/my_vote {pid}", user_id=2002)
    assert replies == [f"For proposal 'Pizza party' (#{pid}), your submission was: 'No'"]
    replies = await bot.send(f"/my_vote {pid}", user_id=3003)
    assert replies == [f"You did not make a submission for proposal 'Pizza party' (#{pid})."]


async def test_vote_after_deadline_is_rejected_even_before_close(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    bot.clock.advance(timedelta(days=3))  # exactly at the deadline; nothing has closed it yet
    replies = await bot.press(f"v:{pid}:0", user_id=2002)
    assert "Voting on proposal" in replies[-1] and "has ended" in replies[-1]
    assert (await bot.services.submissions.my_votes(2002)).total == 0


async def test_vote_on_unknown_proposal_or_option(bot: BotHarness) -> None:
    replies = await bot.press("v:999:0", user_id=2002)
    assert "Proposal #999 does not exist" in replies[-1]
    pid = await create_via_bot(bot)
    replies = await bot.press(f"v:{pid}:7", user_id=2002)
    assert "no longer exists" in replies[-1]


async def test_free_form_submission_by_command_and_replacement(bot: BotHarness) -> None:
    pid = await create_via_bot(bot, "Ideas; Spare room ideas; FREEFORM")
    replies = await bot.send(f"/submit {pid} A reading corner", user_id=2002)
    assert "is recorded" in replies[-1]
    replies = await bot.send(f"/submit {pid} A table tennis table", user_id=2002)
    assert "replaced your earlier idea" in replies[-1]
    replies = await bot.send(f"/my_vote {pid}", user_id=2002)
    assert replies == [
        f"For proposal 'Ideas' (#{pid}), your submission was: 'A table tennis table'"
    ]


async def test_deep_link_submission_flow(bot: BotHarness) -> None:
    pid = await create_via_bot(bot, "Ideas; Spare room ideas; FREEFORM")
    replies = await bot.send(f"/start submit_{pid}", user_id=2002)
    assert "Send your idea" in replies[-1] and "Spare room ideas" in replies[-1]
    replies = await bot.send("x" * 2001, user_id=2002)
    assert "limit is 2000" in replies[-1]
    replies = await bot.send("Plants everywhere", user_id=2002)
    assert "is recorded" in replies[-1]
    replies = await bot.send("another text", user_id=2002)
    assert "I read commands" in replies[-1]  # the flow ended; nothing else was stored
    mine = await bot.services.submissions.get_user_submission_for_proposal(2002, pid)
    assert mine.submission is not None and mine.submission.response_content == "Plants everywhere"


async def test_submit_without_text_asks_for_it_and_cancel(bot: BotHarness) -> None:
    pid = await create_via_bot(bot, "Ideas; Spare room ideas; FREEFORM")
    replies = await bot.send(f"/submit {pid}", user_id=2002)
    assert "Send your idea" in replies[-1]
    replies = await bot.send("/cancel", user_id=2002)
    assert "Nothing was sent" in replies[-1]


async def test_submit_rules(bot: BotHarness) -> None:
    replies = await bot.send("/submit", user_id=2002)
    assert "Please tell me which proposal" in replies[-1] and "/proposals" in replies[-1]
    replies = await bot.send("/submit abc hello", user_id=2002)
    assert "'abc' is not a proposal id" in replies[-1]
    mc = await create_via_bot(bot)
    replies = await bot.send(f"/submit {mc} my idea", user_id=2002)
    assert "multiple choice" in replies[-1]
    replies = await bot.send("/start submit_999", user_id=2002)
    assert "Proposal #999 does not exist" in replies[-1]


async def test_start_registers_and_plain_start_greets(bot: BotHarness) -> None:
    replies = await bot.send("/start", user_id=2002, username="bob")
    assert "Hello" in replies[-1] and "/propose" in replies[-1]


async def test_choices_and_texts_never_reach_logs(
    bot: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    pid = await create_via_bot(bot, "Secret ballot; Choose; Alpha-choice-7, Beta-choice-9")
    free = await create_via_bot(bot, "Ideas; Share; FREEFORM")
    caplog.clear()
    await bot.press(f"v:{pid}:1", user_id=2002)
    await bot.send(f"/submit {free} my-very-private-idea-42", user_id=2002)
    await bot.send(f"/submit {free} {'z' * 2001}", user_id=2002)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "Beta-choice-9" not in logged
    assert "my-very-private-idea-42" not in logged
    assert "zzzz" not in logged
