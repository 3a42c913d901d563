"""/help, /privacy, unknown commands, groups and the command menu."""

from __future__ import annotations

from tests.conftest import BotHarness


async def test_help_lists_commands_and_menu_is_set(bot: BotHarness) -> None:
    replies = await bot.send("/help")
    for command in ("/propose", "/proposals", "/my_vote", "/my_votes", "/submit", "/privacy"):
        assert command in replies[-1]
    default = [c for c in bot.request.calls_to("setMyCommands") if "language_code" not in c.params]
    menu = default[-1].params["commands"]
    assert {
        "command": "propose",
        "description": "Create a proposal (one line or step by step)",
    } in menu


async def test_privacy_explains_who_sees_votes(bot: BotHarness) -> None:
    replies = await bot.send("/privacy")
    assert "Nobody else can see it" in replies[-1]


async def test_unknown_command_gets_a_hint(bot: BotHarness) -> None:
    replies = await bot.send("/frobnicate now")
    assert replies == [
        "Sorry, I don't know the command /frobnicate. Send /help to see what I can do."
    ]


async def test_group_commands_redirect_to_dm(bot: BotHarness) -> None:
    replies = await bot.send("/propose Something", chat_type="supergroup")
    assert "private chat" in replies[-1]
    assert bot.buttons()[0]["url"] == "https://t.me/CoordBot?start=help"


async def test_cancel_with_nothing_to_cancel(bot: BotHarness) -> None:
    replies = await bot.send("/cancel")
    assert replies == ["There is nothing to cancel right now."]


async def test_unexpected_failure_gets_an_apology_not_a_traceback(bot: BotHarness) -> None:
    from sqlalchemy import text

    async with bot.services.db.transaction() as session:
        await session.execute(text("DROP TABLE submissions"))
    replies = await bot.send("/my_votes")
    bot.unexpected.clear()  # the failure is the point of this test
    assert replies == ["Sorry, something went wrong on my side. Please try again in a moment."]
