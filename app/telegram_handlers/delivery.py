"""The Telegram side of the outbox: renders and sends one message, maps Bot API errors."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

from telegram import Bot, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from app.domain.interfaces import DeliveryError
from app.domain.models import OutboxKind, OutboxMessage, Proposal
from app.i18n import Translator, translator
from app.telegram_handlers.formatting import h, render_channel_post
from app.telegram_handlers.keyboards import post_keyboard
from app.telegram_handlers.rate_limits import NO_RETRIES
from app.telegram_handlers.results_view import (
    render_announcement,
    render_proposer_dm,
    render_reminder,
)

logger = logging.getLogger(__name__)


def _seconds(value: int | float | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class TelegramSender:
    """Channel messages in the community's language (``tr``, BOT_LANGUAGE); the proposer's
    results DM in the proposer's own language."""

    def __init__(self, bot: Bot, tr: Translator) -> None:
        self.bot = bot
        self.tr = tr

    @property
    def _once(self) -> dict[str, Any]:
        """Behind PTB's rate limiter: one try, a RetryAfter comes back to the outbox, which
        pauses that chat alone (the limiter's own retries would hold the whole bot)."""
        return {"rate_limit_args": NO_RETRIES} if getattr(self.bot, "rate_limiter", None) else {}

    def _member_tr(self, proposal: Proposal) -> Translator:
        """The proposer's language: chosen with /language, else what their app reports."""
        user = proposal.proposer
        language = (user.language or user.language_code) if user is not None else None
        return translator(language, self.tr.tz)

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
                text=render_announcement(proposal, self.tr),
                parse_mode=ParseMode.HTML,
                reply_parameters=self._reply_to(proposal),
                **self._once,
            )
        if message.kind is OutboxKind.RESULT_CHART:
            return await self._chart(chat, proposal)
        if message.kind is OutboxKind.CLOSED_POST:
            return await self.bot.edit_message_text(
                chat_id=chat,
                message_id=proposal.channel_message_id,  # type: ignore[arg-type]
                text=render_channel_post(proposal, self.tr),
                parse_mode=ParseMode.HTML,
                reply_markup=None,
                **self._once,
            )
        if message.kind is OutboxKind.PROPOSER_DM:
            return await self.bot.send_message(
                chat_id=chat,
                text=render_proposer_dm(proposal, self._member_tr(proposal)),
                parse_mode=ParseMode.HTML,
                **self._once,
            )
        return await self.bot.send_message(
            chat_id=chat,
            text=render_reminder(proposal, self.tr),
            parse_mode=ParseMode.HTML,
            reply_parameters=self._reply_to(proposal),
            reply_markup=post_keyboard(proposal, self.bot.username, self.tr),
            **self._once,
        )

    async def _chart(self, chat: str, proposal: Proposal) -> Message:
        # matplotlib (~30 MB) loads with the first chart, not with the bot.
        from app.services.charts import ChartText, results_chart_png

        tr, raw = self.tr, proposal.raw_results or {}
        total = int(raw.get("total_votes", 0))
        words = ChartText(
            caption=tr("Total votes: {total}", total=total) if total else tr("No votes yet"),
            option=lambda n: tr("Option {n}", n=n),
            value=lambda votes, percent: f"{tr.number(votes)} ({tr.percent(percent)})",
        )
        png = await asyncio.to_thread(results_chart_png, proposal.title, raw, words)
        return await self.bot.send_photo(
            chat_id=chat,
            photo=png,
            caption=tr("📊 Results of #{id} {title}", id=proposal.id, title=h(proposal.title)),
            parse_mode=ParseMode.HTML,
            reply_parameters=self._reply_to(proposal),
            **self._once,
        )
