"""/propose, voting, submissions, editing, cancelling and the admin commands in the
pseudo-locale: every word a member reads in a DM or a toast comes from the catalog.

Channel posts are left out here: they follow BOT_LANGUAGE, not the member.
"""

from __future__ import annotations

from datetime import timedelta

from tests.conftest import ADMIN_ID, CHANNEL_ID, BotHarness
from tests.support.i18n import assert_translated
from tests.telegram.helpers import create_via_bot

PIZZA = ["Pizza party", "Friday pizza on floor 4", "Yes, No, Maybe", "Yes", "No", "Maybe"]


def _private_since(bot: BotHarness, index: int) -> list[str]:
    """What members read since call ``index``: DMs, edited DMs and toasts, not the channel."""
    out = []
    for call in bot.request.calls[index:]:
        params = call.params
        if call.failed or str(params.get("chat_id")) == CHANNEL_ID:
            continue
        if call.method in ("sendMessage", "editMessageText", "answerCallbackQuery"):
            out += [params["text"]] if params.get("text") else []
    return out


async def _send(bot: BotHarness, text: str, user_id: int = 1001, **kwargs: object) -> list[str]:
    before = len(bot.request.calls)
    await bot.send(text, user_id=user_id, **kwargs)
    return _private_since(bot, before)


async def _press(bot: BotHarness, data: str, user_id: int = 1001, **kwargs: object) -> list[str]:
    before = len(bot.request.calls)
    await bot.press(data, user_id=user_id, **kwargs)
    return _private_since(bot, before)


async def test_one_line_propose_is_answered_in_the_members_language(bot: BotHarness) -> None:
    bot.speaks("qps")
    texts = await _send(bot, "/propose Pizza party; Friday pizza on floor 4; Yes, No, Maybe")
    assert texts and texts[-1].startswith("⟦How long should voting run?")
    texts += await _send(bot, "3 days")
    texts += await _send(bot, "/skip")
    summary = texts[-1]
    assert "⟦Title: Pizza party⟧" in summary and "⟦Sat 21 Nov 2026, 12:00 UTC⟧" in summary
    assert "⟦in ⟦3 days⟧⟧" in summary
    texts += await _send(bot, "hello?")  # text while the buttons are waiting
    texts += await _press(bot, "pc:yes")
    assert "⟦✅ Proposal <b>#1</b> “Pizza party” is created. It is posted" in texts[-1]
    texts += await _send(bot, "/cancel")  # nothing left to cancel
    assert len(texts) == 6
    assert_translated(texts, allowed=PIZZA)


async def test_guided_propose_asks_every_step_in_the_members_language(bot: BotHarness) -> None:
    bot.speaks("qps")
    texts = await _send(bot, "/propose")
    assert len(texts) == 2  # the welcome and the title question
    texts += await _send(bot, "Office ideas")
    texts += await _send(bot, "How should we use the spare room?")
    texts += await _send(bot, "hmm, not sure")  # neither type: asked again
    assert texts[-1] == "⟦Please choose the type with one of the buttons.⟧"
    texts += await _press(bot, "pt:mc")
    assert texts[-2] == "⟦Type: ⟦Multiple choice⟧⟧"
    texts += await _send(bot, "Reading corner, Table tennis")
    texts += await _send(bot, "3 days")
    texts += await _send(bot, "The room is 20 square metres.")
    assert "⟦Context: 29 characters⟧" in texts[-1] and "⟦Options: Reading corner" in texts[-1]
    texts += await _press(bot, "pc:redo")  # the deadline is asked again
    texts += await _send(bot, "next Friday 5pm")
    texts += await _press(bot, "pc:no")
    assert texts[-1] == "⟦Discarded. Nothing was saved.⟧"
    assert await bot.services.proposals.open_proposals() == []

    texts += await _send(bot, "/propose Names; Name the cat")
    texts += await _press(bot, "pt:ff")
    assert texts[-2] == "⟦Type: ⟦Free form⟧⟧"
    texts += await _send(bot, "/cancel")
    assert texts[-1] == "⟦Cancelled. Nothing was saved.⟧"
    member = [
        "Office ideas",
        "How should we use the spare room?",
        "Reading corner, Table tennis",
        "Names",
        "Name the cat",
    ]
    assert_translated(texts, allowed=member)


