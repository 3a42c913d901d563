"""The write tools (`--allow-writes`): listed with honest annotations, spec 004's import
errors as tool errors, and an agent's session in one connection: import a document,
query it, add a fact, and ask a question that needs both."""

from __future__ import annotations

from pathlib import Path

from tests.mcp.support import error_text, stdio_client, structured

BIKE_RULES = (
    "Bike room rules. The bike room is in basement B2, behind the laundry. Only bikes "
    "with a residents' sticker may be stored there; stickers are free at the front desk. "
    "Electric bikes must not be charged in the bike room."
)

IMPORT_ERRORS = [
    ({"title": " ", "content": "text"}, "title cannot be empty"),
    ({"title": "T", "content": ""}, "content cannot be empty"),
    ({"title": "T", "content": "text", "chunk_size": 99}, "chunk_size must be between 100 and 10000"),
    ({"title": "T", "content": "text", "chunk_size": 10001}, "chunk_size must be between 100 and 10000"),
    ({"title": "T", "content": "text", "chunk_overlap": -1},
     "chunk_overlap must be between 0 and 9999"),
    ({"title": "T", "content": "text", "chunk_size": 100, "chunk_overlap": 100},
     "chunk_overlap must be 0 or greater and less than chunk_size"),
]  # fmt: skip


async def test_agent_session_with_writes(community: dict[str, str], tmp_path: Path) -> None:
    async with stdio_client(community, tmp_path, "--allow-writes") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert {"knowledge_import", "add_fact"} <= set(tools)
        imp, add = tools["knowledge_import"], tools["add_fact"]
        assert imp.annotations is not None and add.annotations is not None
        assert imp.annotations.read_only_hint is False
        assert imp.annotations.destructive_hint is False  # it only adds
        assert imp.annotations.idempotent_hint is True  # the same content: the same document
        assert add.annotations.read_only_hint is False
        assert add.annotations.destructive_hint is True  # a known triple's confidence changes
        assert imp.annotations.open_world_hint is add.annotations.open_world_hint is False
        schema = imp.input_schema
        assert schema["required"] == ["title", "content"]
        assert {k: schema["properties"][k].get("default") for k in
                ("source", "category", "chunk_size", "chunk_overlap", "metadata")} == {
            "source": None, "category": None, "chunk_size": 500, "chunk_overlap": 50,
            "metadata": {}}  # fmt: skip

        for arguments, message in IMPORT_ERRORS:
            assert error_text(await client.call_tool("knowledge_import", arguments)) == message
        assert error_text(await client.call_tool("add_fact", {
            "subject": "x", "predicate": "y", "object": "z", "confidence": 2})) == (
            "confidence must be between 0 and 1")  # fmt: skip

        # 1. import a document
        imported = structured(await client.call_tool("knowledge_import", {
            "title": "Bike room rules", "content": BIKE_RULES, "category": "rules",
            "source": "https://example.org/bikes", "chunk_size": 200, "chunk_overlap": 20,
            "metadata": {"lang": "en"}}))  # fmt: skip
        assert set(imported) == {"document_id", "title", "chunks_created", "created_at", "notice"}
        assert imported["title"] == "Bike room rules" and imported["chunks_created"] == 2
        assert imported["created_at"].endswith("Z")
        again = structured(await client.call_tool("knowledge_import", {
            "title": "Bike room rules", "content": BIKE_RULES, "category": "rules"}))  # fmt: skip
        assert again["document_id"] == imported["document_id"]  # idempotent, as annotated

        # 2. query it
        found = structured(await client.call_tool("knowledge_query", {
            "query": "where is the bike room?", "category": "rules", "top_k": 3}))  # fmt: skip
        assert found["results"][0]["document"] == {
            "id": imported["document_id"],
            "title": "Bike room rules",
            "category": "rules",
        }
        assert "basement B2" in found["results"][0]["content"]

        # 3. add a fact
        stored = structured(await client.call_tool("add_fact", {
            "subject": "Dana", "predicate": "manages", "object": "the bike room",
            "confidence": 0.9}))  # fmt: skip
        assert {k: v for k, v in stored.items() if k != "notice"} == {
            "subject": "Dana", "predicate": "manages", "object": "the bike room",
            "confidence": 0.9, "source": "manual", "created": True}  # fmt: skip
        again_fact = structured(await client.call_tool("add_fact", {
            "subject": "dana", "predicate": "manages", "object": "The bike room"}))  # fmt: skip
        assert again_fact["created"] is False and again_fact["confidence"] == 1.0

        # 4. a question that needs both: the fact answers, the document is cited
        answer = structured(await client.call_tool("ask", {
            "question": "Who manages the bike room?"}))  # fmt: skip
        assert "Dana" in answer["answer"]
        assert {"subject": "Dana", "predicate": "manages", "object": "the bike room",
                "source": "manual"} in answer["facts"]  # fmt: skip
        assert {d["document_id"] for d in answer["documents"]} == {imported["document_id"]}
        assert "Bike room rules" in answer["answer"]
