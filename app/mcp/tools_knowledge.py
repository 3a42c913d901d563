"""knowledge_query / knowledge_import (spec 004), find_facts / add_fact (spec 001) and
ask_question (spec 000): the parameters, defaults and shapes of the specs, checked by
the same services (and so with the same messages) as `coordbot query`, `facts ...`,
except for the ranges and lengths the input schemas publish.

Numeric ranges and string lengths are declared with ``bounded`` and ``text``
(app.mcp.limits): published in the input schemas and enforced from them before a tool
runs, so a value out of range is refused with one sentence naming the argument and its
limit, never clamped or cut (spec 001's find_facts clamped its limit at 100; an agent
would not learn the range from that). The lengths are the bot's own: its questions,
the fact graph's names, the documents table's columns, the largest file /add_doc reads.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from app.container import Container
from app.core.ask.context_service import MAX_QUESTION as MAX_QUERY
from app.core.graph.graph_import import MAX_ENTITY, MAX_PREDICATE
from app.core.graph.graph_service import MAX_CONTEXT, MAX_QUESTION
from app.core.knowledge.document_service import MAX_CATEGORY, MAX_SOURCE, MAX_TITLE, MAX_TOP_K
from app.mcp import shapes
from app.mcp.limits import bounded, text
from app.mcp.replies import guarded, read_only, success
from app.nlp.chunking import MAX_CHUNK, MIN_CHUNK
from app.services.text_extraction import MAX_FILE_BYTES

WRITE_TOOLS = ("knowledge_import", "add_fact")  # served only with --allow-writes
MAX_FACTS = 100  # find_facts' limit (spec 001)
MAX_RESULTS = 20  # ask_question's max_results (spec 000)
MAX_CONTENT = MAX_FILE_BYTES  # characters: what /add_doc reads from the largest file it takes
MAX_ID = 64  # a document id is a UUID (36 characters, 45 as a URN)


class FactPattern(BaseModel):
    """Which facts to find: any of subject, predicate and object, each the whole name
    ("Board of Directors", not "board"), in any case."""

    # spec 001's query object: unknown keys reach the service, which names them

    model_config = ConfigDict(
        extra="allow", json_schema_extra={"minProperties": 1, "additionalProperties": False}
    )

    subject: Annotated[str | None, text("Find facts about this subject", max_length=MAX_ENTITY)] = (
        None
    )
    predicate: Annotated[
        str | None, text("Find facts with this relationship type", max_length=MAX_PREDICATE)
    ] = None
    object: Annotated[
        str | None, text("Find facts pointing to this object", max_length=MAX_ENTITY)
    ] = None


def register(server: MCPServer[Any], container: Container, *, allow_writes: bool) -> None:
    documents, graph = container.documents, container.graph
    remote_embeddings = container.settings.embedding_backend == "openai"

    @server.tool(
        name="knowledge_query",
        title="Search the knowledge base",
        description=(
            "Semantic search over the community's documents (policies, guides, proposal "
            "attachments). Returns the closest passages, best first, each with its chunk id "
            "and document. Use it to find what a document says about a topic."
        ),
        annotations=read_only(outside=remote_embeddings),
    )
    @guarded
    async def knowledge_query(
        query: Annotated[str, text("Search query", max_length=MAX_QUERY)],
        top_k: Annotated[
            int, bounded("Number of chunks to return", minimum=1, maximum=MAX_TOP_K)
        ] = 5,
        category: Annotated[str | None, text("Filter by category", max_length=MAX_CATEGORY)] = None,
        document_id: Annotated[str | None, text("Filter by document ID", max_length=MAX_ID)] = None,
        include_document_info: Annotated[
            bool, Field(description="Include document metadata")
        ] = True,
    ) -> Annotated[CallToolResult, shapes.QueryOut]:
        found = await documents.knowledge_query(
            query, top_k=top_k, category=category, document_id=document_id
        )
        results = []
        for hit in found["results"]:
            if not include_document_info:  # the spec's shape, plus where it came from
                hit = {**hit, "document_id": hit["document"]["id"]}
                del hit["document"]
            results.append(hit)
        lines = [
            f"{i}. [{r['similarity']:.2f}] "
            f"{(r.get('document') or {}).get('title') or r.get('document_id')} "
            f"(chunk {r['chunk_id']}): {' '.join(r['content'].split())[:300]}"
            for i, r in enumerate(results, 1)
        ]
        text = "\n".join(lines) or "No matching passages."
        return success({"results": results, "total": found["total"]}, text)

    @server.tool(
        name="find_facts",
        title="Find facts by pattern",
        description=(
            "Facts (subject, predicate, object) from the community's fact graph that match "
            "every part given, case-insensitively. Give at least one of subject, predicate, "
            'object; each matches a whole name, not a word of one ("Board of Directors", '
            'not "board"): for a question in plain words, use ask_question. Each fact '
            "says its source."
        ),
        annotations=read_only(outside=False),
    )
    @guarded
    async def find_facts(
        query: Annotated[
            FactPattern, Field(description="Query parameters - must provide at least one")
        ],
        limit: Annotated[
            int, bounded("Maximum number of facts to return", minimum=1, maximum=MAX_FACTS)
        ] = 10,
    ) -> Annotated[CallToolResult, shapes.FindFactsOut]:
        result = await graph.find_facts(query.model_dump(exclude_unset=True), limit)
        body = result.as_dict()
        body["facts"] = [
            {**item, "source": fact.source}
            for item, fact in zip(body["facts"], result.facts, strict=True)
        ]
        return success(body, result.message)

    @server.tool(
        name="ask_question",
        title="Ask the fact graph",
        description=(
            "A natural-language question answered from the fact graph alone: key terms, "
            "the relevant facts (with relevance and source) and a short answer. For "
            "questions about proposals or documents use `ask`."
        ),
        annotations=read_only(outside=False),
    )
    @guarded
    async def ask_question(
        question: Annotated[
            str, text("Your question in natural language", max_length=MAX_QUESTION)
        ],
        context: Annotated[
            str | None,
            text(
                "Additional context to help answer the question (optional)",
                max_length=MAX_CONTEXT,
            ),
        ] = None,
        max_results: Annotated[
            int,
            bounded("Maximum number of relevant pieces to return", minimum=1, maximum=MAX_RESULTS),
        ] = 5,
    ) -> Annotated[CallToolResult, shapes.AskQuestionOut]:
        result = await graph.ask_question(question, context, max_results)
        body = result.as_dict()
        body["relevant_facts"] = [
            {**item, "source": scored.fact.source}
            for item, scored in zip(body["relevant_facts"], result.relevant_facts, strict=True)
        ]
        return success(body, result.message)

    if not allow_writes:
        return

    @server.tool(
        name="knowledge_import",
        title="Import a document",
        description=(
            "Add a document to the knowledge base: it is split into overlapping chunks and "
            "indexed for knowledge_query. Importing the same content again returns the "
            "existing document."
        ),
        annotations=ToolAnnotations(
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            # remote embeddings, or a model reading facts out of the text
            open_world_hint=remote_embeddings or container.llm.primary is not None,
        ),
    )
    @guarded
    async def knowledge_import(
        title: Annotated[str, text("Document title", max_length=MAX_TITLE)],
        content: Annotated[str, text("Full document content", max_length=MAX_CONTENT)],
        source: Annotated[
            str | None, text("Source URL or file path", max_length=MAX_SOURCE)
        ] = None,
        category: Annotated[
            str | None, text("Classification category", max_length=MAX_CATEGORY)
        ] = None,
        chunk_size: Annotated[
            int, bounded("Characters per chunk", minimum=MIN_CHUNK, maximum=MAX_CHUNK)
        ] = 500,
        chunk_overlap: Annotated[
            int,
            bounded(
                "Overlap characters between chunks (less than chunk_size)",
                minimum=0,
                maximum=MAX_CHUNK - 1,
            ),
        ] = 50,
        # Never mutated (copied below); a literal default shows the spec's {} in the schema.
        metadata: Annotated[dict[str, Any], Field(description="Additional metadata")] = {},  # noqa: B006
    ) -> Annotated[CallToolResult, shapes.ImportOut]:
        result = await documents.knowledge_import(
            title,
            content,
            source=source,
            category=category,
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            metadata=dict(metadata),
        )
        note = " (already imported)" if result.existing else ""
        text = (
            f"Document {result.document_id} “{result.title}”: {result.chunks_created} chunks{note}"
        )
        return success(result.as_dict(), text)

    @server.tool(
        name="add_fact",
        title="Store a fact",
        description=(
            "Store one (subject, predicate, object) fact in the fact graph, with a confidence "
            "between 0 and 1. Storing a known triple again updates its confidence."
        ),
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
        ),
    )
    @guarded
    async def add_fact(
        subject: Annotated[str, text("The entity the fact is about", max_length=MAX_ENTITY)],
        predicate: Annotated[
            str, text("The relationship, e.g. 'manages'", max_length=MAX_PREDICATE)
        ],
        object: Annotated[str, text("What the subject is related to", max_length=MAX_ENTITY)],
        confidence: Annotated[float, bounded("How sure (0 to 1)", minimum=0, maximum=1)] = 1.0,
    ) -> Annotated[CallToolResult, shapes.StoredFactOut]:
        stored = await graph.store_fact(subject, predicate, object, confidence)
        fact = stored.fact
        body = {
            **fact.triple(),
            "confidence": fact.confidence,
            "source": fact.source,
            "created": stored.created,
        }
        verb = "Stored" if stored.created else "Updated"
        return success(
            body,
            f"{verb}: {fact.subject} {fact.predicate} {fact.object} "
            f"(confidence {fact.confidence:g})",
        )
