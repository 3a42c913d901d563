"""Proposal use cases: create, read, list, edit and cancel, with their rules."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.proposals import validation
from app.domain.clock import Clock
from app.domain.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from app.domain.interfaces import (
    DeadlineScheduler,
    NullIndexer,
    NullScheduler,
    ProposalIndexer,
    ProposalPublisher,
)
from app.domain.messages import N_
from app.domain.models import Page, Proposal, ProposalDraft, ProposalStatus, ProposalType, User
from app.persistence.database import Database
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.submissions import SubmissionRepository
from app.persistence.repositories.users import UserRepository

logger = logging.getLogger(__name__)

PAGE_SIZE = 10


class EditableField(StrEnum):
    TITLE = "title"
    DESCRIPTION = "description"
    OPTIONS = "options"


@dataclass(frozen=True, slots=True)
class CreatedProposal:
    proposal: Proposal
    posted: bool


NOT_FOUND = N_(
    "Proposal #{id} does not exist. Use /proposals to see the list, or /ask to search for one."
)


def not_found(proposal_id: int) -> NotFoundError:
    return NotFoundError(NOT_FOUND, id=proposal_id)


class ProposalService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        publisher: ProposalPublisher,
        scheduler: DeadlineScheduler | None = None,
        indexer: ProposalIndexer | None = None,
        *,
        target_channel_id: str | None = None,
        admin_ids: frozenset[int] = frozenset(),
        language: str = "en",
    ) -> None:
        self.db = db
        self.language = language  # BOT_LANGUAGE: the lexical terms' language
        self.clock = clock
        self.publisher = publisher
        self.scheduler: DeadlineScheduler = scheduler or NullScheduler()
        self.indexer: ProposalIndexer = indexer or NullIndexer()
        self.target_channel_id = target_channel_id
        self.admin_ids = admin_ids

    def is_admin(self, user_id: int) -> bool:
        return user_id in self.admin_ids

    async def register_user(self, user: User) -> None:
        async with self.db.transaction() as session:
            await UserRepository(session).upsert(user, self.clock.now())

    def validate_draft(self, draft: ProposalDraft) -> ProposalDraft:
        """Every rule a proposal must meet; raises ValidationError naming the first broken one."""
        options: list[str] = []
        if draft.proposal_type is ProposalType.MULTIPLE_CHOICE:
            options = validation.clean_options(draft.options)
        if draft.deadline_at is None:
            raise ValidationError("Please say when voting should end, for example '3 days'.")
        return ProposalDraft(
            title=validation.clean_title(draft.title),
            description=validation.clean_description(draft.description),
            proposal_type=draft.proposal_type,
            options=options,
            deadline_at=validation.check_deadline(draft.deadline_at, self.clock.now()),
            context_text=validation.clean_context(draft.context_text or "") or None,
        )

    async def create_proposal(
        self, proposer: User, draft: ProposalDraft, origin: str | None = None
    ) -> CreatedProposal:
        """Store and post a proposal. ``origin`` names the draft: a draft that was turned
        into a proposal already (its last step handled again after a replica died at the
        worst moment) gives back that proposal, posted if it was not yet."""
        draft = self.validate_draft(draft)
        now = self.clock.now()
        async with self.db.transaction() as session:
            repo = ProposalRepository(session)
            existing = await repo.get_by_origin(origin) if origin else None
            if existing is None:
                await UserRepository(session).upsert(proposer, now)
                proposal = await repo.add(
                    language=self.language,
                    proposer_id=proposer.telegram_id,
                    title=draft.title,
                    description=draft.description,
                    proposal_type=draft.proposal_type.value,
                    options=draft.options,
                    target_channel_id=self.target_channel_id,
                    created_at=now,
                    deadline_at=draft.deadline_at,
                    status=ProposalStatus.OPEN.value,
                    context_text=draft.context_text,
                    origin=origin,
                )
        if existing is not None:
            logger.info("proposal %s was created from this draft already", existing.id)
            if existing.channel_message_id is not None:
                return CreatedProposal(proposal=existing, posted=True)
            proposal = existing
        else:
            logger.info("proposal %s created by %s", proposal.id, proposer.telegram_id)
        self.scheduler.schedule(proposal)
        await self.indexer.proposals_changed([proposal.id])
        posted = await self._publish(proposal)
        if posted is not None:
            proposal = posted
        return CreatedProposal(proposal=proposal, posted=posted is not None)

    async def _publish(self, proposal: Proposal) -> Proposal | None:
        try:
            message_id = await self.publisher.publish(proposal)
        except Exception:
            logger.exception("could not post proposal %s to the channel", proposal.id)
            return None
        if message_id is None:
            return None
        async with self.db.transaction() as session:
            return await ProposalRepository(session).update_fields(
                proposal.id, channel_message_id=message_id
            )

    async def _refresh(self, proposal: Proposal) -> None:
        await self.indexer.proposals_changed([proposal.id])
        if proposal.channel_message_id is None:
            return
        try:
            await self.publisher.refresh(proposal)
        except Exception:
            logger.exception("could not update the channel post of proposal %s", proposal.id)

    async def get(self, proposal_id: int) -> Proposal:
        async with self.db.transaction() as session:
            proposal = await ProposalRepository(session).get_proposal_by_id(proposal_id)
        if proposal is None:
            raise not_found(proposal_id)
        return proposal

    async def get_many(self, ids: list[int]) -> list[Proposal]:
        """Those of ``ids`` that exist, in the order given."""
        async with self.db.transaction() as session:
            return await ProposalRepository(session).get_proposals_by_ids(ids)

    async def open_proposals(self) -> list[Proposal]:
        async with self.db.transaction() as session:
            return await ProposalRepository(session).open_proposals()

    async def list_proposals(self, status: ProposalStatus | None, page: int = 0) -> Page[Proposal]:
        page = max(page, 0)
        async with self.db.transaction() as session:
            items, total = await ProposalRepository(session).list_page(
                status=status, offset=page * PAGE_SIZE, limit=PAGE_SIZE
            )
        return Page(items=items, page=page, page_size=PAGE_SIZE, total=total)

    async def my_proposals(self, user_id: int, page: int = 0) -> Page[Proposal]:
        page = max(page, 0)
        async with self.db.transaction() as session:
            items, total = await ProposalRepository(session).list_page(
                proposer_id=user_id, offset=page * PAGE_SIZE, limit=PAGE_SIZE
            )
        return Page(items=items, page=page, page_size=PAGE_SIZE, total=total)

    async def check_editable(self, user_id: int, proposal_id: int) -> Proposal:
        """The proposal, if ``user_id`` may edit it now; otherwise the reason why not."""
        async with self.db.transaction() as session:
            return await self._editable(session, user_id, proposal_id)

    async def _editable(self, session: AsyncSession, user_id: int, proposal_id: int) -> Proposal:
        repo = ProposalRepository(session)
        proposal = await repo.get_proposal_by_id(proposal_id, lock=True)
        if proposal is None:
            raise not_found(proposal_id)
        if proposal.proposer_id != user_id:
            raise PermissionDeniedError("Only the proposer can edit this proposal.")
        if proposal.status is ProposalStatus.CLOSED:
            raise ConflictError("Proposal #{id} is closed; it can't be edited.", id=proposal_id)
        if proposal.status is not ProposalStatus.OPEN:
            raise ConflictError("Proposal #{id} is cancelled; it can't be edited.", id=proposal_id)
        votes = await SubmissionRepository(session).count_for_proposal(proposal_id)
        if votes:
            raise ConflictError(
                "Proposal #{id} already has {votes} response(s), so it can no longer "
                "be edited. You can cancel it with /cancel_proposal and create a new one.",
                id=proposal_id,
                votes=votes,
            )
        return proposal

    async def edit_proposal_details(
        self, user_id: int, proposal_id: int, field: EditableField, value: str
    ) -> Proposal:
        async with self.db.transaction() as session:
            proposal = await self._editable(session, user_id, proposal_id)
            changes: dict[str, object]
            if field is EditableField.TITLE:
                changes = {"title": validation.clean_title(value)}
            elif field is EditableField.DESCRIPTION:
                changes = {"description": validation.clean_description(value)}
            else:
                if not proposal.is_multiple_choice:
                    raise ValidationError("A free-form proposal has no options to edit.")
                changes = {"options": validation.clean_options(validation.split_options(value))}
            updated = await ProposalRepository(session).update_fields(
                proposal_id, language=self.language, **changes
            )
        logger.info("proposal %s edited (%s)", proposal_id, field.value)
        await self._refresh(updated)
        return updated

    async def check_cancellable(self, user_id: int, proposal_id: int) -> Proposal:
        async with self.db.transaction() as session:
            return await self._cancellable(ProposalRepository(session), user_id, proposal_id)

    async def _cancellable(
        self, repo: ProposalRepository, user_id: int, proposal_id: int
    ) -> Proposal:
        proposal = await repo.get_proposal_by_id(proposal_id, lock=True)
        if proposal is None:
            raise not_found(proposal_id)
        if proposal.proposer_id != user_id:
            raise PermissionDeniedError("Only the proposer can cancel this proposal.")
        if proposal.status is ProposalStatus.CLOSED:
            raise ConflictError(
                "Proposal #{id} is already closed; it can't be cancelled.", id=proposal_id
            )
        if proposal.status is not ProposalStatus.OPEN:
            raise ConflictError(
                "Proposal #{id} is already cancelled; it can't be cancelled.", id=proposal_id
            )
        return proposal

    async def cancel_proposal(self, user_id: int, proposal_id: int) -> Proposal:
        now = self.clock.now()
        async with self.db.transaction() as session:
            repo = ProposalRepository(session)
            await self._cancellable(repo, user_id, proposal_id)
            changed = await repo.transition_status(
                proposal_id,
                ProposalStatus.OPEN,
                status=ProposalStatus.CANCELLED.value,
                closed_at=now,
            )
            if not changed:  # pragma: no cover - the row lock above makes this a safety net
                raise ConflictError("Proposal #{id} was closed a moment ago.", id=proposal_id)
            updated = await repo.get_proposal_by_id(proposal_id)
            assert updated is not None
        logger.info("proposal %s cancelled", proposal_id)
        self.scheduler.unschedule(proposal_id)
        await self._refresh(updated)
        return updated

    async def check_extendable(self, user_id: int, proposal_id: int) -> Proposal:
        async with self.db.transaction() as session:
            return await self._extendable(ProposalRepository(session), user_id, proposal_id)

    async def _extendable(
        self, repo: ProposalRepository, user_id: int, proposal_id: int
    ) -> Proposal:
        proposal = await repo.get_proposal_by_id(proposal_id, lock=True)
        if proposal is None:
            raise not_found(proposal_id)
        if proposal.proposer_id != user_id and not self.is_admin(user_id):
            raise PermissionDeniedError("Only the proposer or an admin can extend the deadline.")
        if proposal.status is not ProposalStatus.OPEN or proposal.deadline_at <= self.clock.now():
            raise ConflictError(
                "Proposal #{id} is no longer open; it can't be extended.", id=proposal_id
            )
        return proposal

    def check_new_deadline(self, proposal: Proposal, deadline: datetime) -> None:
        validation.check_deadline(deadline, self.clock.now())
        if deadline <= proposal.deadline_at:
            raise ValidationError(
                "The new deadline must be later than the current one. "
                "Give a later time, like '2 days'."
            )

    async def extend_deadline(self, user_id: int, proposal_id: int, deadline: datetime) -> Proposal:
        """Move an open proposal's deadline later (proposer or admin)."""
        async with self.db.transaction() as session:
            repo = ProposalRepository(session)
            proposal = await self._extendable(repo, user_id, proposal_id)
            self.check_new_deadline(proposal, deadline)
            updated = await repo.update_fields(proposal_id, deadline_at=deadline)
        logger.info("proposal %s deadline extended", proposal_id)
        self.scheduler.schedule(updated)
        await self._refresh(updated)
        return updated
