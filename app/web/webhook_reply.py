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

from telegram.request import RequestData

from app.web.wrapped_request import WrappedRequest

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


class WebhookReplyRequest(WrappedRequest):
    """The bot's request layer, taking the first replyable call of an update into its
    webhook reply; any other call (or a second one) goes to the inner layer."""

    async def call(
        self,
        api_method: str,
        url: str,
        method: str,
        request_data: RequestData | None,
        timeouts: dict[str, Any],
    ) -> tuple[int, bytes]:
        slot = _current.get()
        if (
            slot is not None
            and slot.call is None
            and api_method in REPLYABLE
            and (request_data is None or not request_data.contains_files)
        ):
            params = request_data.parameters if request_data is not None else {}
            slot.call = {"method": api_method, **params}
            return 200, _OK
        return await super().call(api_method, url, method, request_data, timeouts)
