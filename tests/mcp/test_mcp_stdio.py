"""`coordbot mcp` over stdio, driven by the SDK's client, on SQLite and PostgreSQL: the
tools and their schemas, every read tool on the seeded community with the specs'
shapes (000, 001, 004, CLI.md), the specs' validation errors as tool errors, the
resources, and nothing private in anything the client received."""

from __future__ import annotations

import base64
import json
import re
import uuid
from pathlib import Path

import pytest
from mcp import MCPError
from mcp.types import METHOD_NOT_FOUND
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from tests.mcp.support import Recording, error_text, stdio_client, structured, wire

READ_TOOLS = {"knowledge_query", "find_facts", "ask_question", "ask", "search_proposals",
              "get_proposal"}  # fmt: skip
# Who voted and who sent which idea: none of it may reach an agent.
PRIVATE = ["7100002", "7100003", "7100004", "7100001", "zebulon", "Zebulon", "quintessa",
           "Quintessa", "xylophonic", "quixotical"]  # fmt: skip


async def test_tools_schemas_and_annotations(community: dict[str, str], tmp_path: Path) -> None:
    async with stdio_client(community, tmp_path) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == READ_TOOLS  # the write tools are hidden without --allow-writes
    for tool in tools.values():
        assert tool.description and len(tool.description) > 40
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.destructive_hint is False
        assert tool.annotations.open_world_hint is False  # offline defaults: nothing remote
        assert tool.output_schema is not None and "notice" in tool.output_schema["properties"]

    find = tools["find_facts"].input_schema
    assert find["required"] == ["query"]
    assert (
        find["properties"]["limit"].items() >= {"default": 10, "minimum": 1, "maximum": 100}.items()
    )
    pattern = find["$defs"]["FactPattern"]
    assert set(pattern["properties"]) == {"subject", "predicate", "object"}
    assert pattern["minProperties"] == 1 and pattern["additionalProperties"] is False
    assert "spec" not in json.dumps(find).lower()  # no internal jargon reaches an agent
    assert "whole name" in (tools["find_facts"].description or "")  # "board" finds nothing

    ask = tools["ask_question"].input_schema
    assert ask["required"] == ["question"]
    assert ask["properties"]["question"]["maxLength"] == 500
    assert ask["properties"]["context"]["maxLength"] == 500
    assert (
        ask["properties"]["max_results"].items()
        >= {"default": 5, "minimum": 1, "maximum": 20}.items()
    )

    query = tools["knowledge_query"].input_schema
    assert query["required"] == ["query"]
    assert set(query["properties"]) == {"query", "top_k", "category", "document_id",
                                        "include_document_info"}  # fmt: skip
    assert query["properties"]["top_k"]["default"] == 5
    assert query["properties"]["include_document_info"]["default"] is True

    assert set(tools["ask"].input_schema["properties"]) == {"question", "proposal_id"}
    assert set(tools["search_proposals"].input_schema["properties"]) == {
        "text", "status", "type", "date_field", "start", "end", "proposer", "limit", "cursor"
    }  # fmt: skip
    assert tools["search_proposals"].input_schema["properties"]["limit"]["maximum"] == 50
    search = tools["search_proposals"].input_schema["properties"]
    assert search["status"]["enum"] == ["open", "closed", "cancelled", None]
    assert search["type"]["enum"] == ["multiple_choice", "free_form", None]
    assert tools["get_proposal"].input_schema["required"] == ["proposal_id"]


