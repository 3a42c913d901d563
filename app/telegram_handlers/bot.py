"""Builds the Telegram Application: handlers, typed context, services' lifetime."""

from __future__ import annotations

import gc
import logging
from typing import TYPE_CHECKING, Any

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest, HTTPXRequest

from app.config import Settings
from app.container import Container
from app.core.closing.pacing import Pace
from app.domain.clock import Clock, SystemClock
from app.i18n import translator
from app.logging_setup import quiet_sensitive_loggers
from app.persistence.database import Database
from app.telegram_handlers import (
    admin,
    ask,
    documents,
    facts,
    language,
    listing,
    manage,
    propose,
    start,
    voting,
)
from app.telegram_handlers.aiohttp_request import AiohttpRequest
from app.telegram_handlers.channel import TelegramPublisher
from app.telegram_handlers.common import reply
from app.telegram_handlers.context import BotContext, BotData, UserData
from app.telegram_handlers.delivery import TelegramSender
from app.telegram_handlers.errors import error_handler
from app.telegram_handlers.keyboards import LIST, MY_PROPOSALS, MY_VOTES, VIEW
from app.telegram_handlers.processing import PerUserUpdateProcessor
from app.telegram_handlers.rate_limits import BotRateLimiter
from app.telegram_handlers.scheduling import JobQueueScheduler
from app.telegram_handlers.startup import optional_startup_calls

if TYPE_CHECKING:
    from app.web.metrics import Metrics

logger = logging.getLogger(__name__)

# The collector's thresholds once start-up is frozen. An /ask allocates tens of thousands
# of short-lived objects (fact paths, sentence rows); at Python's default (700, 10, 10)
# that is some 30 young collections in a slow question, and every ~16th question paid a
# full collection of ~50 ms over what the caches built since start-up hold. Here a young
# collection waits for 10,000 allocations and a full one for 100 middle ones: bench/ask.py
# measured p95 204 -> 182 ms (mean of 4 alternating runs each, 2 cores).
COLLECTOR_THRESHOLDS = (10_000, 10, 100)

CONTEXT_TYPES = ContextTypes(context=BotContext, bot_data=BotData, user_data=UserData)

BotApplication = Application[Any, BotContext, UserData, dict[Any, Any], BotData, Any]


async def _post_init(application: BotApplication) -> None:
    container = application.bot_data.container
    assert container is not None
    await optional_startup_calls(application)
    await container.start()
    await container.context.warm(container.settings.bot_language)
    scheduler = container.scheduler
    if isinstance(scheduler, JobQueueScheduler):
        scheduler.start(await container.proposals.open_proposals())
    if application.bot_data.freeze_gc:
        # What start-up loaded (libraries, the model, the index) lives as long as the
        # process: out of the collector's reach, full collections stay short and a
        # member's update does not pay for scanning it. Not for tests, which build
        # many applications in one process.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*COLLECTOR_THRESHOLDS)


async def _post_shutdown(application: BotApplication) -> None:
    container = application.bot_data.container
    if container is not None:
        await container.stop()


async def nothing_to_cancel(update: Update, context: BotContext) -> None:
    await reply(update, context.tr("There is nothing to cancel right now."))


