"""Raw lines on `coordbot mcp`'s stdin that are not JSON-RPC messages each get a JSON-RPC
error (with the request's id when it can be read), as the HTTP transport answers them,
so no client waits forever; the session carries on afterwards."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "raw-test", "version": "1"}},
}  # fmt: skip
ASK_SURROGATE = (
    '{"jsonrpc":"2.0","id":4,"method":"tools/call",'
    '"params":{"name":"ask","arguments":{"question":"\\ud800 budget"}}}'
)
MALFORMED = [  # (line, expected code, expected id)
    (ASK_SURROGATE, -32700, 4),
    ("this is not json", -32700, None),
    ('[{"jsonrpc":"2.0","id":6,"method":"ping"}]', -32600, None),
    ('{"jsonrpc":"2.0","id":7,"method":"ping","params":"notanobject"}', -32600, 7),
    ('{"id":12,"method":"ping"}', -32600, 12),
    ('{"jsonrpc":"2.0","id":"s-13","method":"tools/call","params":"x"}', -32600, "s-13"),
]


async def test_malformed_lines_get_errors(sqlite_community: dict[str, str], tmp_path: Path) -> None:
    log = (tmp_path / "server.log").open("w")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "app.cli", "mcp",
        env={**os.environ, **sqlite_community}, cwd=tmp_path,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=log,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    async def send(line: str) -> None:
        stdin.write(line.encode() + b"\n")
        await stdin.drain()

    async def reply() -> dict[str, Any]:
        line = await asyncio.wait_for(stdout.readline(), timeout=60)
        assert line, (tmp_path / "server.log").read_text()[-2000:]
        message: dict[str, Any] = json.loads(line)
        return message

    try:
        await send(json.dumps(INITIALIZE))
        assert (await reply())["id"] == 1
        await send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        for line, code, request_id in MALFORMED:
            await send(line)
            answer = await reply()
            assert answer["jsonrpc"] == "2.0" and "result" not in answer, line
            assert answer["id"] == request_id, line
            assert answer["error"]["code"] == code, line
        await send(json.dumps({"jsonrpc": "2.0", "id": 20, "method": "ping"}))
        assert await reply() == {"jsonrpc": "2.0", "id": 20, "result": {}}
    finally:
        stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), timeout=30)
        except TimeoutError:  # never leave the server running: kill it, then fail below
            proc.kill()
            await proc.wait()
        log.close()
    assert proc.returncode == 0
