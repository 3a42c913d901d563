"""Claims on webhook updates, so an update delivered twice is handled once.

A claim is taken before the update is handled and marked done after. A claim
that is not done within ``stale`` (its replica died mid-update) can be taken
over, so a crash does not lose the update Telegram retries.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.persistence.models import ProcessedUpdateRow
from app.persistence.repositories.base import dialect_insert


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
        order (an id listed twice is claimed by its first occurrence only)."""
        if not update_ids:
            return []
        unique = list(dict.fromkeys(update_ids))
        inserted = await self.session.scalars(
            dialect_insert(self.session, ProcessedUpdateRow)
            .values([{"update_id": i, "claimed_at": now} for i in unique])
            .on_conflict_do_nothing(index_elements=[ProcessedUpdateRow.update_id])
            .returning(ProcessedUpdateRow.update_id)
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
        if update_ids:
            await self.session.execute(
                update(ProcessedUpdateRow)
                .where(ProcessedUpdateRow.update_id.in_(list(set(update_ids))))
                .values(done_at=now)
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