async def test_propose_validation_errors_are_in_the_members_language(bot: BotHarness) -> None:
    bot.speaks("qps")
    texts = await _send(bot, "/propose")
    texts += await _send(bot, "   ")  # an empty title
    assert texts[-1] == "⟦The title cannot be empty. Please send a short title.⟧"
    texts += await _send(bot, "x" * 201)
    assert texts[-1].startswith("⟦The title is 201 characters long; the limit is 200.")
    texts += await _send(bot, "Lunch")
    texts += await _send(bot, "y" * 3001)
    assert "3001" in texts[-1] and "3000" in texts[-1]
    texts += await _send(bot, "/cancel")

    texts += await _send(bot, "/propose Lunch; Where to eat; Pizza")  # one option
    assert texts[-2].startswith("⟦A multiple-choice proposal needs at least 2 options")
    texts += await _send(bot, "Pizza, pizza")
    texts += await _send(bot, ", ".join(f"Place {i}" for i in range(11)))
    texts += await _send(bot, "Pizza, " + "z" * 101)
    texts += await _send(bot, "Pizza, Sushi")
    texts += await _send(bot, "2020-01-01 10:00")  # in the past
    assert texts[-1].startswith("⟦That deadline is in the past.")
    texts += await _send(bot, "2028-06-01 10:00")  # more than a year away
    texts += await _send(bot, "3 days")
    texts += await _send(bot, "z" * 20001)  # context too long
    assert "20001" in texts[-1]
    texts += await _send(bot, "/cancel")
    member = ["Lunch", "Where to eat", "Pizza", "pizza", "z" * 30]
    assert_translated(texts, allowed=member)


async def test_vote_toasts_and_vote_errors_are_in_the_members_language(bot: BotHarness) -> None:
    pid = await create_via_bot(bot, "Pizza party; Friday pizza on floor 4; Yes, No, Maybe")
    ideas = await create_via_bot(bot, "Ideas; Spare room ideas; FREEFORM")
    bot.speaks("qps", user_id=2002)
    channel = {"chat_id": int(CHANNEL_ID), "chat_type": "channel"}
    texts = await _press(bot, f"v:{pid}:0", user_id=2002, **channel)
    assert texts == ["⟦✅ Vote recorded: “Yes”. Only you can see this.⟧"]
    texts += await _press(bot, f"v:{pid}:1", user_id=2002, **channel)
    assert texts[-1].startswith("⟦🔁 Vote changed to “No”.")
    texts += await _press(bot, f"v:{pid}:1", user_id=2002, **channel)
    assert texts[-1] == "⟦Your vote is already “No”.⟧"
    texts += await _press(bot, f"v:{pid}:7", user_id=2002, **channel)  # a forged option
    texts += await _press(bot, f"v:{ideas}:0", user_id=2002, **channel)  # free form
    texts += await _press(bot, "v:999:0", user_id=2002, **channel)
    assert texts[-1].startswith("⟦Proposal #999 does not exist.")
    bot.clock.advance(timedelta(days=3))
    texts += await _press(bot, f"v:{pid}:0", user_id=2002, **channel)
    assert texts[-1].startswith(f"⟦Voting on proposal #{pid} has ended.")
    assert len(texts) == 7
    assert_translated(texts, allowed=PIZZA)