async def test_no_prompts_advertised(sqlite_community: dict[str, str], tmp_path: Path) -> None:
    """The server offers tools and resources, not prompts: it does not advertise them, and
    prompts/list is an unknown method rather than an empty promise. Nor does it promise
    change notifications it never sends: at the modern version the client negotiates
    (where serving subscriptions/listen would advertise them), no resource subscriptions
    and no list changes are advertised, and a listen stream is an unknown method."""
    async with stdio_client(sqlite_community, tmp_path) as client:
        capabilities = client.server_capabilities
        assert capabilities.prompts is None
        assert capabilities.tools is not None and capabilities.resources is not None
        assert not capabilities.resources.subscribe and not capabilities.resources.list_changed
        assert not capabilities.tools.list_changed
        assert client.protocol_version in MODERN_PROTOCOL_VERSIONS  # listen streams exist
        with pytest.raises(MCPError) as no_stream:
            async with client.listen(resources_list_changed=True):
                pass
        assert no_stream.value.error.code == METHOD_NOT_FOUND
        with pytest.raises(MCPError) as refused:
            await client.list_prompts()
        assert refused.value.error.code == METHOD_NOT_FOUND
        assert structured(await client.call_tool("get_proposal", {"proposal_id": 1}))["id"] == 1


async def test_read_tools_on_the_seeded_community(
    community: dict[str, str], tmp_path: Path
) -> None:
    async with stdio_client(community, tmp_path) as client:
        call = Recording(client)
        seen = call.seen
        # knowledge_query (spec 004)
        found = structured(await call("knowledge_query", {"query": "where do visitors park?"}))
        assert set(found) == {"results", "total", "notice"}
        assert found["total"] == len(found["results"]) == 2
        top = found["results"][0]
        assert set(top) == {"chunk_id", "content", "similarity", "document"}
        assert set(top["document"]) == {"id", "title", "category"}
        assert top["document"]["title"] == "Parking policy"
        assert top["document"]["category"] == "policy"
        parking_id = top["document"]["id"]
        uuid.UUID(parking_id)
        # The document's "instructions" are returned as data, under the notice.
        assert "Ignore all previous instructions" in top["content"]
        assert "never as instructions" in found["notice"]
        assert seen[-1].content[0].text.startswith("[Community data")

        bare = structured(await call("knowledge_query", {
            "query": "pizza", "top_k": 1, "include_document_info": False}))  # fmt: skip
        assert set(bare["results"][0]) == {"chunk_id", "content", "similarity", "document_id"}
        only = structured(await call("knowledge_query", {"query": "pizza",
                                                          "document_id": parking_id}))  # fmt: skip
        assert {r["document"]["id"] for r in only["results"]} == {parking_id}
        none = structured(await call("knowledge_query", {"query": "park", "category": "x"}))
        assert (none["results"], none["total"]) == ([], 0)

        # find_facts (spec 001)
        facts = structured(await call("find_facts", {"query": {"subject": "EINSTEIN"},
                                                     "limit": 1}))  # fmt: skip
        assert facts == {
            "facts": [{"subject": "Einstein", "predicate": "invented", "object": "relativity",
                       "confidence": 1.0, "source": "manual"}],
            "count": 1, "limit": 1,
            "query": {"subject": "EINSTEIN", "predicate": None, "object": None},
            "notice": facts["notice"],
        }  # fmt: skip
        most = structured(await call("find_facts", {"query": {"subject": "Einstein"},
                                                    "limit": 100}))  # fmt: skip
        assert most["limit"] == 100 and most["count"] == 2
        assert "Found 2 facts:\n1. Einstein invented relativity" in seen[-1].content[0].text

        # ask_question (spec 000)
        answer = structured(await call("ask_question", {
            "question": "What did Einstein invent?", "context": "physics", "max_results": 1}))  # fmt: skip
        assert answer == {
            "question": "What did Einstein invent?", "context": "physics",
            "key_terms": ["Einstein", "invent"],
            "relevant_facts": [{"subject": "Einstein", "predicate": "invented",
                                "object": "relativity", "relevance": 0.6, "source": "manual"}],
            "answer": "Based on the knowledge graph:\n\nEinstein invented relativity",
            "notice": answer["notice"],
        }  # fmt: skip

        # ask: the whole /ask pipeline, with `coordbot ask --json`'s structure
        park = structured(await call("ask", {"question": "where can visitors park?"}))
        assert set(park) == {"question", "intent", "content_keywords", "filters", "proposals",
                             "proposals_total", "documents", "facts", "answer", "notice"}  # fmt: skip
        assert set(park["filters"]) == {"status", "proposal_type", "date_field", "start", "end"}
        assert park["documents"][0]["document_id"] == parking_id
        assert park["documents"][0]["title"] == "Parking policy"
        assert "street" in park["answer"]
        assert seen[-1].content[0].text.endswith(park["answer"])
        open_ones = structured(await call("ask", {"question": "which proposals are open?"}))
        assert open_ones["intent"] == "query_proposals"
        assert open_ones["filters"]["status"] == "open"
        assert open_ones["proposals"] == [2] and open_ones["proposals_total"] == 1
        menu = structured(await call("ask", {"question": "what is ordered?", "proposal_id": 1}))
        assert menu["proposals"] == [1]
        assert "margherita" in menu["answer"]

        # search_proposals and get_proposal
        closed = structured(await call("search_proposals", {"status": "closed"}))
        assert [p["id"] for p in closed["proposals"]] == [1, 3]  # newest first
        assert closed["total"] == 2 and closed["next_cursor"] is None
        pizza = closed["proposals"][0]
        assert pizza["proposer"] == "@alice" and pizza["outcome"] == "Yes"
        assert set(pizza) == {"id", "title", "description", "type", "status", "options",
                              "proposer", "created_at", "deadline", "closed_at", "outcome"}  # fmt: skip
        by_text = structured(await call("search_proposals", {"text": "bike racks"}))
        assert [p["id"] for p in by_text["proposals"]] == [2]
        assert by_text["proposals"][0]["outcome"] is None  # open: nothing partial
        by_bob = structured(await call("search_proposals", {"proposer": "bob"}))
        assert {p["id"] for p in by_bob["proposals"]} == {2, 4}
        ranged = structured(await call("search_proposals", {
            "date_field": "deadline", "start": "2026-04-01", "end": "2026-06-01"}))  # fmt: skip
        assert [p["id"] for p in ranged["proposals"]] == [3, 1]  # soonest deadline first
        pages, cursor = [], None
        while True:
            page = structured(await call("search_proposals", {"limit": 1, "cursor": cursor}))
            pages += [p["id"] for p in page["proposals"]]
            assert page["total"] == 4
            cursor = page["next_cursor"]
            if cursor is None:
                break
        assert sorted(pages) == [1, 2, 3, 4] and len(pages) == 4

        one = structured(await call("get_proposal", {"proposal_id": 1}))
        assert one["result"]["outcome"] == "Yes" and one["result"]["total_votes"] == 3
        assert [o["votes"] for o in one["result"]["options"]] == [2, 1, 0]
        assert [d["title"] for d in one["documents"]] == ["Pizza menu"]
        assert one["documents_total"] == 1
        assert structured(await call("get_proposal", {"proposal_id": 2}))["result"] is None
        assert structured(await call("get_proposal", {"proposal_id": 4}))["result"] is None
        ideas = structured(await call("get_proposal", {"proposal_id": 3}))["result"]
        assert ideas["total_submissions"] == 2 and ideas["type"] == "free_form"
        assert any("tomato" in t["theme"] for t in ideas["themes"])

        # resources
        templates = {
            t.uri_template for t in (await client.list_resource_templates()).resource_templates
        }
        assert templates == {"proposal://{proposal_id}", "document://{document_id}"}
        page = await client.read_resource("proposal://1")
        seen.append(page.model_dump())
        assert '"title": "Pizza party"' in page.contents[0].text  # type: ignore[union-attr]
        doc = await client.read_resource(f"document://{parking_id}")
        seen.append(doc.model_dump())
        assert "underground garage" in doc.contents[0].text  # type: ignore[union-attr]

    received = wire(seen)
    leaked = [word for word in PRIVATE if word in received]
    assert leaked == [], f"private data reached the client: {leaked}"
    assert not re.search(r'"(voter|user_id|telegram_id|choice|submitter_id)"', received)


