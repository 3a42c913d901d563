"""Votes and free-form submissions: one row per (proposal, submitter)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.models import Proposal, Submission
from app.persistence.models import ProposalRow, SubmissionRow
from app.persistence.repositories.base import locks_rows, prebuilt
from app.persistence.repositories.proposals import to_proposal

_SUBMISSIONS = cast(Table, SubmissionRow.__table__)


def _build_upsert(insert: Any) -> Any:
    stmt = insert(_SUBMISSIONS)
    return stmt.on_conflict_do_update(
        index_elements=[_SUBMISSIONS.c.proposal_id, _SUBMISSIONS.c.submitter_id],
        set_={
            "response_content": stmt.excluded.response_content,
            "updated_at": stmt.excluded.updated_at,
        },
    )


def _build_insert_new(insert: Any) -> Any:
    return (
        insert(_SUBMISSIONS)
        .on_conflict_do_nothing(
            index_elements=[_SUBMISSIONS.c.proposal_id, _SUBMISSIONS.c.submitter_id]
        )
        .returning(_SUBMISSIONS.c.id)
    )


_REPLACE = (
    update(_SUBMISSIONS)
    .where(
        _SUBMISSIONS.c.proposal_id == bindparam("p_id"),
        _SUBMISSIONS.c.submitter_id == bindparam("s_id"),
    )
    .values(response_content=bindparam("content"), updated_at=bindparam("now"))
)
_PREVIOUS = select(_SUBMISSIONS.c.response_content).where(
    _SUBMISSIONS.c.proposal_id == bindparam("p_id"),
    _SUBMISSIONS.c.submitter_id == bindparam("s_id"),
)
_PREVIOUS_LOCKED = _PREVIOUS.with_for_update()  # so a concurrent change cannot interleave


def to_submission(row: SubmissionRow) -> Submission:
    return Submission(
        id=row.id,
        proposal_id=row.proposal_id,
        submitter_id=row.submitter_id,
        response_content=row.response_content,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


class SubmissionRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def upsert(
        self, proposal_id: int, submitter_id: int, content: str, now: datetime
    ) -> None:
        """Record or replace a user's answer atomically (unique constraint + ON CONFLICT)."""
        await self.session.execute(
            prebuilt(self.session, "submissions.upsert", _build_upsert),
            {
                "proposal_id": proposal_id,
                "submitter_id": submitter_id,
                "response_content": content,
                "created_at": now,
                "updated_at": now,
            },
        )

    async def record(
        self, proposal_id: int, submitter_id: int, content: str, now: datetime
    ) -> tuple[bool, str | None]:
        """Store a user's answer; (was there one before, what it was).

        A first answer -- the common case -- costs one statement. Only a change reads the old
        answer (under a row lock) and updates it.
        """
        inserted = await self.session.scalar(
            prebuilt(self.session, "submissions.insert_new", _build_insert_new),
            {
                "proposal_id": proposal_id,
                "submitter_id": submitter_id,
                "response_content": content,
                "created_at": now,
                "updated_at": now,
            },
        )
        if inserted is not None:
            return False, None
        keys = {"p_id": proposal_id, "s_id": submitter_id}
        stmt = _PREVIOUS_LOCKED if locks_rows(self.session) else _PREVIOUS
        previous = await self.session.scalar(stmt, keys)
        await self.session.execute(_REPLACE, {**keys, "content": content, "now": now})
        return True, previous

    async def get_submission_by_proposal_and_user(
        self, proposal_id: int, submitter_id: int
    ) -> Submission | None:
        row = await self.session.scalar(
            select(SubmissionRow).where(
                SubmissionRow.proposal_id == proposal_id,
                SubmissionRow.submitter_id == submitter_id,
            )
        )
        return to_submission(row) if row else None

    async def count_for_proposal(self, proposal_id: int) -> int:
        total = await self.session.scalar(
            select(func.count())
            .select_from(SubmissionRow)
            .where(SubmissionRow.proposal_id == proposal_id)
        )
        return int(total or 0)

    async def counts_by_content(self, proposal_id: int) -> dict[str, int]:
        rows = await self.session.execute(
            select(SubmissionRow.response_content, func.count())
            .where(SubmissionRow.proposal_id == proposal_id)
            .group_by(SubmissionRow.response_content)
        )
        return {content: int(n) for content, n in rows.all()}

    async def contents_for_proposal(self, proposal_id: int) -> list[str]:
        """Submission texts without submitter ids, oldest first (for anonymous results)."""
        rows = await self.session.scalars(
            select(SubmissionRow.response_content)
            .where(SubmissionRow.proposal_id == proposal_id)
            .order_by(SubmissionRow.created_at, SubmissionRow.id)
        )
        return list(rows)

    async def list_for_user(
        self, submitter_id: int, *, offset: int = 0, limit: int = 10
    ) -> tuple[list[tuple[Submission, Proposal]], int]:
        total = await self.session.scalar(
            select(func.count())
            .select_from(SubmissionRow)
            .where(SubmissionRow.submitter_id == submitter_id)
        )
        rows = await self.session.execute(
            select(SubmissionRow, ProposalRow)
            .join(ProposalRow, ProposalRow.id == SubmissionRow.proposal_id)
            .where(SubmissionRow.submitter_id == submitter_id)
            .order_by(SubmissionRow.updated_at.desc(), SubmissionRow.id.desc())
            .offset(offset)
            .limit(limit)
        )
        items = [(to_submission(s), to_proposal(p)) for s, p in rows.all()]
        return items, int(total or 0)

    async def counts_for_proposals(self, proposal_ids: list[int]) -> dict[int, dict[str, int]]:
        """Vote counts per option for many proposals in one query."""
        out: dict[int, dict[str, int]] = {pid: {} for pid in proposal_ids}
        if not proposal_ids:
            return out
        rows = await self.session.execute(
            select(SubmissionRow.proposal_id, SubmissionRow.response_content, func.count())
            .where(SubmissionRow.proposal_id.in_(proposal_ids))
            .group_by(SubmissionRow.proposal_id, SubmissionRow.response_content)
        )
        for pid, content, n in rows.all():
            out[pid][content] = int(n)
        return out

    async def contents_for_proposals(self, proposal_ids: list[int]) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {pid: [] for pid in proposal_ids}
        if not proposal_ids:
            return out
        rows = await self.session.execute(
            select(SubmissionRow.proposal_id, SubmissionRow.response_content)
            .where(SubmissionRow.proposal_id.in_(proposal_ids))
            .order_by(SubmissionRow.proposal_id, SubmissionRow.id)
        )
        for pid, content in rows.all():
            out[pid].append(content)
        return out