async def test_free_form_submissions_are_answered_in_the_members_language(
    bot: BotHarness,
) -> None:
    pid = await create_via_bot(bot, "Pizza party; Friday pizza on floor 4; Yes, No, Maybe")
    ideas = await create_via_bot(bot, "Ideas; Spare room ideas; FREEFORM")
    bot.speaks("qps", user_id=2002)
    texts = await _send(bot, f"/submit {ideas} A reading corner", user_id=2002)
    assert texts[-1].startswith(f"⟦✅ Your idea for “Ideas” (#{ideas}) is recorded.")
    texts += await _send(bot, f"/submit {ideas}", user_id=2002)  # asks for the text
    texts += await _send(bot, "x" * 2001, user_id=2002)  # too long: asked again
    texts += await _send(bot, "A table tennis table", user_id=2002)
    assert "has replaced your earlier idea" in texts[-1]
    texts += await _send(bot, f"/start submit_{ideas}", user_id=2002)
    texts += await _send(bot, "/cancel", user_id=2002)
    assert texts[-1] == "⟦Cancelled. Nothing was sent.⟧"
    texts += await _send(bot, f"/submit {pid} An idea", user_id=2002)  # multiple choice
    texts += await _send(bot, "/propose", user_id=2002)
    texts += await _send(bot, f"/start submit_{ideas}", user_id=2002)  # mid-proposal
    assert texts[-1].startswith("⟦You are in the middle of creating a proposal.")
    texts += await _send(bot, "/cancel", user_id=2002)
    await bot.services.proposals.cancel_proposal(1001, ideas)
    texts += await _send(bot, f"/submit {ideas} Late idea", user_id=2002)
    assert texts[-1].startswith(f"⟦Proposal #{ideas} was cancelled")
    member = ["Ideas", "Spare room ideas", "Pizza party"]
    assert_translated(texts, allowed=member)


