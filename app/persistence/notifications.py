"""LISTEN for the database's change notifications (PostgreSQL; see migration 0009).

One connection of its own, outside the pool, kept open while the process runs;
if it drops, it is reopened after a pause and ``on_reconnect`` runs (whatever was
notified meanwhile is lost, so the caller re-reads what it keeps in step). The
notifications only make the bot react sooner: the periodic sweep and the
outbox poll stay, so a lost connection slows things down and loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import asyncpg
from sqlalchemy.engine import make_url

logger = logging.getLogger(__name__)

DEADLINES = "coordbot_deadlines"  # payload: the proposal's id
OUTBOX = "coordbot_outbox"
RETRY_SECONDS = 5.0

Handler = Callable[[str], None]


def asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    def __init__(
        self,
        url: str,
        handlers: dict[str, Handler],
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.dsn = asyncpg_dsn(url)
        self.handlers = handlers
        self.on_reconnect = on_reconnect
        self._task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="db-listener")

    async def listening(self, limit: float) -> bool:
        """True once LISTEN is in place (tests and start-up wait for it)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._listening.wait(), limit)
        return self._listening.is_set()

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self) -> None:
        first = True
        while True:
            try:
                await self._listen(first)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.warning(
                    "database notifications unavailable (%s); retrying in %.0fs",
                    type(exc).__name__,
                    RETRY_SECONDS,
                )
            self._listening.clear()
            first = False
            await asyncio.sleep(RETRY_SECONDS)

    async def _listen(self, first: bool) -> None:
        conn = await asyncpg.connect(self.dsn)
        lost = asyncio.Event()
        conn.add_termination_listener(lambda _conn: lost.set())
        try:
            for channel, handler in self.handlers.items():
                await conn.add_listener(channel, _callback(channel, handler))
            self._listening.set()
            if not first and self.on_reconnect is not None:
                await self.on_reconnect()
            await lost.wait()
            raise ConnectionError("the notification connection closed")
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), 2)


def _callback(channel: str, handler: Handler) -> Callable[..., None]:
    def notified(_conn: object, _pid: int, _channel: str, payload: str) -> None:
        try:
            handler(payload)
        except Exception:
            logger.exception("handling a %s notification failed", channel)

    return notified
