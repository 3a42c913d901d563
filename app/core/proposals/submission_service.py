"""Votes and free-form submissions: who may answer, when, and what they see of it.

A vote is private: only its voter reads it back. Nothing here logs a choice or
a submission's text.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from app.core.proposals import validation
from app.core.proposals.proposal_service import PAGE_SIZE, not_found
from app.domain.clock import Clock
from app.domain.errors import ConflictError, ValidationError
from app.domain.messages import N_, Text
from app.domain.models import Page, Proposal, ProposalStatus, Submission, User, VoteReceipt
from app.persistence.database import Database
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.submissions import SubmissionRepository
from app.persistence.repositories.users import UserRepository

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MyVote:
    """A user's own answer to one proposal, if they gave one."""

    proposal: Proposal
    submission: Submission | None

    @property
    def text(self) -> Text:
        """The answer as a sentence for the member (raw values: escape when rendering HTML)."""
        p = self.proposal
        if self.submission is None:
            return Text(
                N_("You did not make a submission for proposal '{title}' (#{id})."),
                {"title": p.title, "id": p.id},
            )
        return Text(
            N_("For proposal '{title}' (#{id}), your submission was: '{answer}'"),
            {"title": p.title, "id": p.id, "answer": self.submission.response_content},
        )

    @property
    def message(self) -> str:
        """The same sentence in English (CLI, MCP)."""
        return self.text.english()


class SubmissionService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def vote(self, proposal_id: int, voter: User, option_index: int) -> VoteReceipt:
        """Record or change a multiple-choice vote, while the proposal is open."""
        now = self.clock.now()
        async with self.db.transaction() as session:
            proposal = await ProposalRepository(session).lock_for_vote(proposal_id)
            if proposal is None:
                raise not_found(proposal_id)
            if not proposal.is_multiple_choice:
                raise ValidationError("This proposal takes free-form ideas, not votes.")
            self._ensure_open(proposal, now)
            if not 0 <= option_index < len(proposal.options):
                raise ConflictError("That option no longer exists. Please vote again.")
            choice = proposal.options[option_index]
            await UserRepository(session).upsert(voter, now)
            changed, previous = await SubmissionRepository(session).record(
                proposal_id, voter.telegram_id, choice, now
            )
        return VoteReceipt(proposal=proposal, choice=choice, changed=changed, previous=previous)

    async def submit(self, proposal_id: int, submitter: User, text: str) -> VoteReceipt:
        """Record or replace a free-form submission (one per user)."""
        content = validation.clean_submission(text)
        now = self.clock.now()
        async with self.db.transaction() as session:
            proposal = await ProposalRepository(session).lock_for_vote(proposal_id)
            if proposal is None:
                raise not_found(proposal_id)
            if proposal.is_multiple_choice:
                raise ValidationError(
                    "Proposal #{id} is multiple choice: vote with the buttons "
                    "under its post in the channel.",
                    id=proposal_id,
                )
            self._ensure_open(proposal, now)
            subs = SubmissionRepository(session)
            previous = await subs.get_submission_by_proposal_and_user(
                proposal_id, submitter.telegram_id
            )
            await UserRepository(session).upsert(submitter, now)
            await subs.upsert(proposal_id, submitter.telegram_id, content, now)
        return VoteReceipt(
            proposal=proposal, choice=content, changed=previous is not None, previous=None
        )

    async def check_accepting(self, proposal_id: int) -> Proposal:
        """The proposal if it takes free-form submissions right now."""
        async with self.db.transaction() as session:
            proposal = await ProposalRepository(session).get_proposal_by_id(proposal_id)
        if proposal is None:
            raise not_found(proposal_id)
        if proposal.is_multiple_choice:
            raise ValidationError(
                "Proposal #{id} is multiple choice: vote with the buttons "
                "under its post in the channel.",
                id=proposal_id,
            )
        self._ensure_open(proposal, self.clock.now())
        return proposal

    def _ensure_open(self, proposal: Proposal, now: datetime) -> None:
        if proposal.status is ProposalStatus.CANCELLED:
            raise ConflictError(
                "Proposal #{id} was cancelled; it takes no responses.", id=proposal.id
            )
        if proposal.status is ProposalStatus.CLOSED or not proposal.accepts_votes_at(now):
            raise ConflictError(
                "Voting on proposal #{id} has ended. Use /view_results {id} to see the outcome.",
                id=proposal.id,
            )

    async def get_user_submission_for_proposal(self, user_id: int, proposal_id: int) -> MyVote:
        async with self.db.transaction() as session:
            proposal = await ProposalRepository(session).get_proposal_by_id(proposal_id)
            if proposal is None:
                raise not_found(proposal_id)
            submission = await SubmissionRepository(session).get_submission_by_proposal_and_user(
                proposal_id, user_id
            )
        return MyVote(proposal=proposal, submission=submission)

    async def my_votes(self, user_id: int, page: int = 0) -> Page[tuple[Submission, Proposal]]:
        page = max(page, 0)
        async with self.db.transaction() as session:
            items, total = await SubmissionRepository(session).list_for_user(
                user_id, offset=page * PAGE_SIZE, limit=PAGE_SIZE
            )
        return Page(items=items, page=page, page_size=PAGE_SIZE, total=total)
