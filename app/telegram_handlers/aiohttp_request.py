"""PTB's request layer on aiohttp: the Bot API calls the bot makes, at less CPU per call.

PTB ships an httpx-based request class; under a burst of announcements the
sending replica spends most of its time in httpx's and anyio's layers. This
class speaks the same contract (``BaseRequest.do_request`` returns the status
and the body; timeouts become ``TimedOut``, other transport failures
``NetworkError``) over one pooled aiohttp session. Long polling (getUpdates)
keeps PTB's own class.
"""

from __future__ import annotations

from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData


class AiohttpRequest(BaseRequest):
    def __init__(
        self,
        connection_pool_size: int = 64,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT}
            )
        return self._session

    async def initialize(self) -> None:
        self._client()

    async def shutdown(self) -> None:
        session, self._session = self._session, None
        if session is not None and not session.closed:
            await session.close()

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
        files = request_data.multipart_data if request_data is not None else None
        fields = request_data.json_parameters if request_data is not None else None
        if isinstance(read_timeout, DefaultValue):
            read_timeout = self._read_timeout
        if isinstance(connect_timeout, DefaultValue):
            connect_timeout = self._connect_timeout
        if isinstance(pool_timeout, DefaultValue):
            pool_timeout = self._pool_timeout
        if isinstance(write_timeout, DefaultValue):
            write_timeout = self._media_write_timeout if files else self._write_timeout
        # aiohttp has no write timeout of its own: sending the body counts toward the
        # read timeout's clock, so the bound is their sum.
        timeout = aiohttp.ClientTimeout(
            total=None,
            connect=_sum(connect_timeout, pool_timeout),
            sock_connect=connect_timeout,
            sock_read=_sum(read_timeout, write_timeout),
        )
        data: Any = fields
        if files:
            form = aiohttp.FormData()
            for name, value in (fields or {}).items():
                form.add_field(name, value)
            for name, part in files.items():
                filename, content, mime = _file_part(part)
                form.add_field(name, content, filename=filename, content_type=mime)
            data = form
        try:
            async with self._client().request(method, url, data=data, timeout=timeout) as res:
                return res.status, await res.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err


def _sum(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a + b


def _file_part(part: Any) -> tuple[str | None, Any, str | None]:
    """PTB's multipart value: content alone, or (filename, content[, mimetype])."""
    if isinstance(part, tuple):
        filename = part[0]
        content = part[1]
        mime = part[2] if len(part) > 2 else None
        return filename, content, mime
    return None, part, None
