"""PTB's rate limiter, with one way out for the outbox.

AIORateLimiter spaces every Bot API call (about 30 a second over all, 20 a minute per
group or channel) and retries a call Telegram answers with RetryAfter, holding every
other call of the bot meanwhile. The outbox keeps each chat's pace itself and handles
RetryAfter by pausing that chat alone (app.core.closing.pacing), so its calls pass
``rate_limit_args=NO_RETRIES``: still spaced with everything else the bot sends, tried
once, a RetryAfter handed back to the outbox instead of stopping the bot.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from telegram._utils.types import JSONDict
from telegram.ext import AIORateLimiter

NO_RETRIES = -1  # rate_limit_args of a call that is tried once, its RetryAfter raised


class BotRateLimiter(AIORateLimiter):
    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        if rate_limit_args != NO_RETRIES:
            return await super().process_request(
                callback, args, kwargs, endpoint, data, rate_limit_args
            )
        chat_id: Any = data.get("chat_id")
        with contextlib.suppress(ValueError, TypeError):
            chat_id = int(chat_id)
        group: int | str | bool = False
        if (isinstance(chat_id, int) and chat_id < 0) or isinstance(chat_id, str):
            group = chat_id  # the same per-chat limiter as the bot's other calls there
        return await self._run_request(
            chat=chat_id is not None,
            group=group,
            allow_paid_broadcast=bool(data.get("allow_paid_broadcast", False)),
            callback=callback,
            args=args,
            kwargs=kwargs,
        )
