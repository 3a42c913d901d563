"""Optional Bot API calls at start (commands, menu button): nice to have, never fatal.

A failure is logged once; the calls are retried later with a growing delay
until they all succeed, while the bot serves members as usual.
"""

from __future__ import annotations

import logging
from typing import Any
from zoneinfo import ZoneInfo

from telegram import MenuButtonCommands
from telegram.error import TelegramError

from app.i18n import SOURCE_LANGUAGE, available_languages, translator
from app.telegram_handlers import start

logger = logging.getLogger(__name__)

FIRST_RETRY = 30.0
MAX_RETRY = 900.0
JOB_NAME = "startup-calls"


async def _calls(bot: Any, tz: ZoneInfo) -> None:
    # English for every app language without a catalog; each catalog for its own.
    await bot.set_my_commands(start.bot_commands(translator(SOURCE_LANGUAGE, tz)))
    for language in available_languages():
        if language != SOURCE_LANGUAGE:
            # Telegram keys menus by the two-letter code: pt_BR serves every "pt" app.
            code = language.split("_")[0]
            await bot.set_my_commands(
                start.bot_commands(translator(language, tz)), language_code=code
            )
    await bot.set_chat_menu_button(menu_button=MenuButtonCommands())


async def optional_startup_calls(application: Any, *, delay: float = FIRST_RETRY) -> bool:
    """Make the calls; on failure arm a retry (JobQueue) and return False."""
    try:
        tz = application.bot_data.container.settings.timezone
        await _calls(application.bot, tz)
        return True
    except TelegramError as exc:
        if delay == FIRST_RETRY:  # logged once; retries stay quiet until they succeed
            logger.warning(
                "start-up calls (commands, menu button) failed: %s; retrying in the background",
                type(exc).__name__,
            )
        if application.job_queue is not None:
            application.job_queue.run_once(
                _retry_job, when=delay, data=min(delay * 2, MAX_RETRY), name=JOB_NAME
            )
        return False


async def _retry_job(context: Any) -> None:
    if await optional_startup_calls(context.application, delay=float(context.job.data)):
        logger.info("start-up calls succeeded on retry")
