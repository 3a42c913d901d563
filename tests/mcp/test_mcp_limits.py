"""Every limit a tool takes is published in its input schema and enforced the same way:
a value outside is refused with one sentence naming the argument and its range, never
clamped, never in the validator's words. Driven through `coordbot mcp` over stdio."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.mcp.support import error_text, stdio_client, structured

# The least each tool needs besides the argument under test.
BASE: dict[str, dict[str, Any]] = {
    "knowledge_query": {"query": "parking"},
    "find_facts": {"query": {"subject": "Einstein"}},
    "ask_question": {"question": "What did Einstein invent?"},
    "ask": {"question": "where can visitors park?"},
    "search_proposals": {},
    "get_proposal": {"proposal_id": 1},
    "knowledge_import": {"title": "Limits", "content": "A short text about limits."},
    "add_fact": {"subject": "Limits", "predicate": "are", "object": "published"},
}
IDS = {"proposal_id"}  # a number that names a thing: an unknown one "does not exist"


def _numbers(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    numeric = {"integer", "number"}
    return {
        name: prop
        for name, prop in schema["properties"].items()
        if name not in IDS
        and (prop.get("type") in numeric or any(p.get("type") in numeric
                                                 for p in prop.get("anyOf", [])))
    }  # fmt: skip


async def test_every_numeric_limit_is_published_and_enforced_alike(
    sqlite_community: dict[str, str], tmp_path: Path
) -> None:
    async with stdio_client(sqlite_community, tmp_path, "--allow-writes") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == set(BASE)
        checked = []
        for name, tool in tools.items():
            for argument, prop in _numbers(tool.input_schema).items():
                low, high = prop.get("minimum"), prop.get("maximum")
                assert low is not None and high is not None, (name, argument)
                sentence = f"{argument} must be between {low} and {high}"
                for value in (low - 1, high + 1, high * 10):
                    result = await client.call_tool(name, {**BASE[name], argument: value})
                    assert error_text(result) == sentence, (name, argument, value)
                    assert result.structured_content is not None
                    assert result.structured_content["error_type"] == "ValidationError"
                checked.append(f"{name}.{argument}")
        assert sorted(checked) == [
            "add_fact.confidence", "ask_question.max_results", "find_facts.limit",
            "knowledge_import.chunk_overlap", "knowledge_import.chunk_size",
            "knowledge_query.top_k", "search_proposals.limit",
        ]  # fmt: skip
        # Two at once: both named, in one answer.
        both = await client.call_tool(
            "knowledge_import", {**BASE["knowledge_import"], "chunk_size": 5, "chunk_overlap": -1}
        )
        assert error_text(both) == (
            "chunk_size must be between 100 and 10000; chunk_overlap must be between 0 and 9999"
        )
        # The largest value allowed is served, not clamped or refused.
        facts = structured(await client.call_tool("find_facts", {**BASE["find_facts"],
                                                                 "limit": 100}))  # fmt: skip
        assert facts["limit"] == 100 and facts["count"] == 2
