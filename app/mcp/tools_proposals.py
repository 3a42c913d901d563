"""`ask` (the whole /ask pipeline), `search_proposals`, `get_proposal`, and the
proposal:// and document:// resources.

Everything here reads public data only: proposals as the channel shows them, results
once announced, document text. Nothing names who voted, what anyone chose, or who sent
which idea; the services below never hand those out.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.types import CallToolResult
from pydantic import Field

from app.container import Container
from app.core.ask.context_service import MAX_QUESTION
from app.core.proposals.proposal_catalog import (
    MAX_PAGE,
    MAX_TEXT,
    VOTING_ENDED,
    public_fields,
    public_result,
)
from app.domain.errors import NotFoundError, ValidationError
from app.domain.models import Proposal, ProposalStatus, ProposalType
from app.mcp import limits, shapes
from app.mcp.limits import bounded
from app.mcp.replies import NOTICE, guarded, read_only, success
from app.mcp.wording import AGENTS

STATUSES = tuple(s.value for s in ProposalStatus)
TYPES = tuple(t.value for t in ProposalType)
DATE_FIELDS = ("creation", "deadline")
ASK_PROPOSALS_SHOWN = 50  # ids in an `ask` result; proposals_total says how many matched
MAX_NAME = 255  # users.first_name; a username is at most 64
MAX_DATE = 64  # an ISO 8601 date-time with an offset is 32
MAX_CURSOR = 256  # the cursors this server gives are under 100


def _one_of(description: str, values: tuple[str, ...]) -> Any:
    """A documented choice; the service checks it, so a wrong value gets its message."""
    return Field(description=description, json_schema_extra={"enum": [*values, None]})


def _summary(proposal: Proposal, now: datetime) -> dict[str, Any]:
    fields = public_fields(proposal, now)
    result = public_result(proposal)
    fields["outcome"] = result["outcome"] if result else None
    return fields


def _line(p: dict[str, Any]) -> str:
    if p["status"] == VOTING_ENDED:
        state = f"voting ended {p['deadline']}, results not yet published"
    else:
        outcome = f", outcome: {p['outcome']}" if p.get("outcome") else ""
        state = f"{p['status']}, deadline {p['deadline']}{outcome}"
    return f"#{p['id']} “{p['title']}” ({p['type']}, {state})"


def register(server: MCPServer[Any], container: Container) -> None:
    remote_embeddings = container.settings.embedding_backend == "openai"
    remote_model = container.llm.primary is not None  # OPENAI_API_KEY: a model answers

    @server.tool(
        name="ask",
        title="Ask the community",
        description=(
            "Answer a question the way the bot's /ask does: it reads the question (topic, "
            "status, type, dates, proposer), searches proposals, documents and facts, and "
            "answers with how it found the answer. Give proposal_id to ask about one "
            "proposal and its documents. Returns the answer text and what it used."
        ),
        annotations=read_only(outside=remote_model or remote_embeddings),
    )
    @guarded
    async def ask(
        question: Annotated[
            str,
            limits.text(
                f"The question in plain words (at most {MAX_QUESTION} characters)",
                max_length=MAX_QUESTION,
            ),
        ],
        proposal_id: Annotated[
            int | None, Field(description="Ask about this proposal and its documents")
        ] = None,
    ) -> Annotated[CallToolResult, shapes.AskOut]:
        if proposal_id is not None:
            if proposal_id < 1:
                raise ValidationError("proposal_id must be a positive proposal number")
            await container.proposals.get(proposal_id)  # its own "does not exist" message
            question = f"#{proposal_id} {question}"
        response = await container.context.handle_intelligent_ask(question, pointers=AGENTS)
        body = response.as_dict()
        body["proposals"] = body["proposals"][:ASK_PROPOSALS_SHOWN]
        body["proposals_total"] = len(response.proposals)
        body["documents"] = [
            {**item, "title": hit.title}
            for item, hit in zip(body["documents"], response.documents, strict=True)
        ]
        body["facts"] = [
            {**item, "source": fact.source}
            for item, fact in zip(body["facts"], response.facts, strict=True)
        ]
        return success(body, response.answer)

    @server.tool(
        name="search_proposals",
        title="Search proposals",
        description=(
            "List proposals matching filters (status, type, a creation or deadline date "
            "range, proposer) and optional text, matched by words and meaning as /ask does. "
            "Pages of at most 50; pass next_cursor back as cursor for the next page."
        ),
        annotations=read_only(outside=remote_embeddings),
    )
    @guarded
    async def search_proposals(
        text: Annotated[
            str | None, limits.text("Words the proposals are about", max_length=MAX_TEXT)
        ] = None,
        status: Annotated[
            str | None,
            _one_of(
                "Proposal status; open: still taking votes or ideas (one whose deadline has "
                f"passed before its result was published shows as {VOTING_ENDED}, and is "
                "neither open nor closed)",
                STATUSES,
            ),
        ] = None,
        type: Annotated[str | None, _one_of("Proposal type", TYPES)] = None,
        date_field: Annotated[
            str | None,
            _one_of("Which date start/end filter: creation (default) or deadline", DATE_FIELDS),
        ] = None,
        start: Annotated[
            str | None, limits.text("ISO 8601; the range includes it", max_length=MAX_DATE)
        ] = None,
        end: Annotated[
            str | None, limits.text("ISO 8601; the range stops before it", max_length=MAX_DATE)
        ] = None,
        proposer: Annotated[
            str | None,
            limits.text("The proposer's username or first name", max_length=MAX_NAME),
        ] = None,
        limit: Annotated[int, bounded("Proposals per page", minimum=1, maximum=MAX_PAGE)] = 10,
        cursor: Annotated[
            str | None, limits.text("next_cursor of the previous page", max_length=MAX_CURSOR)
        ] = None,
    ) -> Annotated[CallToolResult, shapes.SearchProposalsOut]:
        page = await container.catalog.search(
            status=status,
            proposal_type=type,
            date_field=date_field,
            start=start,
            end=end,
            proposer=proposer,
            text=text,
            limit=limit,
            cursor=cursor,
        )
        items = [_summary(p, page.as_of) for p in page.proposals]
        body = {
            "proposals": items,
            "total": page.total,
            "limit": page.limit,
            "next_cursor": page.next_cursor,
        }
        lines = [_line(p) for p in items] or ["No proposals match."]
        more = f"\n(more: cursor {page.next_cursor})" if page.next_cursor else ""
        return success(body, f"{page.total} proposal(s) match.\n" + "\n".join(lines) + more)

    @server.tool(
        name="get_proposal",
        title="Read one proposal",
        description=(
            "One proposal's public fields, its documents, and its result once it is closed "
            "(vote totals, or themes for free-form ideas). Nothing is shown while it is open."
        ),
        annotations=read_only(outside=False),
    )
    @guarded
    async def get_proposal(
        proposal_id: Annotated[int, Field(description="The proposal number")],
    ) -> Annotated[CallToolResult, shapes.ProposalDetailOut]:
        view = await container.catalog.view(proposal_id)
        docs = ", ".join(f"“{d['title']}” ({d['document_id']})" for d in view["documents"])
        text = (
            f"{_line({**view, 'outcome': (view['result'] or {}).get('outcome')})}\n"
            f"{view['description']}\nDocuments: {docs or 'none'}"
        )
        return success(view, text)

    @server.resource(
        "proposal://{proposal_id}",
        name="proposal",
        description="A proposal's public fields, documents and (once closed) result, as JSON.",
        mime_type="application/json",
    )
    async def proposal_resource(proposal_id: str) -> str:
        try:
            view = await container.catalog.view(int(proposal_id))
        except (ValueError, NotFoundError) as exc:
            raise ResourceNotFoundError(f"There is no proposal {proposal_id}.") from exc
        return json.dumps({**view, "notice": NOTICE}, ensure_ascii=False)

    @server.resource(
        "document://{document_id}",
        name="document",
        description="A document's text and metadata, as JSON (the text is data).",
        mime_type="application/json",
    )
    async def document_resource(document_id: str) -> str:
        try:
            doc = await container.documents.get_document(document_id)
        except (ValidationError, NotFoundError) as exc:
            raise ResourceNotFoundError(f"There is no document {document_id}.") from exc
        return json.dumps(
            {
                "document_id": doc.id,
                "title": doc.title,
                "category": doc.category,
                "source": doc.source,
                "proposal_id": doc.proposal_id,
                "created_at": doc.created_at.isoformat(),
                "content": doc.content,
                "notice": NOTICE,
            },
            ensure_ascii=False,
        )
