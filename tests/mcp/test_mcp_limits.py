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


def _strings(schema: dict[str, Any], prefix: str = "") -> dict[str, tuple[list[str], int | None]]:
    """Every string argument that is not a choice of values, nested ones included: its
    path in the arguments and its published maxLength."""
    found: dict[str, tuple[list[str], int | None]] = {}
    for name, prop in schema["properties"].items():
        ref = prop.get("$ref", "").removeprefix("#/$defs/")
        if ref:
            nested = {**schema["$defs"][ref], "$defs": schema["$defs"]}
            for inner, (path, most) in _strings(nested, f"{name}.").items():
                found[inner] = ([name, *path], most)
            continue
        kinds = {prop.get("type")} | {p.get("type") for p in prop.get("anyOf", [])}
        if "string" in kinds and "enum" not in prop:
            found[f"{prefix}{name}"] = ([name], prop.get("maxLength"))
    return found


def _with(base: dict[str, Any], path: list[str], value: str) -> dict[str, Any]:
    if len(path) == 1:
        return {**base, path[0]: value}
    return {**base, path[0]: _with(base.get(path[0], {}), path[1:], value)}


async def test_every_string_has_a_published_and_enforced_length(
    sqlite_community: dict[str, str], tmp_path: Path
) -> None:
    async with stdio_client(sqlite_community, tmp_path, "--allow-writes") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        lengths = {}
        for name, tool in tools.items():
            for argument, (path, most) in _strings(tool.input_schema).items():
                assert most is not None, f"{name}.{argument} has no maxLength"
                lengths[f"{name}.{argument}"] = most
                result = await client.call_tool(name, _with(BASE[name], path, "é" * (most + 1)))
                assert error_text(result) == (
                    f"{argument} must be at most {most} characters (got {most + 1})"
                ), (name, argument)
                assert result.structured_content is not None
                assert result.structured_content["error_type"] == "ValidationError"
        # The bot's own limits: its questions, the fact graph's names, the documents
        # table's columns, the largest file /add_doc reads, a member's name.
        assert {k: v for k, v in lengths.items() if v != 500} == {
            "find_facts.query.subject": 300, "find_facts.query.predicate": 100,
            "find_facts.query.object": 300, "knowledge_query.category": 100,
            "knowledge_query.document_id": 64, "knowledge_import.title": 300,
            "knowledge_import.content": 5 * 1024 * 1024, "knowledge_import.source": 1000,
            "knowledge_import.category": 100, "add_fact.subject": 300,
            "add_fact.predicate": 100, "add_fact.object": 300, "search_proposals.start": 64,
            "search_proposals.end": 64, "search_proposals.proposer": 255,
            "search_proposals.cursor": 256,
        }  # fmt: skip
        assert {k for k, v in lengths.items() if v == 500} == {
            "ask.question", "ask_question.question", "ask_question.context",
            "knowledge_query.query", "search_proposals.text",
        }  # fmt: skip
        # At the limit, a title is taken whole (it was cut at 300 characters silently).
        title = "T" * 300
        imported = structured(await client.call_tool("knowledge_import", {
            **BASE["knowledge_import"], "title": title}))  # fmt: skip
        assert imported["title"] == title