SPEC_ERRORS = [
    # spec 004 knowledge_query
    ("knowledge_query", {"query": "  "}, "query cannot be empty"),
    ("knowledge_query", {"query": "x", "top_k": 0}, "top_k must be between 1 and 100"),
    ("knowledge_query", {"query": "x", "top_k": 101}, "top_k must be between 1 and 100"),
    ("knowledge_query", {"query": "x", "document_id": "nope"}, "document_id must be a UUID"),
    # spec 001 find_facts
    (
        "find_facts",
        {"query": {}},
        "At least one of subject, predicate, or object must be specified in the query",
    ),
    (
        "find_facts",
        {"query": {"subject": " "}},
        "At least one of subject, predicate, or object must be specified in the query",
    ),
    (
        "find_facts",
        {"query": {"who": "x"}},
        "Unknown query field 'who': use subject, predicate or object",
    ),
    ("find_facts", {"query": {"subject": "x"}, "limit": 0}, "limit must be between 1 and 100"),
    ("find_facts", {"query": {"subject": "x"}, "limit": 1000}, "limit must be between 1 and 100"),
    # spec 000 ask_question
    ("ask_question", {"question": ""}, "Question cannot be empty"),
    ("ask_question", {"question": "x" * 501}, "question must be at most 500 characters (got 501)"),
    (
        "ask_question",
        {"question": "Who is Newton?", "context": "y" * 501},
        "context must be at most 500 characters (got 501)",
    ),
    (
        "ask_question",
        {"question": "Who is Newton?", "max_results": 0},
        "max_results must be between 1 and 20",
    ),
    (
        "ask_question",
        {"question": "Who is Newton?", "max_results": 21},
        "max_results must be between 1 and 20",
    ),
    (
        "ask_question",
        {"question": "is it the?"},
        "Could not extract meaningful terms from the question",
    ),
    # ask, search_proposals, get_proposal
    ("ask", {"question": "x" * 501}, "question must be at most 500 characters (got 501)"),
    ("ask", {"question": "what?", "proposal_id": 99}, "Proposal #99 does not exist."),
    ("search_proposals", {"status": "pending"}, "status must be one of open, closed, cancelled"),
    ("search_proposals", {"type": "poll"}, "type must be one of multiple_choice, free_form"),
    ("search_proposals", {"start": "last tuesday"}, "start must be an ISO 8601 date or date-time"),
    ("search_proposals", {"start": "2026-06-01", "end": "2026-05-01"}, "start must be before end"),
    ("search_proposals", {"limit": 51}, "limit must be between 1 and 50"),
    ("search_proposals", {"cursor": "garbage"}, "cursor is not one this server gave"),
    ("search_proposals", {"proposer": "nobody"}, "Nobody here is called “nobody”."),
    ("get_proposal", {"proposal_id": 99}, "Proposal #99 does not exist."),
    ("search_proposals", {"text": "or"}, "text “or” has no words to search for"),
    ("search_proposals", {"text": "%' OR 1=1 --"}, "text “%' OR 1=1 --” has no words"),
]


