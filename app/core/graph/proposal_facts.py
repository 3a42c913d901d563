"""Proposals as facts, so /ask and ask_question can answer "who proposed the pizza
party?" or "which proposals did alice make?" from the graph.

``proposal_facts`` is pure; ``sync_proposal_facts`` replaces everything stored
under "proposal:<id>" with the proposal's current facts. ``ProposalFactsSync``
does that as a ProposalIndexer, the hook ProposalService and ClosingService
already call after every change (create, edit, cancel, extend, close). It is
idempotent, so running it twice or late (``sync_all_proposal_facts``) is harmless.

Predicates are chosen to read as sentences in the answer templates:
"alice proposed Pizza party", "Pizza party has outcome Yes",
"Pizza party has deadline in May 2026".
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, tzinfo
from typing import TYPE_CHECKING, Any

from app.core.graph.graph_import import MAX_ENTITY, clean_fact
from app.domain.errors import ValidationError
from app.domain.interfaces import ProposalIndexer
from app.domain.models import Proposal, ProposalStatus, ProposalType, User
from app.persistence.repositories.proposals import ProposalRepository

if TYPE_CHECKING:
    from app.core.graph.graph_service import GraphService

logger = logging.getLogger(__name__)

Triple = tuple[str, str, str]

TYPE_NAMES = {ProposalType.MULTIPLE_CHOICE: "multiple choice", ProposalType.FREE_FORM: "free form"}


SOURCE_PREFIX = "proposal:"


def proposal_source(proposal_id: int) -> str:
    return f"{SOURCE_PREFIX}{proposal_id}"


def is_proposal_source(source: str) -> bool:
    return source.startswith(SOURCE_PREFIX)


def proposer_name(proposal: Proposal) -> str:
    """How people refer to the proposer: the username without "@", else the name."""
    user = proposal.proposer or User(telegram_id=proposal.proposer_id)
    if user.username:
        return user.username
    return " ".join(p for p in (user.first_name, user.last_name) if p) or f"user {user.telegram_id}"


def _fit(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_ENTITY else text[: MAX_ENTITY - 1] + "…"


def proposal_facts(proposal: Proposal, proposer_name: str, *, tz: tzinfo = UTC) -> list[Triple]:
    """What the graph knows about one proposal. Votes are never facts: only the outcome."""
    title = _fit(proposal.title)
    name = _fit(proposer_name)
    facts: list[Triple] = [
        (title, "is", "a proposal"),
        (title, "has id", f"#{proposal.id}"),
        (title, "proposed by", name),
        (name, "proposed", title),
        (title, "has type", TYPE_NAMES[proposal.proposal_type]),
        (title, "has status", proposal.status.value),
        (title, "has deadline in", f"{proposal.deadline_at.astimezone(tz):%B %Y}"),
    ]
    if proposal.is_multiple_choice:
        facts += [(title, "has option", _fit(option)) for option in proposal.options]
    if proposal.status is ProposalStatus.CLOSED and proposal.outcome:
        facts.append((title, "has outcome", _fit(proposal.outcome)))
        winners = (proposal.raw_results or {}).get("winners") or []
        facts += [(title, "has winning option", _fit(str(w))) for w in winners]
    return list(dict.fromkeys(facts))


async def sync_proposal_facts(graph_service: GraphService, proposal: Proposal) -> int:
    """Replace the stored facts of one proposal with its current ones."""
    return await sync_proposals(graph_service, [proposal])


async def sync_proposals(graph_service: GraphService, proposals: Sequence[Proposal]) -> int:
    """The same for many proposals, in one transaction."""
    return await graph_service.replace_sources(
        {
            proposal_source(p.id): proposal_facts(p, proposer_name(p), tz=graph_service.timezone)
            for p in proposals
        }
    )


async def sync_proposal_facts_by_ids(graph_service: GraphService, ids: Sequence[int]) -> int:
    """Load the proposals (with their proposers) and sync them: for callers that only hold
    ids, like ClosingService after a close."""
    if not ids:
        return 0
    async with graph_service.db.transaction() as session:
        proposals = await ProposalRepository(session).get_proposals_by_ids(list(ids))
    return await sync_proposals(graph_service, proposals)


async def seed_graph(graph_service: GraphService, data: Mapping[str, Any]) -> int:
    """What `coordbot seed` adds to the graph: the fixture's "facts" (CLI.md) and the
    facts of its proposals. Idempotent, like the rest of seeding."""
    facts = []
    for index, item in enumerate(data.get("facts") or [], 1):
        try:
            facts.append(
                clean_fact(item["subject"], item["predicate"], item["object"],
                           item.get("confidence", 1.0))
            )  # fmt: skip
        except (KeyError, TypeError) as exc:
            raise ValidationError(
                "fact #{index} in the fixture is invalid: {problem} "
                "(needs subject, predicate and object)",
                index=index,
                problem=repr(exc),
            ) from exc
    stored = await graph_service.store_facts(facts)
    ids = [int(p["id"]) for p in data.get("proposals") or []]
    stored += await sync_proposal_facts_by_ids(graph_service, ids)
    await graph_service.index_facts()
    return stored


async def sync_all_proposal_facts(graph_service: GraphService) -> int:
    """Rebuild the facts of every proposal (a reconciliation pass, e.g. on reindex)."""
    async with graph_service.db.transaction() as session:
        proposals = await ProposalRepository(session).find_proposals_by_dynamic_criteria()
    return await sync_proposals(graph_service, proposals)


class ProposalFactsSync:
    """A ProposalIndexer that keeps the proposals' facts current."""

    def __init__(self, graph_service: GraphService) -> None:
        self.graph = graph_service

    async def proposals_changed(self, ids: list[int]) -> None:
        """Best effort after the proposal's commit: the facts are derived data, and a
        failure here must not fail the vote, edit or close that triggered it."""
        try:
            await sync_proposal_facts_by_ids(self.graph, ids)
        except Exception:
            logger.warning("could not update the facts of proposals %s", ids, exc_info=True)


class FanOutIndexer:
    """Several ProposalIndexers behind one (the search index and the fact graph)."""

    def __init__(self, *indexers: ProposalIndexer) -> None:
        self.indexers = indexers

    async def proposals_changed(self, ids: list[int]) -> None:
        for indexer in self.indexers:
            await indexer.proposals_changed(ids)
