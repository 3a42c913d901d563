"""Prometheus metrics for one bot process, in a registry of its own.

Labels name kinds of things (update kind, handler group, Bot API method, error
class), never content: vote choices, idea text and user ids stay out of them.
Gauges about the database (outbox backlog, open proposals) are read when
/metrics is scraped, so they are as fresh as the scrape and cost nothing between.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from telegram import Update
from telegram.error import TimedOut
from telegram.request import BaseRequest, RequestData

from app.web.wrapped_request import WrappedRequest

KINDS = ("message", "edited_message", "callback_query", "channel_post", "my_chat_member")
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


def update_kind(update: object) -> str:
    if not isinstance(update, Update):
        return "other"
    for kind in KINDS:
        if getattr(update, kind, None) is not None:
            return kind
    return "other"


def handler_group(update: object) -> str:
    """Which family of handlers an update goes to: commands, buttons or plain text."""
    if not isinstance(update, Update):
        return "other"
    if update.callback_query is not None:
        return "button"
    message = update.effective_message
    if message is not None and message.text and message.text.startswith("/"):
        return "command"
    return "message" if message is not None else "other"


def is_ask(update: object) -> bool:
    if not isinstance(update, Update) or update.effective_message is None:
        return False
    text = update.effective_message.text or ""
    return text.split(maxsplit=1)[0].split("@", 1)[0] == "/ask" if text else False


def status_error_name(code: int) -> str | None:
    """A Bot API answer's error class by HTTP status (None for success)."""
    if code < 400:
        return None
    if code == 429:
        return "retry_after"
    if code >= 500:
        return "5xx"
    return "4xx"


def exception_error_name(exc: BaseException) -> str:
    return "timeout" if isinstance(exc, TimedOut) else "network"


OUTBOX_KINDS = ("channel", "private")  # the chats the outbox writes to: paced differently

# ({kind: (unsent messages, the oldest one's creation time)}, open proposals)
Snapshot = Callable[[], Awaitable[tuple[dict[str, tuple[int, datetime | None]], int]]]


class Metrics:
    """The metrics of one process; build one per process (never at import time)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.last_poll_ok: float | None = None  # monotonic time of the last good getUpdates
        self.updates = Counter(
            "coordbot_updates", "Updates received, by kind", ["kind"], registry=r
        )
        self.update_seconds = Histogram(
            "coordbot_update_seconds",
            "Time to handle one update, by handler group",
            ["group"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.handler_errors = Counter(
            "coordbot_handler_errors", "Updates whose handler raised", registry=r
        )
        self.bot_api_errors = Counter(
            "coordbot_bot_api_errors",
            "Failed Bot API calls, by method and error class",
            ["method", "error"],
            registry=r,
        )
        self.duplicate_updates = Counter(
            "coordbot_duplicate_updates", "Webhook deliveries skipped as already handled",
            registry=r,
        )  # fmt: skip
        self.updates_taken_over = Counter(
            "coordbot_updates_taken_over",
            "Redelivered webhook updates taken over from a replica that died handling them",
            registry=r,
        )
        self.outbox_pending = Gauge(
            "coordbot_outbox_pending",
            "Outbox messages not yet sent, by kind of chat (channel or group, private)",
            ["kind"],
            registry=r,
        )
        self.outbox_oldest = Gauge(
            "coordbot_outbox_oldest_seconds",
            "Age of the oldest unsent outbox message, by kind of chat (0 when none)",
            ["kind"],
            registry=r,
        )
        self.proposals_open = Gauge("coordbot_proposals_open", "Open proposals", registry=r)
        self.ask_seconds = Histogram(
            "coordbot_ask_seconds", "Time to answer one /ask", buckets=LATENCY_BUCKETS, registry=r
        )

    def observe_update(self, update: object, seconds: float) -> None:
        self.updates.labels(kind=update_kind(update)).inc()
        self.update_seconds.labels(group=handler_group(update)).observe(seconds)
        if is_ask(update):
            self.ask_seconds.observe(seconds)

    def api_error(self, method: str, error: str) -> None:
        self.bot_api_errors.labels(method=method, error=error).inc()

    async def render(self, snapshot: Snapshot | None, now: datetime) -> bytes:
        if snapshot is not None:
            outbox, open_count = await snapshot()
            for kind in OUTBOX_KINDS:
                pending, oldest = outbox.get(kind, (0, None))
                age = max(0.0, (now - oldest).total_seconds()) if oldest else 0.0
                self.outbox_pending.labels(kind=kind).set(pending)
                self.outbox_oldest.labels(kind=kind).set(age)
            self.proposals_open.set(open_count)
        return generate_latest(self.registry)


class MeteredRequest(WrappedRequest):
    """Wraps the real request layer and counts failed Bot API calls by method and error."""

    def __init__(self, inner: BaseRequest, metrics: Metrics) -> None:
        super().__init__(inner)
        self.metrics = metrics

    async def call(
        self,
        api_method: str,
        url: str,
        method: str,
        request_data: RequestData | None,
        timeouts: dict[str, Any],
    ) -> tuple[int, bytes]:
        try:
            code, payload = await super().call(api_method, url, method, request_data, timeouts)
        except Exception as exc:
            self.metrics.api_error(api_method, exception_error_name(exc))
            raise
        error = status_error_name(code)
        if error is None and api_method == "getUpdates":
            self.metrics.last_poll_ok = time.monotonic()
        if error is not None:
            self.metrics.api_error(api_method, error)
        return code, payload
