"""Each member's language: resolved before any handler runs, changed with /language."""

from __future__ import annotations

from babel import Locale
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, TypeHandler, filters

from app.container import Container
from app.i18n import PSEUDO, SOURCE_LANGUAGE, Translator, available_languages, normalize, translator
from app.telegram_handlers.common import reply, user_of
from app.telegram_handlers.context import BotContext

CHOOSE = r"^lang:([A-Za-z_]{2,8})$"
AUTOMATIC = "auto"


async def translator_for(update: object, services: Container) -> Translator:
    """The member's choice (/language), else their Telegram app's language; a language
    without a catalog reads English. Updates without a member: the community's."""
    settings = services.settings
    user = update.effective_user if isinstance(update, Update) else None
    if user is None:
        return translator(settings.bot_language, settings.timezone)
    chosen = await services.languages.chosen(user.id)
    language = chosen or normalize(user.language_code) or SOURCE_LANGUAGE
    return translator(language, settings.timezone)


async def resolve(update: Update, context: BotContext) -> None:
    context.tr = await translator_for(update, context.services)


def language_name(code: str) -> str:
    """A language in its own words: "Español", "Русский", "Português (Brasil)"."""
    if code == PSEUDO:
        return code
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def chooser(tr: Translator) -> InlineKeyboardMarkup:
    rows = [
        [InlineKeyboardButton(language_name(code), callback_data=f"lang:{code}")]
        for code in available_languages()
    ]
    rows.append(
        [InlineKeyboardButton(tr("Telegram's language"), callback_data=f"lang:{AUTOMATIC}")]
    )
    return InlineKeyboardMarkup(rows)


async def language_command(update: Update, context: BotContext) -> None:
    tr = context.tr
    await reply(
        update,
        tr(
            "Your language is {language}. Choose the language I write to you in:",
            language=language_name(tr.language),
        ),
        chooser(tr),
    )


async def choose_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    assert query is not None and context.matches is not None
    code = context.matches[0].group(1)
    language = None if code == AUTOMATIC else normalize(code)
    if code != AUTOMATIC and language is None:
        await query.answer(context.tr("That language is not available."), show_alert=True)
        return
    services = context.services
    await services.languages.choose(user_of(update), language)
    context.tr = tr = await translator_for(update, services)
    await query.answer()
    if language is None:
        text = tr("Done: I will write to you in your Telegram app's language.")
    else:
        text = tr("Done: I will write to you in {language}.", language=language_name(language))
    await query.edit_message_text(text)


def handlers() -> list[BaseHandler]:  # type: ignore[type-arg]
    return [
        CommandHandler("language", language_command, filters=filters.ChatType.PRIVATE),
        CallbackQueryHandler(choose_button, pattern=CHOOSE),
    ]


def resolver() -> TypeHandler[Update, BotContext, None]:
    """Runs first for every update (group -1), so every handler has ``context.tr``."""
    return TypeHandler(Update, resolve)
