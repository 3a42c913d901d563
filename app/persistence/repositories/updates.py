"""Claims on webhook updates, so an update delivered twice is handled once.

A claim is taken before the update is handled and marked done after. A claim
that is not done within ``stale`` (its replica died mid-update) can be taken
over, so a crash does not lose the update Telegram retries.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import Table, delete, or_, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from app.persistence.database import UTCDateTime
from app.persistence.models import ProcessedUpdateRow
from app.persistence.repositories.base import dialect_insert


def _arrays(session: AsyncSession) -> bool:
    return session.get_bind().dialect.name == "postgresql"


class UpdateClaims:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def claim(self, update_id: int, now: datetime, stale: timedelta) -> bool:
        """True when this caller should handle the update."""
        stmt = (
            dialect_insert(self.session, ProcessedUpdateRow)
            .values(update_id=update_id, claimed_at=now)
            .on_conflict_do_nothing(index_elements=[ProcessedUpdateRow.update_id])
        )
        if (await self.session.execute(stmt)).rowcount:  # type: ignore[attr-defined]
            return True
        taken = await self.session.execute(
            update(ProcessedUpdateRow)
            .where(
                ProcessedUpdateRow.update_id == update_id,
                ProcessedUpdateRow.done_at.is_(None),
                ProcessedUpdateRow.claimed_at < now - stale,
            )
            .values(claimed_at=now)
        )
        return bool(taken.rowcount)  # type: ignore[attr-defined]

    async def claim_many(
        self, update_ids: Sequence[int], now: datetime, stale: timedelta
    ) -> list[bool]:
        """``claim`` for several updates in two statements at most; one result per id, in
        order (an id listed twice is claimed by its first occurrence only).

        On PostgreSQL the ids travel as one array parameter, so every batch size runs the
        same prepared statement (a list of n placeholders would be a new statement per n,
        crowding the vote's statements out of the connection's cache)."""
        if not update_ids:
            return []
        unique = list(dict.fromkeys(update_ids))
        table = cast(Table, ProcessedUpdateRow.__table__)
        insert = dialect_insert(self.session, table)
        if _arrays(self.session):
            ids = sa.bindparam("ids", type_=ARRAY(sa.BigInteger))
            rows = sa.select(sa.func.unnest(ids), sa.bindparam("now", type_=UTCDateTime()))
            stmt = insert.from_select(["update_id", "claimed_at"], rows)
            params: dict[str, Any] = {"ids": unique, "now": now}
        else:
            stmt = insert.values([{"update_id": i, "claimed_at": now} for i in unique])
            params = {}
        inserted = await self.session.scalars(
            stmt.on_conflict_do_nothing(index_elements=["update_id"]).returning(table.c.update_id),
            params,
        )
        mine = set(inserted)
        others = [i for i in unique if i not in mine]
        if others:  # delivered again: retake only a claim whose replica died
            taken = await self.session.scalars(
                update(ProcessedUpdateRow)
                .where(
                    ProcessedUpdateRow.update_id.in_(others),
                    ProcessedUpdateRow.done_at.is_(None),
                    ProcessedUpdateRow.claimed_at < now - stale,
                )
                .values(claimed_at=now)
                .returning(ProcessedUpdateRow.update_id)
            )
            mine |= set(taken)
        results = []
        for i in update_ids:
            results.append(i in mine)
            mine.discard(i)
        return results

    async def done_many(self, update_ids: Sequence[int], now: datetime) -> None:
        if not update_ids:
            return
        table = cast(Table, ProcessedUpdateRow.__table__)
        unique = sorted(set(update_ids))
        if _arrays(self.session):
            ids = sa.bindparam("ids", type_=ARRAY(sa.BigInteger))
            await self.session.execute(
                update(table).where(table.c.update_id == sa.any_(ids)).values(done_at=now),
                {"ids": unique},
            )
            return
        await self.session.execute(
            update(table).where(table.c.update_id.in_(unique)).values(done_at=now)
        )

    async def done(self, update_id: int, now: datetime) -> None:
        await self.session.execute(
            update(ProcessedUpdateRow)
            .where(ProcessedUpdateRow.update_id == update_id)
            .values(done_at=now)
        )

    async def release(self, update_id: int) -> None:
        """Forget a claim whose handling was cut short, so a retry handles the update."""
        await self.session.execute(
            delete(ProcessedUpdateRow).where(
                ProcessedUpdateRow.update_id == update_id, ProcessedUpdateRow.done_at.is_(None)
            )
        )

    async def prune(self, before: datetime) -> int:
        """Drop claims older than Telegram keeps retrying (a day is plenty)."""
        result = await self.session.execute(
            delete(ProcessedUpdateRow).where(
                or_(ProcessedUpdateRow.claimed_at < before, ProcessedUpdateRow.done_at < before)
            )
        )
        return int(result.rowcount or 0)  # type: ignore[attr-defined]
