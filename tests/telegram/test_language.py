"""Each member's language: Telegram's language_code, /language, and the fallbacks."""

from __future__ import annotations

from tests.conftest import BotHarness
from tests.support.i18n import assert_translated


async def test_a_member_reads_the_pseudo_locale_everywhere_in_start_help_and_privacy(
    bot: BotHarness,
) -> None:
    bot.speaks("qps")
    texts = []
    for command in ("/start", "/help", "/privacy", "/frobnicate", "hello", "/language"):
        texts += await bot.send(command)
    assert_translated(texts, allowed=["User", "/frobnicate"])
    # Each language is offered in its own words; only the "automatic" choice is translated.
    names = ["English", "Español", "Português (Brasil)", "Русский"]
    assert_translated((b["text"] for b in bot.buttons()), allowed=names)


async def test_an_unknown_language_reads_english_quietly(bot: BotHarness) -> None:
    bot.speaks("xx-unknown")
    replies = await bot.send("/privacy")
    assert "Nobody else can see it" in replies[-1]


async def test_language_command_offers_every_catalog_and_remembers_the_choice(
    bot: BotHarness,
) -> None:
    bot.speaks("qps")
    await bot.send("/language")
    choices = {b["callback_data"]: b["text"] for b in bot.buttons()}
    assert set(choices) == {"lang:en", "lang:es", "lang:pt_BR", "lang:ru", "lang:auto"}
    assert choices["lang:es"] == "Español" and choices["lang:ru"] == "Русский"

    await bot.press("lang:en")
    replies = await bot.send("/privacy")
    assert "Nobody else can see it" in replies[-1] and "⟦" not in replies[-1]
    assert await bot.services.languages.chosen(1001) == "en"

    await bot.press("lang:auto")  # back to what the app says
    replies = await bot.send("/privacy")
    assert replies[-1].startswith("⟦")
    assert await bot.services.languages.chosen(1001) is None


async def test_a_forged_language_button_is_refused_politely(bot: BotHarness) -> None:
    replies = await bot.press("lang:klingon")
    assert replies == ["That language is not available."]


async def test_the_command_menu_is_set_for_every_language(bot: BotHarness) -> None:
    codes = {c.params.get("language_code") for c in bot.request.calls_to("setMyCommands")}
    assert codes == {None, "es", "pt", "ru"}
