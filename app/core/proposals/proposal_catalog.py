"""Proposals as any reader may see them: filtered search with paging, and one proposal
with its documents and, once closed, its result.

The MCP server's proposal tools stand on this, so an agent gets the bot's rules: the
filters and the word-and-meaning search /ask uses (ProposalSearch), nothing partial
while a proposal is open, and only public fields. Votes, who voted, what anyone chose
and who sent which idea never leave this module: a closed free-form proposal shows its
themes and counts, not its submissions.

A proposal whose deadline passed while no bot process ran to close it is shown as it
is, VOTING_ENDED (nobody can vote, no result is out), and is not listed as open.
Closing it is the bot's job, which announces the result; a reader changes nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import numpy as np

from app.core.ask.models import CREATION, DEADLINE, AskFilters
from app.core.ask.proposal_search import ProposalSearch, keyword_terms
from app.core.closing.themes import fold_small_themes
from app.core.knowledge.document_service import DocumentService
from app.core.proposals.proposal_service import not_found
from app.domain.clock import Clock
from app.domain.errors import NotFoundError, ValidationError
from app.domain.models import Proposal, ProposalStatus, ProposalType
from app.persistence.database import Database
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.users import UserRepository

VOTING_ENDED = "voting_ended"  # the status shown for an open proposal past its deadline
DEFAULT_PAGE = 10
MAX_PAGE = 50
MAX_TEXT = 500
MAX_DOCUMENTS = 50
# What a stored tally may show; anything else a result row holds stays inside.
RESULT_KEYS = ("type", "total_votes", "options", "winners", "total_submissions", "themes")


@dataclass(frozen=True, slots=True)
class ProposalPage:
    proposals: list[Proposal]
    total: int
    next_cursor: str | None
    limit: int
    as_of: datetime  # when the page was read: "open" means open then


def public_status(proposal: Proposal, now: datetime) -> str:
    """The proposal's status as it stands at ``now``: VOTING_ENDED for one still open in
    the database whose deadline has passed (its close has not run yet)."""
    return VOTING_ENDED if proposal.awaits_close_at(now) else proposal.status.value


def public_fields(proposal: Proposal, now: datetime) -> dict[str, Any]:
    """What the channel post shows: no ids of people, no votes."""
    who = proposal.proposer
    named = who is not None and bool(who.username or who.first_name or who.last_name)
    return {
        "id": proposal.id,
        "title": proposal.title,
        "description": proposal.description,
        "type": proposal.proposal_type.value,
        "status": public_status(proposal, now),
        "options": list(proposal.options),
        "proposer": who.display_name if who is not None and named else None,
        "created_at": _iso(proposal.created_at),
        "deadline": _iso(proposal.deadline_at),
        "closed_at": _iso(proposal.closed_at) if proposal.closed_at else None,
    }


def public_result(proposal: Proposal) -> dict[str, Any] | None:
    """The announced result of a closed proposal; None while open or when cancelled."""
    if proposal.status is not ProposalStatus.CLOSED:
        return None
    raw = proposal.raw_results or {}
    tally = {k: raw[k] for k in RESULT_KEYS if k in raw}
    if "themes" in tally:  # names and counts only, no theme of a single idea
        tally["themes"] = fold_small_themes(t for t in tally["themes"] if isinstance(t, dict))
    return {"outcome": proposal.outcome, **tally}


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _when(value: str | None, name: str) -> datetime | None:
    if value is None or not str(value).strip():
        return None
    try:
        moment = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValidationError(f"{name} must be an ISO 8601 date or date-time") from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _choice(value: str | None, allowed: Sequence[str], name: str) -> str | None:
    if value is None or not value.strip():
        return None
    text = value.strip().lower()
    if text not in allowed:
        raise ValidationError(f"{name} must be one of {', '.join(allowed)}")
    return text


class ProposalCatalog:
    def __init__(
        self,
        db: Database,
        search: ProposalSearch,
        embed: Callable[[list[str]], Awaitable[np.ndarray]],
        documents: DocumentService,
        clock: Clock,
    ) -> None:
        self.clock = clock
        self.db = db
        self.search_engine = search
        self.embed = embed
        self.documents = documents

    async def search(
        self,
        *,
        status: str | None = None,
        proposal_type: str | None = None,
        date_field: str | None = None,
        start: str | None = None,
        end: str | None = None,
        proposer: str | None = None,
        text: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> ProposalPage:
        """Proposals matching every filter given; with ``text``, ranked by words and
        meaning as /ask ranks them, else soonest deadline first (open proposals, deadline
        ranges) or newest first. ``cursor`` continues a previous page."""
        size = DEFAULT_PAGE if limit is None else limit
        if not 1 <= size <= MAX_PAGE:
            raise ValidationError(f"limit must be between 1 and {MAX_PAGE}")
        words = " ".join((text or "").split())
        if len(words) > MAX_TEXT:
            raise ValidationError(f"text is too long: at most {MAX_TEXT} characters")
        now = self.clock.now()
        filters = await self._filters(status, proposal_type, date_field, start, end, proposer)
        filters = replace(filters, now=now)
        fingerprint = _fingerprint(filters, words)
        offset = _read_cursor(cursor, fingerprint)
        terms = keyword_terms(words)
        if words and not terms:  # "or", "1": a search for nothing is no list of everything
            advice = "name a topic, or leave text out to list every proposal"
            raise ValidationError(f"text “{words}” has no words to search for; {advice}")
        if terms:
            keywords = " ".join(terms)
            embedding = (await self.embed([keywords]))[0]
            outcome = await self.search_engine.search(filters, keywords, embedding)
            found, total = outcome.proposals[offset : offset + size], outcome.total
        else:
            async with self.db.transaction() as session:
                repo = ProposalRepository(session)
                found = await repo.find_proposals_by_dynamic_criteria(
                    soonest_deadline_first=(
                        filters.status is ProposalStatus.OPEN or filters.date_field == DEADLINE
                    ),
                    limit=size,
                    offset=offset,
                    **filters.sql(),
                )
                total = await repo.count_proposals_by_dynamic_criteria(**filters.sql())
        following = offset + len(found)
        more = following < total and len(found) == size
        cursor_out = _cursor(following, fingerprint) if more else None
        return ProposalPage(found, total, cursor_out, size, now)

    async def view(self, proposal_id: int) -> dict[str, Any]:
        """One proposal's public fields, its documents, and its result once closed."""
        async with self.db.transaction() as session:
            proposal = await ProposalRepository(session).get_proposal_by_id(proposal_id)
        if proposal is None:
            raise not_found(proposal_id)
        docs, total = await self.documents.list_documents(
            proposal_id=proposal_id, page_size=MAX_DOCUMENTS
        )
        return {
            **public_fields(proposal, self.clock.now()),
            "documents": [
                {
                    "document_id": d.id,
                    "title": d.title,
                    "category": d.category,
                    "source": d.source,
                    "created_at": _iso(d.created_at),
                }
                for d in docs
            ],
            "documents_total": total,
            "result": public_result(proposal),
        }

    async def _filters(
        self,
        status: str | None,
        proposal_type: str | None,
        date_field: str | None,
        start: str | None,
        end: str | None,
        proposer: str | None,
    ) -> AskFilters:
        state = _choice(status, [s.value for s in ProposalStatus], "status")
        kind = _choice(proposal_type, [t.value for t in ProposalType], "type")
        field = _choice(date_field, [CREATION, DEADLINE], "date_field")
        low, high = _when(start, "start"), _when(end, "end")
        if low and high and low >= high:
            raise ValidationError("start must be before end")
        if field is None and (low or high):
            field = CREATION
        proposer_id = None
        if proposer and proposer.strip():
            async with self.db.transaction() as session:
                people = await UserRepository(session).find_by_name(proposer.strip())
            if not people:
                raise NotFoundError(f"Nobody here is called “{proposer.strip()}”.")
            proposer_id = people[0].telegram_id
        return AskFilters(
            status=ProposalStatus(state) if state else None,
            proposal_type=ProposalType(kind) if kind else None,
            date_field=field if (low or high) else None,
            start=low,
            end=high,
            proposer_id=proposer_id,
        )


def _fingerprint(filters: AskFilters, text: str) -> str:
    key = json.dumps([filters.as_dict(), filters.proposer_id, text.casefold()], sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:12]


MAX_OFFSET = 2**31 - 1  # beyond any count of proposals; an OFFSET past it overflows SQL


def _cursor(offset: int, fingerprint: str) -> str:
    raw = json.dumps({"o": offset, "f": fingerprint}).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _read_cursor(cursor: str | None, fingerprint: str) -> int:
    if not cursor:
        return 0
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode()))
        offset, made_for = int(data["o"]), str(data["f"])
        if not 0 <= offset <= MAX_OFFSET:  # no page this server gave starts there
            raise ValueError(offset)
    except (ValueError, KeyError, TypeError) as exc:
        raise ValidationError("cursor is not one this server gave; omit it to start over") from exc
    if made_for != fingerprint:
        raise ValidationError(
            "cursor belongs to a search with other filters; repeat that search, or omit it"
        )
    return offset