async def test_editing_is_answered_in_the_members_language(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    bot.speaks("qps")
    bot.speaks("qps", user_id=2002)
    texts = await _send(bot, f"/edit_proposal {pid}")
    assert texts == [f"⟦Editing <b>#{pid} Pizza party</b>. What would you like to change?⟧"]
    texts += await _press(bot, "ef:options")
    texts += await _send(bot, "Yes")  # one option: the reason, and the question stays
    assert texts[-1].startswith("⟦A multiple-choice proposal needs at least 2 options")
    texts += await _send(bot, "/cancel")
    assert texts[-1] == "⟦Editing stopped. Changes already confirmed are kept.⟧"
    for field in ("title", "description"):
        await bot.send(f"/edit_proposal {pid}")
        texts += await _press(bot, f"ef:{field}")
        assert texts[-1].endswith("⟧") and "/cancel" in texts[-1]
        await bot.send("/cancel")
    await bot.send(f"/edit_proposal {pid}")
    texts += await _press(bot, "ef:stop")
    assert texts[-1] == "⟦Done editing.⟧"

    await bot.send(f"/edit_proposal {pid}")
    await bot.press("ef:title")
    updated = await _send(bot, "Pizza and salad party")
    first, *_, last = updated[-1].split("\n\n")
    texts += [first, last]  # the proposal in between is formatting.py's (another branch)
    assert last == "⟦Anything else?⟧"
    await bot.send("/cancel")

    texts += await _send(bot, f"/edit_proposal {pid}", user_id=2002)  # not the proposer
    await bot.press(f"v:{pid}:0", user_id=2002)
    texts += await _send(bot, f"/edit_proposal {pid}")  # someone voted already
    assert f"#{pid}" in texts[-1] and "1" in texts[-1]
    texts += await _send(bot, "/edit_proposal")
    texts += await _send(bot, "/edit_proposal abc")
    member = ["Pizza party", "Pizza and salad party", "abc"]
    assert_translated(texts, allowed=member)


async def test_cancelling_is_answered_in_the_members_language(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    bot.speaks("qps")
    bot.speaks("qps", user_id=2002)
    texts = await _send(bot, f"/cancel_proposal {pid}")
    texts += await _press(bot, f"cx:{pid}:n")
    assert texts[-1] == "⟦Kept. Nothing changed.⟧"
    texts += await _send(bot, f"/cancel_proposal {pid}", user_id=2002)  # not the proposer
    texts += await _press(bot, f"cx:{pid}:y")
    assert texts[-2:] == [
        "⟦Cancelled.⟧",
        f"⟦❌ Proposal #{pid} “Pizza party” is cancelled; its channel post is marked cancelled.⟧",
    ]
    texts += await _send(bot, f"/cancel_proposal {pid}")  # already cancelled
    texts += await _send(bot, f"/edit_proposal {pid}")
    texts += await _send(bot, "/cancel_proposal 999")
    assert_translated(texts, allowed=["Pizza party"])


async def test_admin_close_and_extend_are_in_the_members_language(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    ideas = await create_via_bot(bot, "Ideas; Spare room ideas; FREEFORM")
    for user in (1001, 2002, ADMIN_ID):
        bot.speaks("qps", user_id=user)
    await bot.press(f"v:{pid}:0", user_id=2002)

    texts = await _send(bot, f"/close_proposal {pid}", user_id=2002)  # not an admin
    assert texts == ["⟦Only admins can close a proposal early.⟧"]
    texts += await _send(bot, f"/close_proposal {pid}", user_id=ADMIN_ID)
    buttons = [b["text"] for b in bot.buttons()]
    assert buttons == ["⟦Yes, close it⟧", "⟦No⟧"]
    texts += await _press(bot, f"cl:{pid}:n", user_id=ADMIN_ID)
    assert texts[-1] == "⟦Not closed. Nothing changed.⟧"
    texts += await _press(bot, f"cl:{pid}:y", user_id=ADMIN_ID)
    assert texts[-2] == "⟦Closed.⟧" and "Outcome: Yes." in texts[-1]
    texts += await _press(bot, f"cl:{pid}:y", user_id=ADMIN_ID)  # a second press
    assert texts[-1] == f"⟦Proposal #{pid} is already closed.⟧"
    await bot.send(f"/submit {ideas} A reading corner", user_id=2002)

    texts += await _send(bot, f"/extend_deadline {ideas}")  # how long?
    texts += await _send(bot, f"/extend_deadline {ideas} 2 days", user_id=2002)  # not allowed
    texts += await _send(bot, f"/extend_deadline {ideas} 2026-11-19 10:00")  # earlier
    texts += await _send(bot, f"/extend_deadline {pid} 2 days")  # closed
    texts += await _send(bot, f"/extend_deadline {ideas} 2 days")
    assert "⟦Mon 23 Nov 2026, 12:00 UTC⟧" in texts[-1] and "⟦in ⟦5 days⟧⟧" in texts[-1]
    buttons += [b["text"] for b in bot.buttons()]
    stamp = int((bot.clock.now() + timedelta(days=5)).timestamp())
    texts += await _press(bot, f"ex:{ideas}:{stamp}:n")
    assert texts[-1] == "⟦Deadline unchanged.⟧"
    texts += await _press(bot, f"ex:{ideas}:{stamp}:y")
    assert texts[-2] == "⟦Extended.⟧" and texts[-1].startswith(f"⟦⏰ Proposal #{ideas} now")

    texts += await _send(bot, f"/close_proposal {ideas}", user_id=ADMIN_ID)
    texts += await _press(bot, f"cl:{ideas}:y", user_id=ADMIN_ID)
    assert "Outcome: ⟦1 submission⟧." in texts[-1]
    texts += await _send(bot, "/close_proposal", user_id=ADMIN_ID)
    assert_translated(texts, allowed=["Pizza party", "Ideas", "Yes"])
    assert_translated(buttons)


async def test_buttons_detail_and_my_vote_are_in_the_members_language(
    bot: BotHarness,
) -> None:
    bot.speaks("qps")
    bot.speaks("qps", user_id=2002)
    await bot.send("/propose Pizza party; Friday pizza on floor 4; Yes, No, Maybe")
    await bot.send("3 days")
    await bot.send("/skip")
    buttons = [b["text"] for b in bot.buttons()]  # create / change deadline / discard
    await bot.send("/propose")
    await bot.send("Office ideas")
    await bot.send("How should we use the spare room?")
    buttons += [b["text"] for b in bot.buttons()]  # the two types
    await bot.send("/cancel")
    pid = await create_via_bot(bot)
    texts = await _send(bot, f"/edit_proposal {pid}")
    buttons += [b["text"] for b in bot.buttons()]  # the fields
    await bot.press("ef:title")
    texts += await _send(bot, "Pizza and salad party")  # with the proposal's detail
    await bot.send("/cancel")
    texts += await _send(bot, f"/cancel_proposal {pid}")
    buttons += [b["text"] for b in bot.buttons()]  # yes / no
    await bot.press(f"cx:{pid}:n")
    await bot.press(f"v:{pid}:1", user_id=2002)
    texts += await _send(bot, f"/my_vote {pid}", user_id=2002)
    texts += await _send(bot, f"/my_vote {pid}")
    assert_translated(buttons)
    assert_translated(texts, allowed=[*PIZZA, "Pizza and salad party", "alice"])
