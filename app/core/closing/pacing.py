"""Telegram's pace, chat by chat: which chats the outbox may send to now.

Telegram allows a bot about one message a second in one private chat, about twenty a
minute in one group or channel, and about thirty a second over all; past that it
answers RetryAfter for that chat. The outbox sender keeps each chat's own pace here,
so a channel's backlog waits on the channel alone while private messages go out
beside it, and a RetryAfter pauses the chat it was about.

Without a pace (PTB's rate limiter off: the API has no limits, e.g. the Bot API
stand-in) chats are still taken in turn, several messages of one chat at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

CHANNEL, PRIVATE = "channel", "private"


def chat_kind(chat_id: str | int) -> str:
    """``channel`` for groups and channels (a negative id, or an ``@username``), else
    ``private`` (a member's chat with the bot); as chat_kind_sql in the outbox."""
    return CHANNEL if str(chat_id).startswith(("-", "@")) else PRIVATE


@dataclass(frozen=True, slots=True)
class Pace:
    private_interval: float = 1.0  # seconds between two messages to one private chat
    channel_interval: float = 3.0  # twenty a minute in one group or channel
    per_second: float = 25.0  # the bot's whole output (Telegram's 30, less room for replies)

    def interval(self, chat_id: str) -> float:
        return self.private_interval if chat_kind(chat_id) == PRIVATE else self.channel_interval


class ChatTurns:
    """The sending replica's memory of each chat's turn (process memory: a replica that
    takes the sending over starts afresh, which Telegram's limits tolerate).

    ``now``: seconds on the outbox's clock, the one its retry times are written in; the
    bot's overall pace is kept in real time (it sleeps)."""

    def __init__(self, pace: Pace | None, now: Callable[[], float] = time.time) -> None:
        self.pace = pace
        self._now = now
        self._busy: dict[str, int] = {}  # chat -> its messages in flight
        self._ready_at: dict[str, float] = {}  # chat -> when it may send again
        self._spacing = Spacing(1.0 / pace.per_second if pace else 0.0)

    @property
    def per_chat(self) -> int | None:
        """Messages of one chat claimed in one round: one at a time when paced."""
        return 1 if self.pace is not None else None

    def waiting(self) -> set[str]:
        """Chats that may not send now: paused, or (paced) with a message in flight."""
        now = self._now()
        for chat in [c for c, at in self._ready_at.items() if at <= now]:
            del self._ready_at[chat]
        held = set(self._ready_at)
        if self.pace is not None:
            held |= self._busy.keys()
        return held

    def next_ready(self) -> float | None:
        """Seconds until the first waiting chat may send again (None: nothing waits)."""
        if not self._ready_at:
            return None
        return max(0.0, min(self._ready_at.values()) - self._now())

    def claimed(self, chat_id: str) -> None:
        """A message of the chat is in hand, from its claim until it is settled."""
        self._busy[chat_id] = self._busy.get(chat_id, 0) + 1

    async def turn(self, chat_id: str) -> None:
        """Wait for a slot in the bot's overall pace; the chat's own pace runs from now."""
        await self._spacing.wait()
        if self.pace is not None:
            self._hold(chat_id, self.pace.interval(chat_id))

    def finished(self, chat_id: str, retry_after: float | None = None) -> None:
        """A message of the chat is settled; Telegram's RetryAfter pauses that chat only."""
        left = self._busy.get(chat_id, 0) - 1
        if left > 0:
            self._busy[chat_id] = left
        else:
            self._busy.pop(chat_id, None)
        if retry_after is not None:
            self._hold(chat_id, retry_after)

    def _hold(self, chat_id: str, seconds: float) -> None:
        at = self._now() + seconds
        self._ready_at[chat_id] = max(at, self._ready_at.get(chat_id, at))


class Spacing:
    """At most one start per ``interval`` seconds, in the order asked."""

    def __init__(self, interval: float, now: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self._now = now
        self._next = 0.0

    async def wait(self) -> None:
        if self.interval <= 0:
            return
        now = self._now()
        at = max(now, self._next)
        self._next = at + self.interval
        if at > now:
            await asyncio.sleep(at - now)
