"""Answering a button in the webhook's HTTP reply instead of with a Bot API call.

Telegram accepts one Bot API method call as the body of the reply to a webhook
request (``{"method": "answerCallbackQuery", ...}``), and performs it as if the
bot had called it. For a vote that saves a whole HTTP round trip to the Bot API
per update: the handler's ``query.answer(...)`` is captured here, while the
update is being handled, and goes back with the 200. Telegram does not report
whether such a call succeeded, so only calls whose result the bot ignores are
taken this way (answerCallbackQuery); everything else goes out as usual.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from telegram.request import BaseRequest, RequestData

REPLYABLE = frozenset({"answerCallbackQuery"})
_OK = json.dumps({"ok": True, "result": True}).encode()


class ReplySlot:
    """Room for one method call in the reply to the webhook request being handled."""

    def __init__(self) -> None:
        self.call: dict[str, Any] | None = None

    def body(self) -> bytes | None:
        return json.dumps(self.call).encode() if self.call is not None else None


_current: contextvars.ContextVar[ReplySlot | None] = contextvars.ContextVar(
    "webhook_reply", default=None
)


@contextmanager
def reply_slot() -> Iterator[ReplySlot]:
    """While the webhook handles one update (in this task), a slot for its reply."""
    slot = ReplySlot()
    token = _current.set(slot)
    try:
        yield slot
    finally:
        _current.reset(token)


class WebhookReplyRequest(BaseRequest):
    """The bot's request layer, taking the first replyable call of an update into its
    webhook reply; any other call (or a second one) goes to ``inner``."""

    def __init__(self, inner: BaseRequest) -> None:
        self.inner = inner

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        slot = _current.get()
        api_method = url.rsplit("/", 1)[-1]
        if (
            slot is not None
            and slot.call is None
            and api_method in REPLYABLE
            and (request_data is None or not request_data.contains_files)
        ):
            params = request_data.parameters if request_data is not None else {}
            slot.call = {"method": api_method, **params}
            return 200, _OK
        return await self.inner.do_request(
            url,
            method,
            request_data,
            read_timeout=read_timeout,
            write_timeout=write_timeout,
            connect_timeout=connect_timeout,
            pool_timeout=pool_timeout,
        )
