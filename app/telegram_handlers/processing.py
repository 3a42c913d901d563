"""Concurrent updates that keep each user's conversation in order.

ConversationHandler needs one user's updates handled one at a time, but votes
from different users should not queue behind each other. This processor runs
up to ``max_concurrent`` updates at once and serialises those of the same user.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

if TYPE_CHECKING:
    from app.web.metrics import Metrics


class PerUserUpdateProcessor(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = 64, metrics: Metrics | None = None) -> None:
        super().__init__(max_concurrent_updates)
        self.metrics = metrics
        self._locks: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if self.metrics is None:
            await self._in_order(update, coroutine)
            return
        start = time.perf_counter()
        try:
            await self._in_order(update, coroutine)
        finally:
            self.metrics.observe_update(update, time.perf_counter() - start)

    async def _in_order(self, update: object, coroutine: Awaitable[Any]) -> None:
        user = update.effective_user if isinstance(update, Update) else None
        if user is None:
            await coroutine
            return
        key = user.id
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._waiting[key] -= 1
            if self._waiting[key] == 0:  # forget idle users so the dict stays small
                del self._waiting[key]
                del self._locks[key]

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None
