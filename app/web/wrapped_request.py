"""A Bot API request layer that wraps another one (metrics, webhook replies): the inner
layer keeps its lifecycle and timeouts; a wrapper only decides what a call does."""

from __future__ import annotations

from typing import Any

from telegram.request import BaseRequest, RequestData


class WrappedRequest(BaseRequest):
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
        timeouts = {
            "read_timeout": read_timeout,
            "write_timeout": write_timeout,
            "connect_timeout": connect_timeout,
            "pool_timeout": pool_timeout,
        }
        return await self.call(url.rsplit("/", 1)[-1], url, method, request_data, timeouts)

    async def call(
        self,
        api_method: str,
        url: str,
        method: str,
        request_data: RequestData | None,
        timeouts: dict[str, Any],
    ) -> tuple[int, bytes]:
        """One Bot API call (``api_method``: "sendMessage"); by default the inner layer's."""
        return await self.inner.do_request(url, method, request_data, **timeouts)
