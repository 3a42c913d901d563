"""The Telegram adapter behind ProposalPublisher: posts and re-renders channel posts."""

from __future__ import annotations

import logging

from telegram import Bot
from telegram.constants import ParseMode
from telegram.error import BadRequest

from app.domain.models import Proposal
from app.i18n import Translator
from app.telegram_handlers.formatting import render_channel_post
from app.telegram_handlers.keyboards import post_keyboard

logger = logging.getLogger(__name__)


class TelegramPublisher:
    """Posts in the community's language (BOT_LANGUAGE): ``tr``."""

    def __init__(self, bot: Bot, tr: Translator) -> None:
        self.bot = bot
        self.tr = tr

    async def publish(self, proposal: Proposal) -> int | None:
        if not proposal.target_channel_id:
            return None
        message = await self.bot.send_message(
            chat_id=proposal.target_channel_id,
            text=render_channel_post(proposal, self.tr),
            parse_mode=ParseMode.HTML,
            reply_markup=post_keyboard(proposal, self.bot.username, self.tr),
            disable_web_page_preview=True,
        )
        return message.message_id

    async def refresh(self, proposal: Proposal) -> None:
        if not proposal.target_channel_id or proposal.channel_message_id is None:
            return
        try:
            await self.bot.edit_message_text(
                chat_id=proposal.target_channel_id,
                message_id=proposal.channel_message_id,
                text=render_channel_post(proposal, self.tr),
                parse_mode=ParseMode.HTML,
                reply_markup=post_keyboard(proposal, self.bot.username, self.tr),
                disable_web_page_preview=True,
            )
        except BadRequest as exc:
            if "not modified" not in str(exc).lower():
                raise
