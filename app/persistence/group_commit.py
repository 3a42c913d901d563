"""Group commit: concurrent callers share one write.

Each caller queues its item and waits. Whoever finds no write running becomes the
writer and writes everything queued so far in one transaction; callers that queued
meanwhile wait for the next write, which takes all of them. An idle system writes
each item at once; a busy one writes one statement per round instead of one per
caller, so a burst of webhook updates costs a few transactions, not hundreds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

K = TypeVar("K")
R = TypeVar("R")

Write = Callable[[Sequence[K]], Awaitable[Sequence[R]]]


class GroupCommit(Generic[K, R]):
    """``write(items)`` stores a batch and returns one result per item, in order."""

    def __init__(self, write: Write[K, R], max_batch: int = 500) -> None:
        self._write = write
        self._max_batch = max_batch
        self._queue: list[tuple[K, asyncio.Future[R]]] = []
        self._lock = asyncio.Lock()

    async def submit(self, item: K) -> R:
        """Returns once ``item``'s write is committed (by this caller or another)."""
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        async with self._lock:
            if not future.done():
                await self._write_queued(future)
        return future.result()

    async def _write_queued(self, own: asyncio.Future[R]) -> None:
        batch, self._queue = self._queue[: self._max_batch], self._queue[self._max_batch :]
        try:
            results = await self._write([item for item, _ in batch])
        except BaseException:
            # Not written: put the items back; their callers (waiting on the lock) retry,
            # and this caller's error is its own.
            self._queue[:0] = [(i, f) for i, f in batch if f is not own and not f.done()]
            raise
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)
