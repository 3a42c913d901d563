"""An unexpected failure inside a tool (here: the Chroma server is down) is logged on
the server's stderr with a reference, answered as a tool error naming that reference,
and the server keeps serving the tools that do not need the failed part."""

from __future__ import annotations

import re
from pathlib import Path

from tests.mcp.support import free_port, stdio_client, structured


async def test_unexpected_error_is_a_tool_error_with_a_reference(
    sqlite_community: dict[str, str], tmp_path: Path
) -> None:
    env = {**sqlite_community, "CHROMA_HOST": "127.0.0.1", "CHROMA_PORT": str(free_port())}
    log_path = tmp_path / "server.log"
    with log_path.open("w") as log:
        async with stdio_client(env, tmp_path, errlog=log) as client:
            broken = await client.call_tool("knowledge_query", {"query": "parking"})
            facts = await client.call_tool("find_facts", {"query": {"subject": "Einstein"}})
    assert broken.is_error
    text = broken.content[0].text  # type: ignore[union-attr]
    reference = re.search(r"reference ([0-9a-f]{12})", text)
    assert reference is not None, text
    assert broken.structured_content is not None
    assert broken.structured_content["error_type"] == "InternalError"
    assert broken.structured_content["reference"] == reference.group(1)
    assert "Traceback" not in text and "chroma" not in text.lower()  # no internals to the agent
    logged = log_path.read_text()
    assert f"tool knowledge_query failed (reference {reference.group(1)})" in logged
    assert "Traceback" in logged
    assert structured(facts)["count"] == 2  # still serving
