"""One error handler: domain errors become their message; anything else a polite apology."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ParseMode

from app.domain.errors import CoordBotError
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import h

logger = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. Please try again in a moment."


async def error_handler(update: object, context: BotContext) -> None:
    error = context.error
    if isinstance(error, CoordBotError):
        logger.debug("user error: %s", type(error).__name__)
        text = error.user_message
    else:
        logger.error("unhandled error while handling an update", exc_info=error)
        text = APOLOGY
    if not isinstance(update, Update):
        return
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(text[:200], show_alert=True)
        elif update.effective_message is not None:
            await update.effective_message.reply_text(h(text), parse_mode=ParseMode.HTML)
    except Exception:
        logger.warning("could not tell the user about an error", exc_info=True)
