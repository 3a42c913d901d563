"""`coordbot mcp --http`: streamable HTTP at /mcp with a bearer token, on SQLite and
PostgreSQL; 401 without or with a wrong token; the SDK's DNS-rebinding protection
(403 for a foreign Origin, 421 for an unlisted Host, MCP_ALLOWED_HOSTS for a real name);
and no start without a token unless bound to 127.0.0.1 with --no-auth."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

from app.cli import main
from tests.mcp.support import http_client, http_server, structured

TOKEN = "s3cret-token-for-tests"
INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "raw-test", "version": "1"}},
}  # fmt: skip
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


async def _status(url: str, **headers: str) -> int:
    async with httpx2.AsyncClient(timeout=30) as http:
        response = await http.post(url, json=INITIALIZE, headers={**HEADERS, **headers})
        return response.status_code


async def test_http_with_a_token(community: dict[str, str], tmp_path: Path) -> None:
    env = {**community, "MCP_TOKEN": TOKEN, "MCP_ALLOWED_HOSTS": "mcp.example.org"}
    with http_server(env, tmp_path) as url:
        async with http_client(url, TOKEN) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert "get_proposal" in names and "knowledge_import" not in names
            found = structured(await client.call_tool("knowledge_query", {"query": "parking"}))
            assert found["results"][0]["document"]["title"] == "Parking policy"
            facts = structured(
                await client.call_tool("find_facts", {"query": {"subject": "Einstein"}})
            )
            assert facts["count"] == 2
            asked = structured(
                await client.call_tool("ask_question", {"question": "What did Einstein invent?"})
            )
            assert asked["relevant_facts"][0]["object"] == "relativity"
            answer = structured(
                await client.call_tool("ask", {"question": "which proposals are open?"})
            )
            assert answer["proposals"] == [2]
            closed = structured(await client.call_tool("search_proposals", {"status": "closed"}))
            assert [p["id"] for p in closed["proposals"]] == [1, 3]
            pizza = structured(await client.call_tool("get_proposal", {"proposal_id": 1}))
            assert pizza["result"]["winners"] == ["Yes"]
            missing = await client.call_tool("get_proposal", {"proposal_id": 42})
            assert missing.is_error

        bearer = f"Bearer {TOKEN}"
        assert await _status(url) == 401
        assert await _status(url, Authorization="Bearer wrong-token") == 401
        assert await _status(url, Authorization=bearer) == 200
        assert await _status(url, Authorization=bearer, Origin="https://evil.example") == 403
        assert await _status(url, Authorization=bearer, Host="evil.example") == 421
        assert await _status(url, Authorization=bearer, Host="mcp.example.org") == 200
        assert await _status(url, Authorization=bearer, Host="mcp.example.org",
                             Origin="https://mcp.example.org") == 200  # fmt: skip


async def test_no_auth_on_loopback(sqlite_community: dict[str, str], tmp_path: Path) -> None:
    with http_server(sqlite_community, tmp_path, "--no-auth", "--allow-writes") as url:
        async with http_client(url, None) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert client.server_capabilities.prompts is None  # none offered, none advertised
        assert {"knowledge_import", "add_fact"} <= names
        assert await _status(url, Origin="http://evil.example") == 403  # still protected


def test_http_refuses_to_start_unprotected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MCP_TOKEN", raising=False)
    assert main(["mcp", "--http"]) == 2
    assert "MCP_TOKEN is not set" in capsys.readouterr().err
    monkeypatch.setenv("MCP_TOKEN", "short")
    assert main(["mcp", "--http"]) == 2
    assert "MCP_TOKEN is too short: use at least 16 random characters" in capsys.readouterr().err
    monkeypatch.setenv("MCP_TOKEN", TOKEN)
    assert main(["mcp", "--http", "--no-auth", "--host", "0.0.0.0"]) == 2
    assert "--no-auth is only allowed with --host 127.0.0.1" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()  # refused before touching anything