def register_handlers(application: BotApplication) -> None:
    private = filters.ChatType.PRIVATE
    application.add_handler(language.resolver(), group=-1)
    application.add_handlers(
        [
            start.DatalessButton(),  # first: every button handler would take it
            propose.conversation(),
            manage.edit_conversation(),
            voting.submission_conversation(),
            *documents.handlers(),
            *documents.button_handlers(),
            *facts.handlers(),
            voting.vote_handler(),
            CallbackQueryHandler(listing.proposals_page, pattern=LIST),
            CallbackQueryHandler(listing.view_proposal_button, pattern=VIEW),
            CallbackQueryHandler(listing.my_proposals_page, pattern=MY_PROPOSALS),
            CallbackQueryHandler(listing.my_votes_page, pattern=MY_VOTES),
            manage.cancel_button_handler(),
            *admin.button_handlers(),
            *ask.handlers(),
            *language.handlers(),
            CommandHandler("privacy", start.privacy, filters=private),
            CommandHandler("proposals", listing.proposals_command, filters=private),
            CommandHandler("view_proposal", listing.view_proposal, filters=private),
            CommandHandler("my_proposals", listing.my_proposals, filters=private),
            CommandHandler(["my_votes", "my_submissions"], listing.my_votes, filters=private),
            CommandHandler("my_vote", listing.my_vote, filters=private),
            CommandHandler("cancel_proposal", manage.cancel_proposal, filters=private),
            CommandHandler("view_results", admin.view_results, filters=private),
            CommandHandler("close_proposal", admin.close_proposal, filters=private),
            CommandHandler("extend_deadline", admin.extend_deadline, filters=private),
            CommandHandler("cancel", nothing_to_cancel, filters=private),
            MessageHandler(filters.COMMAND & filters.ChatType.GROUPS, start.group_redirect),
            MessageHandler(filters.COMMAND & private, start.unknown_command),
            MessageHandler(filters.TEXT & private, start.plain_text),
            CallbackQueryHandler(start.unknown_button),  # last: every other button first
        ]
    )
    application.add_error_handler(error_handler)


def build_application(
    settings: Settings,
    *,
    request: BaseRequest | None = None,
    clock: Clock | None = None,
    database: Database | None = None,
    rate_limit: bool = True,
    freeze_gc: bool = False,
    metrics: Metrics | None = None,
    polling: bool = True,
) -> BotApplication:
    """The bot, wired to its services; nothing touches the network until it starts.

    ``polling=False`` builds it without an Updater: updates come from the webhook.
    """
    quiet_sensitive_loggers()
    token = settings.telegram_bot_token
    if not token:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    builder = (
        Application.builder()
        .token(token)
        .context_types(CONTEXT_TYPES)
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
        .concurrent_updates(PerUserUpdateProcessor(64, metrics=metrics))
        .base_url(settings.telegram_api_base_url)
        .local_mode(settings.telegram_local_mode)
    )
    if settings.telegram_api_file_url:
        builder = builder.base_file_url(settings.telegram_api_file_url)
    if not polling:
        builder = builder.updater(None)
    main: BaseRequest | None = request
    polls: BaseRequest | None = request
    if metrics is not None:
        from app.web.metrics import MeteredRequest

        main = MeteredRequest(request or AiohttpRequest(connection_pool_size=64), metrics)
        polls = MeteredRequest(request or HTTPXRequest(connection_pool_size=1), metrics)
    if not polling:  # a button's answer may go back in the webhook's HTTP reply
        from app.web.webhook_reply import WebhookReplyRequest

        main = WebhookReplyRequest(main or AiohttpRequest(connection_pool_size=64))
    if main is not None and polls is not None:
        builder = builder.request(main).get_updates_request(polls)
    elif main is not None:
        builder = builder.request(main)
    if rate_limit:
        builder = builder.rate_limiter(BotRateLimiter(max_retries=3))  # type: ignore[arg-type]
    application: BotApplication = builder.build()
    clock = clock or SystemClock()
    assert application.job_queue is not None, "install python-telegram-bot[job-queue]"
    community = translator(settings.bot_language, settings.timezone)  # channel posts
    application.bot_data.container = Container(
        settings,
        clock=clock,
        publisher=TelegramPublisher(application.bot, community),
        scheduler=JobQueueScheduler(
            application.job_queue,
            clock,
            settings.reminder_before,
            settings.sweep_interval_seconds,
        ),
        sender=TelegramSender(application.bot, community),
        database=database,
    )
    # Behind Telegram's limits, the outbox keeps each chat's pace; without a limiter (a
    # self-hosted API without limits, the stand-in) it still takes chats in turn.
    application.bot_data.container.outbox.set_pace(Pace() if rate_limit else None)
    application.bot_data.freeze_gc = freeze_gc
    register_handlers(application)
    return application
