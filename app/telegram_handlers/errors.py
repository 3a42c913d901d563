"""One error handler: domain errors become their message; anything else a polite apology.

Both are written in the member's language: a domain error carries its message id and
values, rendered here.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest

from app.domain.errors import CoordBotError
from app.domain.messages import N_
from app.i18n import SOURCE_LANGUAGE, Translator, translator
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import h
from app.telegram_handlers.language import translator_for

logger = logging.getLogger(__name__)

APOLOGY = N_("Sorry, something went wrong on my side. Please try again in a moment.")


async def error_handler(update: object, context: BotContext) -> None:
    error = context.error
    if isinstance(error, CoordBotError):
        logger.debug("user error: %s", type(error).__name__)
    else:
        logger.error("unhandled error while handling an update", exc_info=error)
    if not isinstance(update, Update):
        return
    try:
        tr = await _translator(update, context)
        text = tr.text(error.text) if isinstance(error, CoordBotError) else tr(APOLOGY)
        if update.callback_query is not None:
            await _answer_button(update, text)
        elif update.effective_message is not None:
            await update.effective_message.reply_text(h(text), parse_mode=ParseMode.HTML)
    except Exception:
        logger.warning("could not tell the user about an error", exc_info=True)


async def _answer_button(update: Update, text: str) -> None:
    """In an alert; a button its handler answered already (to stop the spinner before the
    work) can take no second answer: then in the chat, if it is the member's own."""
    query = update.callback_query
    assert query is not None
    try:
        await query.answer(text[:200], show_alert=True)
    except BadRequest:
        chat = update.effective_chat
        if chat is None or chat.type != ChatType.PRIVATE:
            raise
        await query.get_bot().send_message(chat.id, h(text), parse_mode=ParseMode.HTML)


async def _translator(update: Update, context: BotContext) -> Translator:
    try:
        return await translator_for(update, context.services)
    except Exception:  # the database may be what failed: apologise in English then
        logger.warning("could not read the member's language", exc_info=True)
        return translator(SOURCE_LANGUAGE, context.services.settings.timezone)