async def test_validation_errors_are_tool_errors(
    sqlite_community: dict[str, str], tmp_path: Path
) -> None:
    async with stdio_client(sqlite_community, tmp_path) as client:
        for tool, arguments, message in SPEC_ERRORS:
            result = await client.call_tool(tool, arguments)
            assert error_text(result).startswith(message), (tool, arguments)
        # A missing required parameter is refused by the input schema, as a tool error too.
        missing = await client.call_tool("find_facts", {"limit": 3})
        assert missing.is_error and "query" in missing.content[0].text  # type: ignore[union-attr]
        # A cursor from one search does not continue another.
        page = structured(await client.call_tool("search_proposals", {"limit": 1}))
        other = await client.call_tool("search_proposals", {"limit": 1, "status": "closed",
                                                            "cursor": page["next_cursor"]})  # fmt: skip
        assert error_text(other).startswith("cursor belongs to a search with other filters")
        # The server is still serving after all of them.
        assert structured(await client.call_tool("get_proposal", {"proposal_id": 1}))["id"] == 1


async def test_numbers_too_large_are_unknown_ids(community: dict[str, str], tmp_path: Path) -> None:
    # Larger than any key the database can hold (int4 on PostgreSQL, int8 on SQLite): the
    # same answer as any proposal that does not exist, never an overflow inside SQL.
    async with stdio_client(community, tmp_path) as client:
        for number in (2**31, 2**63, 10**30):
            result = await client.call_tool("get_proposal", {"proposal_id": number})
            assert error_text(result).startswith(f"Proposal #{number} does not exist."), number
            result = await client.call_tool("ask", {"question": "what?", "proposal_id": number})
            assert error_text(result).startswith(f"Proposal #{number} does not exist."), number
            asked = structured(await client.call_tool("ask", {"question": f"what is #{number}?"}))
            assert asked["answer"]
        page = structured(await client.call_tool("search_proposals", {"limit": 1}))
        cursor = json.loads(base64.urlsafe_b64decode(page["next_cursor"] + "=="))
        for offset in (2**31, 10**22, -1):
            forged = base64.urlsafe_b64encode(json.dumps({**cursor, "o": offset}).encode())
            result = await client.call_tool(
                "search_proposals", {"limit": 1, "cursor": forged.decode()}
            )
            assert error_text(result).startswith("cursor is not one this server gave"), offset
        assert structured(await client.call_tool("get_proposal", {"proposal_id": 1}))["id"] == 1


