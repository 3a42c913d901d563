"""`coordbot run`: one bot process, polling or behind a webhook, stopped gracefully.

The process owns one event loop: the PTB Application, its JobQueue (deadlines,
outbox delivery) and the HTTP server (webhook, health, metrics) all run in it,
as in PTB's custom-webhook example. SIGTERM or SIGINT stops taking updates,
lets handlers and jobs in flight finish (bounded), closes the services and
returns 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from datetime import timedelta
from typing import Any

from telegram.error import Conflict, TelegramError

from app.config import Settings
from app.persistence.notifications import DEADLINES, OUTBOX, Listener
from app.persistence.repositories.updates import UpdateClaims
from app.persistence.sqlite_guard import SqliteGuard
from app.telegram_handlers.scheduling import DeadlineFollower, JobQueueScheduler
from app.telegram_handlers.shared_state import SharedConversationState
from app.web.metrics import Metrics
from app.web.server import HttpServer, WebApp, Webhook

logger = logging.getLogger(__name__)

ALLOWED_UPDATES = ["message", "callback_query"]
CONFLICT_PATIENCE = 30.0
SERVER_GRACE = 4.0  # seconds for webhook requests in flight
STOP_GRACE = 4.0  # seconds for handlers and jobs in flight
CLAIMS_KEPT = timedelta(days=1)
DELIVERY_POLL = 1.0  # seconds between outbox checks in webhook mode
CONFLICT_MESSAGE = (
    "another instance is polling this bot (Telegram answered 409 Conflict): "
    "stop the other `coordbot run`, or use webhook mode (WEBHOOK_URL) for several replicas"
)


class BotProcess:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.metrics = Metrics()
        self.webhook = bool(settings.webhook_url)
        self._stop = asyncio.Event()
        self.conflict = False
        self._follower: DeadlineFollower | None = None

    def request_stop(self) -> None:
        self._stop.set()

    def _on_poll_error(self, exc: TelegramError) -> None:
        """A newer poll cuts the older one short with 409. The newcomer (never polled
        successfully) gives up; an instance that was polling fine gives up only if the
        conflicts go on for CONFLICT_PATIENCE seconds (the other one did not stop)."""
        if isinstance(exc, Conflict):
            now = time.monotonic()
            last_ok = self.metrics.last_poll_ok
            if last_ok is not None and now - last_ok < CONFLICT_PATIENCE:
                logger.warning("getUpdates conflict: is another instance polling this bot?")
                return
            if not self.conflict:
                logger.error(CONFLICT_MESSAGE)
            self.conflict = True
            self._stop.set()
            return
        logger.warning("getUpdates failed (%s); polling retries", type(exc).__name__)

    async def _count_error(self, update: object, context: Any) -> None:
        self.metrics.handler_errors.inc()

    async def run(self) -> int:
        from app.telegram_handlers.bot import build_application

        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.request_stop)
        guard = SqliteGuard(self.settings.resolved_database_url)
        guard.acquire()
        application = build_application(
            self.settings,
            freeze_gc=True,
            metrics=self.metrics,
            polling=not self.webhook,
            rate_limit=self.settings.telegram_rate_limit,
        )
        application.add_error_handler(self._count_error)
        if self.webhook:  # replicas: a conversation's next step may land on another one
            SharedConversationState(application).install()
        server: HttpServer | None = None
        web: WebApp | None = None
        listener: Listener | None = None
        started = False
        try:
            await application.initialize()
            if application.post_init is not None:
                await application.post_init(application)
            if self.settings.http_port:
                hook = None
                if self.webhook:
                    assert self.settings.webhook_secret is not None
                    hook = Webhook(self.settings.webhook_path, self.settings.webhook_secret)
                web = WebApp(application, self.metrics, hook)
                s = self.settings
                server = HttpServer(web.starlette(), s.http_host, s.http_port)
                await server.start()
            await application.start()
            started = True
            await self._take_updates(application)
            listener = self._listen(application)
            await self._stop.wait()
        finally:
            logger.info("stopping: no new updates; finishing what is in flight")
            if web is not None:
                web.accepting = False
            if listener is not None:
                await listener.stop()
            if self._follower is not None:
                await self._follower.stop()
            await self._shut_down(application, server, web, started)
            guard.release()
        if self.conflict:
            raise ConflictExit(CONFLICT_MESSAGE)
        logger.info("stopped")
        return 0

    async def _take_updates(self, application: Any) -> None:
        if self.webhook:
            await application.bot.set_webhook(
                url=self.settings.webhook_url,
                secret_token=self.settings.webhook_secret,
                allowed_updates=ALLOWED_UPDATES,
            )
            application.job_queue.run_repeating(
                _prune_claims, interval=3600, first=60, name="prune-update-claims"
            )
            # Another replica may have closed a deadline or queued a message: whichever
            # replica holds the sending lease picks it up within a second.
            application.job_queue.run_repeating(
                _deliver, interval=DELIVERY_POLL, first=DELIVERY_POLL, name="deliver-poll"
            )
            logger.info("webhook set; serving updates at %s", self.settings.webhook_path)
            return
        # start_polling deletes any webhook first (Telegram refuses getUpdates while one is set).
        await application.updater.start_polling(
            allowed_updates=ALLOWED_UPDATES, error_callback=self._on_poll_error
        )
        logger.info("polling for updates")

    def _listen(self, application: Any) -> Listener | None:
        """On PostgreSQL: deadlines set by any process arm this one's timers at once, and
        anything queued in the outbox wakes the sender (the sweep and the poll remain)."""
        container = application.bot_data.container
        scheduler = container.scheduler
        if container.db.dialect != "postgresql" or not isinstance(scheduler, JobQueueScheduler):
            return None
        follower = self._follower = DeadlineFollower(container, scheduler)

        async def caught_up() -> None:
            await follower.resync()
            scheduler.kick_delivery()

        listener = Listener(
            self.settings.resolved_database_url,
            {DEADLINES: follower.notified, OUTBOX: lambda _payload: scheduler.kick_delivery()},
            on_reconnect=caught_up,
        )
        listener.start()
        return listener

    async def _shut_down(
        self, application: Any, server: HttpServer | None, web: WebApp | None, started: bool
    ) -> None:
        updater = application.updater
        if updater is not None and updater.running:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(updater.stop(), SERVER_GRACE)
        if server is not None:
            await server.stop()
        if web is not None:  # no request in flight any more
            await web.close()
        with contextlib.suppress(Exception):
            await application.bot_data.container.outbox.stop_waking()
        if started:
            try:
                await asyncio.wait_for(application.stop(), STOP_GRACE)
            except TimeoutError:
                logger.warning("handlers still running after %.0fs; stopping anyway", STOP_GRACE)
        with contextlib.suppress(Exception):
            await application.shutdown()
        if application.post_shutdown is not None:
            await application.post_shutdown(application)


class ConflictExit(Exception):
    """Another process polls this bot: a message and a non-zero exit."""


async def _deliver(context: Any) -> None:
    try:
        await context.services.outbox.deliver_due()
    except Exception:
        logger.warning("outbox delivery failed; retrying in a second", exc_info=True)


async def _prune_claims(context: Any) -> None:
    services = context.services
    async with services.db.transaction() as session:
        removed = await UpdateClaims(session).prune(services.clock.now() - CLAIMS_KEPT)
    if removed:
        logger.debug("pruned %d old update claims", removed)


def run_bot(settings: Settings) -> int:
    return asyncio.run(BotProcess(settings).run())
