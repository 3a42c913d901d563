"""What /view_results may show: nothing partial while open, totals and anonymous ideas after."""

from __future__ import annotations

import random

from app.core.proposals.proposal_service import not_found
from app.domain.models import ProposalResults, ProposalStatus, ProposalType
from app.persistence.database import Database
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.submissions import SubmissionRepository


class ResultsService:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def view_results(self, proposal_id: int) -> ProposalResults:
        async with self.db.transaction() as session:
            proposal = await ProposalRepository(session).get_proposal_by_id(proposal_id)
            if proposal is None:
                raise not_found(proposal_id)
            ideas: list[str] = []
            if (
                proposal.status is ProposalStatus.CLOSED
                and proposal.proposal_type is ProposalType.FREE_FORM
            ):
                ideas = await SubmissionRepository(session).contents_for_proposal(proposal_id)
        # Shuffled with a per-proposal seed: stable for readers, and the order says
        # nothing about who answered first.
        random.Random(proposal_id).shuffle(ideas)
        return ProposalResults(proposal=proposal, submissions=ideas)