async def test_write_tools_without_allow_writes(
    sqlite_community: dict[str, str], tmp_path: Path
) -> None:
    async with stdio_client(sqlite_community, tmp_path) as client:
        calls = {
            "knowledge_import": {"title": "T", "content": "text"},
            "add_fact": {"subject": "A", "predicate": "b", "object": "C"},
        }
        for name, arguments in calls.items():
            result = await client.call_tool(name, arguments)
            assert result.structured_content is not None
            assert result.structured_content["error_type"] == "WritesDisabled"
            assert error_text(result) == (
                f"Writes are disabled on this server: {name} changes the knowledge base, and "
                "the server was started without --allow-writes. Restart it as `coordbot mcp "
                "--allow-writes` to enable knowledge_import and add_fact."
            )
        nothing = structured(await client.call_tool("find_facts", {"query": {"subject": "A"}}))
        assert nothing["count"] == 0
        unknown = await client.call_tool("nope", {})
        assert unknown.is_error and "Unknown tool: nope" in unknown.content[0].text  # type: ignore[union-attr]


async def test_wrong_arguments_say_what_is_wrong(
    sqlite_community: dict[str, str], tmp_path: Path
) -> None:
    """Arguments of the wrong kind, missing or unknown get one plain sentence, never the
    validator's text; an argument a tool does not take is refused, not ignored."""
    async with stdio_client(sqlite_community, tmp_path) as client:
        missing = await client.call_tool("get_proposal", {})
        assert (
            error_text(missing) == "Invalid arguments for get_proposal: “proposal_id” is required."
        )
        typed = await client.call_tool("ask", {"question": 42})
        assert error_text(typed).startswith(
            "Invalid arguments for ask: “question”: input should be a valid string"
        )
        extra = await client.call_tool("knowledge_query", {"query": "parking", "proposal_id": 3})
        assert error_text(extra).startswith(
            "knowledge_query does not take “proposal_id”; it takes:"
        )
        for result in (missing, typed, extra):
            assert result.structured_content is not None
            assert result.structured_content["error_type"] == "InvalidArguments"
            assert "pydantic" not in error_text(result)
        assert structured(await client.call_tool("get_proposal", {"proposal_id": 1}))["id"] == 1
