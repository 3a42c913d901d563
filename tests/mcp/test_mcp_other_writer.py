"""A long-running server reading an embedded index that another process writes.

`coordbot mcp --http` answers questions while a second process (a stdio client started
with --allow-writes, as `coordbot import` or another agent would) imports a document
into the same DATA_DIR. The running server must find the new document at once, and no
question touching it may fail: the embedded Chroma client keeps the vectors it loaded in
memory, so the server reopens it when the index's files move under it."""

from __future__ import annotations

from pathlib import Path

from tests.mcp.support import http_client, http_server, stdio_client, structured

ROSTER = (
    "Plant care roster. The office monstera is watered every Tuesday by whoever holds "
    "the quokkaberry rota. Fertiliser lives under the sink."
)


async def test_running_server_sees_another_processes_import(
    sqlite_community: dict[str, str], tmp_path: Path
) -> None:
    with http_server(sqlite_community, tmp_path, "--no-auth") as url:
        async with http_client(url, None) as reader:
            # Warm: every collection the reader uses is open and in its memory.
            before = structured(await reader.call_tool("ask", {"question": "quokkaberry rota"}))
            assert before["documents"] == []
            structured(await reader.call_tool("knowledge_query", {"query": "parking"}))

            async with stdio_client(sqlite_community, tmp_path, "--allow-writes") as writer:
                imported = structured(await writer.call_tool("knowledge_import", {
                    "title": "Plant care roster", "content": ROSTER,
                    "category": "facilities"}))  # fmt: skip

            found = structured(await reader.call_tool("knowledge_query", {
                "query": "who waters the monstera?", "top_k": 1}))  # fmt: skip
            assert found["results"][0]["document"]["id"] == imported["document_id"]
            for question in ("fertiliser under the sink", "what is the quokkaberry rota?"):
                answer = structured(await reader.call_tool("ask", {"question": question}))
                assert answer["documents"][0]["document_id"] == imported["document_id"]
