"""A JSON-RPC error for every line on stdin that is not a JSON-RPC message.

The SDK's stdio transport hands such a line to the session as an exception, and the
session drops it (logged at debug level): a client that sent a request with an id then
waits forever. Its HTTP transport answers the same bodies with -32700 or -32600. Here
the exceptions are taken off the stream between the transport and the session and
answered on the same write stream: -32700 for a line that is not JSON (or holds a
string Python's decoder accepts but the SDK's does not, such as a lone surrogate
``"\\ud800"``), -32600 for JSON that is not one message (a batch, ``params`` as a
string, no ``"jsonrpc"``), each with the request's id whenever it can be read, so the
client's pending call ends.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
from anyio.abc import ObjectSendStream
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

logger = logging.getLogger(__name__)


def _request_id(value: Any) -> int | str | None:
    if isinstance(value, dict):
        found = value.get("id")
        if isinstance(found, str) or (isinstance(found, int) and not isinstance(found, bool)):
            return found
    return None


def error_for(exc: Exception) -> JSONRPCError:
    """The reply to a line the transport could not read as a message."""
    if not isinstance(exc, ValidationError):
        return JSONRPCError(
            jsonrpc="2.0", id=None, error=ErrorData(code=PARSE_ERROR, message="Parse error")
        )
    errors = exc.errors(include_url=False)
    if any(e["type"] == "json_invalid" for e in errors):
        raw = next((e["input"] for e in errors if isinstance(e.get("input"), str)), "")
        try:
            request_id = _request_id(json.loads(raw))
        except ValueError:
            request_id = None
        message = "Parse error: the line is not JSON, or holds text that is not valid Unicode"
        return JSONRPCError(
            jsonrpc="2.0", id=request_id, error=ErrorData(code=PARSE_ERROR, message=message)
        )
    inputs = [e.get("input") for e in errors]
    request_id = next((i for i in map(_request_id, inputs) if i is not None), None)
    batch = any(isinstance(i, list) for i in inputs)
    message = (
        "Invalid Request: batches are not supported; send one message per line"
        if batch
        else "Invalid Request: not a JSON-RPC 2.0 message (jsonrpc, method, id, params)"
    )
    return JSONRPCError(
        jsonrpc="2.0", id=request_id, error=ErrorData(code=INVALID_REQUEST, message=message)
    )


async def _relay(
    source: ReadStream[SessionMessage | Exception],
    sink: ObjectSendStream[SessionMessage | Exception],
    replies: WriteStream[SessionMessage],
) -> None:
    async with sink:
        async for item in source:
            if isinstance(item, Exception):
                reply = error_for(item)
                logger.info("unreadable message on stdin answered with %d", reply.error.code)
                try:
                    await replies.send(SessionMessage(reply))
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    return
                continue
            await sink.send(item)


def answering_malformed(
    group: anyio.abc.TaskGroup,
    source: ReadStream[SessionMessage | Exception],
    replies: WriteStream[SessionMessage],
) -> ReadStream[SessionMessage | Exception]:
    """The messages of ``source``, with every unreadable line answered on ``replies``."""
    send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    group.start_soon(_relay, source, send, replies)
    return receive
