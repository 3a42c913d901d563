"""One HTTP server per process: the webhook, /healthz, /readyz and /metrics.

PTB's own webhook server has a single route, so this follows PTB's
custom-webhook example: Starlette served by uvicorn inside the bot's event loop.
A webhook update is handled before the answer goes back, so a 200 means
handled: Telegram retries anything else. The claim table makes a retried (or twice
delivered) update run once: a retry of an update being handled by a live replica
gets 503 (Telegram tries again later), one whose replica died mid-update is taken
over and handled here (see repositories.updates). Claims and done marks of
concurrent requests are group committed (one statement per round, not one per
update), and a button's answer rides back in the HTTP reply (see webhook_reply).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import uvicorn
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from telegram import Update
from telegram.constants import ChatType

from app.persistence.group_commit import GroupCommit
from app.persistence.leases import ChatLocks
from app.persistence.liveness import Liveness
from app.persistence.repositories.ops import OpsRepository
from app.persistence.repositories.updates import Claim, UpdateClaims
from app.web.health import readiness
from app.web.metrics import Metrics
from app.web.webhook_reply import reply_slot

logger = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
STALE_CLAIM = timedelta(minutes=2)  # a claim without a holder (before 0011) is retaken then
SHUTDOWN_GRACE = 6  # seconds uvicorn waits for requests in flight


@dataclass
class Webhook:
    path: str
    secret: str


class WebApp:
    """The routes; ``application`` is the running PTB Application."""

    def __init__(self, application: Any, metrics: Metrics, webhook: Webhook | None) -> None:
        self.application = application
        self.metrics = metrics
        self.webhook = webhook
        self.accepting = True
        self._claims: GroupCommit[int, Claim] = GroupCommit(self._claim_many)
        self._dones: GroupCommit[int, None] = GroupCommit(self._done_many)
        self._chat_locks = ChatLocks(self.container.db)
        self.liveness = Liveness(self.container.db)
        self._handling: set[int] = set()  # updates this process is handling right now

    @property
    def container(self) -> Any:
        return self.application.bot_data.container

    def starlette(self) -> Starlette:
        routes = [
            Route("/healthz", self.healthz, methods=["GET"]),
            Route("/readyz", self.readyz, methods=["GET"]),
            Route("/metrics", self.metrics_page, methods=["GET"]),
        ]
        if self.webhook is not None:
            routes.append(Route(self.webhook.path, self.telegram, methods=["POST"]))
        return Starlette(routes=routes)

    async def healthz(self, request: Request) -> Response:
        return PlainTextResponse("ok\n")

    async def readyz(self, request: Request) -> Response:
        problem = await readiness(self.container.db)
        if problem is not None:
            return PlainTextResponse(f"not ready: {problem}\n", status_code=503)
        return PlainTextResponse("ready\n")

    async def metrics_page(self, request: Request) -> Response:
        container = self.container

        async def snapshot() -> tuple[Any, Any]:
            async with container.db.transaction() as session:
                return await OpsRepository(session).snapshot()

        try:
            body = await self.metrics.render(snapshot, container.clock.now())
        except Exception:
            logger.warning("database gauges unavailable for /metrics", exc_info=True)
            body = await self.metrics.render(None, container.clock.now())
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    async def telegram(self, request: Request) -> Response:
        assert self.webhook is not None
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.webhook.secret.encode()):
            return PlainTextResponse("forbidden\n", status_code=403)
        if not self.accepting:  # shutting down: Telegram retries, maybe at another replica
            return PlainTextResponse("shutting down\n", status_code=503)
        try:
            update = Update.de_json(await request.json(), self.application.bot)
        except Exception:
            return PlainTextResponse("not a Telegram update\n", status_code=400)
        update_id = update.update_id
        if update_id in self._handling:  # delivered again while this process handles it
            return _in_progress()
        self._handling.add(update_id)
        try:
            claim = await self._claims.submit(update_id)
            if claim is Claim.DONE:
                self.metrics.duplicate_updates.inc()
                return Response()
            if claim is Claim.LIVE:  # another replica is handling it: Telegram retries
                return _in_progress()
            if claim is Claim.TAKEN_OVER:
                self.metrics.updates_taken_over.inc()
                logger.info("update %d taken over from a replica that stopped", update_id)
            try:
                with reply_slot() as slot:
                    await self._in_chat_order(update)
            except BaseException:
                await self._release(update_id)
                raise
            await self._dones.submit(update_id)
        finally:
            self._handling.discard(update_id)
        body = slot.body()
        if body is None:
            return Response()
        return Response(body, media_type="application/json")

    async def _in_chat_order(self, update: Update) -> None:
        """Handle the update; one at a time per chat across replicas. Channel posts' buttons
        (votes: each member's own row, the bulk of the traffic) skip the lock."""
        processor = self.application.update_processor
        chat = update.effective_chat
        if chat is None or chat.type == ChatType.CHANNEL:
            await processor.process_update(update, self.application.process_update(update))
            return
        async with self._chat_locks.holding(chat.id):
            await processor.process_update(update, self.application.process_update(update))

    async def _claim_many(self, update_ids: Sequence[int]) -> list[Claim]:
        c = self.container
        holder = await self.liveness.ensure()
        async with c.db.transaction() as session:
            return await UpdateClaims(session).claim_many(
                update_ids, c.clock.now(), holder, STALE_CLAIM
            )

    async def _done_many(self, update_ids: Sequence[int]) -> list[None]:
        c = self.container
        async with c.db.transaction() as session:
            await UpdateClaims(session).done_many(update_ids, c.clock.now())
        return [None] * len(update_ids)

    async def _release(self, update_id: int) -> None:
        with contextlib.suppress(Exception):
            async with self.container.db.transaction() as session:
                await UpdateClaims(session).release(update_id)

    async def close(self) -> None:
        """After the last request: other replicas may take over from now on."""
        await self.liveness.release()


def _in_progress() -> Response:
    return PlainTextResponse(
        "update in progress; retry later\n", status_code=503, headers={"Retry-After": "1"}
    )


class _InLoopServer(uvicorn.Server):
    """uvicorn without its own signal handling: the bot's runner owns SIGTERM/SIGINT."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class HttpServer:
    """uvicorn serving a Starlette app as a task of the running loop."""

    def __init__(self, app: Starlette, host: str, port: int) -> None:
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=SHUTDOWN_GRACE,
        )
        self.server = _InLoopServer(config)
        self._task: asyncio.Task[None] | None = None

    async def start(self, failed: Callable[[], Awaitable[None]] | None = None) -> None:
        """Serve in the background; returns once listening (raises if it cannot bind)."""
        self._task = asyncio.create_task(self.server.serve(), name="http-server")
        while not self.server.started:
            if self._task.done():
                self._task.result()  # raises what stopped it
                raise RuntimeError("the HTTP server stopped while starting")
            await asyncio.sleep(0.01)

    @property
    def failed(self) -> bool:
        return self._task is not None and self._task.done()

    async def stop(self) -> None:
        """Stop listening, let requests in flight finish (bounded), return when closed."""
        if self._task is None:
            return
        self.server.should_exit = True
        with contextlib.suppress(Exception):
            await self._task
        self._task = None
