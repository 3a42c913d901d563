"""The Telegram side of the outbox: renders and sends one message, maps Bot API errors."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from zoneinfo import ZoneInfo

from telegram import Bot, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from app.domain.interfaces import DeliveryError
from app.domain.models import OutboxKind, OutboxMessage, Proposal
from app.telegram_handlers.formatting import h, render_channel_post
from app.telegram_handlers.keyboards import post_keyboard
from app.telegram_handlers.results_view import (
    render_announcement,
    render_proposer_dm,
    render_reminder,
)

logger = logging.getLogger(__name__)


def _seconds(value: int | float | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class TelegramSender:
    def __init__(self, bot: Bot, tz: ZoneInfo) -> None:
        self.bot = bot
        self.tz = tz

    async def deliver(self, message: OutboxMessage, proposal: Proposal | None) -> int | None:
        if proposal is None:
            raise DeliveryError("proposal no longer exists", permanent=True)
        try:
            sent = await self._send(message, proposal)
        except RetryAfter as exc:
            raise DeliveryError("flood control", retry_after=_seconds(exc.retry_after)) from exc
        except TimedOut as exc:
            raise DeliveryError("timed out") from exc
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return None
            raise DeliveryError(f"rejected: {exc}", permanent=True) from exc
        except Forbidden as exc:
            raise DeliveryError(f"forbidden: {exc}", permanent=True) from exc
        except NetworkError as exc:
            raise DeliveryError(f"network: {exc}") from exc
        return sent.message_id if isinstance(sent, Message) else None

    def _reply_to(self, proposal: Proposal) -> ReplyParameters | None:
        if proposal.channel_message_id is None:
            return None
        return ReplyParameters(proposal.channel_message_id, allow_sending_without_reply=True)

    async def _send(self, message: OutboxMessage, proposal: Proposal) -> Message | bool:
        chat = message.chat_id
        if message.kind is OutboxKind.RESULT:
            return await self.bot.send_message(
                chat_id=chat,
                text=render_announcement(proposal),
                parse_mode=ParseMode.HTML,
                reply_parameters=self._reply_to(proposal),
            )
        if message.kind is OutboxKind.RESULT_CHART:
            return await self._chart(chat, proposal)
        if message.kind is OutboxKind.CLOSED_POST:
            return await self.bot.edit_message_text(
                chat_id=chat,
                message_id=proposal.channel_message_id,  # type: ignore[arg-type]
                text=render_channel_post(proposal, self.tz),
                parse_mode=ParseMode.HTML,
                reply_markup=None,
            )
        if message.kind is OutboxKind.PROPOSER_DM:
            return await self.bot.send_message(
                chat_id=chat, text=render_proposer_dm(proposal), parse_mode=ParseMode.HTML
            )
        return await self.bot.send_message(
            chat_id=chat,
            text=render_reminder(proposal, self.tz),
            parse_mode=ParseMode.HTML,
            reply_parameters=self._reply_to(proposal),
            reply_markup=post_keyboard(proposal, self.bot.username),
        )

    async def _chart(self, chat: str, proposal: Proposal) -> Message:
        # matplotlib (~30 MB) loads with the first chart, not with the bot.
        from app.services.charts import results_chart_png

        png = await asyncio.to_thread(results_chart_png, proposal.title, proposal.raw_results or {})
        return await self.bot.send_photo(
            chat_id=chat,
            photo=png,
            caption=f"📊 Results of #{proposal.id} {h(proposal.title)}",
            parse_mode=ParseMode.HTML,
            reply_parameters=self._reply_to(proposal),
        )
