"""Two `coordbot mcp --allow-writes` processes (two stdio clients) writing at once, as
several agents would: on PostgreSQL with a Chroma server (the multi-process setup), and on
the embedded defaults (SQLite, Chroma under DATA_DIR). Every write lands once, the same
content imported by both at once is one document, and a third process finds it all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.mcp.support import stdio_client, structured
from tests.support.chroma_server import running_chroma_server

SHARED = "House rules. Quiet hours are from 22:00 to 07:00 on weekdays and 23:00 on weekends."


@pytest.fixture
def chroma_port(tmp_path: Path) -> Iterator[int]:
    """`chroma run` on a free 127.0.0.1 port, stopped at the end."""
    with running_chroma_server(tmp_path / "chroma-server") as port:
        yield port


async def test_two_servers_write_at_once(
    pg_community: dict[str, str], chroma_port: int, tmp_path: Path
) -> None:
    # The seed went to the embedded index; this server index starts empty and catches up
    # from SQL as documents are imported (reconciliation is the services' job).
    env = {**pg_community, "CHROMA_HOST": "127.0.0.1", "CHROMA_PORT": str(chroma_port)}
    await _two_agents(env, tmp_path)


async def test_two_servers_on_sqlite_and_the_embedded_index(
    sqlite_community: dict[str, str], tmp_path: Path
) -> None:
    await _two_agents(sqlite_community, tmp_path)


async def _two_agents(env: dict[str, str], tmp_path: Path) -> None:
    imported: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}

    async def agent(name: str, ready: anyio.Event, go: anyio.Event) -> None:
        async with stdio_client(env, tmp_path, "--allow-writes") as client:
            await client.list_tools()
            ready.set()
            await go.wait()
            # The same content from both at the same moment: one document, no error.
            imported[name].append(structured(await client.call_tool("knowledge_import", {
                "title": "House rules", "content": SHARED, "category": "notes"})))  # fmt: skip
            for i in range(3):
                imported[name].append(structured(await client.call_tool("knowledge_import", {
                    "title": f"Note {name}{i}", "category": "notes",
                    "content": f"Agent {name} note {i}: the {name}-{i} boiler is serviced "
                               f"in month {i + 1}."})))  # fmt: skip
                structured(await client.call_tool("add_fact", {
                    "subject": f"boiler {name}{i}", "predicate": "serviced in",
                    "object": f"month {i + 1}"}))  # fmt: skip
                structured(await client.call_tool("add_fact", {
                    "subject": "Quiet hours", "predicate": "start at", "object": "22:00"}))  # fmt: skip

    with anyio.fail_after(240):
        events = {n: (anyio.Event(), anyio.Event()) for n in ("a", "b")}
        async with anyio.create_task_group() as group:
            for name, (ready, go) in events.items():
                group.start_soon(agent, name, ready, go)
            for ready, _ in events.values():
                await ready.wait()
            for _, go in events.values():  # both start writing at the same moment
                go.set()

        shared = {imported[n][0]["document_id"] for n in ("a", "b")}
        assert len(shared) == 1  # the same content, imported twice at once: one document
        ids = {d["document_id"] for n in ("a", "b") for d in imported[n]}
        assert len(ids) == 7

        async with stdio_client(env, tmp_path) as client:  # a third process reads it all
            for doc_id in ids:
                found = structured(await client.call_tool("knowledge_query", {
                    "query": "boiler serviced", "document_id": doc_id}))  # fmt: skip
                assert found["total"] == 1, doc_id
            notes = structured(await client.call_tool("knowledge_query", {
                "query": "when is the boiler serviced?", "category": "notes", "top_k": 20}))  # fmt: skip
            assert notes["total"] == 7
            boilers = structured(await client.call_tool("find_facts", {
                "query": {"predicate": "serviced in"}, "limit": 100}))  # fmt: skip
            assert boilers["count"] == 6
            quiet = structured(await client.call_tool("find_facts", {
                "query": {"subject": "quiet hours"}}))  # fmt: skip
            assert quiet["count"] == 1
