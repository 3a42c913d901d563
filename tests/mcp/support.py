"""Starting `coordbot mcp` as a subprocess and talking to it with the SDK's own client.

Every process started here is stopped here: the stdio server by the client's context
(it closes stdin, then terminates), the HTTP server by ``http_server``'s ``finally``.
Ports are picked free at run time; waiting is polling with a deadline.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TextIO

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client as stdio_client_transport
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("community.json")
START_TIMEOUT = 60.0


def server_env(data_dir: Path, database_url: str | None = None, **extra: str) -> dict[str, str]:
    """The server's environment: this checkout first on PYTHONPATH, its own DATA_DIR."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {"PYTHONPATH": path, "DATA_DIR": str(data_dir), "PTB_TIMEDELTA": "true"}
    if database_url:
        env["DATABASE_URL"] = database_url
    env.update(extra)
    return env


def stdio_client(
    env: dict[str, str], cwd: Path, *args: str, errlog: TextIO | None = None
) -> Client:
    """The SDK's client, starting `coordbot mcp` as its subprocess (stderr to ``errlog``)."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "app.cli", "mcp", *args], env=env, cwd=str(cwd)
    )
    transport = stdio_client_transport(params, errlog=errlog or sys.stderr)
    return Client(transport, read_timeout_seconds=120)


@asynccontextmanager
async def http_client(url: str, token: str | None) -> AsyncIterator[Client]:
    """The SDK's client over streamable HTTP, sending the bearer token when given."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(120.0)) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, read_timeout_seconds=120) as client:
            yield client


@contextmanager
def http_server(env: dict[str, str], cwd: Path, *args: str) -> Iterator[str]:
    """`coordbot mcp --http` on a free 127.0.0.1 port; yields the /mcp URL."""
    port = free_port()
    log = (cwd / f"mcp-http-{port}.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "mcp", "--http", "--port", str(port), *args],
        env={**os.environ, **env},
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:  # poll until the port accepts connections
            if proc.poll() is not None:
                raise RuntimeError(f"mcp --http exited: {(cwd / log.name).read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("mcp --http did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()  # SIGTERM, as an operator's supervisor stops it
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)
        log.close()
    # Reached only when the test passed: the server shut down cleanly on SIGTERM.
    assert proc.returncode == 0, (cwd / log.name).read_text()[-2000:]


class Recording:
    """Calls tools on ``client`` and keeps every result, for ``wire`` to search."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.seen: list[Any] = []

    async def __call__(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        result = await self.client.call_tool(name, arguments)
        self.seen.append(result)
        return result


def structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    """The message of an error result (never a protocol error, never a success)."""
    assert result.is_error, result.structured_content
    text = result.content[0].text  # type: ignore[union-attr]
    assert result.structured_content == {
        "error": True, "error_type": result.structured_content["error_type"], "message": text,
    }  # fmt: skip
    return text


def wire(results: list[Any]) -> str:
    """Everything the client received, as one text to search."""
    parts = []
    for result in results:
        if isinstance(result, CallToolResult):
            parts.append(json.dumps(result.structured_content, ensure_ascii=False))
            parts += [getattr(block, "text", "") for block in result.content]
        else:
            parts.append(json.dumps(result, ensure_ascii=False, default=str))
    return "\n".join(parts)
