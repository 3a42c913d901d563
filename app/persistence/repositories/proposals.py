"""Proposals: storage, lookups and the dynamic filters /ask uses."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Select,
    Table,
    and_,
    bindparam,
    case,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.domain.models import Proposal, ProposalStatus, ProposalType
from app.nlp.lexical import proposal_lexical
from app.persistence.models import ProposalRow, UserRow
from app.persistence.repositories.base import locks_rows
from app.persistence.repositories.users import to_user

# The largest proposal id a row can have: an Integer key, int4 on PostgreSQL (SQLite's is
# wider). A larger number names no proposal; asking the database for it would overflow.
MAX_PROPOSAL_ID = 2**31 - 1


def to_proposal(row: ProposalRow, proposer: UserRow | None = None) -> Proposal:
    return Proposal(
        id=row.id,
        proposer_id=row.proposer_id,
        title=row.title,
        description=row.description,
        proposal_type=ProposalType(row.proposal_type),
        options=list(row.options or []),
        created_at=row.created_at,
        deadline_at=row.deadline_at,
        status=ProposalStatus(row.status),
        target_channel_id=row.target_channel_id,
        channel_message_id=row.channel_message_id,
        closed_at=row.closed_at,
        outcome=row.outcome,
        raw_results=row.raw_results,
        context_text=row.context_text,
        proposer=to_user(proposer) if proposer is not None else None,
    )


_Proposer = aliased(UserRow)
_PROPOSALS = cast(Table, ProposalRow.__table__)
# Core (not ORM) and built once: a vote reads this row on every press.
# The lexical terms are for the search index only: a read for a vote leaves them out.
_READ_FOR_VOTE = select(*(c for c in _PROPOSALS.c if c.name != "lexical")).where(
    _PROPOSALS.c.id == bindparam("id")
)
_LOCK_FOR_VOTE = _READ_FOR_VOTE.with_for_update(read=True)

# Changing any of these makes the proposal's search-index entry stale.
INDEXED_FIELDS = frozenset({"title", "description", "options", "status", "deadline_at"})
# The text the lexical terms are made of (app.nlp.lexical.proposal_lexical).
LEXICAL_FIELDS = frozenset({"title", "description", "options"})


def _with_proposer() -> Select[Any]:  # SQLAlchemy 2.1 types rows as tuples
    return select(ProposalRow, _Proposer).join(  # type: ignore[return-value]
        _Proposer, _Proposer.telegram_id == ProposalRow.proposer_id
    )


def criteria_condition(
    *,
    status: ProposalStatus | None = None,
    proposal_type: ProposalType | None = None,
    date_range: tuple[datetime | None, datetime | None] | None = None,
    creation_date_range: tuple[datetime | None, datetime | None] | None = None,
    proposer_id: int | None = None,
    ids: Sequence[int] | None = None,
    open_at: datetime | None = None,
) -> ColumnElement[bool] | None:
    """The WHERE clause /ask's filters become (None: no filter); ranges are half-open
    [start, end). One condition, so other queries (the lexical index's) apply it too.
    ``open_at``: with status open, only proposals still taking votes at that moment (one
    whose deadline passed is not open, even before the deadline job closes it)."""
    parts: list[ColumnElement[bool]] = []
    if status is not None:
        parts.append(ProposalRow.status == status.value)
    if status is ProposalStatus.OPEN and open_at is not None:
        parts.append(ProposalRow.deadline_at > open_at)
    if proposal_type is not None:
        parts.append(ProposalRow.proposal_type == proposal_type.value)
    if proposer_id is not None:
        parts.append(ProposalRow.proposer_id == proposer_id)
    if ids is not None:
        parts.append(ProposalRow.id.in_(list(ids)))
    for column, bounds in (
        (ProposalRow.deadline_at, date_range),
        (ProposalRow.created_at, creation_date_range),
    ):
        if bounds is None:
            continue
        start, end = bounds
        if start is not None:
            parts.append(column >= start)
        if end is not None:
            parts.append(column < end)
    return and_(*parts) if parts else None


def _criteria(stmt: Select[Any], **criteria: Any) -> Select[Any]:
    condition = criteria_condition(**criteria)
    return stmt if condition is None else stmt.where(condition)


class ProposalRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, *, language: str, **fields: Any) -> Proposal:
        """A new proposal, stored with its lexical terms in ``language`` (BOT_LANGUAGE)."""
        row = ProposalRow(**fields)
        row.lexical = proposal_lexical(row.title, row.description, row.options, language)
        self.session.add(row)
        await self.session.flush()
        return await self._require(row.id)

    async def get_proposal_by_id(self, proposal_id: int, *, lock: bool = False) -> Proposal | None:
        if not 1 <= proposal_id <= MAX_PROPOSAL_ID:
            return None
        stmt = _with_proposer().where(ProposalRow.id == proposal_id)
        if lock and locks_rows(self.session):
            stmt = stmt.with_for_update(of=ProposalRow)
        result = (await self.session.execute(stmt)).first()
        return to_proposal(result[0], result[1]) if result else None

    async def get_by_origin(self, origin: str) -> Proposal | None:
        """The proposal created from the draft ``origin``, if one was."""
        result = (
            await self.session.execute(_with_proposer().where(ProposalRow.origin == origin))
        ).first()
        return to_proposal(result[0], result[1]) if result else None

    async def lock_for_vote(self, proposal_id: int) -> Proposal | None:
        """Read a proposal under a shared lock, so a close cannot slip in mid-vote."""
        stmt = _LOCK_FOR_VOTE if locks_rows(self.session) else _READ_FOR_VOTE
        row = (await self.session.execute(stmt, {"id": proposal_id})).first()
        return to_proposal(row) if row else None  # type: ignore[arg-type]

    async def _require(self, proposal_id: int) -> Proposal:
        proposal = await self.get_proposal_by_id(proposal_id)
        if proposal is None:  # pragma: no cover - only after a concurrent delete
            raise LookupError(proposal_id)
        return proposal

    async def get_proposals_by_ids(self, ids: Sequence[int]) -> list[Proposal]:
        if not ids:
            return []
        rows = (await self.session.execute(_with_proposer().where(ProposalRow.id.in_(ids)))).all()
        by_id = {row[0].id: to_proposal(row[0], row[1]) for row in rows}
        return [by_id[i] for i in ids if i in by_id]

    async def update_fields(
        self, proposal_id: int, *, language: str | None = None, **fields: Any
    ) -> Proposal:
        """Change ``fields``; a new title, description or options need ``language``
        (BOT_LANGUAGE) for the lexical terms, which are recomputed in the same statement."""
        if INDEXED_FIELDS & fields.keys():
            fields["revision"] = ProposalRow.revision + 1
        if LEXICAL_FIELDS & fields.keys():
            if language is None:
                raise TypeError("update_fields: a change of text needs the language")
            current = await self.session.execute(
                select(ProposalRow.title, ProposalRow.description, ProposalRow.options).where(
                    ProposalRow.id == proposal_id
                )
            )
            row = current.first()
            if row is not None:
                text = {"title": row.title, "description": row.description,
                        "options": row.options, **fields}  # fmt: skip
                fields["lexical"] = proposal_lexical(
                    text["title"], text["description"], text["options"], language
                )
        await self.session.execute(
            update(ProposalRow).where(ProposalRow.id == proposal_id).values(**fields)
        )
        return await self._require(proposal_id)

    async def transition_status(
        self, proposal_id: int, from_status: ProposalStatus, **fields: Any
    ) -> bool:
        """Compare-and-set on status: True only for the one caller that made the change."""
        result = await self.session.execute(
            update(ProposalRow)
            .where(ProposalRow.id == proposal_id, ProposalRow.status == from_status.value)
            .values(**fields, revision=ProposalRow.revision + 1)
        )
        return bool(result.rowcount)  # type: ignore[attr-defined]

    async def list_page(
        self,
        *,
        status: ProposalStatus | None = None,
        proposer_id: int | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> tuple[list[Proposal], int]:
        conditions = []
        if status is not None:
            conditions.append(ProposalRow.status == status.value)
        if proposer_id is not None:
            conditions.append(ProposalRow.proposer_id == proposer_id)
        total = await self.session.scalar(
            select(func.count()).select_from(ProposalRow).where(*conditions)
        )
        order = (
            ProposalRow.deadline_at.asc()
            if status is ProposalStatus.OPEN
            else ProposalRow.created_at.desc()
        )
        stmt = _with_proposer().where(*conditions).order_by(order, ProposalRow.id.desc())
        rows = (await self.session.execute(stmt.offset(offset).limit(limit))).all()
        return [to_proposal(r[0], r[1]) for r in rows], int(total or 0)

    async def find_proposals_by_dynamic_criteria(
        self,
        *,
        status: ProposalStatus | None = None,
        proposal_type: ProposalType | None = None,
        date_range: tuple[datetime | None, datetime | None] | None = None,
        creation_date_range: tuple[datetime | None, datetime | None] | None = None,
        proposer_id: int | None = None,
        ids: Sequence[int] | None = None,
        open_at: datetime | None = None,
        soonest_deadline_first: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Proposal]:
        """Proposals matching every criterion given; ranges are half-open [start, end).

        Newest first, or soonest deadline first (what "open" questions want)."""
        stmt = _criteria(
            _with_proposer(),
            status=status,
            proposal_type=proposal_type,
            date_range=date_range,
            creation_date_range=creation_date_range,
            proposer_id=proposer_id,
            ids=ids,
            open_at=open_at,
        )
        order = (
            (ProposalRow.deadline_at, ProposalRow.id)
            if soonest_deadline_first
            else (ProposalRow.created_at.desc(), ProposalRow.id.desc())
        )
        stmt = stmt.order_by(*order)
        if offset:
            stmt = stmt.offset(offset)
        if limit is not None:
            stmt = stmt.limit(limit)
        rows = (await self.session.execute(stmt)).all()
        return [to_proposal(r[0], r[1]) for r in rows]

    async def ids_by_dynamic_criteria(self, **criteria: Any) -> list[int]:
        """The ids of the proposals that match, in id order; the same criteria as
        find_proposals_by_dynamic_criteria."""
        stmt = _criteria(select(ProposalRow.id), **criteria).order_by(ProposalRow.id)
        return list((await self.session.scalars(stmt)).all())

    async def count_proposals_by_dynamic_criteria(self, **criteria: Any) -> int:
        """How many proposals match; the same criteria as find_proposals_by_dynamic_criteria."""
        stmt = _criteria(select(func.count()).select_from(ProposalRow), **criteria)
        return int(await self.session.scalar(stmt) or 0)

    async def search_text(
        self, patterns: Sequence[str], *, limit: int = 200, **criteria: Any
    ) -> list[Proposal]:
        """Proposals whose title or description contains any of ``patterns``
        (case-insensitive substrings), within the criteria; the caller scores them."""
        if not patterns:
            return []
        hits, weight = [], []
        for pattern in patterns:
            like = "%" + pattern.replace("\\", "").replace("%", "").replace("_", "") + "%"
            in_title, in_text = ProposalRow.title.ilike(like), ProposalRow.description.ilike(like)
            hits += [in_title, in_text]
            weight += [case((in_title, 2), else_=0), case((in_text, 1), else_=0)]
        # Most patterns matched (in the title counting double) first, then the newest.
        stmt = _criteria(_with_proposer(), **criteria).where(or_(*hits))
        stmt = stmt.order_by(sum(weight[1:], weight[0]).desc(), ProposalRow.created_at.desc())
        stmt = stmt.limit(limit)
        rows = (await self.session.execute(stmt)).all()
        return [to_proposal(r[0], r[1]) for r in rows]

    async def all_texts(self) -> list[str]:
        """Every proposal's title and description: the community's vocabulary."""
        rows = await self.session.execute(select(ProposalRow.title, ProposalRow.description))
        return [f"{title} {description or ''}" for title, description in rows.all()]

    async def open_proposals(self) -> list[Proposal]:
        stmt = _with_proposer().where(ProposalRow.status == ProposalStatus.OPEN.value)
        rows = (await self.session.execute(stmt.order_by(ProposalRow.deadline_at))).all()
        return [to_proposal(r[0], r[1]) for r in rows]

    async def close_open(self, ids: Sequence[int], now: datetime) -> list[int]:
        """Compare-and-set open -> closed for many; returns the ids this caller closed."""
        if not ids:
            return []
        result = await self.session.execute(
            update(ProposalRow)
            .where(ProposalRow.id.in_(list(ids)), ProposalRow.status == ProposalStatus.OPEN.value)
            .values(
                status=ProposalStatus.CLOSED.value, closed_at=now, revision=ProposalRow.revision + 1
            )
            .returning(ProposalRow.id)
        )
        return sorted(result.scalars().all())

    async def due_ids(self, now: datetime, limit: int, *, skip_locked: bool = False) -> list[int]:
        """Open proposals past their deadline. ``skip_locked`` (PostgreSQL) locks the rows
        returned and passes over rows another transaction holds -- another replica closing
        them, or a vote in flight -- so concurrent closers split the work."""
        stmt = (
            select(ProposalRow.id)
            .where(ProposalRow.status == ProposalStatus.OPEN.value, ProposalRow.deadline_at <= now)
            .order_by(ProposalRow.deadline_at, ProposalRow.id)
            .limit(limit)
        )
        if skip_locked and locks_rows(self.session):
            stmt = stmt.with_for_update(skip_locked=True)
        return list(await self.session.scalars(stmt))

    async def free_form_ids(self, ids: Sequence[int]) -> list[int]:
        """Those of ``ids`` that are free-form proposals, in order."""
        if not ids:
            return []
        rows = await self.session.scalars(
            select(ProposalRow.id)
            .where(
                ProposalRow.id.in_(list(ids)),
                ProposalRow.proposal_type == ProposalType.FREE_FORM.value,
            )
            .order_by(ProposalRow.id)
        )
        return list(rows)

    async def store_results(self, results: Sequence[dict[str, Any]]) -> None:
        """Bulk-write outcome and raw_results: dicts with id, outcome, raw_results."""
        if results:  # ORM bulk UPDATE by primary key: one executemany
            await self.session.execute(update(ProposalRow), list(results))

    async def needing_reminder(self, now: datetime, before: timedelta) -> list[Proposal]:
        """Open proposals whose reminder time has come and that run longer than ``before``."""
        stmt = _with_proposer().where(
            ProposalRow.status == ProposalStatus.OPEN.value,
            ProposalRow.deadline_at > now,
            ProposalRow.deadline_at <= now + before,
            ProposalRow.target_channel_id.is_not(None),
        )
        rows = (await self.session.execute(stmt)).all()
        proposals = [to_proposal(r[0], r[1]) for r in rows]
        return [p for p in proposals if p.deadline_at - p.created_at > before]

    async def stale_for_index(self, limit: int, ids: Sequence[int] | None = None) -> list[Proposal]:
        """Proposals whose search-index entry is missing or older than the row."""
        stmt = _with_proposer().where(ProposalRow.indexed_revision != ProposalRow.revision)
        if ids is not None:
            stmt = stmt.where(ProposalRow.id.in_(list(ids)))
        rows = (await self.session.execute(stmt.order_by(ProposalRow.id).limit(limit))).all()
        return [to_proposal(r[0], r[1]) for r in rows]

    async def revisions(self, ids: Sequence[int]) -> dict[int, int]:
        rows = await self.session.execute(
            select(ProposalRow.id, ProposalRow.revision).where(ProposalRow.id.in_(list(ids)))
        )
        return {pid: rev for pid, rev in rows.all()}

    async def mark_indexed(self, seen: dict[int, int]) -> None:
        """Record the revision each entry was built from (a newer edit stays stale)."""
        for pid, rev in seen.items():
            await self.session.execute(
                update(ProposalRow)
                .where(ProposalRow.id == pid, ProposalRow.revision == rev)
                .values(indexed_revision=rev)
            )

    async def all_ids(self) -> set[int]:
        return set(await self.session.scalars(select(ProposalRow.id)))

    async def count_all(self) -> int:
        return int(await self.session.scalar(select(func.count()).select_from(ProposalRow)) or 0)
