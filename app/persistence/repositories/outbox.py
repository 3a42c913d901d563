"""The outbox: messages decided inside a transaction, delivered after it commits."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.models import OutboxKind, OutboxMessage
from app.persistence.models import OutboxRow
from app.persistence.repositories.base import dialect_insert, locks_rows


def chat_kind_sql() -> sa.ColumnElement[str]:
    """``channel`` for groups and channels (negative ids, ``@usernames``), else ``private``."""
    chat = OutboxRow.chat_id
    return sa.case((sa.or_(chat.like("-%"), chat.like("@%")), "channel"), else_="private")


def _not_in(session: AsyncSession, column: Any, values: Collection[Any], kind: Any) -> Any:
    """``column NOT IN values``; one array parameter on PostgreSQL (the same prepared
    statement whatever the number of values)."""
    if session.get_bind().dialect.name == "postgresql":
        return sa.not_(column == sa.any_(sa.literal(list(values), ARRAY(kind))))
    return column.notin_(list(values))


def to_message(row: OutboxRow) -> OutboxMessage:
    return OutboxMessage(
        id=row.id,
        kind=OutboxKind(row.kind),
        proposal_id=row.proposal_id,
        chat_id=row.chat_id,
        payload=dict(row.payload or {}),
        attempts=row.attempts,
    )


class OutboxRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def enqueue_many(self, rows: Sequence[dict[str, Any]], now: datetime) -> None:
        """Insert messages; one with a dedupe_key already present is silently skipped."""
        if not rows:
            return
        values = [
            {
                "kind": OutboxKind(r["kind"]).value,
                "priority": OutboxKind(r["kind"]).priority,
                "proposal_id": r.get("proposal_id"),
                "chat_id": str(r["chat_id"]),
                "payload": r.get("payload") or {},
                "dedupe_key": r["dedupe_key"],
                "created_at": now,
                "next_attempt_at": now,
                "attempts": 0,
            }
            for r in rows
        ]
        stmt = dialect_insert(self.session, OutboxRow).on_conflict_do_nothing(
            index_elements=[OutboxRow.dedupe_key]
        )
        await self.session.execute(stmt, values)

    async def claim_due(
        self,
        now: datetime,
        lease: timedelta,
        limit: int,
        exclude: Collection[int] = (),
        *,
        skip_chats: Collection[str] = (),
        per_chat: int | None = None,
    ) -> list[OutboxMessage]:
        """Lease due, unsent messages to this sender, chat by chat in turn.

        Each chat's messages are ranked (by priority, then age). The kinds go in their
        order (the news first), and within a kind the first of every chat before the
        second of any, so one chat's backlog never holds back another chat's message
        of its kind. ``per_chat``: at most that many of one chat (1 when chats keep a
        pace: each chat's oldest that may send now, every chat in every round);
        ``skip_chats``: chats that may not send now (their pace, a RetryAfter).

        The lease (next_attempt_at moved ahead) is committed before anything is sent,
        so no transaction stays open across a network call; if this sender dies, the
        lease runs out and another sender takes the message over.
        ``exclude``: messages this sender still has in hand (held back by a rate
        limit past their lease, say), which must not be taken a second time.
        """
        due_now = (
            OutboxRow.sent_at.is_(None),
            OutboxRow.failed_at.is_(None),
            OutboxRow.next_attempt_at <= now,
        )
        turn = (
            func.row_number()
            .over(partition_by=OutboxRow.chat_id, order_by=(OutboxRow.priority, OutboxRow.id))
            .label("turn")
        )
        due = select(OutboxRow.id, turn).where(*due_now)
        if exclude:
            due = due.where(_not_in(self.session, OutboxRow.id, exclude, sa.Integer))
        if skip_chats:
            due = due.where(_not_in(self.session, OutboxRow.chat_id, skip_chats, sa.String))
        ranked = due.subquery("ranked")
        stmt = select(OutboxRow).join(ranked, ranked.c.id == OutboxRow.id)
        if per_chat is not None:
            stmt = stmt.where(ranked.c.turn <= per_chat)
        stmt = stmt.order_by(OutboxRow.priority, ranked.c.turn, OutboxRow.id).limit(limit)
        if locks_rows(self.session):
            stmt = stmt.with_for_update(skip_locked=True, of=OutboxRow)
        messages = [to_message(row) for row in await self.session.scalars(stmt)]
        if not messages:
            return messages
        # The lease is a compare-and-set, as a close is (ProposalRepository.close_many): a
        # row another sender leased and committed while the ranking ran is locked all the
        # same, and PostgreSQL rechecks only the locked table's own conditions, not the
        # subquery's. Stating "due" again, on the newest version, leaves what the other
        # sender took to it: nothing is sent twice.
        leased = set(
            await self.session.scalars(
                update(OutboxRow)
                .where(OutboxRow.id.in_([m.id for m in messages]), *due_now)
                .values(next_attempt_at=now + lease, leased_until=now + lease)
                .returning(OutboxRow.id)
            )
        )
        return [m for m in messages if m.id in leased]

    async def release_leases(self, now: datetime) -> int:
        """Make rows another sender had claimed due now (it is known to be gone)."""
        result = await self.session.execute(
            update(OutboxRow)
            .where(
                OutboxRow.leased_until > now,
                OutboxRow.sent_at.is_(None),
                OutboxRow.failed_at.is_(None),
            )
            .values(next_attempt_at=now, leased_until=None)
        )
        return int(result.rowcount or 0)  # type: ignore[attr-defined]

    async def mark_sent(self, sent: dict[int, tuple[datetime, int | None]]) -> None:
        """Mark messages sent: ``{message_id: (sent_at, Telegram's message id or None)}``."""
        if not sent:
            return
        table = cast(Table, OutboxRow.__table__)  # Core: one executemany, no ORM sync
        stmt = (
            update(table)
            .where(table.c.id == bindparam("m_id"))
            .values(
                sent_at=bindparam("m_at"),
                result_message_id=bindparam("m_result"),
                attempts=table.c.attempts + 1,
                leased_until=None,
            )
        )
        await self.session.execute(
            stmt,
            [{"m_id": i, "m_at": at, "m_result": result} for i, (at, result) in sent.items()],
        )

    async def mark_retry(self, message_id: int, next_at: datetime, reason: str) -> None:
        await self.session.execute(
            update(OutboxRow)
            .where(OutboxRow.id == message_id)
            .values(
                next_attempt_at=next_at,
                attempts=OutboxRow.attempts + 1,
                last_error=reason[:200],
                leased_until=None,
            )
        )

    async def mark_failed(self, message_id: int, now: datetime, reason: str) -> None:
        await self.session.execute(
            update(OutboxRow)
            .where(OutboxRow.id == message_id)
            .values(
                failed_at=now,
                attempts=OutboxRow.attempts + 1,
                last_error=reason[:200],
                leased_until=None,
            )
        )

    async def next_due_at(self) -> datetime | None:
        return await self.session.scalar(
            select(func.min(OutboxRow.next_attempt_at)).where(
                OutboxRow.sent_at.is_(None), OutboxRow.failed_at.is_(None)
            )
        )

    async def results_pending(self) -> bool:
        """True while some result announcement waits to be sent."""
        found = await self.session.scalar(
            select(OutboxRow.id)
            .where(
                OutboxRow.sent_at.is_(None),
                OutboxRow.failed_at.is_(None),
                OutboxRow.priority == OutboxKind.RESULT.priority,
            )
            .limit(1)
        )
        return found is not None

    async def pending_count(self) -> int:
        total = await self.session.scalar(
            select(func.count())
            .select_from(OutboxRow)
            .where(OutboxRow.sent_at.is_(None), OutboxRow.failed_at.is_(None))
        )
        return int(total or 0)

    async def existing_keys(self, dedupe_keys: Sequence[str]) -> set[str]:
        """The keys among ``dedupe_keys`` that some message already carries."""
        if not dedupe_keys:
            return set()
        found = await self.session.scalars(
            select(OutboxRow.dedupe_key).where(OutboxRow.dedupe_key.in_(list(dedupe_keys)))
        )
        return set(found)
